// Cross-backend harness: the same bodies run on every execution space of the build.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/lserk4.hpp"
#include "dgk/kernels/nodal_tet/kernels.hpp"
#include "dgk_test_spaces.hpp"

namespace {

TEST(Execution, ParsesBuiltBackendsAndRejectsOthers) {
  for (dgk::Backend b : dgk::enabled_backends()) EXPECT_EQ(dgk::parse_backend(dgk::backend_name(b)), b);
  EXPECT_THROW(dgk::parse_backend("vulkan"), dgk::Error);
  try {
    dgk::parse_backend("vulkan");
  } catch (const dgk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown backend 'vulkan'"), std::string::npos) << e.what();
  }
#ifndef KOKKOS_ENABLE_CUDA
  try {
    dgk::parse_backend("cuda");
    FAIL() << "cuda accepted in a build without it";
  } catch (const dgk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("not built into"), std::string::npos) << e.what();
  }
#endif
}

TEST(Execution, OpenMPRunsWithMoreThanOneThread) {
#ifdef KOKKOS_ENABLE_OPENMP
  EXPECT_GT(Kokkos::OpenMP().concurrency(), 1);
#else
  GTEST_SKIP() << "OpenMP not built";
#endif
}

// LSERK4 coefficients: consistency (sum of effective weights) and fourth order on y' = -y.
TEST(Lserk4, IsFourthOrderOnLinearDecay) {
  auto integrate = [](int steps) {
    const double dt = 1.0 / steps;
    double y = 1.0, res = 0.0;
    for (int n = 0; n < steps; ++n)
      for (int s = 0; s < dgk::Lserk4::stages; ++s) {
        res = dgk::Lserk4::a[s] * res + dt * (-y);
        y += dgk::Lserk4::b[s] * res;
      }
    return std::abs(y - std::exp(-1.0));
  };
  const double e1 = integrate(10), e2 = integrate(20);
  const double order = std::log2(e1 / e2);
  EXPECT_GT(order, 3.8);
  EXPECT_LT(order, 4.3);
}

// Device lambdas may not live in the (private) bodies of typed tests under CUDA, so each body
// is a free function template.

// The LSERK update kernel gives, on every backend, the host double-precision result to within
// the rounding of the two operations it performs (a few ulps of the largest value).
template <class Space>
void check_lserk_update() {
  using View = Kokkos::View<double***, Kokkos::LayoutRight, typename Space::memory_space>;
  const int K = 37, nf = 6, np = 20;
  View q("q", K, nf, np), res("res", K, nf, np), rhs("rhs", K, nf, np);
  // create_mirror (not _view): the host reference must not alias the device data on host spaces.
  auto hq = Kokkos::create_mirror(q), hr = Kokkos::create_mirror(res), hh = Kokkos::create_mirror(rhs);
  for (std::size_t i = 0; i < hq.size(); ++i) {
    hq.data()[i] = std::sin(0.1 * i);
    hr.data()[i] = std::cos(0.3 * i);
    hh.data()[i] = std::sin(0.7 * i + 1.0);
  }
  Kokkos::deep_copy(q, hq);
  Kokkos::deep_copy(res, hr);
  Kokkos::deep_copy(rhs, hh);
  const double a = dgk::Lserk4::a[2], b = dgk::Lserk4::b[2], dt = 0.01;
  dgk::kernels::nodal_tet::lserk_update(Space(), q, res, rhs, a, b, dt);
  auto gq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  const double tol = 8 * std::numeric_limits<double>::epsilon() * 4.0;
  for (std::size_t i = 0; i < hq.size(); ++i) {
    const double r = a * hr.data()[i] + dt * hh.data()[i];
    EXPECT_NEAR(gq.data()[i], hq.data()[i] + b * r, tol) << "entry " << i;
  }
}

// A team kernel with scratch on every backend: per-team sums of a staged vector.
template <class Space>
void check_team_scratch() {
  using Policy = Kokkos::TeamPolicy<Space>;
  using Scratch = Kokkos::View<double*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const int teams = 64, n = 35;
  Kokkos::View<double*, typename Space::memory_space> out("out", teams);
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  Kokkos::parallel_for(
      "dgk::test::team", Policy(Space(), teams, host ? 1 : 64).set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(n))),
      KOKKOS_LAMBDA(const typename Policy::member_type& m) {
        Scratch s(m.team_scratch(0), n);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int i) { s(i) = m.league_rank() + i; });
        m.team_barrier();
        double sum = 0;
        Kokkos::parallel_reduce(Kokkos::TeamThreadRange(m, n), [&](int i, double& acc) { acc += s(i); }, sum);
        Kokkos::single(Kokkos::PerTeam(m), [&] { out(m.league_rank()) = sum; });
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int t = 0; t < teams; ++t) EXPECT_EQ(h(t), n * t + n * (n - 1) / 2.0) << "team " << t;
}

template <class Space>
class CrossBackend : public ::testing::Test {};
TYPED_TEST_SUITE(CrossBackend, dgk::Testing::ExecutionSpaces, dgk::Testing::SpaceNames);

TYPED_TEST(CrossBackend, LserkUpdateMatchesHostReference) { check_lserk_update<TypeParam>(); }
TYPED_TEST(CrossBackend, TeamScratchReduction) { check_team_scratch<TypeParam>(); }

}  // namespace
