// What every case of `dgk run` offers a driver, whatever its dimension, physics and basis:
// options, the simulation, its exact solution, time step and the mesh it runs on.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dgk/core/execution.hpp"
#include "dgk/core/simulation.hpp"
#include "dgk/mesh/partition.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/mesh/tri_mesh.hpp"

namespace dgk::physics {

struct CaseOptions {
  /// The case: "maxwell3d", "acoustic3d", "maxwell2d" or "euler2d".
  std::string name = "maxwell3d";
  int order = 4;
  /// Mesh specification; empty: the case's default ("box:6" in 3D, "rect:8" in 2D).
  std::string mesh;
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
  /// maxwell2d: weight of the dissipative part of the flux, 1 upwind, 0 central (paper 003).
  double alpha = 1.0;
  /// euler2d: the problem ("isentropic-vortex", "supersonic-vortex", "double-mach", "sod"),
  /// numerical flux ("llf", "hllc"), limiter ("none", "barth-jespersen") and time integrator
  /// ("ssp-rk2", "ssp-rk3", "rk4"); empty: the problem's default.
  std::string problem = "isentropic-vortex";
  std::string flux = "hllc";
  std::string limiter;
  std::string integrator;
  /// 2D meshes: split every triangle into four this many times after loading.
  int refine = 0;
  /// Distributed runs: how the mesh is split across the ranks ("metis", "sfc", "block"; empty:
  /// METIS where built, else the space-filling curve).
  std::string partition;
  /// Element order for locality ("none", "sfc", "random"; see mesh/reorder.hpp), applied to a
  /// mesh built from `mesh` (not to one given whole, as a checkpoint's).
  std::string reorder = "none";
  /// The tuned nodal kernels (kernel "tuned", the nodal default): "auto" uses the tuning cache
  /// and tunes on first use, "always" tunes again, "never" uses the cache or else the
  /// straightforward kernels (see dgk/physics/tet_tuning.hpp); empty: $DGK_TUNE, else "auto".
  std::string tune;
};

class Case {
 public:
  virtual ~Case() = default;
  virtual Simulation& simulation() = 0;
  /// The exact solution when one is known.
  virtual const std::optional<PointFunction>& exact() const = 0;
  virtual double final_time() const = 0;
  /// Time step: the stable estimate shortened so that `steps` steps end exactly at final_time.
  virtual double dt() const = 0;
  virtual int steps() const = 0;
  /// "xmin=pec, ..." as applied.
  virtual const std::string& bc_summary() const = 0;
  virtual const std::string& initial_summary() const = 0;
  /// The options as resolved (mesh and initial condition filled in).
  virtual const CaseOptions& options() const = 0;
  /// "nodal thread", "bernstein optimal", ...
  virtual std::string kernel_summary() const = 0;
  /// Where a tuned choice of kernels came from (the cache file, or tuned in this run); empty
  /// where the case runs no tuned kernels.
  virtual std::string tuning_source() const { return {}; }
  /// The mesh: one of these is set.
  virtual const mesh::TetMesh* tet_mesh() const { return nullptr; }
  virtual const mesh::TriMesh* tri_mesh() const { return nullptr; }
  int dimension() const { return tri_mesh() ? 2 : 3; }
  /// This rank's share of the mesh in a distributed run (with the partition's statistics), or
  /// null on one rank.
  virtual const mesh::LocalPart* partition() const { return nullptr; }
};

/// 2 for maxwell2d, 3 for the tetrahedral cases; throws dgk::Error for an unknown case.
int case_dimension(const std::string& name);

/// The case `options.name` on the mesh `options.mesh` (or the case's default mesh).
std::unique_ptr<Case> make_case(const CaseOptions& options);
/// The same on an already built mesh of the case's dimension (convergence studies, restarts).
std::unique_ptr<Case> make_case(const CaseOptions& options, mesh::TetMesh mesh);
std::unique_ptr<Case> make_case(const CaseOptions& options, mesh::TriMesh mesh);

}  // namespace dgk::physics
