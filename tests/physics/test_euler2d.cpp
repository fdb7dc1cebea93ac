// Compressible Euler on triangles, modal DG (paper 004): the numerical fluxes, free-stream
// preservation, conservation on a periodic domain, orders of convergence on the isentropic
// vortex, the supersonic vortex with curved walls, the two surface kernels, the Barth-Jespersen
// limiter and Sod's shock tube, the double Mach reflection's start, options, and agreement
// across backends.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cross_backend.hpp"

#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/time_loop.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "dgk/physics/case.hpp"
#include "dgk/physics/euler2d.hpp"
#include "dgk/physics/euler2d_case.hpp"
#include "dgk/physics/modal_tri_solver.hpp"
#include "dgk_test_spaces.hpp"

#define DGK_EXTERN_EULER2D(SPACE, REAL) \
  extern template class dgk::physics::ModalTriSolver<dgk::physics::Euler2D, REAL, SPACE>;
DGK_IF_SERIAL(DGK_EXTERN_EULER2D, float)
DGK_IF_SERIAL(DGK_EXTERN_EULER2D, double)
DGK_IF_OPENMP(DGK_EXTERN_EULER2D, float)
DGK_IF_OPENMP(DGK_EXTERN_EULER2D, double)
DGK_IF_CUDA(DGK_EXTERN_EULER2D, float)
DGK_IF_CUDA(DGK_EXTERN_EULER2D, double)
#undef DGK_EXTERN_EULER2D

namespace {

using dgk::physics::CaseOptions;
using dgk::physics::Euler2D;
using dgk::physics::ModalTriSolver;
using dgk::physics::SurfaceKernel;
using Solver = ModalTriSolver<Euler2D, double, Kokkos::Serial>;

constexpr double kEps = std::numeric_limits<double>::epsilon();

CaseOptions options(const std::string& problem, int order, const std::string& mesh) {
  CaseOptions o;
  o.name = "euler2d";
  o.problem = problem;
  o.order = order;
  o.mesh = mesh;
  o.backend = dgk::Backend::Serial;
  return o;
}

Solver& solver_of(dgk::physics::Case& c) {
  return dynamic_cast<Solver&>(c.simulation());
}

void run(dgk::physics::Case& c) {
  dgk::advance(c.simulation(), c.steps(), c.dt());
}

// A state from density, velocity and pressure.
std::array<double, 4> state(double rho, double u, double v, double p) {
  return {rho, rho * u, rho * v, p / 0.4 + 0.5 * rho * (u * u + v * v)};
}

// --- numerical fluxes ------------------------------------------------------------------------

TEST(Euler2D, NumericalFluxesAreConsistentConservativeAndUpwind) {
  const std::array<double, 4> states[] = {state(1.0, 0.3, -0.2, 1.0), state(0.125, -1.0, 0.5, 0.1),
                                          state(8.0, 7.1, -4.1, 116.5), state(1.4, 0.0, 0.0, 1.0)};
  const double normals[][2] = {{1.0, 0.0}, {0.0, -1.0}, {0.6, 0.8}, {-std::sqrt(0.5), std::sqrt(0.5)}};
  for (int flux : {Euler2D::LaxFriedrichs, Euler2D::Hllc}) {
    Euler2D phys;
    phys.flux = flux;
    for (const auto& a : states)
      for (const auto& n : normals) {
        double ua[4], f[4], g[4], out[4];
        for (int c = 0; c < 4; ++c) ua[c] = a[static_cast<std::size_t>(c)];
        phys.fluxes(ua, f, g);
        // Consistency: F*(u, u) = F(u) . n.
        phys.numerical_flux(ua, ua, n[0], n[1], out);
        for (int c = 0; c < 4; ++c)
          EXPECT_NEAR(out[c], f[c] * n[0] + g[c] * n[1], 1e-13 * (1 + std::abs(f[c]) + std::abs(g[c])));
        for (const auto& b : states) {
          double ub[4], fab[4], fba[4];
          for (int c = 0; c < 4; ++c) ub[c] = b[static_cast<std::size_t>(c)];
          // Conservation: what leaves one side enters the other.
          phys.numerical_flux(ua, ub, n[0], n[1], fab);
          phys.numerical_flux(ub, ua, -n[0], -n[1], fba);
          for (int c = 0; c < 4; ++c) EXPECT_NEAR(fab[c], -fba[c], 1e-12 * (1 + std::abs(fab[c])));
        }
      }
  }
  // HLLC upwinds a flow that is supersonic along the normal: the flux is the left state's.
  Euler2D hllc;
  double l[4], r[4], out[4], f[4], g[4];
  const auto sl = state(1.0, 3.0, 0.5, 1.0), sr = state(0.5, 2.5, 0.0, 0.4);
  for (int c = 0; c < 4; ++c) {
    l[c] = sl[static_cast<std::size_t>(c)];
    r[c] = sr[static_cast<std::size_t>(c)];
  }
  hllc.numerical_flux(l, r, 1.0, 0.0, out);
  hllc.fluxes(l, f, g);
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(out[c], f[c], 1e-13 * (1 + std::abs(f[c])));
  // A stationary contact (equal pressure, zero normal velocity) is resolved exactly: no mass flux.
  const auto cl = state(1.0, 0.0, 0.3, 1.0), cr = state(0.1, 0.0, -0.2, 1.0);
  for (int c = 0; c < 4; ++c) {
    l[c] = cl[static_cast<std::size_t>(c)];
    r[c] = cr[static_cast<std::size_t>(c)];
  }
  hllc.numerical_flux(l, r, 1.0, 0.0, out);
  EXPECT_NEAR(out[0], 0.0, 1e-14);
  EXPECT_NEAR(out[1], 1.0, 1e-14);
  EXPECT_NEAR(out[3], 0.0, 1e-14);
}

// --- smooth problems ---------------------------------------------------------------------------

// Orders of convergence on the isentropic vortex (periodic, smooth), rect:8, 16, 32 of the
// square of side 15, to t = 1: at least p + 0.5 for p = 1..4 (observed about p + 1).
TEST(Euler2D, IsentropicVortexConvergesAtOrderPPlusOneHalf) {
  for (int p = 1; p <= 4; ++p) {
    std::vector<double> err;
    for (int n : {8, 16, 32}) {
      auto o = options("isentropic-vortex", p, "rect:" + std::to_string(n));
      o.final_time = 1.0;
      const auto c = dgk::physics::make_case(o);
      run(*c);
      err.push_back(c->simulation().l2_error(*c->exact()));
    }
    const double eoc = std::log2(err[1] / err[2]);
    EXPECT_GE(eoc, p + 0.5) << "p " << p << ": errors " << err[0] << " " << err[1] << " " << err[2];
    EXPECT_GE(std::log2(err[0] / err[1]), p) << "p " << p;
  }
}

// Mass, momentum and energy are conserved to rounding on the periodic domain (the edge fluxes
// cancel pairwise), on a jittered mesh, with either surface kernel and every integrator.
TEST(Euler2D, ConservesMassMomentumAndEnergyOnAPeriodicDomain) {
  for (const std::string kernel : {"edge", "element"})
    for (const std::string integrator : {"ssp-rk2", "ssp-rk3", "rk4"}) {
      auto o = options("isentropic-vortex", 3, "rect:8,jitter=0.2");
      o.kernel = kernel;
      o.integrator = integrator;
      o.final_time = 2.0;
      const auto c = dgk::physics::make_case(o);
      const auto before = solver_of(*c).totals();
      run(*c);
      const auto after = solver_of(*c).totals();
      for (int f = 0; f < 4; ++f) {
        const double scale = std::max(std::abs(before[static_cast<std::size_t>(f)]), 225.0);
        EXPECT_LE(std::abs(after[static_cast<std::size_t>(f)] - before[static_cast<std::size_t>(f)]),
                  100 * kEps * scale * c->steps())
            << kernel << " " << integrator << " field " << f;
      }
    }
}

// A uniform flow stays uniform to rounding on a jittered periodic mesh (free-stream
// preservation of the quadrature-based operator).
TEST(Euler2D, PreservesAUniformFlow) {
  auto o = options("isentropic-vortex", 2, "rect:6,jitter=0.2");
  o.final_time = 0.5;
  const auto c = dgk::physics::make_case(o);
  auto& s = solver_of(*c);
  const auto u = state(1.2, 0.7, -0.4, 0.9);
  s.set_fields(
      [&](double, double, double, double, double* out) {
        for (int k = 0; k < 4; ++k) out[k] = u[static_cast<std::size_t>(k)];
      },
      0.0);
  run(*c);
  const auto avg = s.cell_averages();
  const auto modes = s.host_modes();
  double dev = 0;
  for (int e = 0; e < s.num_elements(); ++e)
    for (int f = 0; f < 4; ++f) {
      dev = std::max(dev, std::abs(avg[static_cast<std::size_t>(e * 4 + f)] - u[static_cast<std::size_t>(f)]));
      for (int j = 1; j < 6; ++j) dev = std::max(dev, std::abs(modes[static_cast<std::size_t>((e * 4 + f) * 6 + j)]));
    }
  EXPECT_LT(dev, 1e-12);
}

// The two surface kernels compute the same edge contributions (each interior flux evaluated
// once per edge or once from each side), with every kind of boundary present: prescribed
// inflow, outflow and curved walls (supersonic vortex), the moving shock and the split wall
// (double Mach reflection).
TEST(Euler2D, EdgeWiseAndElementWiseSurfaceKernelsAgree) {
  for (const auto& [problem, mesh] : std::vector<std::pair<std::string, std::string>>{
           {"supersonic-vortex", "rect:3,12,jitter=0.2"}, {"double-mach", "rect:24,6,jitter=0.2"}})
    for (int p : {1, 3}) {
      const auto c = dgk::physics::make_case(options(problem, p, mesh));
      auto& s = solver_of(*c);
      const auto slots = [&](SurfaceKernel k) {
        s.surface(k);
        auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.edge_slots());
        return std::vector<double>(h.data(), h.data() + h.span());
      };
      const auto a = slots(SurfaceKernel::EdgeWise), b = slots(SurfaceKernel::ElementWise);
      double scale = 0, diff = 0;
      for (std::size_t i = 0; i < a.size(); ++i) {
        scale = std::max(scale, std::abs(a[i]));
        diff = std::max(diff, std::abs(a[i] - b[i]));
      }
      EXPECT_GT(scale, 0.0);
      EXPECT_LE(diff, 64 * kEps * scale) << problem << " p " << p;
    }
}

// Supersonic vortex: steady flow through the quarter annulus with curved reflecting walls
// imposed with the exact normal. Density errors and orders for p = 1..4 on nested meshes
// (rect meshes mapped onto the annulus, refined by splitting); paper 004 table 2 reports orders
// 1.9-2.0, 2.6-2.95, 4.0-4.6 and 4.6-5.0.
TEST(Euler2D, SupersonicVortexConvergesWithCurvedWalls) {
  for (int p = 1; p <= 4; ++p) {
    std::vector<double> err;
    for (int r = 0; r < 3; ++r) {
      auto o = options("supersonic-vortex", p, "rect:2,8");
      o.refine = r;
      o.final_time = 1.0;  // steady to 0.1% of the error by then
      const auto c = dgk::physics::make_case(o);
      run(*c);
      err.push_back(solver_of(*c).l2_error_field(*c->exact(), 0));
    }
    const double eoc = std::log2(err[1] / err[2]);
    EXPECT_GE(eoc, p + 0.5 - (p == 2 ? 0.1 : 0.0)) << "p " << p << ": " << err[0] << " " << err[1] << " " << err[2];
  }
}

// --- limiter and shocks ------------------------------------------------------------------------

// Barth-Jespersen: cell averages unchanged, and no value at an edge quadrature point outside the
// range of the averages of the element and its neighbours.
TEST(Euler2D, BarthJespersenKeepsAveragesAndCreatesNoExtrema) {
  auto o = options("sod", 1, "rect:20,4,jitter=0.2");
  o.limiter = "none";
  const auto c = dgk::physics::make_case(o);
  auto& s = solver_of(*c);
  // A rough field: a smooth profile plus element-wise slopes of random sign.
  s.set_fields(
      [](double x, double y, double, double, double* out) {
        const double w = std::sin(40 * x) * std::cos(37 * y);
        out[0] = 1.0 + 0.5 * w;
        out[1] = 0.3 * w;
        out[2] = -0.2 * w;
        out[3] = 2.5 + w;
      },
      0.0);
  const auto avg0 = s.cell_averages();
  auto settings = s.settings();
  settings.limiter = true;
  s.set_settings(settings);
  s.limit();
  const auto avg1 = s.cell_averages();
  for (std::size_t i = 0; i < avg0.size(); ++i) EXPECT_EQ(avg0[i], avg1[i]);
  const auto mesh = *c->tri_mesh();
  const auto conn = dgk::mesh::connect(mesh);
  const auto vals = s.edge_values();
  const int nqe = 2, K = s.num_elements();
  int limited = 0;
  for (int e = 0; e < K; ++e)
    for (int f = 0; f < 4; ++f) {
      double lo = avg1[static_cast<std::size_t>(e * 4 + f)], hi = lo;
      for (int k = 0; k < 3; ++k) {
        const int n = conn.EToE[static_cast<std::size_t>(e)][static_cast<std::size_t>(k)];
        if (n < 0) continue;
        lo = std::min(lo, avg1[static_cast<std::size_t>(n * 4 + f)]);
        hi = std::max(hi, avg1[static_cast<std::size_t>(n * 4 + f)]);
      }
      for (int q = 0; q < 3 * nqe; ++q) {
        const double v = vals[static_cast<std::size_t>((e * 4 + f) * 3 * nqe + q)];
        EXPECT_GE(v, lo - 1e-13 * (1 + std::abs(lo))) << "element " << e << " field " << f;
        EXPECT_LE(v, hi + 1e-13 * (1 + std::abs(hi))) << "element " << e << " field " << f;
        limited += v == lo || v == hi;
      }
    }
  EXPECT_GT(limited, 0);
}

// Sod's shock tube across a 2D strip at p = 1 with the limiter, to t = 0.2: density and pressure
// stay positive at every quadrature point, and the cell averages along x are free of
// oscillations (the exact density and pressure decrease monotonically from left to right, so
// their total variation along any row is the jump 0.875, resp. 0.9).
TEST(Euler2D, SodShockTubeStaysMonotoneAndPositive) {
  for (const std::string flux : {"hllc", "llf"}) {
    auto o = options("sod", 1, "rect:100,4,jitter=0.1");
    o.limiter = "barth-jespersen";
    o.flux = flux;
    const auto c = dgk::physics::make_case(o);
    run(*c);
    auto& s = solver_of(*c);
    const auto vals = s.edge_values();
    const int K = s.num_elements();
    for (int e = 0; e < K; ++e)
      for (int q = 0; q < 6; ++q) {
        const double rho = vals[static_cast<std::size_t>((e * 4 + 0) * 6 + q)];
        const double mx = vals[static_cast<std::size_t>((e * 4 + 1) * 6 + q)];
        const double my = vals[static_cast<std::size_t>((e * 4 + 2) * 6 + q)];
        const double E = vals[static_cast<std::size_t>((e * 4 + 3) * 6 + q)];
        ASSERT_GT(rho, 0.0) << flux << " element " << e;
        ASSERT_GT(0.4 * (E - 0.5 * (mx * mx + my * my) / rho), 0.0) << flux << " element " << e;
      }
    // Averages binned by centroid x into columns of the 100 x 4 mesh.
    const auto avg = s.cell_averages();
    const auto& m = *c->tri_mesh();
    std::vector<double> rho(100, 0.0), p(100, 0.0), count(100, 0.0);
    for (int e = 0; e < K; ++e) {
      double cx = 0;
      for (int v : m.elements[static_cast<std::size_t>(e)]) cx += m.vertices[static_cast<std::size_t>(v)][0] / 3;
      const auto col = static_cast<std::size_t>(std::min(99, static_cast<int>(cx * 100)));
      const double* u = &avg[static_cast<std::size_t>(e * 4)];
      rho[col] += u[0];
      p[col] += 0.4 * (u[3] - 0.5 * (u[1] * u[1] + u[2] * u[2]) / u[0]);
      count[col] += 1;
    }
    double tv_rho = 0, tv_p = 0;
    for (std::size_t i = 1; i < 100; ++i) {
      tv_rho += std::abs(rho[i] / count[i] - rho[i - 1] / count[i - 1]);
      tv_p += std::abs(p[i] / count[i] - p[i - 1] / count[i - 1]);
    }
    EXPECT_LE(tv_rho, 0.875 * 1.01) << flux;
    EXPECT_LE(tv_p, 0.9 * 1.01) << flux;
    EXPECT_NEAR(rho[0] / count[0], 1.0, 1e-6);
    EXPECT_NEAR(rho[99] / count[99], 0.125, 1e-6);
  }
}

// The double Mach reflection at p = 1 with the limiter on a jittered mesh: the first 0.02 time
// units stay finite with positive density, mass enters through the inflow only.
TEST(Euler2D, DoubleMachReflectionStartsCleanly) {
  auto o = options("double-mach", 1, "rect:48,12,jitter=0.1");
  o.limiter = "barth-jespersen";
  o.final_time = 0.02;
  const auto c = dgk::physics::make_case(o);
  run(*c);
  EXPECT_FALSE(c->simulation().find_non_finite());
  const auto avg = solver_of(*c).cell_averages();
  for (std::size_t e = 0; e < avg.size(); e += 4) ASSERT_GT(avg[e], 0.0) << "element " << e / 4;
  EXPECT_GT(solver_of(*c).totals()[0], 1.4 * 4.0);
}

// --- options and errors ------------------------------------------------------------------------

TEST(Euler2D, RejectsInconsistentOptionsWithClearMessages) {
  auto expect_error = [](CaseOptions o, const std::string& part) {
    try {
      dgk::physics::make_case(o);
      ADD_FAILURE() << "no error for " << part;
    } catch (const dgk::Error& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  auto o = options("double-mach", 2, "rect:8,2");
  o.limiter = "barth-jespersen";
  expect_error(o, "--order 1");
  o = options("sod", 1, "rect:10,2");
  o.flux = "roe";
  expect_error(o, "llf or hllc");
  o = options("sod", 1, "rect:10,2");
  o.bc = {"left=wall"};
  expect_error(o, "no boundary named 'left'");
  o = options("sod", 1, "rect:10,2");
  o.bc = {"xmin=porous"};
  expect_error(o, "unknown condition 'porous'");
  o = options("isentropic-vortex", 1, "gmsh:0.5");
  expect_error(o, "periodic");
  o = options("sod", 9, "rect:10,2");
  expect_error(o, "not supported");
  o = options("sod", 1, "rect:10,2");
  o.integrator = "euler";
  expect_error(o, "ssp-rk2, ssp-rk3 or rk4");
}

// The state round-trips through save_state / load_state bitwise, and a restarted run continues
// exactly as the uninterrupted one.
TEST(Euler2D, RestartContinuesBitwise) {
  auto o = options("supersonic-vortex", 2, "rect:2,8");
  o.final_time = 0.2;
  const auto a = dgk::physics::make_case(o);
  const auto b = dgk::physics::make_case(o);
  const int half = a->steps() / 2;
  dgk::advance(a->simulation(), half, a->dt());
  const auto state = a->simulation().save_state();
  b->simulation().load_state(state, a->simulation().time());
  dgk::advance(a->simulation(), a->steps() - half, a->dt());
  dgk::advance(b->simulation(), a->steps() - half, a->dt());
  EXPECT_EQ(a->simulation().host_fields(), b->simulation().host_fields());
}

// --- backends ----------------------------------------------------------------------------------

template <class Space>
class Euler2DBackends : public ::testing::Test {};
TYPED_TEST_SUITE(Euler2DBackends, dgk::Testing::ExecutionSpaces, dgk::Testing::SpaceNames);

TYPED_TEST(Euler2DBackends, AgreesWithSerial) {
  auto o = options("supersonic-vortex", 3, "rect:2,8,jitter=0.2");
  o.final_time = 0.05;
  dgk::testing_support::expect_agrees_with_serial<TypeParam>(o);
  o = options("double-mach", 1, "rect:24,6");
  o.limiter = "barth-jespersen";
  o.kernel = "element";
  o.final_time = 0.005;
  dgk::testing_support::expect_agrees_with_serial<TypeParam>(o);
  o.precision = "float";
  dgk::testing_support::expect_agrees_with_serial<TypeParam>(o);
}

TYPED_TEST(Euler2DBackends, IsBitwiseRepeatable) {
  auto o = options("double-mach", 1, "rect:24,6");
  o.limiter = "barth-jespersen";
  o.final_time = 0.005;
  dgk::testing_support::expect_bitwise_repeatable<TypeParam>(o);
}

}  // namespace
