// Asynchronous copies from global memory into team scratch (NVIDIA compute capability 8.0 and
// newer: PTX cp.async). A thread issues a copy and goes on; the value lands in shared memory
// without passing through its registers. Copies are grouped: async_commit() closes the group of
// the calling thread's copies issued since the last one, and async_wait<P>() waits until at most
// P of its most recent groups are still in flight. A copy is then visible to the thread that
// issued it; other threads of the team see it after a team barrier that follows the wait.
//
// Elsewhere (host backends, older GPUs) async_copy is a plain copy and the rest does nothing, so
// that code using them compiles everywhere; the kernels that use them run on the tensor-core
// GPUs only (dgk/core/tensor_core.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include <Kokkos_Core.hpp>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define DGK_ASYNC_COPY_PTX 1
#endif

namespace dgk {

/// Copies Bytes (4, 8 or 16) from global memory at src to team scratch at dst, both aligned to
/// Bytes. 16-byte copies bypass the L1 cache (data read once), smaller ones go through it.
template <int Bytes>
KOKKOS_INLINE_FUNCTION void async_copy(void* dst, const void* src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "dgk::async_copy: 4, 8 or 16 bytes");
#ifdef DGK_ASYNC_COPY_PTX
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(src), "n"(Bytes) : "memory");
#else
  struct Chunk {
    alignas(Bytes) unsigned char b[Bytes];
  };
  *static_cast<Chunk*>(dst) = *static_cast<const Chunk*>(src);
#endif
}

/// The calling thread's share (rank of `threads`) of copying the `count` consecutive values at
/// src (global memory) to dst (team scratch): 16 bytes at a time where both start on a 16-byte
/// boundary and the run is a whole number of 16-byte pieces, else value by value.
template <class T>
KOKKOS_INLINE_FUNCTION void async_copy_run(T* dst, const T* src, int count, int rank, int threads) {
  constexpr int per = 16 / sizeof(T);
  const bool wide = count % per == 0 && reinterpret_cast<std::uintptr_t>(dst) % 16 == 0 &&
                    reinterpret_cast<std::uintptr_t>(src) % 16 == 0;
  if (wide) {
    for (int x = rank; x < count / per; x += threads) async_copy<16>(dst + per * x, src + per * x);
  } else {
    for (int x = rank; x < count; x += threads) async_copy<sizeof(T)>(dst + x, src + x);
  }
}

/// Closes the calling thread's group of copies issued since the previous call.
KOKKOS_INLINE_FUNCTION void async_commit() {
#ifdef DGK_ASYNC_COPY_PTX
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// Waits until at most Pending of the calling thread's most recent groups are in flight.
template <int Pending>
KOKKOS_INLINE_FUNCTION void async_wait() {
#ifdef DGK_ASYNC_COPY_PTX
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
#endif
}

/// The calling thread's share (rank of `threads`) of asking the L1 cache for the `bytes` at src
/// (global memory): one request per 128-byte line (PTX prefetch.global.L1), which also brings
/// the line into the L2. No register and no shared memory receives the lines, and nothing waits
/// for them, and the compiler may move the kernel's loads and stores across the requests (no
/// memory clobber). Elsewhere nothing.
KOKKOS_INLINE_FUNCTION void l1_prefetch(const void* src, std::size_t bytes, int rank, int threads) {
#ifdef DGK_ASYNC_COPY_PTX
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(src) / 128,
                       last = (reinterpret_cast<std::uintptr_t>(src) + bytes + 127) / 128;
  for (std::uintptr_t line = first + rank; line < last; line += threads)
    asm volatile("prefetch.global.L1 [%0];\n" ::"l"(line * 128));
#else
  (void)src;
  (void)bytes;
  (void)rank;
  (void)threads;
#endif
}

}  // namespace dgk
