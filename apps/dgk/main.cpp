// The dgk command line program.
#include <iostream>

#include <CLI/CLI.hpp>

#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/version.hpp"
#include "dgk/physics/cases.hpp"

int main(int argc, char* argv[]) {
  CLI::App app{"dgk: discontinuous Galerkin solvers as Kokkos team kernels"};
  app.set_version_flag("--version", std::string(dgk::version_string()));
  app.require_subcommand(1);
  std::string backend;
  app.add_option("--backend", backend, "execution space: serial|openmp|cuda (default: Kokkos's default)");
  auto* info = app.add_subcommand("info", "print the build configuration and the known cases");
  CLI11_PARSE(app, argc, argv);
  try {
    if (!backend.empty()) dgk::parse_backend(backend);
    if (*info) {
      std::cout << dgk::version_string() << "\n";
      for (const auto& c : dgk::physics::cases()) std::cout << "  " << c.name << ": " << c.description << "\n";
    }
  } catch (const dgk::Error& e) {
    std::cerr << "dgk: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
