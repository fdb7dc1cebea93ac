// How much of a GPU multiprocessor's unified L1 / shared storage a team kernel carves out for
// shared memory. Kokkos 3.4 launches every team kernel preferring shared memory
// (cudaFuncCachePreferShared), so the driver sets aside the most shared memory it can (228 KB of
// the H100's 256 KB) even where the teams resident on a multiprocessor use far less, and the L1
// cache, which serves the operators the kernels read from global memory, keeps what is left. A
// kernel whose operator does not fit that remainder reads it from L2 (docs/DESIGN.md,
// "Shared-memory carveout"; the measurements in docs/PERFORMANCE.md).
//
// fit_shared_carveout sets a kernel's preferred carveout to what its resident teams need: the
// teams its registers and threads allow (cudaOccupancyMaxActiveBlocksPerMultiprocessor), at most
// as many as the shared memory holds, times each team's shared memory (its scratch, Kokkos's
// own per-team space, the kernel's static shared memory and the driver's reservation). The
// occupancy is unchanged and the rest becomes L1. Kokkos sets its preference once, at a kernel's
// first launch, so the carveout is set after each launch and takes effect from the next.
//
// The kernels of a stage can instead share one carveout, the largest any of them needs (`floor`,
// kept by the caller; a tuning parameter, NodalTuning::stage_carveout). On the H100 a fused
// gather + lift + update at N = 5 took 2.00 ms at its fitted carveout right after the volume
// kernel at the largest one, against 1.57 ms at the same carveout in a loop of its own (Nsight
// Compute); alternating carveouts between other kernels cost nothing measurable
// (docs/PERFORMANCE.md, "Whole stages against the sum of their kernels").
// A kernel can also be given fewer resident teams than its registers and threads allow
// (`max_resident`, a tuning parameter, MicroShape::resident_teams): its carveout is then fitted to
// that many teams, so that the shared memory, not the registers, limits the teams per
// multiprocessor and the L1 gets the rest. The driver rounds a carveout up to one of the sizes
// the hardware has (on the H100: 0, 8, 16, 32, 64, 100, 132, 164, 196 and 228 KB), which may hold
// one team more. Such a kernel keeps its own carveout in a stage that shares one (a stage's
// carveout would undo the cap). On the H100 three resident teams of the fused gather + lift +
// update of eight warps at N = 6 (four fit) took 0.92 times as long (docs/PERFORMANCE.md, "Fewer
// resident teams of the tensor-core lift").
//
// A launch does not map a percent to a configuration as the documentation and the occupancy
// calculator do (the smallest configuration of at least that percent of 228 KB): for blocks of
// about 20 KB of shared memory or more it does, for smaller blocks it takes a larger one (blocks
// of 1.4 KB: 4% gives 64 KB and 16% 164 KB; 3.7 KB: 43% gives 164 KB where 132 KB would do). So
// small blocks run a configuration or two above what their teams need, with less L1 (which costs
// the fused stage at N = 1 and 2 about 0.5%). The driver's own choice (no cache preference, no
// carveout) is no remedy: next to Kokkos's kernels it took 228 KB, most likely to run beside the
// kernels still running, and the fused stage at N = 2 took 1.18 times as long
// (docs/PERFORMANCE.md, "The carveout a launch takes").
// DGK_SHARED_CARVEOUT=max in the environment keeps Kokkos's preference (for measuring).
#pragma once

#include <Kokkos_Core.hpp>

// Whether this build fits team kernels' carveouts: CUDA, with the Kokkos 3.4 launch internals the
// kernel function is taken from.
#if defined(KOKKOS_ENABLE_CUDA) && KOKKOS_VERSION / 100 == 304
#define DGK_FITS_SHARED_CARVEOUT 1
#else
#define DGK_FITS_SHARED_CARVEOUT 0
#endif

#if defined(KOKKOS_ENABLE_CUDA)
#include <cstdlib>
#include <cstring>
#endif

namespace dgk {

#if defined(KOKKOS_ENABLE_CUDA)
/// Whether fit_shared_carveout is off (DGK_SHARED_CARVEOUT=max).
inline bool shared_carveout_max() {
  static const bool max = [] {
    const char* v = std::getenv("DGK_SHARED_CARVEOUT");
    return v != nullptr && std::strcmp(v, "max") == 0;
  }();
  return max;
}

/// What fit_shared_carveout last did for one kernel: the launch shape it fitted, the carveout that
/// shape needs and the carveout it set (-1: none), so that repeated launches cost no driver call.
struct CarveoutMemo {
  int threads = -1;
  std::size_t dynamic_shared = 0;
  int max_resident = 0;
  int need = -1;
  int percent = -1;
};

/// The carveout (percent of the multiprocessor's shared memory) that holds the resident blocks of
/// `kernel` launched with `threads` per block and `dynamic_shared` bytes of dynamic shared memory
/// each, at most `max_resident` of them where that is positive. Sets the larger of it and `floor`
/// as the kernel's preference and returns it (what this kernel needs), or -1 where it left the
/// preference alone.
template <class Kernel>
int fit_shared_carveout(Kernel kernel, int threads, std::size_t dynamic_shared, CarveoutMemo& memo, int floor = -1,
                        int max_resident = 0) {
  if (shared_carveout_max()) return -1;
  if (threads != memo.threads || dynamic_shared != memo.dynamic_shared || max_resident != memo.max_resident) {
    memo.threads = threads;
    memo.dynamic_shared = dynamic_shared;
    memo.max_resident = max_resident;
    memo.need = memo.percent = -1;
    int device = 0, per_sm = 0, reserved = 0, blocks = 0;
    cudaFuncAttributes attributes{};
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device) != cudaSuccess ||
        cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernel)) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0) != cudaSuccess || per_sm <= 0) {
      (void)cudaGetLastError();
      return -1;
    }
    const std::size_t per_block = dynamic_shared + attributes.sharedSizeBytes + static_cast<std::size_t>(reserved);
    const std::size_t fit = per_block > 0 ? static_cast<std::size_t>(per_sm) / per_block : blocks;
    std::size_t resident = std::min(static_cast<std::size_t>(blocks), fit);
    if (max_resident > 0) resident = std::min(resident, static_cast<std::size_t>(max_resident));
    const std::size_t need = resident * per_block;
    const int percent = static_cast<int>((100 * need + per_sm - 1) / per_sm);
    memo.need = percent < 0 ? 0 : (percent > 100 ? 100 : percent);
  }
  if (memo.need < 0) return -1;
  const int percent = memo.need > floor ? memo.need : floor;
  if (percent != memo.percent) {
    if (cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), cudaFuncAttributePreferredSharedMemoryCarveout,
                             percent) != cudaSuccess) {
      (void)cudaGetLastError();
      return -1;
    }
    memo.percent = percent;
  }
  return memo.need;
}
#endif

/// After a launch of `functor` with the team policy `policy` and `scratch` bytes of team scratch
/// per team: fits the kernel's shared-memory carveout (see the file comment), at least `*stage`
/// where given, and raises `*stage` to what this kernel needs. With `max_resident` > 0: fitted to
/// at most that many resident teams, apart from the stage's carveout. Nothing on other backends,
/// or with a Kokkos whose internals this was not written for (3.4).
template <class Functor, class Policy>
void fit_team_shared_carveout(const Policy& policy, std::size_t scratch, int* stage = nullptr, int max_resident = 0) {
#if DGK_FITS_SHARED_CARVEOUT
  if constexpr (std::is_same<typename Policy::execution_space, Kokkos::Cuda>::value) {
    using Driver = Kokkos::Impl::ParallelFor<Functor, Policy, Kokkos::Cuda>;
    using Launch = Kokkos::Impl::CudaParallelLaunchKernelFunc<
        Driver, typename Policy::launch_bounds, Kokkos::Impl::DeduceCudaLaunchMechanism<Driver>::launch_mechanism>;
    static CarveoutMemo memo;
    const int team = policy.team_size();
    // Kokkos's team kernels put sizeof(double) (team size + 2) bytes of their own before the
    // team scratch.
    const bool shared = stage != nullptr && max_resident <= 0;
    const int need = fit_shared_carveout(Launch::get_kernel_func(), team, scratch + sizeof(double) * (team + 2),
                                         memo, shared ? *stage : -1, max_resident);
    if (shared && need > *stage) *stage = need;
  }
#else
  (void)policy;
  (void)scratch;
  (void)stage;
  (void)max_resident;
#endif
}

/// Whether team kernels on `Space` fit their shared-memory carveout (and so whether a stage's
/// kernels can share one).
template <class Space>
constexpr bool fits_shared_carveout() {
#if DGK_FITS_SHARED_CARVEOUT
  return std::is_same<Space, Kokkos::Cuda>::value;
#else
  return false;
#endif
}

}  // namespace dgk
