// Acoustic waves on tetrahedra (paper 002): the exact solution, energy, boundary conditions,
// bad options, agreement of the kernel families and of the backends.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cross_backend.hpp"

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/core/error.hpp"
#include "dgk/physics/acoustic3d.hpp"
#include "dgk/physics/tet_case.hpp"
#include "dgk_test_spaces.hpp"
#include "face_sample.hpp"

namespace {

using dgk::physics::CaseOptions;
using dgk::physics::TetCase;

CaseOptions acoustic(int order, const std::string& mesh) {
  CaseOptions o;
  o.name = "acoustic3d";
  o.order = order;
  o.mesh = mesh;
  return o;
}

// The standing wave solves (1/kappa) p_t + div u = 0, rho u_t + grad p = 0 (rho = kappa = 1) and
// p vanishes on the faces of its box (central differences, error O(h^2)).
TEST(Acoustic3D, StandingWaveSolvesTheEquations) {
  dgk::physics::AcousticStandingWave w;
  w.lower = {0.0, -1.0, 0.5};
  w.upper = {1.0, 1.0, 1.5};
  const double h = 1e-4;
  for (const auto& x : {std::array<double, 4>{0.3, 0.2, 0.7, 0.1}, std::array<double, 4>{0.9, -0.6, 1.2, 0.77}}) {
    auto f = [&](double dx, double dy, double dz, double dt) { return w(x[0] + dx, x[1] + dy, x[2] + dz, x[3] + dt); };
    auto d = [&](int c, int dir) {
      double e[4] = {0, 0, 0, 0};
      e[dir] = h;
      return (f(e[0], e[1], e[2], e[3])[c] - f(-e[0], -e[1], -e[2], -e[3])[c]) / (2 * h);
    };
    EXPECT_NEAR(d(0, 3) + d(1, 0) + d(2, 1) + d(3, 2), 0.0, 1e-6);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(d(k + 1, 3) + d(0, k), 0.0, 1e-6);
  }
  EXPECT_NEAR(w(0.0, 0.3, 0.9, 0.4)[0], 0.0, 1e-15);
  EXPECT_NEAR(w(0.4, 1.0, 0.9, 0.4)[0], 0.0, 1e-15);
  EXPECT_NEAR(w(0.4, 0.3, 1.5, 0.4)[0], 0.0, 1e-15);
  dgk::physics::AcousticStandingWave unit;
  EXPECT_NEAR(unit.omega(), std::sqrt(3.0) * M_PI, 1e-14);  // paper 002's cos(sqrt(3) pi t)
}

// One period at N = 4 on a coarse mesh: small error, energy not growing and lost only to the
// upwind dissipation (a fraction of the error).
// The flux a face node computes from its face's coefficients (Fscale folded in) is paper 002's
// upwind flux written out: p: kappa- (tau_p [[p]] - n.[[u]]) / 2, u: n (tau_u n.[[u]] - [[p]]) /
// (2 rho-), tau_p = 1 / {{rho c}}, tau_u = {{rho c}}, rho c = sqrt(rho kappa), times Fscale; for
// random unit normals, materials on both sides in [0.5, 2], states and scales.
TEST(Acoustic3D, FluxFromFaceCoefficientsIsTheUpwindFlux) {
  std::mt19937 gen(11);
  for (int trial = 0; trial < 200; ++trial) {
    const dgk::Testing::FaceSample<dgk::physics::Acoustic3D> x(gen);
    const double avg = 0.5 * (std::sqrt(x.mm[0] * x.mm[1]) + std::sqrt(x.mp[0] * x.mp[1]));
    const double dp = x.qp[0] - x.qm[0];
    double dun = 0;
    for (int d = 0; d < 3; ++d) dun += x.n[d] * (x.qp[d + 1] - x.qm[d + 1]);
    EXPECT_NEAR(x.out[0], x.fscale * x.mm[1] * (dp / avg - dun) / 2, 1e-13) << "trial " << trial << ", p";
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(x.out[d + 1], x.fscale * x.n[d] * (avg * dun - dp) / (2 * x.mm[0]), 1e-13)
          << "trial " << trial << ", u component " << d;
  }
}

TEST(Acoustic3D, StandingWaveConvergesAndEnergyDecays) {
  TetCase cs(acoustic(4, "box:2"));
  ASSERT_TRUE(cs.exact());
  auto& sim = cs.simulation();
  EXPECT_EQ(sim.num_fields(), 4);
  EXPECT_EQ(sim.field_name(0), "p");
  EXPECT_EQ(sim.material_names()[0], "rho");
  const double e0 = sim.energy();
  double prev = e0;
  for (int s = 1; s <= cs.steps(); ++s) {
    sim.step(cs.dt());
    if (s % 8 != 0 && s != cs.steps()) continue;
    const double e = sim.energy();
    EXPECT_LE(e, prev * (1 + 1e-13)) << "step " << s;
    prev = e;
  }
  const double err = sim.l2_error(*cs.exact());
  EXPECT_LT(err, 5e-3);
  EXPECT_GT(prev, e0 * (1 - 1e-2));
}

// Rigid walls reflect: with walls everywhere no energy leaves except by upwind dissipation,
// and the pulse has no exact solution.
TEST(Acoustic3D, PulseBetweenRigidWalls) {
  CaseOptions o = acoustic(3, "box:2");
  o.initial = "pulse:0.5,0.5,0.5,0.25";
  o.bc = {"xmin=wall", "xmax=wall", "ymin=wall", "ymax=wall", "zmin=wall", "zmax=wall"};
  o.final_time = 0.5;
  TetCase cs(o);
  EXPECT_FALSE(cs.exact());
  EXPECT_NE(cs.bc_summary().find("xmin=wall"), std::string::npos);
  auto& sim = cs.simulation();
  const double e0 = sim.energy();
  for (int s = 0; s < cs.steps(); ++s) sim.step(cs.dt());
  EXPECT_LE(sim.energy(), e0);
  EXPECT_GT(sim.energy(), 0.5 * e0);
}

TEST(Acoustic3D, RejectsBadOptions) {
  auto message = [](CaseOptions o) {
    try {
      TetCase cs(o);
    } catch (const dgk::Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CaseOptions o = acoustic(3, "box:1");
  o.bc = {"xmin=pec"};
  EXPECT_NE(message(o).find("unknown condition 'pec' for acoustic3d (expected dirichlet or wall)"), std::string::npos)
      << message(o);
  o = acoustic(3, "box:1");
  o.initial = "cavity:1,1,1";
  EXPECT_NE(message(o).find("expected standing or pulse"), std::string::npos) << message(o);
  o = acoustic(3, "box:1");
  o.basis = "modal";
  EXPECT_NE(message(o).find("--basis 'modal'"), std::string::npos) << message(o);
  o = acoustic(3, "box:1");
  o.kernel = "optimal";
  EXPECT_NE(message(o).find("belongs to the bernstein basis"), std::string::npos) << message(o);
  o = acoustic(3, "box:1");
  o.name = "acoustic2d";
  EXPECT_NE(message(o).find("unknown tetrahedral case"), std::string::npos) << message(o);
}

// The nodal and Bernstein bases span the same space and every kernel family computes the same
// operator: the four families end the same run at the same fields to rounding. Each step's
// rounding differences are bounded by the conditioning of the change of basis (cond(VB) of the
// Bernstein Vandermonde matrix, below 20 at N = 4) times the longest sum (np terms) times eps,
// and do not grow (the scheme is stable). Their errors against the exact solution agree.
TEST(Acoustic3D, KernelFamiliesAndBasesAgree) {
  CaseOptions o = acoustic(4, "box:2");
  o.final_time = 0.25;
  o.backend = dgk::Backend::Serial;
  TetCase ref(o);
  for (int s = 0; s < ref.steps(); ++s) ref.simulation().step(ref.dt());
  const auto b = ref.simulation().host_fields();
  const double err_ref = ref.simulation().l2_error(*ref.exact());
  double scale = 0;
  for (double v : b) scale = std::max(scale, std::abs(v));
  const int np = dgk::basis::tet_np(o.order);
  const double tol = ref.steps() * 20.0 * np * std::numeric_limits<double>::epsilon() * scale;
  for (const auto& [basis, kernel] : std::vector<std::pair<std::string, std::string>>{
           {"nodal", "blocked"}, {"nodal", "blocked:3"}, {"bernstein", "sparse"}, {"bernstein", "optimal"}}) {
    o.basis = basis;
    o.kernel = kernel;
    TetCase cs(o);
    ASSERT_EQ(cs.steps(), ref.steps());
    for (int s = 0; s < cs.steps(); ++s) cs.simulation().step(cs.dt());
    const auto a = cs.simulation().host_fields();
    double diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) diff = std::max(diff, std::abs(a[i] - b[i]));
    EXPECT_LE(diff, tol) << basis << " " << kernel << ": max difference " << diff;
    EXPECT_NEAR(cs.simulation().l2_error(*cs.exact()), err_ref, 1e-6 * err_ref) << basis << " " << kernel;
  }
}

// Same run on every backend, compared with Serial (tolerance derived in cross_backend.hpp), in
// both bases.
template <class Space>
void check_against_serial(const std::string& precision) {
  for (const char* basis : {"nodal", "bernstein"}) {
    CaseOptions o = acoustic(3, "box:2");
    o.final_time = 0.2;
    o.precision = precision;
    o.basis = basis;
    dgk::testing_support::expect_agrees_with_serial<Space>(o);
  }
}

template <class Space>
class Acoustic3DCrossBackend : public ::testing::Test {};
TYPED_TEST_SUITE(Acoustic3DCrossBackend, dgk::Testing::ExecutionSpaces, dgk::Testing::SpaceNames);

TYPED_TEST(Acoustic3DCrossBackend, DoubleAgreesWithSerial) {
  check_against_serial<TypeParam>("double");
}
TYPED_TEST(Acoustic3DCrossBackend, FloatAgreesWithSerial) {
  check_against_serial<TypeParam>("float");
}

}  // namespace
