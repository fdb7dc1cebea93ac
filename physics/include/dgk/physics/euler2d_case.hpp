// The euler2d case of `dgk run`: compressible Euler on triangles with modal DG (paper 004). Its
// problems, their domains, boundary conditions and exact solutions:
//   isentropic-vortex  a vortex advected by a uniform flow across the periodic square
//                      [-7.5, 7.5]^2 (exact: the translated vortex);
//   supersonic-vortex  the steady supersonic flow through the quarter annulus 1 <= r <= 1.384
//                      with curved reflecting walls (exact: the isentropic vortex of paper 004,
//                      section 4.1, and Krivodonova & Berger);
//   double-mach        the Mach 10 shock reflecting off a 30 degree wedge (paper 004, 4.2), on
//                      [0, 4] x [0, 1] to t = 0.2;
//   sod                Sod's shock tube along x on [0, 1] x [0, 0.1] to t = 0.2.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dgk/core/simulation.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "dgk/physics/case.hpp"
#include "dgk/physics/distribution.hpp"
#include "dgk/physics/euler2d.hpp"
#include "dgk/physics/modal_tri_solver.hpp"

namespace dgk::physics {

/// The problems of euler2d.
const std::vector<std::string>& euler2d_problems();

/// The mesh of a problem's domain from a specification: "rect:n" or "rect:nx,ny" (with
/// ",jitter=J,seed=S"), the unit-square mesh mapped onto the domain (for the annulus: radius x
/// angle); "gmsh:h", the domain meshed by the Gmsh SDK with edge length h; or a .msh file. The
/// problem's boundary names and curved boundaries are set, then the mesh is refined `refine`
/// times.
mesh::TriMesh euler2d_mesh(const std::string& problem, const std::string& spec, int refine = 0);

/// The Euler solver for (backend, precision, order); with a Distribution, `mesh` and `conn` are
/// this rank's part.
std::unique_ptr<Simulation> make_euler2d_solver(Backend backend, const std::string& precision, int order,
                                                const mesh::TriMesh& mesh, const mesh::TriConnectivity& conn,
                                                const ModalBoundary& boundary, const Euler2D& physics,
                                                const ModalSettings& settings,
                                                std::shared_ptr<const Distribution> dist = {});

class Euler2DCase final : public Case {
 public:
  explicit Euler2DCase(const CaseOptions& options);
  Euler2DCase(const CaseOptions& options, mesh::TriMesh mesh);

  Simulation& simulation() override { return *m_sim; }
  const mesh::TriMesh* tri_mesh() const override { return &m_mesh; }
  const std::optional<PointFunction>& exact() const override { return m_exact; }
  double final_time() const override { return m_final_time; }
  double dt() const override { return m_dt; }
  int steps() const override { return m_steps; }
  const std::string& bc_summary() const override { return m_bc_summary; }
  const std::string& initial_summary() const override { return m_initial_summary; }
  const CaseOptions& options() const override { return m_options; }
  std::string kernel_summary() const override;
  const ModalSettings& settings() const { return m_settings; }
  const mesh::LocalPart* partition() const override { return m_dist ? &m_dist->part : nullptr; }

 private:
  void setup();
  CaseOptions m_options;
  mesh::TriMesh m_mesh;
  ModalSettings m_settings;
  std::shared_ptr<const Distribution> m_dist;
  std::unique_ptr<Simulation> m_sim;
  std::optional<PointFunction> m_exact;
  PointFunction m_initial;
  double m_final_time = 0, m_dt = 0;
  int m_steps = 0;
  std::string m_bc_summary, m_initial_summary;
};

}  // namespace dgk::physics
