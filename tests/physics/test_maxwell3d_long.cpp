// Maxwell 3D on tetrahedra, the long studies: empirical order of convergence on the PEC cavity
// (paper 000, Table 2, here in double precision) and the stability limit of every order.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dgk/core/error.hpp"
#include "dgk/physics/tet_case.hpp"

namespace {

using dgk::physics::TetCase;
using dgk::physics::CaseOptions;

double run_to_end(TetCase& cs) {
  auto& sim = cs.simulation();
  for (int s = 0; s < cs.steps(); ++s) sim.step(cs.dt());
  return sim.l2_error(*cs.exact());
}

// Empirical order of convergence on the PEC cavity, one period, double precision:
// at least N + 0.5 between the two finest of three box meshes (expected N + 1).
class Maxwell3DConvergence : public ::testing::TestWithParam<int> {};

TEST_P(Maxwell3DConvergence, ReachesOrderNPlusHalf) {
  const int order = GetParam();
  // Coarsest mesh per order: fine enough to be in the asymptotic range at low order, coarse
  // enough to stay far above the double-precision floor at high order.
  const int start = order <= 2 ? 3 : 2;
  std::vector<double> err, h;
  for (int k = 0; k < 3; ++k) {
    CaseOptions o;
    o.order = order;
    o.mesh = "box:" + std::to_string(start + k);
    TetCase cs(o);
    err.push_back(run_to_end(cs));
    h.push_back(1.0 / (start + k));
  }
  const double eoc = std::log(err[1] / err[2]) / std::log(h[1] / h[2]);
  RecordProperty("eoc", std::to_string(eoc));
  EXPECT_GE(eoc, order + 0.5) << "errors " << err[0] << " " << err[1] << " " << err[2];
  EXPECT_LT(err[2], err[1]);
  EXPECT_LT(err[1], err[0]);
}

INSTANTIATE_TEST_SUITE_P(Orders, Maxwell3DConvergence, ::testing::Range(1, 6),
                         [](const auto& info) { return "N" + std::to_string(info.param); });

// The CFL guard: at the documented limit the energy does not grow for every order; at 1.4
// times the limit it does, and the case refuses such a CFL unless forced.
TEST(Maxwell3D, StabilityLimitHoldsAndIsEnforced) {
  for (int order = 1; order <= 9; ++order) {
    CaseOptions o;
    o.order = order;
    o.mesh = "box:1";
    o.initial = "pulse:0.5,0.5,0.5,0.3";
    o.final_time = 8.0;
    o.cfl = dgk::physics::max_stable_cfl(order);
    {
      TetCase cs(o);
      const double e0 = cs.simulation().energy();
      for (int s = 0; s < cs.steps(); ++s) cs.simulation().step(cs.dt());
      EXPECT_LE(cs.simulation().energy(), e0 * (1 + 1e-12)) << "order " << order << " unstable at its limit";
    }
    o.cfl *= 1.4;
    EXPECT_THROW(TetCase{o}, dgk::Error) << "order " << order;
    o.force = true;
    TetCase cs(o);
    const double e0 = cs.simulation().energy();
    for (int s = 0; s < cs.steps(); ++s) cs.simulation().step(cs.dt());
    const double e = cs.simulation().energy();
    EXPECT_TRUE(!std::isfinite(e) || e > e0) << "order " << order << " stable at 1.4x its limit: the limit is too low";
  }
}

}  // namespace
