#include "dgk/backends/memory.hpp"

#include <sstream>
#include <string>

#include <Kokkos_Core.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/host_memory.hpp"

namespace dgk::backends {


template <class ExecutionSpace>
double available_memory_bytes() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<ExecutionSpace, Kokkos::Cuda>::value) {
    std::size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return 0;
    return static_cast<double>(free_b);
  }
#endif
  return host_available_bytes();
}

template <class ExecutionSpace>
void require_memory(double bytes, const std::function<std::string()>& what) {
  const double avail = available_memory_bytes<ExecutionSpace>();
  if (avail <= 0) return;  // unknown: let the allocation decide
  const double gib = 1024.0 * 1024.0 * 1024.0;
  DGK_THROW_IF(bytes > avail, "the problem does not fit the memory of the " << backend_name(BackendOf<ExecutionSpace>::value)
                                  << " backend: it needs " << bytes / gib << " GiB, " << avail / gib
                                  << " GiB are free (" << what() << ")");
}

#define DGK_INSTANTIATE_MEMORY(SPACE, UNUSED)            \
  template double available_memory_bytes<SPACE>();       \
  template void require_memory<SPACE>(double, const std::function<std::string()>&);
DGK_IF_SERIAL(DGK_INSTANTIATE_MEMORY, 0)
DGK_IF_OPENMP(DGK_INSTANTIATE_MEMORY, 0)
DGK_IF_CUDA(DGK_INSTANTIATE_MEMORY, 0)

}  // namespace dgk::backends
