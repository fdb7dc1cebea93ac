// The maxwell3d case of `dgk run`: options, their resolution into a mesh, boundary conditions,
// initial condition and time step, and the solver instance for the chosen backend/precision.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dgk/core/execution.hpp"
#include "dgk/core/simulation.hpp"
#include "dgk/mesh/tet_mesh.hpp"

namespace dgk::physics {

struct Maxwell3DOptions {
  int order = 4;
  std::string mesh = "box:6";
  /// Final time; unset means one period of the cavity mode (or 1 for a pulse).
  std::optional<double> final_time;
  double cfl = 0.75;
  /// Run even when cfl exceeds the stability limit of the order (max_stable_cfl).
  bool force = false;
  std::string precision = "double";
  std::optional<Backend> backend;  ///< unset: Kokkos's default execution space
  /// Boundary conditions "NAME=pec|pmc|absorbing" per boundary name; PEC where none is given.
  std::vector<std::string> bc;
  /// "cavity" or "cavity:m,n,p" (exact eigenmode of the mesh's bounding box), or
  /// "pulse:x,y,z,width" (divergence-free Gaussian pulse; no exact solution).
  std::string initial = "cavity:1,1,1";
};

/// Largest CFL number (in the sense of Simulation::max_dt) at which LSERK4 with the nodal
/// upwind operator of order N was found stable, with a safety margin (measured with
/// tests/physics/test_maxwell3d.cpp's stability sweep).
double max_stable_cfl(int order);

/// Creates the nodal tetrahedral Maxwell solver for (backend, precision, order).
std::unique_ptr<Simulation> make_maxwell3d_solver(Backend backend, const std::string& precision, int order,
                                                  const mesh::TetMesh& mesh, const std::vector<int>& bc_of_tag);

class Maxwell3DCase {
 public:
  explicit Maxwell3DCase(const Maxwell3DOptions& options);
  /// Same, on an already built mesh (used by convergence studies and tests).
  Maxwell3DCase(const Maxwell3DOptions& options, mesh::TetMesh mesh);

  Simulation& simulation() { return *m_sim; }
  const mesh::TetMesh& mesh() const { return m_mesh; }
  /// The exact solution when one is known.
  const std::optional<PointFunction>& exact() const { return m_exact; }
  double final_time() const { return m_final_time; }
  /// Time step: the stable estimate shortened so that `steps` steps end exactly at final_time.
  double dt() const { return m_dt; }
  int steps() const { return m_steps; }
  /// "xmin=pec, ..." as applied.
  const std::string& bc_summary() const { return m_bc_summary; }
  const std::string& initial_summary() const { return m_initial_summary; }
  const Maxwell3DOptions& options() const { return m_options; }

 private:
  void setup();

  Maxwell3DOptions m_options;
  mesh::TetMesh m_mesh;
  std::unique_ptr<Simulation> m_sim;
  std::optional<PointFunction> m_exact;
  PointFunction m_initial;
  double m_final_time = 0, m_dt = 0;
  int m_steps = 0;
  std::string m_bc_summary, m_initial_summary;
};

}  // namespace dgk::physics
