// dgk-euler2d: the euler2d case as a program of its own, for builds that need only it (the CUDA
// build of the full program compiles every other case's kernels first, and a GPU host may lack
// HDF5). `run` advances a problem and writes the density's cell averages to a text file;
// `bench` is `dgk bench euler2d`.
#include <iostream>
#include <limits>

#include <CLI/CLI.hpp>

#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/parse.hpp"
#include "dgk/physics/euler2d_case.hpp"
#include "euler2d_app.hpp"
#include "text.hpp"

int main(int argc, char* argv[]) {
  CLI::App app{"dgk-euler2d: 2D compressible Euler, modal DG on triangles (paper 004)"};
  app.require_subcommand(1);
  dgk::physics::CaseOptions o;
  o.name = "euler2d";
  o.order = 1;
  std::string backend, density, orders = "1..4", report;
  double final_time = std::numeric_limits<double>::quiet_NaN();
  long progress = 0, elements = 200000;
  int reps = 20;
  auto common = [&](CLI::App* c) {
    c->add_option("--problem", o.problem, "isentropic-vortex|supersonic-vortex|double-mach|sod")
        ->capture_default_str()
        ->check(CLI::IsMember(dgk::physics::euler2d_problems()));
    c->add_option("--precision", o.precision, "double|float")
        ->capture_default_str()
        ->check(CLI::IsMember({"double", "float"}));
    c->add_option("--backend", backend, "serial|openmp|cuda (default: Kokkos's default space)");
    c->add_option("--flux", o.flux, "llf|hllc")->capture_default_str()->check(CLI::IsMember({"llf", "hllc"}));
    c->add_option("--cfl", o.cfl, "CFL number of the time step")->capture_default_str();
  };
  auto* run = app.add_subcommand("run", "run a problem; write the density's cell averages");
  common(run);
  run->add_option("--order", o.order, "polynomial order p (1..5)")->capture_default_str();
  run->add_option("--mesh", o.mesh, "rect:n, rect:nx,ny[,jitter=J], gmsh:h or FILE.msh (default: the problem's)");
  run->add_option("--refine", o.refine, "split every triangle into four this many times")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--limiter", o.limiter, "none|barth-jespersen")->check(CLI::IsMember({"none", "barth-jespersen"}));
  run->add_option("--integrator", o.integrator, "ssp-rk2|ssp-rk3|rk4")
      ->check(CLI::IsMember({"ssp-rk2", "ssp-rk3", "rk4"}));
  run->add_option("--kernel", o.kernel, "surface kernel: edge|element")
      ->check(CLI::IsMember({"auto", "edge", "element"}));
  run->add_option("--final-time", final_time, "final time (default: the problem's)");
  run->add_option("--density", density, "write x y rho per element to this text file");
  run->add_option("--report", report, "write the run's figures and errors as JSON to this file");
  run->add_option("--progress-every", progress, "a progress line every this many steps")->check(CLI::NonNegativeNumber);
  auto* bench = app.add_subcommand("bench", "time the kernels against the measured roofline");
  common(bench);
  bench->add_option("--orders", orders, "orders, e.g. 1..4")->capture_default_str();
  bench->add_option("--elements", elements, "approximate number of triangles")->capture_default_str();
  bench->add_option("--reps", reps, "timed repetitions per kernel (median reported)")->capture_default_str();
  bench->add_option("--report", report, "write the results as JSON to this file");
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
    if (!backend.empty()) o.backend = dgk::parse_backend(backend);
    if (!std::isnan(final_time)) o.final_time = final_time;
    if (run->parsed()) {
      dgk::app::run_euler2d(o, density, progress, report, std::cout);
    } else {
      dgk::app::Euler2DBenchOptions b;
      b.base = o;
      b.orders = dgk::parse_int_range(orders, "--orders");
      b.elements = elements;
      b.reps = reps;
      b.report = report;
      dgk::app::bench_euler2d(b, std::cout);
    }
  } catch (const std::exception& e) {
    std::cerr << "dgk-euler2d: error: " << e.what() << "\n";
    rc = 2;
  }
  Kokkos::finalize();
  return rc;
}
