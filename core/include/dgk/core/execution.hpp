// Execution spaces dgk is built for, their run-time names, and Kokkos set-up helpers that work
// across Kokkos 3.4 .. 4.x.
#pragma once

#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

namespace dgk {

enum class Backend { Serial, OpenMP, Cuda };

/// "serial", "openmp", "cuda".
const char* backend_name(Backend b);

/// Backends compiled into this build, in the order serial, openmp, cuda.
std::vector<Backend> enabled_backends();

/// Parses a backend name; throws dgk::Error for an unknown name or one not built in, listing
/// those that are.
Backend parse_backend(const std::string& name);

/// The backend of Kokkos's default execution space.
Backend default_backend();

/// Initializes Kokkos (unless already initialized) with `num_threads` host threads
/// (0 = Kokkos's default). For programs; the library itself never initializes Kokkos.
void initialize_kokkos(int& argc, char* argv[], int num_threads = 0);

template <class ExecutionSpace>
struct BackendOf;
#ifdef KOKKOS_ENABLE_SERIAL
template <>
struct BackendOf<Kokkos::Serial> {
  static constexpr Backend value = Backend::Serial;
};
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template <>
struct BackendOf<Kokkos::OpenMP> {
  static constexpr Backend value = Backend::OpenMP;
};
#endif
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct BackendOf<Kokkos::Cuda> {
  static constexpr Backend value = Backend::Cuda;
};
#endif

}  // namespace dgk

/// Calls MACRO(Space) for each execution space of the build; used for explicit instantiation.
#ifdef KOKKOS_ENABLE_SERIAL
#define DGK_IF_SERIAL(MACRO, ...) MACRO(Kokkos::Serial, __VA_ARGS__)
#else
#define DGK_IF_SERIAL(MACRO, ...)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
#define DGK_IF_OPENMP(MACRO, ...) MACRO(Kokkos::OpenMP, __VA_ARGS__)
#else
#define DGK_IF_OPENMP(MACRO, ...)
#endif
#ifdef KOKKOS_ENABLE_CUDA
#define DGK_IF_CUDA(MACRO, ...) MACRO(Kokkos::Cuda, __VA_ARGS__)
#else
#define DGK_IF_CUDA(MACRO, ...)
#endif
