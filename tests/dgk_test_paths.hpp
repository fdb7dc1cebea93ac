// Files of the source tree that tests read, for a test program run where it was built or
// carried to another machine and run from the source tree's root.
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace dgk::Testing {

/// `configured` (the path the configuration saw) where it exists, else `from_root` (the same
/// file or folder relative to the source tree's root) where that exists from the working folder.
/// Records a failure naming both when neither exists, and returns `configured`.
inline std::string source_path(const std::string& configured, const std::string& from_root) {
  if (std::filesystem::exists(configured)) return configured;
  if (std::filesystem::exists(from_root)) return from_root;
  ADD_FAILURE() << "not found: neither " << configured << " nor ./" << from_root << " (run from the source tree's root)";
  return configured;
}

}  // namespace dgk::Testing
