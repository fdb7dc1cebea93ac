// The cases `dgk run` knows, for help texts and dispatch.
#pragma once

#include <string>
#include <vector>

namespace dgk::physics {

struct CaseInfo {
  std::string name;         ///< e.g. "maxwell3d"
  std::string description;  ///< one line
};

/// Cases built into this dgk.
const std::vector<CaseInfo>& cases();

}  // namespace dgk::physics
