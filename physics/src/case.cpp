#include "dgk/physics/case.hpp"

#include "dgk/core/error.hpp"
#include "dgk/physics/euler2d_case.hpp"
#include "dgk/physics/maxwell2d_case.hpp"
#include "dgk/physics/tet_case.hpp"

namespace dgk::physics {

int case_dimension(const std::string& name) {
  if (name == "maxwell3d" || name == "acoustic3d") return 3;
  if (name == "maxwell2d" || name == "euler2d") return 2;
  DGK_THROW_IF(true, "unknown case '" << name << "' (expected maxwell3d, acoustic3d, maxwell2d or euler2d)");
}

std::unique_ptr<Case> make_case(const CaseOptions& options) {
  if (options.name == "euler2d") return std::make_unique<Euler2DCase>(options);
  if (case_dimension(options.name) == 2) return std::make_unique<Maxwell2DCase>(options);
  return std::make_unique<TetCase>(options);
}

std::unique_ptr<Case> make_case(const CaseOptions& options, mesh::TetMesh mesh) {
  DGK_THROW_IF(case_dimension(options.name) != 3,
               "case " << options.name << " runs on triangles, not on the tetrahedral mesh '" << mesh.source << "'");
  return std::make_unique<TetCase>(options, std::move(mesh));
}

std::unique_ptr<Case> make_case(const CaseOptions& options, mesh::TriMesh mesh) {
  DGK_THROW_IF(case_dimension(options.name) != 2,
               "case " << options.name << " runs on tetrahedra, not on the triangle mesh '" << mesh.source << "'");
  if (options.name == "euler2d") return std::make_unique<Euler2DCase>(options, std::move(mesh));
  return std::make_unique<Maxwell2DCase>(options, std::move(mesh));
}

}  // namespace dgk::physics
