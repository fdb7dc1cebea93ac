// Cross-backend agreement of any case: the same run on an execution space and on Serial, in the
// same precision. The kernels do the same arithmetic in the same order on every backend;
// differences come only from contraction into FMAs and are bounded per stage by the length of
// the longest dot product (np terms) in units of the precision's epsilon, accumulated over
// steps x stages (the scheme is stable, so earlier differences do not grow): 5 np eps max|u|
// per step.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dgk/core/execution.hpp"
#include "dgk/core/time_loop.hpp"
#include "dgk/physics/case.hpp"
#include "dgk/physics/tet_case.hpp"

namespace dgk::testing_support {

template <class Space>
void expect_agrees_with_serial(physics::CaseOptions o) {
  o.backend = BackendOf<Space>::value;
  const auto cs = physics::make_case(o);
  // A GPU build without the host solvers (DGK_HOST_SOLVERS=OFF, which leaves out the host
  // backends of every physics) has no Serial reference.
  if (!physics::tet_solvers_built(Backend::Serial)) GTEST_SKIP() << "no Serial solvers in this build";
  o.backend = Backend::Serial;
  const auto ref = physics::make_case(o);
  advance(cs->simulation(), cs->steps(), cs->dt());
  advance(ref->simulation(), ref->steps(), ref->dt());
  EXPECT_EQ(cs->simulation().backend(), backend_name(BackendOf<Space>::value));
  EXPECT_EQ(cs->simulation().precision(), o.precision);
  const auto a = cs->simulation().host_fields(), b = ref->simulation().host_fields();
  ASSERT_EQ(a.size(), b.size());
  double scale = 0, diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::abs(b[i]));
    diff = std::max(diff, std::abs(a[i] - b[i]));
  }
  const auto& sim = cs->simulation();
  const double np = static_cast<double>(sim.num_dofs()) / (double(sim.num_elements()) * sim.num_fields());
  const double eps =
      o.precision == "float" ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
  EXPECT_LE(diff, cs->steps() * 5.0 * np * eps * scale)
      << o.name << ": max difference " << diff << " over " << cs->steps() << " steps";
  EXPECT_GT(scale, 0.1);
}

// Determinism: the same input on the same backend gives bitwise the same fields (no atomics or
// order-dependent reductions in the results).
template <class Space>
void expect_bitwise_repeatable(physics::CaseOptions o) {
  o.backend = BackendOf<Space>::value;
  std::vector<double> first;
  for (int run = 0; run < 2; ++run) {
    const auto cs = physics::make_case(o);
    advance(cs->simulation(), cs->steps(), cs->dt());
    const auto f = cs->simulation().host_fields();
    if (run == 0) first = f;
    else EXPECT_EQ(0, std::memcmp(first.data(), f.data(), f.size() * sizeof(double))) << o.name << ": runs differ";
  }
}

}  // namespace dgk::testing_support
