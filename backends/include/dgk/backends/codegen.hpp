// Which compiler back end generated the build's GPU code. Part of the key of tuned kernel
// choices on the GPU: the same kernel assembled by another ptxas may run at another speed.
#pragma once

#include <string>

#include "dgk/core/execution.hpp"

namespace dgk::backends {

/// For Backend::Cuda, "ptxas 13.0.88" (the ptxas that assembled the build's device code) or
/// "ptxas (version not known)" where the build could not ask; "" for the host backends.
std::string device_code_generator(Backend backend);

}  // namespace dgk::backends
