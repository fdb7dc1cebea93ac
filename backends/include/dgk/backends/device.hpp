// The hardware an execution space runs on, in words: the GPU's name, or the host CPU's model and
// the number of threads the backend uses. Part of the key of tuned kernel choices.
#pragma once

#include <string>

namespace dgk::backends {

/// "NVIDIA H100 80GB HBM3", "AMD EPYC 7B13 (16 threads)", ...
template <class ExecutionSpace>
std::string device_name();

}  // namespace dgk::backends
