// dgk-bench-hdg: `dgk bench hdg` as a program of its own, for builds that need only the HDG
// products (the CUDA build of the full program compiles every time-stepping kernel first).
// Same options and output as `dgk bench hdg`.
#include <iostream>

#include <CLI/CLI.hpp>

#include "bench_hdg.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/parse.hpp"
#include "text.hpp"

int main(int argc, char* argv[]) {
  CLI::App app{"dgk-bench-hdg: the HDG trace system's products (same as dgk bench hdg)"};
  dgk::app::HdgBenchOptions o;
  std::string orders = "1..5", backend;
  app.add_option("--dim", o.dim, "2 (triangles) or 3 (tetrahedra)")
      ->capture_default_str()
      ->check(CLI::IsMember({2, 3}));
  app.add_option("--orders", orders, "orders, e.g. 1..5")->capture_default_str();
  app.add_option("--faces", o.faces, "approximate number of faces (edges in 2D)")->capture_default_str();
  app.add_option("--precision", o.precision, "double|float")
      ->capture_default_str()
      ->check(CLI::IsMember({"double", "float"}));
  app.add_option("--backend", backend, "serial|openmp|cuda (default: Kokkos's default space)");
  app.add_option("--reps", o.reps, "timed repetitions per product (median reported)")->capture_default_str();
  app.add_option("--report", o.report, "write the results as JSON to this file");
  std::vector<char*> ours, theirs;
  dgk::app::split_kokkos_args(argc, argv, ours, theirs);
  try {
    app.parse(static_cast<int>(ours.size()), ours.data());
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  int kargc = static_cast<int>(theirs.size());
  dgk::initialize_kokkos(kargc, theirs.data());
  int rc = 0;
  try {
    o.orders = dgk::parse_int_range(orders, "--orders");
    o.backend = backend.empty() ? dgk::default_backend() : dgk::parse_backend(backend);
    dgk::app::bench_hdg(o, std::cout);
  } catch (const std::exception& e) {
    std::cerr << "dgk-bench-hdg: error: " << e.what() << "\n";
    rc = 2;
  }
  Kokkos::finalize();
  return rc;
}
