// The tetrahedral cases of `dgk run` (maxwell3d, acoustic3d): options, their resolution into a
// mesh, boundary conditions, initial condition and time step, and the solver instance for the
// chosen backend, precision, basis and kernels.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dgk/core/execution.hpp"
#include "dgk/core/simulation.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/physics/tet_kernels.hpp"

namespace dgk::physics {

struct CaseOptions {
  /// The case: "maxwell3d" or "acoustic3d".
  std::string name = "maxwell3d";
  int order = 4;
  std::string mesh = "box:6";
  /// Final time; unset means one period of the exact solution (or 1 for a pulse).
  std::optional<double> final_time;
  double cfl = 0.75;
  /// Run even when cfl exceeds the stability limit of the order (max_stable_cfl).
  bool force = false;
  std::string precision = "double";
  std::optional<Backend> backend;  ///< unset: Kokkos's default execution space
  /// Boundary conditions "NAME=condition" per boundary name (maxwell3d: pec|pmc|absorbing, PEC
  /// where none is given; acoustic3d: dirichlet|wall, Dirichlet where none is given).
  std::vector<std::string> bc;
  /// Initial condition; empty: the case's exact solution. maxwell3d: "cavity" or
  /// "cavity:m,n,p" (eigenmode of the mesh's bounding box), or "pulse:x,y,z,width"
  /// (divergence-free Gaussian pulse). acoustic3d: "standing" (paper 002's standing wave on the
  /// bounding box) or "pulse:x,y,z,width" (Gaussian pressure pulse).
  std::string initial;
  /// Basis and kernels (see TetKernels): "nodal" or "bernstein", and the kernel family
  /// ("auto": the default of the basis).
  std::string basis = "nodal";
  std::string kernel = "auto";
};

/// Largest CFL number (in the sense of Simulation::max_dt) at which LSERK4 with the nodal
/// upwind operator of order N was found stable, with a safety margin (measured with
/// tests/physics/test_maxwell3d.cpp's stability sweep).
double max_stable_cfl(int order, const std::string& case_name = "maxwell3d");

/// Creates the tetrahedral solver of a case ("maxwell3d", "acoustic3d") for (backend,
/// precision, order, kernels).
std::unique_ptr<Simulation> make_tet_solver(const std::string& name, Backend backend, const std::string& precision,
                                            int order, const TetKernels& kernels, const mesh::TetMesh& mesh,
                                            const std::vector<int>& bc_of_tag);

class TetCase {
 public:
  explicit TetCase(const CaseOptions& options);
  /// Same, on an already built mesh (used by convergence studies and tests).
  TetCase(const CaseOptions& options, mesh::TetMesh mesh);

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
  const CaseOptions& options() const { return m_options; }
  const TetKernels& kernels() const { return m_kernels; }

 private:
  void setup();

  CaseOptions m_options;
  mesh::TetMesh m_mesh;
  TetKernels m_kernels;
  std::unique_ptr<Simulation> m_sim;
  std::optional<PointFunction> m_exact;
  PointFunction m_initial;
  double m_final_time = 0, m_dt = 0;
  int m_steps = 0;
  std::string m_bc_summary, m_initial_summary;
};

}  // namespace dgk::physics
