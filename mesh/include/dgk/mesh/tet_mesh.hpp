// Unstructured tetrahedral mesh on the host: vertices, element-to-vertex table, per-element
// material coefficients and tagged boundary faces. Generators and readers produce it;
// connectivity, geometric factors and face maps are derived from it.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace dgk::mesh {

/// A boundary face given by its three vertex numbers (any order) and a boundary tag.
struct BoundaryFace {
  std::array<int, 3> vertices;
  int tag = 0;
};

struct TetMesh {
  std::vector<std::array<double, 3>> vertices;
  /// Element-to-vertex table. Elements are positively oriented (J > 0); readers reorder the
  /// vertices of negatively oriented input elements and report inverted/degenerate ones.
  std::vector<std::array<int, 4>> elements;
  /// Two material coefficients per element whose meaning the physics defines
  /// (Maxwell: epsilon, mu; acoustics: rho, kappa). Default 1, 1.
  std::vector<std::array<double, 2>> material;
  /// Volume region of each element (Gmsh physical volume tag, or 0).
  std::vector<int> region;
  /// Boundary faces with their tags; faces of the hull without an entry get tag 0 ("boundary").
  std::vector<BoundaryFace> boundary_faces;
  /// Name of each boundary tag (index = tag). tag 0 is "boundary" unless set otherwise.
  std::vector<std::string> boundary_names{"boundary"};
  /// Where the mesh came from ("box:4", a file name), for messages.
  std::string source;

  int num_elements() const { return static_cast<int>(elements.size()); }
  int num_vertices() const { return static_cast<int>(vertices.size()); }
  /// Tag of the named boundary, or -1 when there is none.
  int boundary_tag(const std::string& name) const;
};

/// Volume Jacobian of element e: its physical volume over the reference volume 4/3, negative
/// when the element is inverted.
double element_jacobian(const TetMesh& mesh, int e);

/// Length of the longest edge of element e.
double longest_edge(const TetMesh& mesh, int e);

/// An element with |J| <= degenerate_tolerance * (longest edge)^3 counts as degenerate.
constexpr double degenerate_tolerance = 1e-12;

/// Parameters of the built-in box generator.
struct BoxSpec {
  std::array<int, 3> cells{2, 2, 2};           ///< cubes along x, y, z
  std::array<double, 3> lower{0.0, 0.0, 0.0};  ///< box corner
  std::array<double, 3> upper{1.0, 1.0, 1.0};  ///< opposite corner
};

/// Box split into cells[0]*cells[1]*cells[2] cubes, each into 6 tetrahedra sharing the cube's
/// main diagonal (Kuhn subdivision; conforming across cubes). Boundary tags: 1 "xmin",
/// 2 "xmax", 3 "ymin", 4 "ymax", 5 "zmin", 6 "zmax". Material 1, 1 everywhere.
TetMesh make_box(const BoxSpec& spec);

/// Parses a mesh specification: "box:n" (n^3 cubes on the unit cube), "box:nx,ny,nz", or a
/// Gmsh file name ending in .msh (needs DGK_ENABLE_GMSH). Throws dgk::Error on anything else.
TetMesh load_tet_mesh(const std::string& spec);

/// Reads tetrahedra and tagged boundary triangles (physical groups of dimension 2, named by
/// their physical name) from a Gmsh MSH file through the Gmsh SDK. Volume physical groups set
/// `region`. Throws dgk::Error naming the file and the problem.
///
/// Boundary tags are numbered 1, 2, ... in increasing order of the Gmsh physical tag; a group
/// without a name is called "group<physical tag>", groups with the same name share a tag, and
/// when a group is called "boundary", tag 0 (untagged hull faces) is renamed "untagged".
/// Triangles of a group that are interior faces make connect() fail. Negatively oriented
/// tetrahedra are reordered, degenerate ones are an error; higher-order tetrahedra are read
/// through their corner nodes (the geometry becomes affine). Other 3D element types are an
/// error. The function owns the Gmsh API for its duration (initialize ... finalize): it must
/// not be called while the caller has the Gmsh API initialized.
TetMesh read_gmsh_tet(const std::string& path);

/// Whether this build can read Gmsh files.
bool gmsh_available();

}  // namespace dgk::mesh
