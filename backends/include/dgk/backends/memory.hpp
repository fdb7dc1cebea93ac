// Memory available to an execution space, and the check every solver makes before allocating.
#pragma once

#include <functional>
#include <string>

namespace dgk::backends {

/// Bytes free in the execution space's memory: free device memory on a GPU, available system
/// memory on the host.
template <class ExecutionSpace>
double available_memory_bytes();

/// Throws dgk::Error when `bytes` exceeds what is available, saying how much is needed, how
/// much is free, and for what (`what()` describes the problem, e.g. order and elements).
template <class ExecutionSpace>
void require_memory(double bytes, const std::function<std::string()>& what);

}  // namespace dgk::backends
