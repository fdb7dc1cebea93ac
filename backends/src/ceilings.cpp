#include "dgk/backends/ceilings.hpp"

#include <algorithm>
#include <type_traits>

#include <Kokkos_Core.hpp>

#include "dgk/core/execution.hpp"
#include "dgk/core/tensor_core.hpp"

namespace dgk::backends {

double median(std::vector<double>& samples) {
  if (samples.empty()) return 0.0;
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid), samples.end());
  double m = samples[mid];
  if (samples.size() % 2 == 0) {
    m = 0.5 * (m + *std::max_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid)));
  }
  return m;
}

template <class ExecutionSpace, class Real>
Ceilings measure_ceilings(std::size_t bytes) {
  ExecutionSpace space;
  using Mem = typename ExecutionSpace::memory_space;
  const std::size_t n = bytes / sizeof(Real);
  Kokkos::View<Real*, Mem> a(Kokkos::view_alloc("dgk::backends::copy_src", Kokkos::WithoutInitializing), n);
  Kokkos::View<Real*, Mem> b(Kokkos::view_alloc("dgk::backends::copy_dst", Kokkos::WithoutInitializing), n);
  Kokkos::parallel_for("dgk::backends::fill", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n),
                       KOKKOS_LAMBDA(const std::size_t i) { a(i) = Real(i % 1000) * Real(0.5); });
  // The library's own device-to-device copy (cudaMemcpy on a GPU, a parallel memcpy on the
  // host): the bandwidth a well-formed streaming kernel can reach.
  const double t_copy = median_seconds(space, 10, [&] { Kokkos::deep_copy(space, b, a); });

  // Enough threads to fill a GPU; on the host the loop count is scaled down.
  const bool host = std::is_same<Mem, Kokkos::HostSpace>::value;
  const int threads = host ? 256 * ExecutionSpace().concurrency() : 1 << 21;
  const int iters = host ? 4096 : 2048;
  Kokkos::View<Real*, Mem> out("dgk::backends::fma_out", threads);
  // Independent FMA chains per thread keep the pipelines full; the result is stored so the
  // compiler cannot drop the loop.
  const double t_fma = median_seconds(space, 5, [&] {
    Kokkos::parallel_for("dgk::backends::fma", Kokkos::RangePolicy<ExecutionSpace>(space, 0, threads),
                         KOKKOS_LAMBDA(const int i) {
                           constexpr int chains = 8;
                           Real acc[chains];
                           for (int c = 0; c < chains; ++c) acc[c] = Real(i % 7 + c) * Real(1e-3);
                           const Real x = Real(0.999999), y = Real(1e-7);
                           for (int k = 0; k < iters; ++k)
                             for (int c = 0; c < chains; ++c) acc[c] = acc[c] * x + y;
                           Real s = 0;
                           for (int c = 0; c < chains; ++c) s += acc[c];
                           out(i) = s;
                         });
  });
  Ceilings c;
#ifdef DGK_TENSOR_CORES_F64
  if constexpr (std::is_same<ExecutionSpace, Kokkos::Cuda>::value && std::is_same<Real, double>::value) {
    // Independent chains of warp-wide multiply-adds of two stacked 8 x 8 x 4 tiles (one
    // m16n8k4 where the GPU has it, two m8n8k4 before: the kernels' mma_f64_block); every lane of
    // every warp calls them (the thread count is a multiple of the warp size).
    const double t_mma = median_seconds(space, 5, [&] {
      Kokkos::parallel_for("dgk::backends::mma", Kokkos::RangePolicy<ExecutionSpace>(space, 0, threads),
                           KOKKOS_LAMBDA(const int i) {
                             constexpr int chains = 8;
                             double acc[chains][4];
                             for (int k = 0; k < chains; ++k)
                               for (int h = 0; h < 4; ++h) acc[k][h] = 1e-3 * (i % 7 + k + h);
                             const double x = 1e-9 * (i % 5), y = 1e-3;
                             for (int k = 0; k < iters; ++k)
                               for (int ch = 0; ch < chains; ++ch)
                                 mma_f64_pair(acc[ch][0], acc[ch][1], acc[ch][2], acc[ch][3], x, x, y);
                             double s = 0;
                             for (int k = 0; k < chains; ++k) s += acc[k][0] + acc[k][1] + acc[k][2] + acc[k][3];
                             out(i) = s;
                           });
    });
    // 1024 flops per warp-wide pair, 32 per lane.
    c.tensor_flops_per_s = 32.0 * 8.0 * static_cast<double>(iters) * static_cast<double>(threads) / t_mma;
  }
#endif
  c.copy_bytes_per_s = 2.0 * static_cast<double>(n * sizeof(Real)) / t_copy;
  c.flops_per_s = 2.0 * 8.0 * static_cast<double>(iters) * static_cast<double>(threads) / t_fma;
  c.precision = sizeof(Real) == 4 ? "float" : "double";
  return c;
}

#define DGK_INSTANTIATE_CEILINGS(SPACE, REAL) template Ceilings measure_ceilings<SPACE, REAL>(std::size_t);
DGK_IF_SERIAL(DGK_INSTANTIATE_CEILINGS, float)
DGK_IF_SERIAL(DGK_INSTANTIATE_CEILINGS, double)
DGK_IF_OPENMP(DGK_INSTANTIATE_CEILINGS, float)
DGK_IF_OPENMP(DGK_INSTANTIATE_CEILINGS, double)
DGK_IF_CUDA(DGK_INSTANTIATE_CEILINGS, float)
DGK_IF_CUDA(DGK_INSTANTIATE_CEILINGS, double)

}  // namespace dgk::backends
