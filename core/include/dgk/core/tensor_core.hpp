// FP64 tensor cores (NVIDIA compute capability 8.0 and newer): the warp-wide 8x8x4 double
// multiply-add D = A B + C of PTX's mma.sync.m8n8k4.f64, and the fragment layout every caller
// must follow (PTX ISA, "Matrix fragments for mma.m8n8k4 with .f64 floating point type"):
//
//   A (8 x 4, row-major fragment): lane l holds A(l / 4, l % 4)
//   B (4 x 8, column fragment):    lane l holds B(l % 4, l / 4)
//   C, D (8 x 8):                  lane l holds C(l / 4, 2 (l % 4)) and C(l / 4, 2 (l % 4) + 1)
//
// DGK_TENSOR_CORES_F64 is defined where the build's Kokkos targets such a GPU; the kernels that
// use mma_f64 exist only there. All 32 lanes of a warp must call it together.
#pragma once

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA) &&                                                                 \
    (defined(KOKKOS_ARCH_AMPERE80) || defined(KOKKOS_ARCH_AMPERE86) || defined(KOKKOS_ARCH_AMPERE87) || \
     defined(KOKKOS_ARCH_ADA89) || defined(KOKKOS_ARCH_HOPPER90) || defined(KOKKOS_ARCH_BLACKWELL100) || \
     defined(KOKKOS_ARCH_BLACKWELL120))
#define DGK_TENSOR_CORES_F64 1
#endif

namespace dgk {

/// Lane of the calling thread within its warp, for a Kokkos team launched with vector length 1
/// (team rank r is thread r of the block, so the warp is r / 32).
KOKKOS_INLINE_FUNCTION int warp_lane(int team_rank) { return team_rank & 31; }

/// c += a b over the warp's fragments (see the file comment).
KOKKOS_INLINE_FUNCTION void mma_f64(double& c0, double& c1, double a, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
               : "+d"(c0), "+d"(c1)
               : "d"(a), "d"(b));
#else
  (void)c0;
  (void)c1;
  (void)a;
  (void)b;
  Kokkos::abort("dgk::mma_f64: FP64 tensor cores need a GPU of compute capability 8.0 or newer");
#endif
}

}  // namespace dgk
