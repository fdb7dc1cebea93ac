// Measured ceilings of an execution space, for roofline fractions: the bandwidth of a large
// device copy (bytes read + bytes written per second) and the rate of an FMA-bound loop in the
// run's precision; where the build has FP64 tensor cores (dgk/core/tensor_core.hpp) and the run
// is in double on the GPU, also the rate of a loop of tensor-core multiply-adds. Measured in the
// same run as the kernels they judge.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

namespace dgk::backends {

struct Ceilings {
  double copy_bytes_per_s = 0.0;  ///< read + write
  double flops_per_s = 0.0;       ///< FMA counted as 2 flops
  double tensor_flops_per_s = 0.0;  ///< FP64 tensor-core rate (mma_f64_pair: 1024 flops); 0 where none
  std::string precision;          ///< "float" or "double"
};

/// Measures both ceilings on a default-constructed instance of ExecutionSpace. `bytes` is the
/// size of each of the two copy buffers; pick it well above the last-level cache.
template <class ExecutionSpace, class Real>
Ceilings measure_ceilings(std::size_t bytes = std::size_t(1) << 30);

/// Median of the samples (the vector is reordered).
double median(std::vector<double>& samples);

/// Median wall time of `reps` calls of f() after one warm-up call, each fenced on `space`.
template <class ExecutionSpace, class F>
double median_seconds(const ExecutionSpace& space, int reps, F&& f) {
  f();
  space.fence();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    Kokkos::Timer timer;
    f();
    space.fence();
    t.push_back(timer.seconds());
  }
  return median(t);
}

}  // namespace dgk::backends
