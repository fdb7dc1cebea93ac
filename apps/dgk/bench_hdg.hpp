// `dgk bench hdg`: the HDG trace system's matrix-vector products in the dense block format
// (gather t_v, contraction t_c, fused) against KokkosKernels' CRS product on the same matrix
// (paper 001, Tables 1-3).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "dgk/core/execution.hpp"

namespace dgk::app {

struct HdgBenchOptions {
  int dim = 2;
  std::vector<int> orders{1, 2, 3, 4, 5};
  long faces = 11780;  ///< approximate number of faces (edges in 2D)
  std::string precision = "double";
  Backend backend = Backend::Serial;
  int reps = 20;
  std::string report;  ///< JSON file, or empty
};

/// Runs the benchmark and prints one table row per order and product.
void bench_hdg(const HdgBenchOptions& o, std::ostream& out);

}  // namespace dgk::app
