// Unstructured triangular mesh on the host, the 2D counterpart of dgk/mesh/tet_mesh.hpp and
// dgk/mesh/tet_connectivity.hpp: vertices, element-to-vertex table, per-element material
// coefficients and tagged boundary edges; the rectangle and quarter-annulus generators (built in
// and through Gmsh), uniform refinement and the Gmsh reader; connectivity (also periodic),
// geometric factors, node coordinates and edge-node maps (Hesthaven & Warburton, sections
// 6.1-6.3, built with sorting instead of sparse-matrix products).
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

/// A boundary (by tag) that lies on the circle |x - center| = radius; the domain is on the side
/// `inside` (true: the domain is inside the circle, the outward normal is (x - center) / radius).
struct BoundaryCircle {
  int tag = 0;
  std::array<double, 2> center{0.0, 0.0};
  double radius = 1.0;
  bool inside = true;
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
  /// Boundaries that are arcs of circles: the exact outward normal a curved wall condition uses
  /// at each quadrature point, and where refine_tri_mesh puts the midpoints of their edges.
  std::vector<BoundaryCircle> boundary_circles;
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
/// optionally followed by ",jitter=J" and ",seed=S" ("rect:8,jitter=0.2"), or a Gmsh file name
/// ending in .msh (needs DGK_ENABLE_GMSH; see read_gmsh_tri). Throws dgk::Error naming the
/// problem for anything else.
TriMesh load_tri_mesh(const std::string& spec);

/// Parameters of the built-in quarter annulus {r_inner <= |x| <= r_outer, x >= 0, y >= 0}.
struct AnnulusSpec {
  int radial = 2;   ///< cells across the annulus
  int angular = 8;  ///< cells along the quarter circle
  double r_inner = 1.0;
  double r_outer = 1.384;
  double jitter = 0.0;  ///< 0 .. max_rectangle_jitter, as for the rectangle
  std::uint64_t seed = 1;
};

/// Quarter annulus as the image of a structured rectangle mesh (radius x angle, make_rectangle's
/// cells and jitter) under the polar map: vertices on the arcs lie on the circles, edges are
/// straight, vertices of the straight sides lie exactly on the axes. Boundary tags: 1 "inner"
/// (r = r_inner), 2 "outer" (r = r_outer), 3 "inflow" (y = 0), 4 "outflow" (x = 0); the two arcs
/// are listed in boundary_circles (inner: domain outside its circle, outer: inside). Source
/// "annulus:<angular>,<radial>" (then other radii, jitter and seed). Throws dgk::Error for
/// non-positive counts, radii with 0 < r_inner < r_outer violated or a jitter outside
/// [0, max_rectangle_jitter].
TriMesh make_quarter_annulus(const AnnulusSpec& spec);

/// The same domain meshed by the Gmsh SDK's built-in geometry kernel (unstructured,
/// Frontal-Delaunay, target edge length h), with the same tags and circles; the vertices of the
/// arcs lie on the circles to rounding. Source "gmsh-annulus:h=<h>" (then other radii). Needs
/// DGK_ENABLE_GMSH; throws dgk::Error otherwise, for bad radii, for h not positive or so small
/// that the triangles would exceed the int range, and names the problem when Gmsh fails. Like the
/// readers, it owns the Gmsh API for its duration (initialize ... finalize).
TriMesh generate_quarter_annulus(double r_inner, double r_outer, double h);

/// The rectangle [lower, upper] meshed by the Gmsh SDK (unstructured, Frontal-Delaunay, target
/// edge length h), with extra vertices on the bottom side at each x of `bottom_points` (so that
/// no edge straddles a change of boundary condition there). Boundary tags 1 "xmin", 2 "xmax",
/// 3 "ymin", 4 "ymax" as for make_rectangle; material 1, 1; region 0. Source "gmsh-rect:h=<h>"
/// (then the corners unless the unit square, and the bottom points). About 2.3 area / h^2
/// triangles: 10^6 take Gmsh about half a minute (meshing one surface is serial); meshing at 2h
/// and refine_tri_mesh once is far quicker. Needs DGK_ENABLE_GMSH; throws dgk::Error otherwise,
/// for an empty rectangle, a bottom point not strictly between the corners or given twice, and
/// h as for generate_quarter_annulus.
TriMesh generate_rectangle(const std::array<double, 2>& lower, const std::array<double, 2>& upper, double h,
                           const std::vector<double>& bottom_points = {});

/// Splits every triangle into four through its edge midpoints, `times` times (0: unchanged).
/// Per step, the vertices are kept and one midpoint per edge is appended (shared by the two
/// elements of the edge); children 4e .. 4e+3 of element e are its three corner triangles and
/// the middle one, counter-clockwise like e. Boundary edges are split in two with their tag;
/// midpoints of boundary edges whose tag is listed in boundary_circles are moved onto that
/// circle. Region and material are inherited (empty stays empty); `source` gets ",refine=R"
/// appended. Throws dgk::Error for times < 0, a result beyond 2^31 elements, a boundary edge that
/// is no element edge, per-element data of the wrong length, or a child inverted by the move
/// onto a circle.
TriMesh refine_tri_mesh(const TriMesh& mesh, int times);

/// Reads triangles and tagged boundary edges (physical groups of dimension 1, named by their
/// physical name) from a Gmsh MSH file through the Gmsh SDK, the 2D counterpart of read_gmsh_tet
/// with the same conventions and safeguards (MSH header required, read in a child process on a
/// private copy; tag numbering, "group<N>" names, surface physical groups set `region`,
/// clockwise triangles reordered, degenerate ones an error, higher-order triangles read through
/// their corners). z is dropped: triangle corners whose z differs (beyond 1e-10 of the extent in
/// x and y) are an error, and so are 3D elements in the file and other 2D element types
/// (quadrilaterals). Errors name the file and the problem.
TriMesh read_gmsh_tri(const std::string& path);

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

/// Identifies the boundary edges of tag `from` with those of tag `to` translated by `shift`
/// (periodic boundaries), after connect(): edges pair when their midpoints (from + shift, to)
/// agree to 1e-9 of the edge length, and so must their end points. Afterwards EToE/EToF link the
/// pairs both ways, their bc_tag is -1, and num_interior_edges / num_boundary_edges count them as
/// interior. Throws dgk::Error naming the edge (element, local edge, midpoint) when an edge of
/// either tag has no partner or the two tags have different edge counts, for a tag outside the
/// boundary names, from == to, or a tag without unpaired edges; `conn` is unchanged then.
/// build_edge_maps does not handle such pairs yet (it matches nodes through shared vertices).
void connect_periodic(const TriMesh& mesh, TriConnectivity& conn, int from, int to, const std::array<double, 2>& shift);

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
