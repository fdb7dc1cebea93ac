// Test main: Kokkos is initialized only when tests run (not for --gtest_list_tests), with two
// host threads (DGK_TEST_THREADS to change) so the OpenMP backend is exercised in parallel.
// ctest reserves that many processors per test (PROCESSORS), so test programs running side by
// side never oversubscribe the cores.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

#include "dgk/core/execution.hpp"

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  bool listing = false;
  for (int i = 1; i < argc; ++i) listing |= std::strcmp(argv[i], "--gtest_list_tests") == 0;
  if (listing) return RUN_ALL_TESTS();
  setenv("OMP_PROC_BIND", "false", 0);  // unit tests: no pinning, Kokkos's advice
  // ctest runs test programs side by side on few cores: idle OpenMP threads must sleep rather
  // than spin, or oversubscribed cores slow every parallel region by orders of magnitude.
  setenv("OMP_WAIT_POLICY", "passive", 0);
  int threads = 2;
  if (const char* env = std::getenv("DGK_TEST_THREADS")) threads = std::max(1, std::atoi(env));
  dgk::initialize_kokkos(argc, argv, threads);
  const int result = RUN_ALL_TESTS();
  Kokkos::finalize();
  return result;
}
