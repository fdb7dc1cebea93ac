#include "dgk/backends/codegen.hpp"

#include <Kokkos_Core.hpp>

namespace dgk::backends {

std::string device_code_generator() {
#if defined(KOKKOS_ENABLE_CUDA) && defined(DGK_CUDA_PTXAS_VERSION)
  return std::string("ptxas ") + DGK_CUDA_PTXAS_VERSION;
#elif defined(KOKKOS_ENABLE_CUDA)
  return "ptxas (version not known)";
#else
  return "";
#endif
}

}  // namespace dgk::backends
