// Which compiler back end generated the build's GPU code. Part of the key of tuned kernel
// choices on the GPU: the same kernel assembled by another ptxas may run at another speed.
#pragma once

#include <string>

namespace dgk::backends {

/// "ptxas 13.0.88" (the ptxas that assembled the build's device code), "ptxas (version not
/// known)" where the build could not ask, or "" in a build without CUDA.
std::string device_code_generator();

}  // namespace dgk::backends
