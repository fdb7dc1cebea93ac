// Helpers shared by the mesh tests.
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "dgk/core/error.hpp"

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
/// The folder of one fuzz target's regression inputs: where the configuration found the source
/// tree, or under tests/fuzz/regressions of the working folder (a build carried to another
/// machine and run from the source tree's root). Records a failure when neither exists.
inline std::string fuzz_regressions(const std::string& target) {
  const std::string configured = std::string(DGK_FUZZ_REGRESSIONS_DIR) + "/" + target;
  if (std::filesystem::is_directory(configured)) return configured;
  const std::string relative = "tests/fuzz/regressions/" + target;
  if (std::filesystem::is_directory(relative)) return relative;
  ADD_FAILURE() << "no fuzz regressions: neither " << configured << " nor ./" << relative << " is a folder";
  return configured;
}
#endif

}  // namespace dgk::mesh::test
