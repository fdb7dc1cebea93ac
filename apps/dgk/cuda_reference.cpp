#include "cuda_reference.hpp"

#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include <algorithm>
#include <cmath>
#include <vector>

#include "dgk/core/order_dispatch.hpp"
#include "dgk/physics/maxwell3d.hpp"
#include "dgk/physics/tet_solver.hpp"
#endif

namespace dgk::app {

#ifdef KOKKOS_ENABLE_CUDA
namespace {

using Physics = physics::Maxwell3D;
constexpr int nf = Physics::num_fields;

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
  double g[9];
  for (int c = 0; c < 9; ++c) g[c] = drdx[static_cast<std::size_t>(e) * 9 + c];
  const double mat[2] = {material[2 * static_cast<std::size_t>(e)], material[2 * static_cast<std::size_t>(e) + 1]};
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
    double grad[3][nf];
    for (int f = 0; f < nf; ++f) {
      grad[0][f] = g[0] * dr[f] + g[1] * ds[f] + g[2] * dt[f];
      grad[1][f] = g[3] * dr[f] + g[4] * ds[f] + g[5] * dt[f];
      grad[2][f] = g[6] * dr[f] + g[7] * ds[f] + g[8] * dt[f];
    }
    double out[nf];
    Physics::volume(grad, mat, out);
    for (int f = 0; f < nf; ++f) rhs[(static_cast<std::size_t>(e) * nf + f) * np + i] = out[f];
  }
}

// The micro volume kernel of the tuned family (dgk/kernels/nodal_tet/tuned.hpp) in plain CUDA:
// a block takes ws groups of WI microblocks of k elements, one thread per (element, RI nodes) of
// a microblock, the block padded to a warp multiple; the operators and/or the group's fields in
// shared memory as `staging` says (1 fields, 2 operators, 3 both). Same loads, same sums.
template <int N, int WI, int RI>
__global__ void micro_volume_kernel(const double* __restrict__ Dr, const double* __restrict__ Ds,
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
        const std::size_t ee = e[w];
        double g[9];
        for (int c = 0; c < 9; ++c) g[c] = drdx[ee * 9 + c];
        const double mat[2] = {material[2 * ee], material[2 * ee + 1]};
        double grad[3][nf];
        for (int f = 0; f < nf; ++f) {
          grad[0][f] = g[0] * dr[w][r][f] + g[1] * ds[w][r][f] + g[2] * dt[w][r][f];
          grad[1][f] = g[3] * dr[w][r][f] + g[4] * ds[w][r][f] + g[5] * dt[w][r][f];
          grad[2][f] = g[6] * dr[w][r][f] + g[7] * ds[w][r][f] + g[8] * dt[w][r][f];
        }
        double out[nf];
        Physics::volume(grad, mat, out);
        for (int f = 0; f < nf; ++f) rhs[(ee * nf + f) * np + i] = out[f];
      }
  }
}

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
  const bool micro = kn.family == physics::TetKernelFamily::Tuned && kn.tuning.volume == kernels::nodal_tet::StageKernel::Micro;
  const auto shape = kn.tuning.volume_shape;
  t.kernel = micro ? "micro" : "thread";
  auto launch = [&] {
    dispatch_order(order, [&](auto n) {
      constexpr int N = decltype(n)::value;
      constexpr int np = (N + 1) * (N + 2) * (N + 3) / 6;
      if (!micro) {
        const int threads = std::min(1024, (np + 31) / 32 * 32);  // the Kokkos kernel's team size
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
        if (bytes > 48 * 1024) cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
        kernel<<<blocks, threads, bytes, stream>>>(ops.Dr.data(), ops.Ds.data(), ops.Dt.data(), md.drdx.data(),
                                                  md.material.data(), solver->fields().data(), out.data(), K,
                                                  shape.elements, shape.sequential, st);
      };
      if (shape.rows == 2) {
        if (shape.inline_blocks == 1)
          go(micro_volume_kernel<N, 1, 2>);
        else
          go(micro_volume_kernel<N, 2, 2>);
        return;
      }
      switch (shape.inline_blocks) {
        case 1: go(micro_volume_kernel<N, 1, 1>); break;
        case 2: go(micro_volume_kernel<N, 2, 1>); break;
        default: go(micro_volume_kernel<N, 4, 1>); break;
      }
    });
  };
  Kokkos::fence();
  for (int w = 0; w < 3; ++w) launch();
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(a, stream);
    launch();
    cudaEventRecord(b, stream);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    times.push_back(ms * 1e-3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(times.begin(), times.end());
  t.seconds = times[times.size() / 2];
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
