// Maxwell 2D (TM) on triangles: the exact cavity mode, energy behaviour of the upwind and the
// central flux (paper 003, equation (5) with alpha = 1 and 0), checkpoint state, options, and
// agreement of the same run across backends.
#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cross_backend.hpp"

#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/time_loop.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "dgk/physics/maxwell2d.hpp"
#include "dgk/physics/maxwell2d_case.hpp"
#include "dgk/physics/nodal_tri_solver.hpp"
#include "dgk_test_spaces.hpp"

// The solver is compiled in the library; this file only calls it.
#define DGK_EXTERN_MAXWELL2D(SPACE, REAL) \
  extern template class dgk::physics::NodalTriSolver<dgk::physics::Maxwell2D, REAL, SPACE>;
DGK_IF_SERIAL(DGK_EXTERN_MAXWELL2D, float)
DGK_IF_SERIAL(DGK_EXTERN_MAXWELL2D, double)
DGK_IF_OPENMP(DGK_EXTERN_MAXWELL2D, float)
DGK_IF_OPENMP(DGK_EXTERN_MAXWELL2D, double)
DGK_IF_CUDA(DGK_EXTERN_MAXWELL2D, float)
DGK_IF_CUDA(DGK_EXTERN_MAXWELL2D, double)
#undef DGK_EXTERN_MAXWELL2D

namespace {

using dgk::physics::Maxwell2D;
using dgk::physics::Maxwell2DCase;
using dgk::physics::Maxwell2DOptions;

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Tests whose subject is not the backend run on Serial: their problems are a few dozen elements,
// where host threads only add synchronization (and suffer most on a loaded machine).

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string sci(double v) {
  std::ostringstream s;
  s << std::scientific << std::setprecision(3) << v;
  return s.str();
}

// The cavity mode satisfies the TM equations (2a-c) of paper 003 with eps = mu = 1 and the PEC
// condition Ez = 0 on the walls (checked by centred differences).
TEST(Maxwell2D, CavityModeIsAnExactSolution) {
  dgk::physics::CavityMode2D mode;
  mode.mode = {2, 1};
  mode.lower = {-0.5, 0.0};
  mode.upper = {1.5, 0.7};
  const double h = 1e-5, tol = 1e-8;
  for (double x : {-0.37, 0.21, 1.4})
    for (double y : {0.05, 0.33, 0.61})
      for (double t : {0.0, 0.37, 1.1}) {
        auto d = [&](int axis, int field) {
          double p[3] = {x, y, t};
          p[axis] += h;
          const double a = mode(p[0], p[1], p[2])[static_cast<std::size_t>(field)];
          p[axis] -= 2 * h;
          return (a - mode(p[0], p[1], p[2])[static_cast<std::size_t>(field)]) / (2 * h);
        };
        EXPECT_NEAR(d(2, 0), -d(1, 2), tol);           // Hx_t = -Ez_y
        EXPECT_NEAR(d(2, 1), d(0, 2), tol);            // Hy_t = Ez_x
        EXPECT_NEAR(d(2, 2), d(0, 1) - d(1, 0), tol);  // Ez_t = Hy_x - Hx_y
      }
  for (double s : {0.0, 0.3, 0.9}) {
    EXPECT_NEAR(mode(-0.5, 0.7 * s, 0.2)[2], 0.0, 1e-15);
    EXPECT_NEAR(mode(1.5, 0.7 * s, 0.2)[2], 0.0, 1e-15);
    EXPECT_NEAR(mode(-0.5 + 2 * s, 0.0, 0.2)[2], 0.0, 1e-15);
    EXPECT_NEAR(mode(-0.5 + 2 * s, 0.7, 0.2)[2], 0.0, 1e-15);
  }
  EXPECT_NEAR(mode.omega(), std::hypot(M_PI, M_PI / 0.7), 1e-14);
}

// The fluxes at the edge level: equal states give no flux; the central flux is the part of the
// upwind flux that does not depend on alpha; the Ez flux of PEC is what makes Ez* = 0.
TEST(Maxwell2D, NumericalFluxOfPaper003) {
  Maxwell2D up, central;
  central.alpha = 0.0;
  const double n[2] = {0.6, -0.8}, mat[2] = {1.0, 1.0};
  const double qm[3] = {0.3, -0.7, 1.1}, qp[3] = {-0.2, 0.4, 0.5};
  double out[3], same[3];
  up.numerical_flux(n, qm, qm, mat, mat, same);
  for (double v : same) EXPECT_EQ(v, 0.0);
  // Paper 003, equation (5) with [q] = q- - q+ and the factor 1/2 of its listing 2.
  const double jHx = qm[0] - qp[0], jHy = qm[1] - qp[1], jEz = qm[2] - qp[2];
  const double ndH = n[0] * jHx + n[1] * jHy;
  up.numerical_flux(n, qm, qp, mat, mat, out);
  EXPECT_NEAR(out[0], 0.5 * (n[1] * jEz + (n[0] * ndH - jHx)), 1e-15);
  EXPECT_NEAR(out[1], 0.5 * (-n[0] * jEz + (n[1] * ndH - jHy)), 1e-15);
  EXPECT_NEAR(out[2], 0.5 * (n[1] * jHx - n[0] * jHy - jEz), 1e-15);
  central.numerical_flux(n, qm, qp, mat, mat, out);
  EXPECT_NEAR(out[0], 0.5 * n[1] * jEz, 1e-15);
  EXPECT_NEAR(out[1], -0.5 * n[0] * jEz, 1e-15);
  EXPECT_NEAR(out[2], 0.5 * (n[1] * jHx - n[0] * jHy), 1e-15);
  double ghost[3];
  up.boundary_state(Maxwell2D::PEC, n, qm, ghost);
  EXPECT_EQ(ghost[0], qm[0]);
  EXPECT_EQ(ghost[1], qm[1]);
  EXPECT_EQ(ghost[2], -qm[2]);
}

// Energy balance of one edge: with the volume term integrated by parts, each side contributes
//   Ez (nx Hy - ny Hx) + mu H . flux_H + eps Ez flux_E
// at every edge point (its own normal, its own state first). The central flux makes the two
// contributions cancel, across material jumps too (the impedance weighting makes H* and Ez*
// single-valued); the upwind flux makes their sum non-positive.
TEST(Maxwell2D, EdgeEnergyBalanceAcrossMaterialJumps) {
  auto side = [](const Maxwell2D& p, const double(&n)[2], const double(&qm)[3], const double(&qp)[3],
                 const double(&mm)[2], const double(&mp)[2]) {
    double f[3];
    p.numerical_flux(n, qm, qp, mm, mp, f);
    return qm[2] * (n[0] * qm[1] - n[1] * qm[0]) + mm[1] * (qm[0] * f[0] + qm[1] * f[1]) + mm[0] * qm[2] * f[2];
  };
  Maxwell2D central, upwind;
  central.alpha = 0.0;
  unsigned state = 12345;
  auto uniform = [&state] {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) / double(1u << 24);
  };
  for (int k = 0; k < 200; ++k) {
    const double angle = 2 * M_PI * uniform();
    const double n[2] = {std::cos(angle), std::sin(angle)}, m[2] = {-n[0], -n[1]};
    const double qm[3] = {uniform() - 0.5, uniform() - 0.5, uniform() - 0.5};
    const double qp[3] = {uniform() - 0.5, uniform() - 0.5, uniform() - 0.5};
    const double mm[2] = {0.5 + 3 * uniform(), 0.5 + 3 * uniform()}, mp[2] = {0.5 + 3 * uniform(), 0.5 + 3 * uniform()};
    const double c = side(central, n, qm, qp, mm, mp) + side(central, m, qp, qm, mp, mm);
    EXPECT_NEAR(c, 0.0, 64 * kEps) << "sample " << k;
    const double u = side(upwind, n, qm, qp, mm, mp) + side(upwind, m, qp, qm, mp, mm);
    EXPECT_LE(u, 64 * kEps) << "sample " << k;
  }
}

// Runs the case to its final time and returns the energy after every step.
std::vector<double> energies(Maxwell2DCase& cs) {
  auto& sim = cs.simulation();
  std::vector<double> e{sim.energy()};
  for (int s = 0; s < cs.steps(); ++s) {
    sim.step(cs.dt());
    e.push_back(sim.energy());
  }
  return e;
}

// The upwind flux is dissipative: the discrete energy never grows (up to rounding), and over
// one period it changes by no more than the discretization error allows.
TEST(Maxwell2D, UpwindEnergyDoesNotGrowAndIsConservedToDiscretizationError) {
  Maxwell2DOptions o;
  o.order = 3;
  o.mesh = "rect:4,jitter=0.2";
  o.backend = dgk::Backend::Serial;
  Maxwell2DCase cs(o);
  const auto e = energies(cs);
  const double round = 64 * kEps * e[0];
  for (std::size_t s = 1; s < e.size(); ++s) ASSERT_LE(e[s], e[s - 1] + round) << "energy grew at step " << s;
  const double err = cs.simulation().l2_error(*cs.exact());
  // The energy lost is the upwind dissipation, of the size of the squared jumps, bounded by the
  // error norm times the solution norm: |E_T - E_0| <= 2 ||e|| ||u|| + ||e||^2.
  EXPECT_LE(e.front() - e.back(), 2 * err * std::sqrt(e.front()) + err * err);
  EXPECT_GT(e.front() - e.back(), 0.0) << "the upwind flux should dissipate a little";
}

// Semi-discrete energy rate dE/dt = 2 sum_e J_e sum_c w_c q_c^T M rhs_c of the operator at the
// current fields, and the same sum taken in absolute values (the size of its rounding).
struct EnergyRate {
  double rate = 0, magnitude = 0;
};

template <class Space>
EnergyRate energy_rate(dgk::physics::NodalTriSolver<Maxwell2D, double, Space>& solver,
                       const dgk::mesh::TriMesh& mesh) {
  solver.evaluate_rhs();
  const auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver.fields());
  const auto rhs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver.rhs_view());
  const auto& ref = solver.reference();
  const Eigen::MatrixXd absm = ref.M.cwiseAbs();
  EnergyRate r;
  for (int e = 0; e < mesh.num_elements(); ++e) {
    for (int c = 0; c < 3; ++c) {
      Eigen::VectorXd a(ref.np), b(ref.np);
      for (int i = 0; i < ref.np; ++i) a(i) = q(e, c, i), b(i) = rhs(e, c, i);
      const double w = 2 * Maxwell2D::energy_weight(c, mesh.material[static_cast<std::size_t>(e)]) *
                       solver.geometry().J[static_cast<std::size_t>(e)];
      r.rate += w * a.dot(ref.M * b);
      r.magnitude += w * a.cwiseAbs().dot(absm * b.cwiseAbs());
    }
  }
  return r;
}

// The central flux (alpha = 0) conserves the semi-discrete energy exactly on PEC walls, also
// across material jumps: the rate vanishes to rounding, while the upwind flux's rate is
// negative by far more. Order 1..6, a jittered mesh, a field with jumps everywhere.
TEST(Maxwell2D, CentralFluxConservesTheSemiDiscreteEnergyToRounding) {
  dgk::mesh::TriMesh mesh = dgk::mesh::load_tri_mesh("rect:5,4,jitter=0.2,seed=9");
  for (int e = 0; e < mesh.num_elements(); e += 3) mesh.material[static_cast<std::size_t>(e)] = {2.5, 1.5};
  const std::vector<int> pec(mesh.boundary_names.size(), Maxwell2D::PEC);
  // Discontinuous (elementwise smooth, random offsets) initial state.
  const auto field = [](double x, double y, double, double, double* out) {
    out[0] = std::sin(3 * x + 1) * y;
    out[1] = std::cos(2 * y) + x * x;
    out[2] = std::exp(x - y);
  };
  for (int order = 1; order <= 6; ++order) {
    for (double alpha : {0.0, 1.0}) {
      Maxwell2D physics;
      physics.alpha = alpha;
      dgk::physics::NodalTriSolver<Maxwell2D, double, Kokkos::Serial> solver(Kokkos::Serial(), order, mesh, pec,
                                                                             physics);
      solver.set_fields(field, 0.0);
      // Make the trace discontinuous: scale each element's fields differently.
      auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver.fields());
      for (int e = 0; e < mesh.num_elements(); ++e)
        for (int c = 0; c < 3; ++c)
          for (int i = 0; i < static_cast<int>(q.extent(2)); ++i) q(e, c, i) *= 1.0 + 0.1 * ((e * 7 + c) % 5);
      Kokkos::deep_copy(solver.fields(), q);
      const EnergyRate r = energy_rate(solver, mesh);
      // Each term is a sum of np^2 products, each product formed through O(np) operations
      // (D, LIFT, the flux): rounding of eps np per term, times the absolute sum.
      const double tol = 4 * kEps * solver.reference().np * r.magnitude;
      if (alpha == 0.0) {
        EXPECT_LE(std::abs(r.rate), tol) << "order " << order << ": rate " << r.rate << ", magnitude " << r.magnitude;
      } else {
        EXPECT_LT(r.rate, -1e3 * tol) << "order " << order << ": the upwind flux should dissipate the jumps";
      }
    }
  }
}

// Fully discrete, the central flux on PEC loses energy only through LSERK4's own damping, a
// term of order (omega dt)^6 per step: halving dt cuts the loss by about 2^5 (over a fixed time),
// and it is far below the upwind flux's loss.
TEST(Maxwell2D, CentralFluxEnergyDriftIsTheTimeIntegratorsOnly) {
  Maxwell2DOptions o;
  o.order = 4;
  o.mesh = "rect:4,jitter=0.1";
  o.alpha = 0.0;
  o.backend = dgk::Backend::Serial;
  double drift[2];
  for (int k = 0; k < 2; ++k) {
    o.cfl = 0.5 / (1 << k);
    Maxwell2DCase cs(o);
    const auto e = energies(cs);
    drift[k] = std::abs(e.back() - e.front()) / e.front();
  }
  o.alpha = 1.0;
  o.cfl = 0.5;
  Maxwell2DCase up(o);
  const auto eu = energies(up);
  const double upwind = (eu.front() - eu.back()) / eu.front();
  RecordProperty("central_drift", sci(drift[0]));
  RecordProperty("central_drift_half_dt", sci(drift[1]));
  RecordProperty("upwind_loss", sci(upwind));
  EXPECT_LT(drift[0], 1e-3 * upwind) << drift[0] << " vs upwind " << upwind;
  EXPECT_LT(drift[1], drift[0] / 16 + 1e3 * kEps) << drift[0] << " -> " << drift[1];
}

// An unstable run (forced) is stopped by the time loop's finiteness check with the step,
// element, field and value.
TEST(Maxwell2D, NonFiniteSolutionIsReportedWithItsLocation) {
  Maxwell2DOptions o;
  o.order = 2;
  o.mesh = "rect:1";
  o.backend = dgk::Backend::Serial;
  o.cfl = 4 * dgk::physics::max_stable_cfl_2d(2);
  o.force = true;
  o.final_time = 1e4;
  Maxwell2DCase cs(o);
  dgk::TimeLoopOptions loop;
  loop.check_every = 7;
  try {
    dgk::advance(cs.simulation(), cs.steps(), cs.dt(), loop);
    FAIL() << "the blow-up was not detected";
  } catch (const dgk::Error& e) {
    const std::string m = e.what();
    EXPECT_TRUE(contains(m, "not finite after step")) << m;
    EXPECT_TRUE(contains(m, "element ")) << m;
  }
  const auto bad = cs.simulation().find_non_finite();
  ASSERT_TRUE(bad.has_value());
  EXPECT_LT(bad->element, cs.simulation().num_elements());
  EXPECT_LT(bad->field, 3);
  EXPECT_FALSE(std::isfinite(bad->value));
}

TEST(Maxwell2D, RejectsBadOptions) {
  auto message = [](const Maxwell2DOptions& o) -> std::string {
    try {
      Maxwell2DCase cs(o);
    } catch (const dgk::Error& e) {
      return e.what();
    }
    return "accepted";
  };
  Maxwell2DOptions base;
  base.mesh = "rect:1";
  base.order = 2;
  Maxwell2DOptions o = base;
  o.order = 12;
  EXPECT_TRUE(contains(message(o), "order 12")) << message(o);
  o = base;
  o.bc = {"nowhere=pec"};
  EXPECT_TRUE(contains(message(o), "no boundary named 'nowhere'")) << message(o);
  o.bc = {"xmin=glue"};
  EXPECT_TRUE(contains(message(o), "unknown condition 'glue'")) << message(o);
  o.bc = {"xmin"};
  EXPECT_TRUE(contains(message(o), "expected NAME=")) << message(o);
  o = base;
  o.initial = "pulse:0.5,0.5";
  EXPECT_TRUE(contains(message(o), "pulse:x,y,width")) << message(o);
  o.initial = "cavity:0,1";
  EXPECT_TRUE(contains(message(o), "positive integers")) << message(o);
  o.initial = "cavity:1,2,3";
  EXPECT_TRUE(contains(message(o), "cavity:m,n")) << message(o);
  o.initial = "wave";
  EXPECT_TRUE(contains(message(o), "'wave'")) << message(o);
  o = base;
  o.precision = "half";
  EXPECT_TRUE(contains(message(o), "'half'")) << message(o);
  o = base;
  o.alpha = 1.5;
  EXPECT_TRUE(contains(message(o), "alpha 1.5")) << message(o);
  o.alpha = std::nan("");
  EXPECT_TRUE(contains(message(o), "alpha")) << message(o);
  o = base;
  o.cfl = -1;
  EXPECT_TRUE(contains(message(o), "--cfl")) << message(o);
  o.cfl = 1.5 * dgk::physics::max_stable_cfl_2d(2);
  EXPECT_TRUE(contains(message(o), "stability limit")) << message(o);
  o = base;
  o.final_time = -1.0;
  EXPECT_TRUE(contains(message(o), "--final-time")) << message(o);
  o = base;
  o.mesh = "rect:2,jitter=0.9";
  EXPECT_TRUE(contains(message(o), "jitter 0.9")) << message(o);
  o.mesh = "box:2";
  EXPECT_TRUE(contains(message(o), "'box:2'")) << message(o);
}

TEST(Maxwell2D, SummariesAndExactSolutionOnlyWhereItIsExact) {
  Maxwell2DOptions o;
  o.order = 2;
  o.mesh = "rect:2,3";
  o.backend = dgk::Backend::Serial;
  o.bc = {"ymax=pec"};
  Maxwell2DCase cs(o);
  EXPECT_EQ(cs.bc_summary(), "xmin=pec (default), xmax=pec (default), ymin=pec (default), ymax=pec");
  EXPECT_TRUE(contains(cs.initial_summary(), "cavity mode (1,1)")) << cs.initial_summary();
  EXPECT_TRUE(cs.exact().has_value());
  EXPECT_NEAR(cs.final_time(), std::sqrt(2.0), 1e-14);  // one period of the (1,1) mode
  EXPECT_NEAR(cs.dt() * cs.steps(), cs.final_time(), 1e-12);
  EXPECT_LE(cs.dt(), cs.simulation().max_dt(o.cfl) * (1 + 1e-12));
  EXPECT_EQ(cs.simulation().num_dofs(), 12LL * 6 * 3);
  EXPECT_EQ(cs.simulation().field_name(2), "Ez");
  EXPECT_EQ(cs.mesh().num_elements(), 12);
  o.bc = {"xmax=absorbing"};
  EXPECT_FALSE(Maxwell2DCase(o).exact().has_value());
  o.bc = {};
  dgk::mesh::TriMesh mesh = dgk::mesh::load_tri_mesh("rect:2");
  mesh.material[0] = {2.0, 1.0};
  EXPECT_FALSE(Maxwell2DCase(o, mesh).exact().has_value());
}

TEST(Maxwell2D, HostFieldsAreElementFieldNode) {
  Maxwell2DOptions o;
  o.order = 3;
  o.mesh = "rect:2";
  o.backend = dgk::Backend::Serial;
  Maxwell2DCase cs(o);  // cavity mode at t = 0: H = 0, Ez = sin sin > 0 inside
  const auto f = cs.simulation().host_fields();
  const int np = dgk::basis::tri_np(3);
  ASSERT_EQ(f.size(), static_cast<std::size_t>(8 * 3 * np));
  for (int e = 0; e < 8; ++e) {
    double h = 0, ez = 0;
    for (int i = 0; i < np; ++i) {
      h += std::abs(f[static_cast<std::size_t>((e * 3 + 0) * np + i)]) +
           std::abs(f[static_cast<std::size_t>((e * 3 + 1) * np + i)]);
      ez += f[static_cast<std::size_t>((e * 3 + 2) * np + i)];
    }
    EXPECT_EQ(h, 0.0) << "element " << e;
    EXPECT_GT(ez, 0.0) << "element " << e;
  }
}

TEST(Maxwell2D, PulseWithAbsorbingWallsLosesEnergy) {
  Maxwell2DOptions o;
  o.order = 3;
  o.mesh = "rect:6";
  o.backend = dgk::Backend::Serial;
  o.initial = "pulse:0.5,0.5,0.1";
  o.final_time = 1.5;
  for (const char* side : {"xmin", "xmax", "ymin", "ymax"}) o.bc.push_back(std::string(side) + "=absorbing");
  Maxwell2DCase cs(o);
  EXPECT_FALSE(cs.exact().has_value());
  auto& sim = cs.simulation();
  const double e0 = sim.energy();
  dgk::advance(sim, cs.steps(), cs.dt());
  // A 2D pulse leaves a wake, but most of it has left through the walls after 1.5 time units.
  EXPECT_LT(sim.energy(), 0.2 * e0);
}

// A restart from save_state continues bitwise like the uninterrupted run; mismatched state is
// refused with the array named.
TEST(Maxwell2D, SavedStateRestartsBitwise) {
  for (const char* precision : {"double", "float"}) {
    Maxwell2DOptions o;
    o.order = 3;
    o.mesh = "rect:3,jitter=0.1";
    o.backend = dgk::Backend::Serial;
    o.precision = precision;
    Maxwell2DCase a(o), b(o);
    dgk::advance(a.simulation(), 5, a.dt());
    const auto state = a.simulation().save_state();
    ASSERT_EQ(state.size(), 2u);
    EXPECT_EQ(state[0].value_bytes, std::string(precision) == "float" ? 4 : 8);
    const double t = a.simulation().time();
    dgk::advance(a.simulation(), 5, a.dt());
    b.simulation().load_state(state, t);
    EXPECT_EQ(b.simulation().time(), t);
    dgk::advance(b.simulation(), 5, b.dt());
    const auto fa = a.simulation().host_fields(), fb = b.simulation().host_fields();
    ASSERT_EQ(fa.size(), fb.size());
    EXPECT_EQ(0, std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(double))) << precision;

    auto wrong = state;
    wrong[1].dims[0] += 1;
    try {
      b.simulation().load_state(wrong, t);
      FAIL() << "mismatched state accepted";
    } catch (const dgk::Error& e) {
      EXPECT_TRUE(contains(e.what(), "rk_residual")) << e.what();
    }
    wrong = state;
    wrong.pop_back();
    EXPECT_THROW(b.simulation().load_state(wrong, t), dgk::Error);
  }
}

TEST(Maxwell2D, CostsAndStageTimes) {
  Maxwell2DOptions o;
  o.order = 4;
  o.mesh = "rect:4";
  o.backend = dgk::Backend::Serial;
  Maxwell2DCase cs(o);
  auto& sim = cs.simulation();
  const auto c = sim.costs();
  ASSERT_EQ(c.size(), 4u);
  const char* names[4] = {"volume", "surface", "lift", "update"};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(c[static_cast<std::size_t>(k)].name, names[k]);
    EXPECT_GT(c[static_cast<std::size_t>(k)].flops, 0.0);
    EXPECT_GT(c[static_cast<std::size_t>(k)].bytes, 0.0);
  }
  const auto before = sim.host_fields();
  const auto t = sim.time_stages(3);
  ASSERT_EQ(t.seconds.size(), 4u);
  for (double s : t.seconds) EXPECT_GE(s, 0.0);
  // Timing leaves the fields as they were (the update is timed with a = 1, b = 0).
  EXPECT_EQ(before, sim.host_fields());
  EXPECT_EQ(sim.stages_per_step(), 5);
}

// Same run on every backend, compared with Serial (tolerance derived in cross_backend.hpp).
template <class Space>
void check_against_serial(const std::string& precision) {
  dgk::physics::CaseOptions o;
  o.name = "maxwell2d";
  o.order = 4;
  o.mesh = "rect:3,jitter=0.2";
  o.final_time = 0.1;
  o.precision = precision;
  dgk::testing_support::expect_agrees_with_serial<Space>(o);
}

// Determinism on every backend (cross_backend.hpp).
template <class Space>
void check_bitwise_repeatable() {
  dgk::physics::CaseOptions o;
  o.name = "maxwell2d";
  o.order = 4;
  o.mesh = "rect:3,jitter=0.2";
  o.initial = "pulse:0.4,0.6,0.2";
  o.final_time = 0.05;
  dgk::testing_support::expect_bitwise_repeatable<Space>(o);
}

template <class Space>
class Maxwell2DCrossBackend : public ::testing::Test {};
TYPED_TEST_SUITE(Maxwell2DCrossBackend, dgk::Testing::ExecutionSpaces, dgk::Testing::SpaceNames);

TYPED_TEST(Maxwell2DCrossBackend, DoubleAgreesWithSerial) {
  check_against_serial<TypeParam>("double");
}
TYPED_TEST(Maxwell2DCrossBackend, FloatAgreesWithSerial) {
  check_against_serial<TypeParam>("float");
}
TYPED_TEST(Maxwell2DCrossBackend, BitwiseRepeatable) {
  check_bitwise_repeatable<TypeParam>();
}

}  // namespace
