// Loads of data that no thread writes while the kernel runs (mesh geometry, materials,
// connectivity). On the GPU they take the read-only data path (ld.global.nc), which nvcc chooses
// by itself for loads through const __restrict__ pointers in plain CUDA but not for a View's
// loads, since it cannot tell that a View does not alias the kernel's stores. Elsewhere a plain
// load.
#pragma once

#include <Kokkos_Core.hpp>

namespace dgk {

/// *p, read through the read-only data path where there is one.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T read_only(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

}  // namespace dgk
