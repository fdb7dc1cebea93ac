// Maxwell 3D on tetrahedra: convergence on the PEC cavity, energy behaviour of the upwind flux,
// and agreement of the same run across backends.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "cross_backend.hpp"

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/time_loop.hpp"
#include "dgk/mesh/partition.hpp"
#include "dgk/mesh/reorder.hpp"
#include "dgk/physics/maxwell3d.hpp"
#include "dgk/physics/tet_case.hpp"
#include "dgk_test_spaces.hpp"
#include "face_sample.hpp"

namespace {

using dgk::physics::TetCase;
using dgk::physics::CaseOptions;

// The volume term in halves (each half of the fields from the other half's inputs, scaled by its
// factor, at one reference direction) is the volume term of the gradients g (x) u, field by field,
// to the rounding of a few products (relative to the largest term).
TEST(Maxwell3D, VolumeInHalvesIsTheVolumeTerm) {
  using M = dgk::physics::Maxwell3D;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uni(-2.0, 2.0), pos(0.5, 3.0);
  for (int trial = 0; trial < 100; ++trial) {
    double g[3], u[6], grad[3][6], out[6];
    const double mat[2] = {pos(rng), pos(rng)};
    for (double& x : g) x = uni(rng);
    for (double& x : u) x = uni(rng);
    for (int x = 0; x < 3; ++x)
      for (int f = 0; f < 6; ++f) grad[x][f] = g[x] * u[f];
    M::volume(grad, mat, out);
    double scale = 0;
    for (int x = 0; x < 3; ++x)
      for (int f = 0; f < 6; ++f) scale = std::max(scale, std::abs(grad[x][f]) / std::min(mat[0], mat[1]));
    bool seen[6] = {};
    for (int h = 0; h < 2; ++h) {
      double v[3], half[3];
      for (int j = 0; j < 3; ++j) v[j] = M::volume_half_factor(h, mat) * u[M::volume_half_input(h, j)];
      M::volume_half(g, v, half);
      for (int j = 0; j < 3; ++j) {
        const int f = M::volume_half_field(h, j);
        ASSERT_TRUE(f >= 0 && f < 6 && !seen[f]) << "half " << h << " field " << f;
        seen[f] = true;
        EXPECT_NEAR(half[j], out[f], 8 * std::numeric_limits<double>::epsilon() * scale)
            << "trial " << trial << ", half " << h << ", field " << f;
      }
    }
  }
}

// The exact cavity mode satisfies the PDE and the PEC condition: the (1,1,1) mode's E is
// tangentially zero on the walls and its fields are divergence free (checked by differences).
TEST(Maxwell3D, CavityModeIsAnExactSolution) {
  dgk::physics::CavityMode mode;
  mode.mode = {1, 2, 1};
  mode.upper = {1.0, 2.0, 0.5};
  const double h = 1e-5, tol = 1e-8;
  for (double x : {0.13, 0.52, 0.91})
    for (double y : {0.2, 1.3})
      for (double z : {0.05, 0.33})
        for (double t : {0.0, 0.37}) {
          auto d = [&](int axis, int field) {
            double p[4] = {x, y, z, t};
            p[axis] += h;
            const double a = mode(p[0], p[1], p[2], p[3])[field];
            p[axis] -= 2 * h;
            return (a - mode(p[0], p[1], p[2], p[3])[field]) / (2 * h);
          };
          // E_t = curl H, H_t = -curl E
          EXPECT_NEAR(d(3, 0), d(1, 5) - d(2, 4), tol);
          EXPECT_NEAR(d(3, 1), d(2, 3) - d(0, 5), tol);
          EXPECT_NEAR(d(3, 2), d(0, 4) - d(1, 3), tol);
          EXPECT_NEAR(d(3, 3), -(d(1, 2) - d(2, 1)), tol);
          EXPECT_NEAR(d(3, 4), -(d(2, 0) - d(0, 2)), tol);
          EXPECT_NEAR(d(3, 5), -(d(0, 1) - d(1, 0)), tol);
          EXPECT_NEAR(d(0, 0) + d(1, 1) + d(2, 2), 0.0, tol);
        }
  // Tangential E vanishes on the wall x = 0.
  EXPECT_NEAR(mode(0.0, 0.7, 0.2, 0.1)[1], 0.0, 1e-15);
  EXPECT_NEAR(mode(0.0, 0.7, 0.2, 0.1)[2], 0.0, 1e-15);
}

// The upwind flux is dissipative: the discrete energy never grows (up to rounding), and over
// one period it changes by no more than the discretization error allows.
// The flux a face node computes from its face's coefficients (Fscale folded in) is the upwind
// flux written out: E: (Z+ n x [H] - n x (n x [E])) / (eps- (Z- + Z+)), H: (-Y+ n x [E] -
// n x (n x [H])) / (mu- (Y- + Y+)), Z = sqrt(mu / eps), Y = 1 / Z, times Fscale; for random unit
// normals, materials on both sides in [0.5, 2], states and scales. The values are O(10), so a
// few units in the last place of each term bound the difference.
TEST(Maxwell3D, FluxFromFaceCoefficientsIsTheUpwindFlux) {
  std::mt19937 gen(7);
  auto cross = [](const double* a, const double* b, double* c) {
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
  };
  for (int trial = 0; trial < 200; ++trial) {
    const dgk::Testing::FaceSample<dgk::physics::Maxwell3D> x(gen);
    const double zm = std::sqrt(x.mm[1] / x.mm[0]), zp = std::sqrt(x.mp[1] / x.mp[0]);
    const double dE[3] = {x.qp[0] - x.qm[0], x.qp[1] - x.qm[1], x.qp[2] - x.qm[2]};
    const double dH[3] = {x.qp[3] - x.qm[3], x.qp[4] - x.qm[4], x.qp[5] - x.qm[5]};
    double nxE[3], nxH[3], nxnxE[3], nxnxH[3];
    cross(x.n, dE, nxE);
    cross(x.n, dH, nxH);
    cross(x.n, nxE, nxnxE);
    cross(x.n, nxH, nxnxH);
    for (int d = 0; d < 3; ++d) {
      const double e = x.fscale * (zp * nxH[d] - nxnxE[d]) / (x.mm[0] * (zm + zp));
      const double h = x.fscale * (-nxE[d] / zp - nxnxH[d]) / (x.mm[1] * (1.0 / zm + 1.0 / zp));
      EXPECT_NEAR(x.out[d], e, 1e-13) << "trial " << trial << ", E component " << d;
      EXPECT_NEAR(x.out[d + 3], h, 1e-13) << "trial " << trial << ", H component " << d;
    }
  }
}

TEST(Maxwell3D, EnergyDoesNotGrowAndIsConservedToDiscretizationError) {
  CaseOptions o;
  o.order = 3;
  o.mesh = "box:3";
  TetCase cs(o);
  auto& sim = cs.simulation();
  const double e0 = sim.energy();
  double prev = e0;
  const double round = 64 * std::numeric_limits<double>::epsilon() * e0;
  for (int s = 0; s < cs.steps(); ++s) {
    sim.step(cs.dt());
    const double e = sim.energy();
    ASSERT_LE(e, prev + round) << "energy grew at step " << s + 1;
    prev = e;
  }
  const double err = sim.l2_error(*cs.exact());
  // The energy lost is the upwind dissipation, of the size of the squared jumps, bounded by the
  // error norm times the solution norm: |E_T - E_0| <= 2 ||e|| ||u|| + ||e||^2.
  const double bound = 2 * err * std::sqrt(e0) + err * err;
  EXPECT_LE(e0 - prev, bound);
  EXPECT_GT(e0 - prev, 0.0) << "upwind flux should dissipate a little";
}

// An unstable run (forced) is stopped by the time loop's finiteness check with the step,
// element, field and value.
TEST(Maxwell3D, NonFiniteSolutionIsReportedWithItsLocation) {
  CaseOptions o;
  o.order = 2;
  o.mesh = "box:1";
  o.cfl = 4 * dgk::physics::max_stable_cfl(2);
  o.force = true;
  o.final_time = 1e4;
  TetCase cs(o);
  dgk::TimeLoopOptions loop;
  loop.check_every = 7;
  try {
    dgk::advance(cs.simulation(), cs.steps(), cs.dt(), loop);
    FAIL() << "the blow-up was not detected";
  } catch (const dgk::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("not finite after step"), std::string::npos) << m;
    EXPECT_NE(m.find("element "), std::string::npos) << m;
    EXPECT_NE(m.find("field "), std::string::npos) << m;
  }
  const auto bad = cs.simulation().find_non_finite();
  ASSERT_TRUE(bad.has_value());
  EXPECT_LT(bad->element, cs.simulation().num_elements());
  EXPECT_FALSE(std::isfinite(bad->value));
}

TEST(Maxwell3D, ReorderedMeshGivesTheSameFieldsBitwise) {
  // Each element's arithmetic does not depend on where it sits in memory: a renumbered mesh
  // gives bitwise the same fields, element for element.
  dgk::physics::CaseOptions o;
  o.order = 3;
  o.mesh = "box:3";
  o.final_time = 0.1;
  o.backend = dgk::Backend::Serial;
  auto plain = dgk::physics::make_case(o);
  o.reorder = "random";
  auto shuffled = dgk::physics::make_case(o);
  ASSERT_EQ(plain->steps(), shuffled->steps());
  ASSERT_EQ(plain->dt(), shuffled->dt());
  for (int i = 0; i < plain->steps(); ++i) {
    plain->simulation().step(plain->dt());
    shuffled->simulation().step(shuffled->dt());
  }
  const auto box = dgk::mesh::load_tet_mesh("box:3");
  const auto order =
      dgk::mesh::element_order(dgk::mesh::ElementOrder::Random, dgk::mesh::centroids(box));  // as --reorder random
  const auto a = plain->simulation().host_fields(), b = shuffled->simulation().host_fields();
  const std::size_t row = a.size() / order.size();
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t k = 0; k < row; ++k)
      ASSERT_EQ(b[i * row + k], a[static_cast<std::size_t>(order[i]) * row + k]) << "element " << i;
}

TEST(Maxwell3D, RejectsBadOptions) {
  CaseOptions o;
  o.mesh = "box:1";
  o.order = 12;
  EXPECT_THROW(TetCase{o}, dgk::Error);
  o.order = 2;
  o.bc = {"nowhere=pec"};
  try {
    TetCase cs(o);
    FAIL() << "unknown boundary accepted";
  } catch (const dgk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no boundary named 'nowhere'"), std::string::npos) << e.what();
  }
  o.bc = {"xmin=glue"};
  EXPECT_THROW(TetCase{o}, dgk::Error);
  o.bc = {};
  o.initial = "pulse:0.5,0.5";
  EXPECT_THROW(TetCase{o}, dgk::Error);
  o.initial = "cavity";
  o.precision = "half";
  EXPECT_THROW(TetCase{o}, dgk::Error);
}

TEST(Maxwell3D, PulseWithAbsorbingWallsLosesEnergyAndHasNoExactSolution) {
  CaseOptions o;
  o.order = 3;
  o.mesh = "box:4";
  o.initial = "pulse:0.5,0.5,0.5,0.2";
  o.final_time = 1.5;
  for (const char* side : {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"}) o.bc.push_back(std::string(side) + "=absorbing");
  TetCase cs(o);
  EXPECT_FALSE(cs.exact().has_value());
  auto& sim = cs.simulation();
  const double e0 = sim.energy();
  for (int s = 0; s < cs.steps(); ++s) sim.step(cs.dt());
  // Most of the pulse has left through the absorbing walls after 1.5 time units.
  EXPECT_LT(sim.energy(), 0.2 * e0);
}

// Same run on every backend, compared with Serial (tolerance derived in cross_backend.hpp).
template <class Space>
void check_against_serial(const std::string& precision) {
  CaseOptions o;
  o.order = 3;
  o.mesh = "box:2";
  o.final_time = 0.2;
  o.precision = precision;
  dgk::testing_support::expect_agrees_with_serial<Space>(o);
}

// Determinism on every backend (cross_backend.hpp).
template <class Space>
void check_bitwise_repeatable() {
  CaseOptions o;
  o.order = 4;
  o.mesh = "box:2";
  o.initial = "pulse:0.4,0.5,0.6,0.2";
  o.final_time = 0.3;
  dgk::testing_support::expect_bitwise_repeatable<Space>(o);
}

template <class Space>
class Maxwell3DCrossBackend : public ::testing::Test {};
TYPED_TEST_SUITE(Maxwell3DCrossBackend, dgk::Testing::ExecutionSpaces, dgk::Testing::SpaceNames);

TYPED_TEST(Maxwell3DCrossBackend, DoubleAgreesWithSerial) { check_against_serial<TypeParam>("double"); }
TYPED_TEST(Maxwell3DCrossBackend, FloatAgreesWithSerial) { check_against_serial<TypeParam>("float"); }
TYPED_TEST(Maxwell3DCrossBackend, BitwiseRepeatable) { check_bitwise_repeatable<TypeParam>(); }

}  // namespace
