#include "dgk/core/execution.hpp"

#include "dgk/core/error.hpp"

namespace dgk {

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::Serial: return "serial";
    case Backend::OpenMP: return "openmp";
    case Backend::Cuda: return "cuda";
  }
  return "unknown";
}

std::vector<Backend> enabled_backends() {
  std::vector<Backend> list;
#ifdef KOKKOS_ENABLE_SERIAL
  list.push_back(Backend::Serial);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  list.push_back(Backend::OpenMP);
#endif
#ifdef KOKKOS_ENABLE_CUDA
  list.push_back(Backend::Cuda);
#endif
  return list;
}

Backend parse_backend(const std::string& name) {
  std::string built;
  for (Backend b : enabled_backends()) {
    if (name == backend_name(b)) return b;
    built += std::string(built.empty() ? "" : ", ") + backend_name(b);
  }
  const bool known = name == "serial" || name == "openmp" || name == "cuda";
  DGK_THROW_IF(known, "backend '" << name << "' is not built into this dgk (built: " << built
                                  << "); rebuild against a Kokkos with it enabled");
  DGK_THROW_IF(true, "unknown backend '" << name << "' (expected one of: " << built << ")");
}

Backend default_backend() { return BackendOf<Kokkos::DefaultExecutionSpace>::value; }

void initialize_kokkos(int& argc, char* argv[], int num_threads) {
  if (Kokkos::is_initialized()) return;
  if (num_threads <= 0) {
    Kokkos::initialize(argc, argv);
    return;
  }
#if KOKKOS_VERSION >= 30700
  Kokkos::initialize(Kokkos::InitializationSettings().set_num_threads(num_threads));
#else
  Kokkos::InitArguments args;
  args.num_threads = num_threads;
  Kokkos::initialize(args);
#endif
}

}  // namespace dgk
