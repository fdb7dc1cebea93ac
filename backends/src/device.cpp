#include "dgk/backends/device.hpp"

#include <fstream>
#include <string>

#include <Kokkos_Core.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "dgk/core/execution.hpp"

namespace dgk::backends {

namespace {
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto first = line.find_first_not_of(' ', colon + 1);
    return first == std::string::npos ? "unknown CPU" : line.substr(first);
  }
  return "unknown CPU";
}
}  // namespace

template <class ExecutionSpace>
std::string device_name() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<ExecutionSpace, Kokkos::Cuda>::value) {
    int device = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&device) == cudaSuccess && cudaGetDeviceProperties(&prop, device) == cudaSuccess)
      return prop.name;
    return "unknown CUDA device";
  }
#endif
  return cpu_model() + " (" + std::to_string(ExecutionSpace().concurrency()) + " threads)";
}

#define DGK_INSTANTIATE_DEVICE(SPACE, UNUSED) template std::string device_name<SPACE>();
DGK_IF_SERIAL(DGK_INSTANTIATE_DEVICE, 0)
DGK_IF_OPENMP(DGK_INSTANTIATE_DEVICE, 0)
DGK_IF_CUDA(DGK_INSTANTIATE_DEVICE, 0)

}  // namespace dgk::backends
