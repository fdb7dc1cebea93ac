// Device-callable math functions across Kokkos 3.4 (Kokkos::Experimental) and 4.x (Kokkos::).
#pragma once

#include <Kokkos_Core.hpp>

namespace dgk::math {

#if KOKKOS_VERSION >= 40000
using Kokkos::abs;
using Kokkos::sqrt;
using Kokkos::isfinite;
#else
using Kokkos::Experimental::sqrt;
using Kokkos::Experimental::isfinite;
template <class T>
KOKKOS_INLINE_FUNCTION T abs(T x) { return Kokkos::Experimental::fabs(x); }
#endif

}  // namespace dgk::math
