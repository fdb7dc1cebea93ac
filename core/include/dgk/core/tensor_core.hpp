// FP64 tensor cores (NVIDIA compute capability 8.0 and newer): the warp-wide 8x8x4 double
// multiply-add D = A B + C of PTX's mma.sync.m8n8k4.f64, and the fragment layout every caller
// must follow (PTX ISA, "Matrix fragments for mma.m8n8k4 with .f64 floating point type"):
//
//   A (8 x 4, row-major fragment): lane l holds A(l / 4, l % 4)
//   B (4 x 8, column fragment):    lane l holds B(l % 4, l / 4)
//   C, D (8 x 8):                  lane l holds C(l / 4, 2 (l % 4)) and C(l / 4, 2 (l % 4) + 1)
//
// Compute capability 9.0 adds mma.sync.m16n8k4.f64, whose fragments are those of two such tiles
// stacked in rows (lane l holds A(l / 4, l % 4) and A(8 + l / 4, l % 4), the same B value, and
// C(l / 4, 2 (l % 4) + h), C(8 + l / 4, 2 (l % 4) + h) for h = 0, 1). On the H100 it runs at
// twice the m8n8k4 rate (66 against 33 TFLOP/s, docs/PERFORMANCE.md); mma_f64_block can pair
// row tiles into it.
//
// DGK_TENSOR_CORES_F64 is defined where the build's Kokkos targets such a GPU; the kernels that
// use mma_f64 exist only there. Whether the device code has m16n8k4 is asked of the device code
// itself (paired_tensor_cores): Kokkos 3.4 knows no architecture newer than Ampere, so a build
// for the H100 is configured for Ampere and its compiler emits compute capability 9.0, which no
// macro of the host pass can tell. All 32 lanes of a warp must call these functions together.
#pragma once

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA) &&                                                                 \
    (defined(KOKKOS_ARCH_AMPERE80) || defined(KOKKOS_ARCH_AMPERE86) || defined(KOKKOS_ARCH_AMPERE87) || \
     defined(KOKKOS_ARCH_ADA89) || defined(KOKKOS_ARCH_HOPPER90) || defined(KOKKOS_ARCH_BLACKWELL100) || \
     defined(KOKKOS_ARCH_BLACKWELL120))
#define DGK_TENSOR_CORES_F64 1
#endif

namespace dgk {

namespace detail {
/// The compute capability the device code was compiled for (__CUDA_ARCH__, e.g. 900).
struct DeviceCodeArch {
  KOKKOS_INLINE_FUNCTION void operator()(int, int& arch) const {
#if defined(__CUDA_ARCH__)
    arch = __CUDA_ARCH__;
#else
    (void)arch;
#endif
  }
};
}  // namespace detail

/// Whether this build's device code has the FP64 m16n8k4 of compute capability 9.0 (mma_f64_pair
/// as one instruction), asked once of the device code on the default CUDA device; false where the
/// build has no FP64 tensor cores. Kokkos must be initialized.
inline bool paired_tensor_cores() {
#ifdef DGK_TENSOR_CORES_F64
  static const bool paired = [] {
    int arch = 0;
    Kokkos::parallel_reduce("dgk::device_code_arch", Kokkos::RangePolicy<Kokkos::Cuda>(0, 1),
                            detail::DeviceCodeArch{}, Kokkos::Max<int>(arch));
    return arch >= 900;
  }();
  return paired;
#else
  return false;
#endif
}

/// Lane of the calling thread within its warp, for a Kokkos team launched with vector length 1
/// (team rank r is thread r of the block, so the warp is r / 32).
KOKKOS_INLINE_FUNCTION int warp_lane(int team_rank) { return team_rank & 31; }

/// v of lane src (0..31) of the calling warp; on the host, v.
KOKKOS_FORCEINLINE_FUNCTION int warp_shuffle(int v, int src) {
#if defined(__CUDA_ARCH__)
  return __shfl_sync(0xffffffffu, v, src);
#else
  (void)src;
  return v;
#endif
}

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

/// Two row tiles sharing a column tile: (c0, c1) += a0 b for the upper 8 x 8 tile and (c2, c3)
/// += a1 b for the lower one (see the file comment). One m16n8k4 on compute capability 9.0 and
/// newer, two m8n8k4 before.
KOKKOS_INLINE_FUNCTION void mma_f64_pair(double& c0, double& c1, double& c2, double& c3, double a0, double a1,
                                         double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
               : "+d"(c0), "+d"(c1), "+d"(c2), "+d"(c3)
               : "d"(a0), "d"(a1), "d"(b));
#else
  mma_f64(c0, c1, a0, b);
  mma_f64(c2, c3, a1, b);
#endif
}

/// One k-step of a warp's MB x NB block of 8 x 8 tiles: acc[i][j] += a[i] b[j] for the row tiles
/// with live[i] and the column tiles j < cols. With Paired, the row tiles go to the tensor cores
/// two by two (mma_f64_pair: half the instructions, each twice the work, so half as many
/// independent multiply-adds in flight per warp); a pair with one live tile computes both, so
/// a[i] must be zero where live[i] is false.
template <bool Paired, int MB, int NB>
KOKKOS_INLINE_FUNCTION void mma_f64_block(double (&acc)[MB][NB][2], const double (&a)[MB], const double (&b)[NB],
                                          const bool (&live)[MB], int cols) {
  constexpr int paired = Paired ? MB / 2 * 2 : 0;
  for (int i = 0; i < paired; i += 2)
    if (live[i] || live[i + 1])
      for (int j = 0; j < NB; ++j)
        if (j < cols) mma_f64_pair(acc[i][j][0], acc[i][j][1], acc[i + 1][j][0], acc[i + 1][j][1], a[i], a[i + 1], b[j]);
  for (int i = paired; i < MB; ++i)
    for (int j = 0; j < NB; ++j)
      if (live[i] && j < cols) mma_f64(acc[i][j][0], acc[i][j][1], a[i], b[j]);
}

}  // namespace dgk
