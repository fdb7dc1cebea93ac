#include "cuda_reference.hpp"

#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "dgk/core/async_copy.hpp"
#include "dgk/core/order_dispatch.hpp"
#include "dgk/core/shared_carveout.hpp"
#include "dgk/core/tensor_core.hpp"
#include "dgk/kernels/nodal_tet/tuned.hpp"
#include "dgk/physics/maxwell3d.hpp"
#include "dgk/physics/tet_solver.hpp"
#endif

namespace dgk::app {

#ifdef KOKKOS_ENABLE_CUDA
namespace {

using Physics = physics::Maxwell3D;
constexpr int nf = Physics::num_fields;

// Keeps the GPU busy for `ns` nanoseconds of its global timer (one thread): the host queues the
// timed launch behind it.
constexpr unsigned long long spin_nanoseconds = 200000;
__global__ void spin_kernel(unsigned long long ns) {
  unsigned long long t0 = 0, t = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

// The volume term at node i of element e from its reference derivatives, stored in rhs: the
// chain rule through the element's metric terms, then Maxwell's curl with its material.
template <int np>
__device__ void write_volume(const double* __restrict__ drdx, const double* __restrict__ material,
                             double* __restrict__ rhs, std::size_t e, int i, const double (&dr)[nf],
                             const double (&ds)[nf], const double (&dt)[nf]) {
  double g[9];
  for (int c = 0; c < 9; ++c) g[c] = drdx[e * 9 + c];
  const double mat[2] = {material[2 * e], material[2 * e + 1]};
  double grad[3][nf];
  for (int f = 0; f < nf; ++f) {
    grad[0][f] = g[0] * dr[f] + g[1] * ds[f] + g[2] * dt[f];
    grad[1][f] = g[3] * dr[f] + g[4] * ds[f] + g[5] * dt[f];
    grad[2][f] = g[6] * dr[f] + g[7] * ds[f] + g[8] * dt[f];
  }
  double out[nf];
  Physics::volume(grad, mat, out);
  for (int f = 0; f < nf; ++f) rhs[(e * nf + f) * np + i] = out[f];
}

// The same with the element's metric terms and material already read.
template <int np>
__device__ void write_volume(const double (&g)[9], const double (&mat)[2], double* __restrict__ rhs, std::size_t e,
                             int i, const double (&dr)[nf], const double (&ds)[nf], const double (&dt)[nf]) {
  double grad[3][nf];
  for (int f = 0; f < nf; ++f) {
    grad[0][f] = g[0] * dr[f] + g[1] * ds[f] + g[2] * dt[f];
    grad[1][f] = g[3] * dr[f] + g[4] * ds[f] + g[5] * dt[f];
    grad[2][f] = g[6] * dr[f] + g[7] * ds[f] + g[8] * dt[f];
  }
  double out[nf];
  Physics::volume(grad, mat, out);
  for (int f = 0; f < nf; ++f) rhs[(e * nf + f) * np + i] = out[f];
}

// One block per element, one thread per node; the element's fields staged in shared memory;
// rows of D read from global memory (column-major, so consecutive threads read consecutive
// entries). The same algorithm as the Kokkos team kernel.
template <int N>
__global__ void volume_kernel(const double* __restrict__ Dr, const double* __restrict__ Ds,
                              const double* __restrict__ Dt, const double* __restrict__ drdx,
                              const double* __restrict__ material, const double* __restrict__ q,
                              double* __restrict__ rhs) {
  constexpr int np = (N + 1) * (N + 2) * (N + 3) / 6;
  __shared__ double sq[nf * np];
  const int e = blockIdx.x;
  const double* qe = q + static_cast<std::size_t>(e) * nf * np;
  for (int k = threadIdx.x; k < nf * np; k += blockDim.x) sq[k] = qe[k];
  __syncthreads();
  for (int i = threadIdx.x; i < np; i += blockDim.x) {
    double dr[nf], ds[nf], dt[nf];
    for (int f = 0; f < nf; ++f) dr[f] = ds[f] = dt[f] = 0.0;
    for (int j = 0; j < np; ++j) {
      const double a = Dr[i + j * np], b = Ds[i + j * np], c = Dt[i + j * np];
      for (int f = 0; f < nf; ++f) {
        const double v = sq[f * np + j];
        dr[f] += a * v;
        ds[f] += b * v;
        dt[f] += c * v;
      }
    }
    write_volume<np>(drdx, material, rhs, e, i, dr, ds, dt);
  }
}

// The micro volume kernel of the tuned family (dgk/kernels/nodal_tet/tuned.hpp) in plain CUDA:
// a block takes ws groups of WI microblocks of k elements, one thread per (element, RI nodes) of
// a microblock, the block padded to a warp multiple; the operators and/or the group's fields in
// shared memory as `staging` says (1 fields, 2 operators, 3 both). Same loads, same sums.
template <int N, int WI, int RI>
__device__ __forceinline__ void micro_volume_body(const double* __restrict__ Dr, const double* __restrict__ Ds,
                                                  const double* __restrict__ Dt, const double* __restrict__ drdx,
                                                  const double* __restrict__ material, const double* __restrict__ q,
                                                  double* __restrict__ rhs, int K, int k, int ws, int staging) {
  constexpr int np = (N + 1) * (N + 2) * (N + 3) / 6;
  extern __shared__ double shared[];
  const bool op_staged = staging & 2, fields_staged = staging & 1;
  const int group = WI * k, team_first = blockIdx.x * group * ws;
  const double* D[3] = {Dr, Ds, Dt};
  if (op_staged) {
    for (int t = threadIdx.x; t < np * np; t += blockDim.x) {
      shared[t] = Dr[t];
      shared[np * np + t] = Ds[t];
      shared[2 * np * np + t] = Dt[t];
    }
    for (int d = 0; d < 3; ++d) D[d] = shared + d * np * np;
  }
  double* sq = shared + (op_staged ? 3 * np * np : 0);
  for (int s = 0; s < ws; ++s) {
    const int g0 = team_first + s * group;
    if (g0 >= K) break;
    if (fields_staged) {
      if (s > 0) __syncthreads();
      for (int t = threadIdx.x; t < group * nf * np; t += blockDim.x) {
        const int r = t / (nf * np), e = g0 + r < K ? g0 + r : K - 1;
        sq[t] = q[static_cast<std::size_t>(e) * nf * np + t % (nf * np)];
      }
    }
    __syncthreads();
    constexpr int nt = (np + RI - 1) / RI;
    const int t = threadIdx.x;
    if (t >= k * nt) continue;
    const int l = t / nt, ii = t % nt;
    int row[RI];
    for (int r = 0; r < RI; ++r) row[r] = ii + r * nt < np ? ii + r * nt : np - 1;
    const double* u[WI];
    int e[WI];
    for (int w = 0; w < WI; ++w) {
      e[w] = g0 + w * k + l;
      u[w] = fields_staged ? sq + static_cast<std::size_t>(w * k + l) * nf * np
                           : q + static_cast<std::size_t>(e[w] < K ? e[w] : K - 1) * nf * np;
    }
    double dr[WI][RI][nf], ds[WI][RI][nf], dt[WI][RI][nf];
    for (int w = 0; w < WI; ++w)
      for (int r = 0; r < RI; ++r)
        for (int f = 0; f < nf; ++f) dr[w][r][f] = ds[w][r][f] = dt[w][r][f] = 0.0;
    for (int j = 0; j < np; ++j) {
      double x[RI], y[RI], z[RI];
      for (int r = 0; r < RI; ++r) {
        x[r] = D[0][row[r] + j * np];
        y[r] = D[1][row[r] + j * np];
        z[r] = D[2][row[r] + j * np];
      }
      for (int w = 0; w < WI; ++w)
        for (int f = 0; f < nf; ++f) {
          const double v = u[w][f * np + j];
          for (int r = 0; r < RI; ++r) {
            dr[w][r][f] += x[r] * v;
            ds[w][r][f] += y[r] * v;
            dt[w][r][f] += z[r] * v;
          }
        }
    }
    for (int w = 0; w < WI; ++w)
      for (int r = 0; r < RI; ++r) {
        const int i = ii + r * nt;
        if (e[w] >= K || i >= np) continue;
        write_volume<np>(drdx, material, rhs, e[w], i, dr[w][r], ds[w][r], dt[w][r]);
      }
  }
}

// The kernel as the shape says: as compiled, or (w_i = r_i = 1) for one-warp blocks under a
// register cap, the same launch bounds as the Kokkos kernel's (TunedKernels::PolicyOf).
#define DGK_MICRO_VOLUME_PARAMS                                                                      \
  const double *__restrict__ Dr, const double *__restrict__ Ds, const double *__restrict__ Dt,      \
      const double *__restrict__ drdx, const double *__restrict__ material, const double *__restrict__ q, \
      double *__restrict__ rhs, int K, int k, int ws, int staging
template <int N, int WI, int RI>
__global__ void micro_volume_kernel(DGK_MICRO_VOLUME_PARAMS) {
  micro_volume_body<N, WI, RI>(Dr, Ds, Dt, drdx, material, q, rhs, K, k, ws, staging);
}
template <int N, int MaxRegisters>
__global__ void __launch_bounds__(32, kernels::nodal_tet::warp_teams_per_sm(MaxRegisters))
    micro_volume_capped_kernel(DGK_MICRO_VOLUME_PARAMS) {
  micro_volume_body<N, 1, 1>(Dr, Ds, Dt, drdx, material, q, rhs, K, k, ws, staging);
}
#undef DGK_MICRO_VOLUME_PARAMS
template <int N, int WI, int RI, int MaxRegisters>
auto micro_volume_kernel_for(kernels::nodal_tet::TagMicroVolume<WI, RI, MaxRegisters>) {
  if constexpr (MaxRegisters == 0)
    return micro_volume_kernel<N, WI, RI>;
  else
    return micro_volume_capped_kernel<N, MaxRegisters>;
}

#ifdef DGK_TENSOR_CORES_F64
// The tensor-core volume kernel of the tuned family (dgk/kernels/nodal_tet/tuned.hpp) in plain
// CUDA: per group of k elements, [D_r; D_s; D_t] (operator fragments in lane order, A) times the
// group's fields staged in shared memory as 4 x 8 fragments, on FP64 tensor cores, in `passes`
// passes over the rows; the product in shared memory (column-major), then the volume term per
// node. Same fragments, same products (row tiles paired into m16n8k4 as the shape says), same
// order.
// The operator fragments and the fields are read through plain pointers, as the Kokkos kernel
// reads its (non-const) Views, so both take the same load path.
template <int N, int MB, bool Paired>
__global__ void tensor_volume_kernel(const double* A, const double* __restrict__ drdx,
                                     const double* __restrict__ material, const double* q,
                                     double* __restrict__ rhs, int K, int k, int ws, int passes) {
  constexpr int np = (N + 1) * (N + 2) * (N + 3) / 6, mtd = (np + 7) / 8, kst = (np + 3) / 4, NB = 3;
  extern __shared__ double shared[];
  const int cols = nf * k, nt = (cols + 7) / 8, cm = (mtd + passes - 1) / passes, ldc = 3 * cm * 8 + 4;
  double* sb = shared;
  double* sc = sb + kst * nt * 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const int mblocks = (3 * cm + MB - 1) / MB, nblocks = (nt + NB - 1) / NB;
  const int team_first = blockIdx.x * k * ws;
  for (int s = 0; s < ws; ++s) {
    const int g0 = team_first + s * k;
    if (g0 >= K) break;
    if (s > 0) __syncthreads();
    for (int x = threadIdx.x; x < kst * nt * 32; x += blockDim.x) {
      const int l = x % 32, tile = x / 32, t = tile % nt, ks = tile / nt;
      const int col = t * 8 + l / 4, node = ks * 4 + l % 4, e = g0 + col / nf;
      sb[x] = (col < cols && node < np && e < K) ? q[(static_cast<std::size_t>(e) * nf + col % nf) * np + node] : 0.0;
    }
    __syncthreads();
    for (int p = 0; p < passes; ++p) {
      const int first_tile = p * cm;
      if (first_tile >= mtd) break;
      if (p > 0) __syncthreads();
      for (int item = warp; item < mblocks * nblocks; item += warps) {
        const int mb = item % mblocks, nb = item / mblocks;
        int tile[MB];
        for (int i = 0; i < MB; ++i) {
          const int r = mb * MB + i, local = first_tile + r % cm;
          tile[i] = (r < 3 * cm && local < mtd) ? (r / cm) * mtd + local : -1;
        }
        double acc[MB][NB][2];
        for (int i = 0; i < MB; ++i)
          for (int j = 0; j < NB; ++j) acc[i][j][0] = acc[i][j][1] = 0.0;
        bool live[MB];
        for (int i = 0; i < MB; ++i) live[i] = tile[i] >= 0;
        const int cols_left = nt - nb * NB;
        for (int ks = 0; ks < kst; ++ks) {
          double av[MB], bv[NB];
          for (int i = 0; i < MB; ++i)
            av[i] = live[i] ? A[(static_cast<std::size_t>(tile[i]) * kst + ks) * 32 + lane] : 0.0;
          for (int j = 0; j < NB; ++j) bv[j] = j < cols_left ? sb[(ks * nt + nb * NB + j) * 32 + lane] : 0.0;
          mma_f64_block<Paired>(acc, av, bv, live, cols_left);
        }
        for (int i = 0; i < MB; ++i) {
          if (tile[i] < 0) continue;
          const int d = tile[i] / mtd, row = d * cm * 8 + (tile[i] % mtd - first_tile) * 8 + lane / 4;
          for (int j = 0; j < NB; ++j) {
            if (nb * NB + j >= nt) continue;
            const int col = (nb * NB + j) * 8 + 2 * (lane % 4);
            sc[static_cast<std::size_t>(col) * ldc + row] = acc[i][j][0];
            sc[static_cast<std::size_t>(col + 1) * ldc + row] = acc[i][j][1];
          }
        }
      }
      __syncthreads();
      const int node0 = first_tile * 8, nodes = np - node0 < cm * 8 ? np - node0 : cm * 8;
      for (int x = threadIdx.x; x < k * nodes; x += blockDim.x) {
        const int le = x / nodes, i = x % nodes, e = g0 + le;
        if (e >= K) continue;
        double dr[nf], ds[nf], dt[nf];
        for (int f = 0; f < nf; ++f) {
          const double* c = sc + static_cast<std::size_t>(le * nf + f) * ldc + i;
          dr[f] = c[0];
          ds[f] = c[cm * 8];
          dt[f] = c[2 * cm * 8];
        }
        write_volume<np>(drdx, material, rhs, e, node0 + i, dr, ds, dt);
      }
    }
  }
}

// The tensor-core volume kernel finished by the lanes (TagTensorVolumeLanes of the tuned family)
// in plain CUDA: four elements per warp, their columns ordered so that lane l's accumulators
// hold every field of element l % 4 at node l / 4 of a row tile; the fields as B fragments in
// registers or in the warp's part of shared memory (LaneFragments); WI row tiles of each D per
// pass (paired into m16n8k4 as the shape says); the staging and k-steps unrolled or not; with
// Ops (fields in registers) the operator's fragments first copied into the block's shared memory
// and read there. Same fragments, same products, same order, same unrolling.
#define DGK_LANES_VOLUME_PARAMS                                                                  \
  const double *A, const double *__restrict__ drdx, const double *__restrict__ material, const double *q, \
      double *__restrict__ rhs, int K, int ws
template <int N, int WI, bool Paired, bool RegisterFields, bool Unrolled, bool Ops = false>
__device__ __forceinline__ void tensor_volume_lanes_body(DGK_LANES_VOLUME_PARAMS) {
  constexpr int np = (N + 1) * (N + 2) * (N + 3) / 6, mtd = (np + 7) / 8, kst = (np + 3) / 4;
  constexpr int NB = (nf + 1) / 2;
  extern __shared__ double shared[];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  static_assert(!Ops || RegisterFields, "the operator in shared memory: fields in registers");
  if constexpr (Ops) {
    // As the Kokkos kernel: asynchronous copies, then the block's barrier.
    dgk::async_copy_run(shared, A, 3 * mtd * kst * 32, static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x));
    dgk::async_commit();
    dgk::async_wait<0>();
    __syncthreads();
    A = shared;
  }
  using Fragments = kernels::nodal_tet::LaneFragments<np, NB>;
  double* mine = shared + static_cast<std::size_t>(warp) * Fragments::values;
  const int b_element = lane / 8, b_field = (lane / 4) % 2, b_node = lane % 4;
  // The block's barrier where the Kokkos kernel has the team's (its groups taken together).
  constexpr bool synced = kernels::nodal_tet::lanes_team_barrier(RegisterFields, false);
  for (int s = 0; s < ws; ++s) {
    const int g0 = (blockIdx.x * ws + s) * warps, e0 = (g0 + warp) * 4;
    if ((synced ? g0 * 4 : e0) >= K) break;
    const int eb = e0 + b_element < K ? e0 + b_element : K - 1;
    const double* src = q + static_cast<std::size_t>(eb) * nf * np;
    double bv[RegisterFields ? kst : 1][NB];
    if (synced) __syncthreads();
    auto load = [&](int ks, int j) {
      const int f = 2 * j + b_field, i = 4 * ks + b_node;
      return f < nf && i < np ? src[f * np + i] : 0.0;
    };
    if constexpr (Unrolled) {
#pragma unroll
      for (int ks = 0; ks < kst; ++ks)
#pragma unroll
        for (int j = 0; j < NB; ++j) {
          if constexpr (RegisterFields)
            bv[ks][j] = load(ks, j);
          else
            Fragments::put(mine, ks, j, lane, load(ks, j));
        }
    } else if constexpr (!Fragments::peeled) {
      for (int x = 0; x < kst * NB; ++x) mine[x * 32 + lane] = load(x / NB, x % NB);
    } else {
      for (int x = 0; x < (kst - 1) * NB; ++x) mine[x * 32 + lane] = load(x / NB, x % NB);
#pragma unroll
      for (int j = 0; j < NB; ++j) Fragments::put(mine, kst - 1, j, lane, load(kst - 1, j));
    }
    // As the Kokkos kernel where it does (lanes_early_geometry): the lane's element's metric
    // terms and material, read once, before the products.
    using Tuned = kernels::nodal_tet::TunedKernels<N, Physics, Kokkos::Cuda, double>;
    [[maybe_unused]] double g[9], mat[2];
    if constexpr (Tuned::lanes_early_geometry) {
      const std::size_t eg = e0 + lane % 4 < K ? e0 + lane % 4 : K - 1;
      for (int c = 0; c < 9; ++c) g[c] = drdx[eg * 9 + c];
      for (int c = 0; c < 2; ++c) mat[c] = material[2 * eg + c];
    }
    if (synced) __syncthreads();
    const int e = e0 + lane % 4;
    // As the Kokkos kernel: the last pass over an odd number of paired row tiles at WI = 2 as a
    // pass of one row tile.
    auto pass = [&](const int t0, auto width) {
      constexpr int W = decltype(width)::value, MW = 3 * W;
      bool live[MW];
#pragma unroll
      for (int x = 0; x < MW; ++x) live[x] = t0 + x % W < mtd;
      double acc[MW][NB][2];
#pragma unroll
      for (int x = 0; x < MW; ++x)
#pragma unroll
        for (int j = 0; j < NB; ++j) acc[x][j][0] = acc[x][j][1] = 0.0;
      auto step = [&](int ks, auto last) {
        double av[MW], b[NB];
#pragma unroll
        for (int x = 0; x < MW; ++x)
          av[x] = live[x] ? A[(static_cast<std::size_t>((x / W) * mtd + t0 + x % W) * kst + ks) * 32 + lane] : 0.0;
#pragma unroll
        for (int j = 0; j < NB; ++j) {
          if constexpr (RegisterFields)
            b[j] = bv[ks][j];
          else
            b[j] = Fragments::template get<decltype(last)::value>(mine, ks, j, lane);
        }
        mma_f64_block<Paired>(acc, av, b, live, NB);
      };
      // One loop where nothing is peeled (as the Kokkos kernel).
      constexpr bool peeled = !RegisterFields && Fragments::peeled;
      if constexpr (Unrolled) {
#pragma unroll
        for (int ks = 0; ks < kst - peeled; ++ks) step(ks, std::false_type{});
      } else {
        for (int ks = 0; ks < kst - peeled; ++ks) step(ks, std::false_type{});
      }
      if constexpr (peeled) step(kst - 1, std::true_type{});
#pragma unroll
      for (int w = 0; w < W; ++w) {
        const int i = (t0 + w) * 8 + lane / 4;
        if (i < np && e < K) {
          double dr[nf], ds[nf], dt[nf];
#pragma unroll
          for (int f = 0; f < nf; ++f) {
            dr[f] = acc[w][f / 2][f % 2];
            ds[f] = acc[W + w][f / 2][f % 2];
            dt[f] = acc[2 * W + w][f / 2][f % 2];
          }
          if constexpr (Tuned::lanes_early_geometry)
            write_volume<np>(g, mat, rhs, e, i, dr, ds, dt);
          else
            write_volume<np>(drdx, material, rhs, e, i, dr, ds, dt);
        }
      }
    };
    constexpr bool odd_tail = Paired && WI == 2 && mtd % 2 == 1;
    for (int t0 = 0; t0 < (odd_tail ? mtd - 1 : mtd); t0 += WI) pass(t0, std::integral_constant<int, WI>{});
    if constexpr (odd_tail) pass(mtd - 1, std::integral_constant<int, 1>{});
  }
}
// The kernel as the shape says: as compiled, or (fields in registers) under a register cap or the
// open bounds of one team per SM (unpaired, but paired or not under the cap of 168), the same
// launch bounds as the Kokkos kernel's (TunedKernels::PolicyOf: teams of up to eight warps, of
// up to two under the cap of 168).
template <int N, int WI, bool Paired, bool RegisterFields, bool Unrolled, bool Ops = false>
__global__ void tensor_volume_lanes_kernel(DGK_LANES_VOLUME_PARAMS) {
  tensor_volume_lanes_body<N, WI, Paired, RegisterFields, Unrolled, Ops>(A, drdx, material, q, rhs, K, ws);
}
template <int N, int WI, int MaxRegisters, bool Paired = false,
          int Team = MaxRegisters == kernels::nodal_tet::lanes_mid_registers ? kernels::nodal_tet::lanes_mid_team : 256>
__global__ void __launch_bounds__(Team, kernels::nodal_tet::teams_per_sm(MaxRegisters, Team))
    tensor_volume_lanes_capped_kernel(DGK_LANES_VOLUME_PARAMS) {
  tensor_volume_lanes_body<N, WI, Paired, true, true>(A, drdx, material, q, rhs, K, ws);
}
#undef DGK_LANES_VOLUME_PARAMS
#endif

}  // namespace

CudaReferenceTiming time_cuda_reference_volume(Simulation& sim, int reps) {
  CudaReferenceTiming t;
  auto* solver = dynamic_cast<physics::TetSolver<Physics, double, Kokkos::Cuda>*>(&sim);
  if (!solver) {
    t.why = "the plain CUDA reference covers the maxwell3d solver on Cuda in double";
    return t;
  }
  const auto& ops = solver->operators();
  const auto& md = solver->mesh_data();
  const int K = md.num_elements, order = solver->order();
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::CudaSpace> out("dgk::bench::cuda_reference_rhs",
                                                                       solver->rhs_view().extent(0),
                                                                       solver->rhs_view().extent(1),
                                                                       solver->rhs_view().extent(2));
  cudaStream_t stream = Kokkos::Cuda().cuda_stream();
  // The kernel the solver runs: the tuned family's micro volume kernel with its parameters, or
  // the straightforward one.
  const auto& kn = solver->kernels();
  using kernels::nodal_tet::StageKernel;
  const bool tuned = kn.family == physics::TetKernelFamily::Tuned;
  const bool micro = tuned && kn.tuning.volume == StageKernel::Micro;
  const bool tensor = tuned && kn.tuning.volume == StageKernel::Tensor;
  // The shape the solver's volume() runs (a fused stage's volume part).
  const auto shape = kernels::nodal_tet::volume_part(kn.tuning.volume_shape);
  t.kernel = micro ? "micro" : (tensor ? "tensor" : "thread");
#ifndef DGK_TENSOR_CORES_F64
  if (tensor) {
    t.why = "the tensor-core volume kernel is not built here";
    return t;
  }
#endif
  // The tensor-core kernel's operator fragments, laid out as the Kokkos kernel lays them out.
  Kokkos::View<double*, Kokkos::CudaSpace> fragments;
  if (tensor)
    dispatch_order(order, [&](auto n) {
      fragments = kernels::nodal_tet::TunedKernels<decltype(n)::value, Physics, Kokkos::Cuda, double>::tensor_operator(
          Kokkos::Cuda(), ops);
    });
  // Each kernel's cache configuration as Kokkos's team launches set it: preferring shared memory,
  // and for the tuned family's kernels the carveout their resident blocks need, at least the one
  // the solver's stage shares (the straightforward kernel keeps Kokkos's preference, as its Kokkos
  // launch does); set once per kernel, outside the timed launches.
  std::map<const void*, CarveoutMemo> carveouts;
  auto configure = [&](auto kernel, int threads, std::size_t bytes) {
    const void* key = reinterpret_cast<const void*>(kernel);
    if (carveouts.count(key)) return;
    cudaFuncSetCacheConfig(kernel, cudaFuncCachePreferShared);
    if (bytes > 48 * 1024)
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
    CarveoutMemo& memo = carveouts[key];
    if (tuned) fit_shared_carveout(kernel, threads, bytes, memo, solver->stage_carveout());
  };
  auto launch = [&] {
    dispatch_order(order, [&](auto n) {
      constexpr int N = decltype(n)::value;
      constexpr int np = (N + 1) * (N + 2) * (N + 3) / 6;
#ifdef DGK_TENSOR_CORES_F64
      if (tensor && shape.lane_epilogue) {
        using Tuned = kernels::nodal_tet::TunedKernels<N, Physics, Kokkos::Cuda, double>;
        const std::size_t bytes = Tuned::scratch_bytes_tensor_lanes(shape, false, false);
        const int threads = 32 * shape.warps, per_block = 4 * shape.warps * shape.sequential;
        const int blocks = (K + per_block - 1) / per_block;
        auto go = [&](auto kernel) {
          configure(kernel, threads, bytes);
          kernel<<<blocks, threads, bytes, stream>>>(fragments.data(), md.drdx.data(), md.material.data(),
                                                     solver->fields().data(), out.data(), K, shape.sequential);
        };
        Tuned::dispatch_lanes(shape, [&](auto wi, auto paired) {
          constexpr int WI = decltype(wi)::value;
          constexpr bool P = decltype(paired)::value;
          if (shape.max_registers == Tuned::tensor_lanes_cap) {
            if constexpr (Tuned::lanes_register_caps && !P)
              go(tensor_volume_lanes_capped_kernel<N, WI, Tuned::tensor_lanes_cap>);
          } else if (shape.max_registers == Tuned::tensor_lanes_mid) {
            if constexpr (Tuned::lanes_mid_caps && WI == 1)
              go(tensor_volume_lanes_capped_kernel<N, WI, Tuned::tensor_lanes_mid, P>);
          } else if (shape.max_registers == Tuned::tensor_lanes_open) {
            if constexpr (Tuned::lanes_open_bounds && !P)
              go(tensor_volume_lanes_capped_kernel<N, WI, Tuned::tensor_lanes_open>);
          } else if (!shape.register_fields)
            shape.unrolled ? go(tensor_volume_lanes_kernel<N, WI, P, false, true>)
                           : go(tensor_volume_lanes_kernel<N, WI, P, false, false>);
          else if constexpr (Tuned::lane_fields <= Tuned::max_lane_fields) {
            if (Tuned::operators_staged(shape))
              go(tensor_volume_lanes_kernel<N, WI, P, true, true, true>);
            else
              go(tensor_volume_lanes_kernel<N, WI, P, true, true>);
          }
        });
        return;
      }
      if (tensor) {
        // The Kokkos kernel's scratch, so both run the same blocks per SM.
        const std::size_t bytes =
            kernels::nodal_tet::TunedKernels<N, Physics, Kokkos::Cuda, double>::scratch_bytes_tensor(shape);
        const int per_block = shape.elements * shape.sequential, blocks = (K + per_block - 1) / per_block;
        auto go = [&](auto kernel) {
          configure(kernel, 32 * shape.warps, bytes);
          kernel<<<blocks, 32 * shape.warps, bytes, stream>>>(fragments.data(), md.drdx.data(), md.material.data(),
                                                             solver->fields().data(), out.data(), K, shape.elements,
                                                             shape.sequential, shape.passes);
        };
        kernels::nodal_tet::TunedKernels<N, Physics, Kokkos::Cuda, double>::dispatch_paired(
            shape, [&](auto wi, auto paired) {
              go(tensor_volume_kernel<N, decltype(wi)::value, decltype(paired)::value>);
            });
        return;
      }
#endif
      if (!micro) {
        const int threads = std::min(1024, (np + 31) / 32 * 32);  // the Kokkos kernel's team size
        configure(volume_kernel<N>, threads, 0);
        volume_kernel<N><<<K, threads, 0, stream>>>(ops.Dr.data(), ops.Ds.data(), ops.Dt.data(), md.drdx.data(),
                                                    md.material.data(), solver->fields().data(), out.data());
        return;
      }
      const int st = static_cast<int>(shape.staging);
      const int per_block = shape.team_elements();
      const int blocks = (K + per_block - 1) / per_block;
      const int threads = (shape.elements * ((np + shape.rows - 1) / shape.rows) + 31) / 32 * 32;
      const std::size_t bytes =
          ((st & 2 ? 3 * np * np : 0) + (st & 1 ? shape.elements * shape.inline_blocks * nf * np : 0)) * sizeof(double);
      auto go = [&](auto kernel) {
        configure(kernel, threads, bytes);
        kernel<<<blocks, threads, bytes, stream>>>(ops.Dr.data(), ops.Ds.data(), ops.Dt.data(), md.drdx.data(),
                                                  md.material.data(), solver->fields().data(), out.data(), K,
                                                  shape.elements, shape.sequential, st);
      };
      kernels::nodal_tet::TunedKernels<N, Physics, Kokkos::Cuda, double>::dispatch_volume(
          shape, [&](auto tag) { go(micro_volume_kernel_for<N>(tag)); });
    });
  };
  Kokkos::fence();
  for (int w = 0; w < 3; ++w) launch();
  // Both kernels with three clocks: CUDA events around the launch on the same stream (the GPU's
  // time from the first event to the second, launch gaps included), the host's wall clock around
  // launch and fence, as dgk bench times every Kokkos kernel, and the events with the launch
  // queued (below). The six timings alternate within each repetition, so that drifts of the GPU's
  // clock touch both kernels alike.
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto kokkos = [&] { solver->volume(); };
  // The host's time in the launch call itself (until it returns, before the GPU finishes), of
  // the last timing with events.
  double host_launch = 0;
  auto events = [&](auto&& f) {
    cudaEventRecord(a, stream);
    Kokkos::Timer host;
    f();
    host_launch = host.seconds();
    cudaEventRecord(b, stream);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    return ms * 1e-3;
  };
  auto wall = [&](auto&& f) {
    Kokkos::Timer timer;
    f();
    Kokkos::fence();
    return timer.seconds();
  };
  // The kernel alone: the same events, queued behind a wait on the GPU that outlasts the host's
  // work of the launch, so the first event is recorded when the GPU reaches it and the kernel is
  // already queued (what a time loop sees: its launches run ahead of the GPU).
  auto queued = [&](auto&& f) {
    spin_kernel<<<1, 1, 0, stream>>>(spin_nanoseconds);
    return events(f);
  };
  kokkos();
  Kokkos::fence();
  std::vector<double> ce, ke, cw, kw, cq, kq, cl, kl;
  for (int r = 0; r < reps; ++r) {
    ce.push_back(events(launch));
    cl.push_back(host_launch);
    ke.push_back(events(kokkos));
    kl.push_back(host_launch);
    cw.push_back(wall(launch));
    kw.push_back(wall(kokkos));
    cq.push_back(queued(launch));
    kq.push_back(queued(kokkos));
  }
  t.seconds = backends::median(ce);
  t.kokkos_event_seconds = backends::median(ke);
  t.wall_seconds = backends::median(cw);
  t.kokkos_wall_seconds = backends::median(kw);
  t.queued_seconds = backends::median(cq);
  t.kokkos_queued_seconds = backends::median(kq);
  t.launch_seconds = backends::median(cl);
  t.kokkos_launch_seconds = backends::median(kl);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  // The Kokkos kernel's output on the same fields.
  solver->volume();
  Kokkos::fence();
  auto hk = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver->rhs_view());
  auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (std::size_t i = 0; i < hk.span(); ++i) t.max_difference = std::max(t.max_difference, std::abs(hk.data()[i] - hc.data()[i]));
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    t.why = std::string("CUDA error: ") + cudaGetErrorString(err);
    return t;
  }
  t.available = true;
  return t;
}

#else

CudaReferenceTiming time_cuda_reference_volume(Simulation&, int) {
  CudaReferenceTiming t;
  t.why = "this dgk was built without CUDA";
  return t;
}

#endif

}  // namespace dgk::app
