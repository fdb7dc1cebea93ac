// The execution spaces of the build, for typed tests: one test body, every enabled backend.
#pragma once

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

namespace dgk::Testing {

using ExecutionSpaces = ::testing::Types<
#ifdef KOKKOS_ENABLE_SERIAL
    Kokkos::Serial
#endif
#if defined(KOKKOS_ENABLE_SERIAL) && (defined(KOKKOS_ENABLE_OPENMP) || defined(KOKKOS_ENABLE_CUDA))
    ,
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    Kokkos::OpenMP
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && defined(KOKKOS_ENABLE_CUDA)
    ,
#endif
#ifdef KOKKOS_ENABLE_CUDA
    Kokkos::Cuda
#endif
    >;

/// Readable names in test output.
struct SpaceNames {
  template <class T>
  static std::string GetName(int) {
    return T::name();
  }
};

}  // namespace dgk::Testing
