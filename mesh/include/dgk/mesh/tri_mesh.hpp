// Unstructured triangular mesh on the host, the 2D counterpart of dgk/mesh/tet_mesh.hpp and
// dgk/mesh/tet_connectivity.hpp: vertices, element-to-vertex table, per-element material
// coefficients and tagged boundary edges; the rectangle generator; connectivity, geometric
// factors, node coordinates and edge-node maps (Hesthaven & Warburton, sections 6.1-6.3, built
// with sorting instead of sparse-matrix products).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dgk/basis/triangle_nodal.hpp"

namespace dgk::mesh {

/// A boundary edge given by its two vertex numbers (either order) and a boundary tag.
struct BoundaryEdge {
  std::array<int, 2> vertices;
  int tag = 0;
};

struct TriMesh {
  std::vector<std::array<double, 2>> vertices;
  /// Element-to-vertex table, counter-clockwise (J > 0); an inverted or degenerate element is
  /// an error of geometric_factors.
  std::vector<std::array<int, 3>> elements;
  /// Two material coefficients per element whose meaning the physics defines
  /// (Maxwell TM: epsilon, mu). Default 1, 1.
  std::vector<std::array<double, 2>> material;
  /// Region of each element (0 unless a reader sets it).
  std::vector<int> region;
  /// Boundary edges with their tags; hull edges without an entry get tag 0 ("boundary").
  std::vector<BoundaryEdge> boundary_edges;
  /// Name of each boundary tag (index = tag). Tag 0 is "boundary" unless set otherwise.
  std::vector<std::string> boundary_names{"boundary"};
  /// Where the mesh came from ("rect:4"), for messages.
  std::string source;

  int num_elements() const { return static_cast<int>(elements.size()); }
  int num_vertices() const { return static_cast<int>(vertices.size()); }
  /// Tag of the named boundary, or -1 when there is none.
  int boundary_tag(const std::string& name) const;
};

/// Area Jacobian of element e: its signed area over the reference area 2, negative when the
/// element is clockwise.
double element_jacobian(const TriMesh& mesh, int e);

/// Length of the longest edge of element e.
double longest_edge(const TriMesh& mesh, int e);

/// An element with |J| <= tri_degenerate_tolerance * (longest edge)^2 counts as degenerate.
constexpr double tri_degenerate_tolerance = 1e-12;

/// Largest jitter of the rectangle generator. A vertex moves by at most jitter * h (h the cell
/// size along each axis, in a disc of the cell-normalized coordinates); the signed area of a
/// cell triangle then stays above (1 - (2 + sqrt 2) jitter - 4 jitter^2) times its original
/// area, which is 16% at 0.2, so no element inverts.
constexpr double max_rectangle_jitter = 0.2;

/// Parameters of the built-in rectangle generator.
struct RectangleSpec {
  std::array<int, 2> cells{2, 2};         ///< squares along x, y
  std::array<double, 2> lower{0.0, 0.0};  ///< rectangle corner
  std::array<double, 2> upper{1.0, 1.0};  ///< opposite corner
  double jitter = 0.0;                    ///< 0 .. max_rectangle_jitter
  std::uint64_t seed = 1;                 ///< of the jitter (same seed, same mesh)
};

/// Rectangle split into cells[0] x cells[1] cells, each into two counter-clockwise triangles
/// along its (lower-left, upper-right) diagonal. Interior vertices move by the jitter (boundary
/// vertices stay, so the domain is the rectangle). Boundary tags: 1 "xmin", 2 "xmax",
/// 3 "ymin", 4 "ymax". Material 1, 1 everywhere. Throws dgk::Error for non-positive cell
/// counts, an empty rectangle or a jitter outside [0, max_rectangle_jitter].
TriMesh make_rectangle(const RectangleSpec& spec);

/// Parses a mesh specification: "rect:n" (n x n cells on the unit square), "rect:nx,ny", each
/// optionally followed by ",jitter=J" and ",seed=S" ("rect:8,jitter=0.2"). Throws dgk::Error
/// naming the problem for anything else.
TriMesh load_tri_mesh(const std::string& spec);

struct TriConnectivity {
  /// Neighbour element across each edge, or -1 on the boundary.
  std::vector<std::array<int, 3>> EToE;
  /// Neighbour's local edge across each edge, or -1 on the boundary.
  std::vector<std::array<int, 3>> EToF;
  /// Boundary tag of each edge (index into TriMesh::boundary_names), -1 for interior edges.
  std::vector<std::array<int, 3>> bc_tag;
  int num_interior_edges = 0;  ///< counted once per pair
  int num_boundary_edges = 0;
};

/// Matches edges through their sorted vertex pairs. Throws dgk::Error naming the elements when
/// an edge is shared by more than two elements, when an element uses a vertex twice or one that
/// does not exist, or when a tagged boundary edge is not an edge of the hull.
TriConnectivity connect(const TriMesh& mesh);

/// Checks that no two untagged hull edges overlap geometrically: such a pair is an interface the
/// elements do not share vertices across (a hanging vertex, or duplicated vertices). Throws
/// dgk::Error naming both elements and edges. build_edge_maps calls it.
void check_conforming(const TriMesh& mesh, const TriConnectivity& conn);

/// Affine geometric factors per element.
struct TriGeometry {
  /// Inverse Jacobian entries per element: rx, sx, ry, sy (d(r,s)/d(x,y), constant).
  std::vector<std::array<double, 4>> drdx;
  std::vector<double> J;  ///< area Jacobian (physical area / reference area 2)
  /// Outward unit normal of each edge.
  std::vector<std::array<std::array<double, 2>, 3>> normal;
  std::vector<std::array<double, 3>> sJ;      ///< edge Jacobian (length / parameter length 2)
  std::vector<std::array<double, 3>> fscale;  ///< sJ / J
};

/// Throws dgk::Error naming the element when it is inverted (J < 0) or degenerate (J below a
/// relative tolerance of its edge lengths).
TriGeometry geometric_factors(const TriMesh& mesh);

/// Physical coordinates of the nodes of every element: x[e * np + i].
struct TriNodeCoordinates {
  std::vector<double> x, y;
};
TriNodeCoordinates node_coordinates(const TriMesh& mesh, const basis::TriNodal& ref);

/// Edge-node maps. For element e, edge f and edge node i (position within ref.fmask[f]):
///   idx = (e * 3 + f) * nfp + i
///   vmapM[idx] = e * np + ref.fmask[f][i]                   (this element's node)
///   vmapP[idx] = e' * np + j  for the coinciding node of the neighbour, or vmapM[idx] on the
///                boundary.
struct EdgeMaps {
  int nfp = 0;
  std::vector<int> vmapM, vmapP;
  /// Edge indices (e * 3 + f) that lie on the boundary.
  std::vector<int> boundary_edges;
};

/// Builds the maps from the orientation of the shared vertices (no coordinate search per edge),
/// then checks that every matched pair of nodes coincides to a tolerance relative to the edge
/// length; throws dgk::Error naming the element and edge when they do not. Runs check_conforming
/// first.
EdgeMaps build_edge_maps(const TriMesh& mesh, const TriConnectivity& conn, const basis::TriNodal& ref);

}  // namespace dgk::mesh
