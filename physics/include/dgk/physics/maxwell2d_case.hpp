// The maxwell2d case of `dgk run`: options, their resolution into a triangular mesh, boundary
// conditions, initial condition and time step, and the solver instance for the chosen
// backend/precision. The 2D TM counterpart of dgk/physics/tet_case.hpp.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dgk/core/execution.hpp"
#include "dgk/core/simulation.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "dgk/physics/case.hpp"
#include "dgk/physics/distribution.hpp"

namespace dgk::physics {

struct Maxwell2DOptions {
  int order = 4;
  /// "rect:n", "rect:nx,ny", optionally ",jitter=J,seed=S" (see mesh::load_tri_mesh).
  std::string mesh = "rect:8";
  /// Final time; unset means one period of the cavity mode (or 1 for a pulse).
  std::optional<double> final_time;
  double cfl = 0.75;
  /// Run even when cfl exceeds the stability limit of the order (max_stable_cfl_2d).
  bool force = false;
  std::string precision = "double";
  std::optional<Backend> backend;  ///< unset: Kokkos's default execution space
  /// Boundary conditions "NAME=pec|pmc|absorbing" per boundary name; PEC where none is given.
  std::vector<std::string> bc;
  /// "cavity" or "cavity:m,n" (exact eigenmode of the mesh's bounding box, m, n >= 1), or
  /// "pulse:x,y,width" (Gaussian pulse of Ez; no exact solution).
  std::string initial = "cavity:1,1";
  /// Weight of the dissipative part of the flux, in [0, 1]: 1 upwind, 0 central (paper 003,
  /// equation (5)).
  double alpha = 1.0;
  /// Distributed runs: "metis", "sfc", "block", or empty for the build's default.
  std::string partition;
};

/// Largest CFL number (in the sense of Simulation::max_dt) at which LSERK4 with the nodal
/// triangular Maxwell operator of order N was found stable for every flux weight alpha in
/// {0, 0.5, 1} on a structured and a jittered mesh, with a 10% safety margin (measured by the
/// stability sweep of tests/physics/test_maxwell2d_long.cpp).
double max_stable_cfl_2d(int order);

/// Creates the nodal triangular Maxwell TM solver for (backend, precision, order); with a
/// Distribution, `mesh` is this rank's part.
std::unique_ptr<Simulation> make_maxwell2d_solver(Backend backend, const std::string& precision, int order,
                                                  const mesh::TriMesh& mesh, const std::vector<int>& bc_of_tag,
                                                  double alpha = 1.0, std::shared_ptr<const Distribution> dist = {});

class Maxwell2DCase final : public Case {
 public:
  explicit Maxwell2DCase(const Maxwell2DOptions& options);
  /// Same, on an already built mesh (used by convergence studies and tests).
  Maxwell2DCase(const Maxwell2DOptions& options, mesh::TriMesh mesh);

  /// From the options every case shares (alpha and the rest; basis must be nodal).
  explicit Maxwell2DCase(const CaseOptions& options);
  Maxwell2DCase(const CaseOptions& options, mesh::TriMesh mesh);

  Simulation& simulation() override { return *m_sim; }
  const mesh::TriMesh& mesh() const { return m_mesh; }
  const mesh::TriMesh* tri_mesh() const override { return &m_mesh; }
  const std::optional<PointFunction>& exact() const override { return m_exact; }
  double final_time() const override { return m_final_time; }
  double dt() const override { return m_dt; }
  int steps() const override { return m_steps; }
  const std::string& bc_summary() const override { return m_bc_summary; }
  const std::string& initial_summary() const override { return m_initial_summary; }
  const Maxwell2DOptions& maxwell2d_options() const { return m_options; }
  const CaseOptions& options() const override { return m_case_options; }
  const mesh::LocalPart* partition() const override { return m_dist ? &m_dist->part : nullptr; }
  std::string kernel_summary() const override { return "nodal thread"; }

 private:
  void setup();

  Maxwell2DOptions m_options;
  CaseOptions m_case_options;
  mesh::TriMesh m_mesh;
  std::shared_ptr<const Distribution> m_dist;
  std::unique_ptr<Simulation> m_sim;
  std::optional<PointFunction> m_exact;
  PointFunction m_initial;
  double m_final_time = 0, m_dt = 0;
  int m_steps = 0;
  std::string m_bc_summary, m_initial_summary;
};

}  // namespace dgk::physics
