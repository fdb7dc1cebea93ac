#include "dgk/backends/codegen.hpp"

namespace dgk::backends {

std::string device_code_generator(Backend backend) {
  if (backend != Backend::Cuda) return "";
#if defined(DGK_CUDA_PTXAS_VERSION)
  return std::string("ptxas ") + DGK_CUDA_PTXAS_VERSION;
#else
  return "ptxas (version not known)";
#endif
}

}  // namespace dgk::backends
