// Helpers shared by the mesh tests.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "dgk/core/error.hpp"
#include "dgk_test_paths.hpp"

namespace dgk::mesh::test {

/// Runs f and returns the message of the dgk::Error it throws; records a failure when it throws
/// nothing or something else.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const dgk::Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected dgk::Error, got std::exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected dgk::Error, nothing was thrown";
  return {};
}

#ifdef DGK_FUZZ_REGRESSIONS_DIR
/// The folder of one fuzz target's regression inputs.
inline std::string fuzz_regressions(const std::string& target) {
  return dgk::Testing::source_path(std::string(DGK_FUZZ_REGRESSIONS_DIR) + "/" + target,
                                   "tests/fuzz/regressions/" + target);
}
#endif

}  // namespace dgk::mesh::test
