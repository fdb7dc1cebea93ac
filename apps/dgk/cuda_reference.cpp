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
  auto launch = [&] {
    dispatch_order(order, [&](auto n) {
      constexpr int N = decltype(n)::value;
      constexpr int np = (N + 1) * (N + 2) * (N + 3) / 6;
      const int threads = std::min(1024, (np + 31) / 32 * 32);  // the Kokkos kernel's team size
      volume_kernel<N><<<K, threads, 0, stream>>>(ops.Dr.data(), ops.Ds.data(), ops.Dt.data(), md.drdx.data(),
                                                  md.material.data(), solver->fields().data(), out.data());
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
