// Connectivity, geometric factors and face-node maps of a tetrahedral mesh (Hesthaven &
// Warburton, sections 6.1-6.3, built with hashing instead of dense sparse-matrix products).
#pragma once

#include <array>
#include <vector>

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/mesh/tet_mesh.hpp"

namespace dgk::mesh {

struct TetConnectivity {
  /// Neighbour element across each face, or -1 on the boundary.
  std::vector<std::array<int, 4>> EToE;
  /// Neighbour's local face across each face, or -1 on the boundary.
  std::vector<std::array<int, 4>> EToF;
  /// Boundary tag of each face (index into TetMesh::boundary_names), -1 for interior faces.
  std::vector<std::array<int, 4>> bc_tag;
  int num_interior_faces = 0;  ///< counted once per pair
  int num_boundary_faces = 0;
};

/// Matches faces through their sorted vertex triples. Throws dgk::Error naming the element
/// when a face is shared by more than two elements, or when a tagged boundary face is not a
/// face of the hull.
TetConnectivity connect(const TetMesh& mesh);

/// Checks that no two hull faces with tag 0 (untagged) overlap geometrically: such a pair is
/// an interface the elements do not share vertices across (a hanging node, or duplicated
/// vertices). Tagged hull faces may overlap on purpose (the two sides of a thin sheet). Throws
/// dgk::Error naming both elements and faces. build_face_maps calls it.
void check_conforming(const TetMesh& mesh, const TetConnectivity& conn);

/// Affine geometric factors per element.
struct TetGeometry {
  /// Inverse Jacobian entries per element: rx, sx, tx, ry, sy, ty, rz, sz, tz
  /// (d(r,s,t)/d(x,y,z), constant on an affine element).
  std::vector<std::array<double, 9>> drdx;
  std::vector<double> J;  ///< volume Jacobian (physical volume / reference volume 4/3)
  /// Outward unit normal of each face.
  std::vector<std::array<std::array<double, 3>, 4>> normal;
  std::vector<std::array<double, 4>> sJ;      ///< surface Jacobian of each face
  std::vector<std::array<double, 4>> fscale;  ///< sJ / J
};

/// Throws dgk::Error naming the element when it is inverted (J < 0) or degenerate
/// (J below a relative tolerance of its edge lengths).
TetGeometry geometric_factors(const TetMesh& mesh);

/// Physical coordinates of the nodes of every element: x[e * np + i].
struct NodeCoordinates {
  std::vector<double> x, y, z;
};
NodeCoordinates node_coordinates(const TetMesh& mesh, const basis::TetNodal& ref);

/// Face-node maps. For element e, face f and face node i (position within ref.fmask[f]):
///   idx = (e * 4 + f) * nfp + i
///   vmapM[idx] = e * np + ref.fmask[f][i]                   (this element's node)
///   vmapP[idx] = e' * np + j  for the coinciding node of the neighbour, or vmapM[idx] on the
///                boundary.
struct FaceMaps {
  int nfp = 0;
  std::vector<int> vmapM, vmapP;
  /// Face indices (e * 4 + f) that lie on the boundary.
  std::vector<int> boundary_faces;
};

/// Builds the maps through the face-vertex permutation (no coordinate search per face), then
/// checks that every matched pair of nodes coincides to a tolerance relative to the element
/// size; throws dgk::Error naming the element and face when they do not (non-conforming mesh).
/// Also runs check_conforming, so untagged boundary faces that overlap another part of the
/// mesh do not pass as boundary.
FaceMaps build_face_maps(const TetMesh& mesh, const TetConnectivity& conn,
                         const basis::TetNodal& ref);

/// The neighbour map per face instead of per face node, as the tuned flux gathers read it: for
/// face f of element e, code[4 e + f] = e' max_patterns + p, with e' the neighbour element
/// (e itself on the boundary) and p a pattern, whose row lists the neighbour's node at each of
/// the face's nodes: vmapP[(4 e + f) nfp + i] = e' np + patterns[p][i]. Built through the
/// face-vertex permutation, a map has at most 4 x 6 interior patterns (the neighbour's face and
/// the turn between the two faces' vertex orders); on the boundary the element's own face
/// nodes are one of them. The codes take 4 ints per element against 4 nfp for vmapP.
struct FaceCodes {
  static constexpr int max_patterns = 32;
  std::vector<int> code;                   ///< 4 per element; empty: see face_codes
  std::vector<std::vector<int>> patterns;  ///< nfp nodes each
};

/// The face codes of a neighbour map (vmapP of build_face_maps, or its first 4 nfp K entries)
/// whose neighbours are below `elements` (ghosts included). Empty where elements times
/// max_patterns passes the largest int or the map has more than max_patterns patterns; throws
/// dgk::Error naming the element and face where one face's nodes have neighbours in two
/// elements.
FaceCodes face_codes(const std::vector<int>& vmapP, int np, int nfp, int elements);

}  // namespace dgk::mesh
