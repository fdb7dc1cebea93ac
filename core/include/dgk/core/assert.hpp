// Device-usable assertion, compiled in debug builds (Kokkos_ENABLE_DEBUG or !NDEBUG).
#pragma once

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_DEBUG) || !defined(NDEBUG)
#define DGK_ASSERT(cond)                                                  \
  do {                                                                    \
    if (!(cond)) Kokkos::abort("dgk: assertion failed: " #cond);          \
  } while (false)
#else
#define DGK_ASSERT(cond) ((void)0)
#endif
