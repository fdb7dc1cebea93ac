// Probe for docs/PERFORMANCE.md, "Warp barriers inside Kokkos's league loop" (not built by CMake).
//
// Times the lane-finished tensor-core volume kernel of the tuned family (paired row tiles,
// unrolled; by default N = 8, w_i = 2, fields in scratch, one group per team: the choice of the
// H100 tables; other shapes with -DPROBE_ORDER, -DPROBE_WI, -DPROBE_REGISTER_FIELDS (0 or 1) and
// -DPROBE_GROUPS) on random data, launched four ways on the same functor:
//   kokkos      as dgk launches it (Kokkos::parallel_for over a TeamPolicy);
//   plain       its body called from a plain CUDA kernel, one team per block;
//   loop        the same inside a loop over the league, as Kokkos's driver runs it;
//   lock        the same behind the driver's level-1 scratch lock (never taken: no level-1
//               scratch), without the loop.
// The outputs of the four launches are compared bitwise. Build it with the flags of the CUDA
// build's physics objects (nvcc_wrapper, -std=c++17, --expt-extended-lambda,
// --expt-relaxed-constexpr, the include folders of core, physics, basis, mesh and backends)
// and link it with Kokkos and core/libdgk_core.a. Arguments: repetitions (30).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>
// Kokkos's team member has no public constructor, and the tuned kernels launch privately; the
// probe builds the member as Kokkos's driver does and launches as the solver does.
#define private public
#include <Kokkos_Core.hpp>

#include "dgk/core/shared_carveout.hpp"
#include "dgk/kernels/nodal_tet/tuned.hpp"
#include "dgk/physics/maxwell3d.hpp"
#undef private

#ifndef PROBE_ORDER
#define PROBE_ORDER 8
#endif
#ifndef PROBE_WI
#define PROBE_WI 2
#endif
#ifndef PROBE_REGISTER_FIELDS
#define PROBE_REGISTER_FIELDS 0
#endif
#ifndef PROBE_GROUPS
#define PROBE_GROUPS 1
#endif

namespace {
using Physics = dgk::physics::Maxwell3D;
using K8 = dgk::kernels::nodal_tet::TunedKernels<PROBE_ORDER, Physics, Kokkos::Cuda, double>;
using Tag = dgk::kernels::nodal_tet::TagTensorVolumeLanes<PROBE_WI, true, PROBE_REGISTER_FIELDS != 0, true, false, 0>;
using Member = Kokkos::Impl::CudaTeamMember;

// Kokkos's team reserve ahead of the team's scratch: (team size + 2) doubles.
constexpr int reserve = sizeof(double) * (32 + 2);

template <bool Loop, bool Lock>
__global__ void plain_kernel(const K8 k, int league, int scratch, int level1) {
  extern __shared__ double shared[];
  long long slot = 0;
  if (Lock && level1 > 0) {  // Kokkos's ParallelFor<TeamPolicy>: a level-1 scratch slot per block
    __shared__ long long base;
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      const auto& locks = Kokkos::Impl::g_device_cuda_lock_arrays;
      slot = (blockIdx.x * blockDim.z + threadIdx.z) % (locks.n / (blockDim.x * blockDim.y)) * blockDim.x * blockDim.y;
      while (atomicCAS(&locks.scratch[slot], 0, 1) != 0) {
        slot += blockDim.x * blockDim.y;
        if (slot + blockDim.x * blockDim.y >= locks.n) slot = 0;
      }
      base = slot;
    }
    __syncthreads();
    slot = base;
  }
  if constexpr (Loop) {
    for (int rank = blockIdx.x; rank < league; rank += gridDim.x)
      k(Tag(), Member(shared, reserve, scratch, nullptr, 0, rank, league));
  } else {
    k(Tag(), Member(shared, reserve, scratch, nullptr, 0, blockIdx.x, league));
  }
  if (Lock && level1 > 0) {
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0) Kokkos::Impl::g_device_cuda_lock_arrays.scratch[slot] = 0;
  }
}
}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    constexpr int np = K8::np, nf = K8::nf;
    const int K = 196608, reps = argc > 1 ? std::atoi(argv[1]) : 30;
    K8 k;  // the tuned kernels of one order
    k.mesh.num_elements = K;
    k.mesh.drdx = decltype(k.mesh.drdx)("drdx", K);
    k.mesh.material = decltype(k.mesh.material)("material", K);
    k.q = dgk::kernels::nodal_tet::Fields<double, Kokkos::CudaSpace>("q", K, nf, np);
    k.rhs = dgk::kernels::nodal_tet::Fields<double, Kokkos::CudaSpace>("rhs", K, nf, np);
    k.tensor_D = Kokkos::View<double*, Kokkos::CudaSpace>("D", 3 * K8::mtd * K8::kst * 32);
    std::mt19937_64 gen(7);
    std::uniform_real_distribution<double> u(0.5, 1.5);
    auto fill = [&](auto v) {
      auto h = Kokkos::create_mirror_view(v);
      for (std::size_t x = 0; x < h.span(); ++x) h.data()[x] = u(gen);
      Kokkos::deep_copy(v, h);
    };
    fill(k.mesh.drdx);
    fill(k.mesh.material);
    fill(k.q);
    fill(k.tensor_D);
    k.shape.lane_epilogue = k.shape.unrolled = k.shape.paired_tiles = true;
    k.shape.inline_blocks = PROBE_WI;
    k.shape.register_fields = PROBE_REGISTER_FIELDS != 0;
    k.shape.warps = 1;
    k.shape.sequential = PROBE_GROUPS;
    k.shape.elements = 4;
    k.begin = 0;
    k.end = K;
    const std::size_t bytes = K8::scratch_bytes_tensor_lanes(k.shape, false);
    const int league = (K + 4 * PROBE_GROUPS - 1) / (4 * PROBE_GROUPS);
    cudaStream_t stream = Kokkos::Cuda().cuda_stream();
    auto kokkos = [&] { k.template launch<Tag>(Kokkos::Cuda(), "probe", 4 * PROBE_GROUPS, bytes, 32); };
    auto plain_launch = [&](auto kernel) {
      cudaFuncSetCacheConfig(kernel, cudaFuncCachePreferShared);
      return [=] { kernel<<<league, dim3(1, 32, 1), bytes + reserve, stream>>>(k, league, static_cast<int>(bytes), 0); };
    };
    auto plain = plain_launch(plain_kernel<false, false>);
    auto loop = plain_launch(plain_kernel<true, false>);
    auto lock = plain_launch(plain_kernel<false, true>);
    dgk::CarveoutMemo memo[3];
    dgk::fit_shared_carveout(plain_kernel<false, false>, 32, bytes + reserve, memo[0]);
    dgk::fit_shared_carveout(plain_kernel<true, false>, 32, bytes + reserve, memo[1]);
    dgk::fit_shared_carveout(plain_kernel<false, true>, 32, bytes + reserve, memo[2]);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    auto time = [&](auto&& f) {
      cudaEventRecord(a, stream);
      f();
      cudaEventRecord(b, stream);
      cudaEventSynchronize(b);
      float ms = 0;
      cudaEventElapsedTime(&ms, a, b);
      return static_cast<double>(ms);
    };
    auto output = [&](auto&& f) {
      Kokkos::deep_copy(k.rhs, 0.0);
      f();
      Kokkos::fence();
      return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.rhs);
    };
    const auto reference = output(kokkos);
    const char* names[] = {"kokkos", "plain", "loop", "lock"};
    bool same[4] = {true, true, true, true};
    std::vector<double> t[4];
    for (int w = 0; w < 3; ++w) kokkos(), plain(), loop(), lock();
    for (int r = 0; r < reps; ++r) {
      t[0].push_back(time(kokkos));
      t[1].push_back(time(plain));
      t[2].push_back(time(loop));
      t[3].push_back(time(lock));
    }
    int v = 1;
    for (auto f : {plain, loop, lock}) {
      const auto h = output(f);
      for (std::size_t x = 0; x < h.span(); ++x) same[v] = same[v] && h.data()[x] == reference.data()[x];
      ++v;
    }
    std::printf("N = %d, %d elements, medians of %d (CUDA events)\n", PROBE_ORDER, K, reps);
    for (int x = 0; x < 4; ++x) {
      std::sort(t[x].begin(), t[x].end());
      std::printf("%-7s %8.4f ms  %5.3f of kokkos  %s\n", names[x], t[x][reps / 2], t[x][reps / 2] / t[0][reps / 2],
                  same[x] ? "output identical" : "OUTPUT DIFFERS");
    }
  }
  Kokkos::finalize();
}
