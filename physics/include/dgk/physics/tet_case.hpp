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
#include "dgk/physics/case.hpp"
#include "dgk/physics/distribution.hpp"
#include "dgk/physics/tet_kernels.hpp"
#include "dgk/physics/tet_tuning.hpp"

namespace dgk::physics {

/// Largest CFL number (in the sense of Simulation::max_dt) at which LSERK4 with the nodal
/// upwind operator of order N was found stable, with a safety margin (measured with
/// tests/physics/test_maxwell3d.cpp's stability sweep).
double max_stable_cfl(int order, const std::string& case_name = "maxwell3d");

/// Whether this build has tetrahedral solvers for `backend` (a GPU build may leave the host
/// backends out: DGK_HOST_SOLVERS=OFF).
bool tet_solvers_built(Backend backend);

/// Creates the tetrahedral solver of a case ("maxwell3d", "acoustic3d") for (backend,
/// precision, order, kernels); with a Distribution, `mesh` is this rank's part.
std::unique_ptr<Simulation> make_tet_solver(const std::string& name, Backend backend, const std::string& precision,
                                            int order, const TetKernels& kernels, const mesh::TetMesh& mesh,
                                            const std::vector<int>& bc_of_tag,
                                            std::shared_ptr<const Distribution> dist = {});

class TetCase final : public Case {
 public:
  explicit TetCase(const CaseOptions& options);
  /// Same, on an already built mesh (used by convergence studies and tests).
  TetCase(const CaseOptions& options, mesh::TetMesh mesh);

  Simulation& simulation() override { return *m_sim; }
  const mesh::TetMesh& mesh() const { return m_mesh; }
  const mesh::TetMesh* tet_mesh() const override { return &m_mesh; }
  const std::optional<PointFunction>& exact() const override { return m_exact; }
  double final_time() const override { return m_final_time; }
  double dt() const override { return m_dt; }
  int steps() const override { return m_steps; }
  const std::string& bc_summary() const override { return m_bc_summary; }
  const std::string& initial_summary() const override { return m_initial_summary; }
  const CaseOptions& options() const override { return m_options; }
  std::string kernel_summary() const override { return to_string(m_kernels); }
  const TetKernels& kernels() const { return m_kernels; }
  const mesh::LocalPart* partition() const override { return m_dist ? &m_dist->part : nullptr; }
  /// Where the tuned kernels' choice came from ("cache FILE", "tuned now, cached in FILE", ...);
  /// empty for the other families.
  std::string tuning_source() const override { return m_tuning_source; }
  /// The tuner's result when this case tuned (rather than read the cache).
  const std::optional<TuningResult>& tuning_result() const { return m_tuning_result; }

 private:
  void setup();
  void apply_tuning(Backend backend);

  CaseOptions m_options;
  mesh::TetMesh m_mesh;
  TetKernels m_kernels;
  std::shared_ptr<const Distribution> m_dist;
  std::unique_ptr<Simulation> m_sim;
  std::optional<PointFunction> m_exact;
  PointFunction m_initial;
  double m_final_time = 0, m_dt = 0;
  int m_steps = 0;
  std::string m_bc_summary, m_initial_summary, m_tuning_source;
  std::optional<TuningResult> m_tuning_result;
};

}  // namespace dgk::physics
