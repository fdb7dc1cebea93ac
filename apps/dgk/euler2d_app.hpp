// euler2d beyond `dgk run`: the kernel benchmark (`dgk bench euler2d`: volume, surface edge-wise
// and element-wise, limiter and update against the measured roofline, paper 004 section 3) and a
// plain run that writes the density's cell averages to a text file, for builds without HDF5
// (dgk-euler2d, the lean program that builds for the GPU without every other case's kernels).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "dgk/physics/case.hpp"

namespace dgk::app {

struct Euler2DBenchOptions {
  physics::CaseOptions base;  ///< precision, backend, flux, problem (mesh and order are set here)
  std::vector<int> orders{1, 2, 3, 4};
  long elements = 200000;  ///< approximate number of triangles
  int reps = 20;
  std::string report;  ///< JSON file, or empty
};

/// Times each stage of one right-hand side and update with both surface kernels (and the
/// limiter at p = 1) on a rect mesh of the problem's domain; prints one row per order, variant
/// and stage, and writes the rows as JSON.
void bench_euler2d(const Euler2DBenchOptions& o, std::ostream& out);

/// Runs the case to its final time with a progress line every `progress_every` steps (0: none),
/// prints the wall time, and writes "x y rho" per element (centroid and cell-average density) to
/// `density_file` unless it is empty, and the run's figures (mesh, elements, steps, wall time,
/// L2 error of each field as `l2_error_<field>`) as JSON to `report_file` unless it is empty.
/// Returns the wall seconds of the time loop.
double run_euler2d(const physics::CaseOptions& o, const std::string& density_file, long progress_every,
                   const std::string& report_file, std::ostream& out);

}  // namespace dgk::app
