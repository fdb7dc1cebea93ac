// Maxwell 3D on tetrahedra: empirical order of convergence on the PEC cavity (paper 000,
// Table 2, here in double precision).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dgk/physics/maxwell3d_case.hpp"

namespace {

using dgk::physics::Maxwell3DCase;
using dgk::physics::Maxwell3DOptions;

double run_to_end(Maxwell3DCase& cs) {
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
    Maxwell3DOptions o;
    o.order = order;
    o.mesh = "box:" + std::to_string(start + k);
    Maxwell3DCase cs(o);
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

}  // namespace
