// The mesh as the HDG trace system sees it: elements with their affine geometry, the faces
// (edges in 2D) that carry the trace unknowns, and each face's neighbour list in the dense
// block format of paper 001 (section III): slot 0 is the face itself, then the other faces of
// its first element, then those of its second; a boundary face's missing slots point at the
// face itself and hold zero blocks. Host-side.
#pragma once

#include <array>
#include <vector>

#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/mesh/tri_mesh.hpp"

namespace dgk::hdg {

struct TraceMesh {
  int dim = 0;        ///< 2 (triangles) or 3 (tetrahedra)
  int nfaces = 0;     ///< faces per element, dim + 1
  int num_slots = 0;  ///< n_a: 5 for triangles, 7 for tetrahedra
  std::string source;
  /// Per element: vertex coordinates (dim + 1 vertices of dim coordinates, flattened).
  std::vector<std::array<double, 12>> vertex_xyz;
  /// Per element: J (volume over reference volume), d r_r / d x_d at [r * dim + d], outward
  /// unit normal of each face at [f * dim + d], face Jacobian (measure over parameter measure).
  std::vector<double> J;
  std::vector<std::array<double, 9>> drdx;
  std::vector<std::array<double, 12>> normal;
  std::vector<std::array<double, 4>> sJ;
  /// Per element and local face: the global face and the orientation of the face's canonical
  /// parameterization (face_orientation of dgk/hdg/reference.hpp).
  std::vector<std::array<int, 4>> element_face;
  std::vector<std::array<int, 4>> element_orientation;
  /// Per face: its elements and their local face numbers (second -1 on the boundary), and the
  /// coordinates of its vertices in canonical (sorted global number) order.
  std::vector<std::array<int, 2>> face_element;
  std::vector<std::array<int, 2>> face_local;
  std::vector<std::array<double, 9>> face_xyz;
  /// Per face: neighbour faces of the num_slots slots, and how many slots are real (n_af).
  std::vector<int> neighbours;  ///< face * num_slots + slot
  std::vector<int> num_neighbours;

  int num_elements() const { return static_cast<int>(J.size()); }
  int num_faces() const { return static_cast<int>(face_element.size()); }
  bool is_boundary(int face) const { return face_element[static_cast<std::size_t>(face)][1] < 0; }
  /// Element volume (area in 2D).
  double volume(int e) const;
};

/// Builds the trace mesh; throws dgk::Error (naming the element) for inverted or degenerate
/// elements and non-conforming meshes, as the meshes' own connectivity does.
TraceMesh make_trace_mesh(const mesh::TriMesh& mesh);
TraceMesh make_trace_mesh(const mesh::TetMesh& mesh);

/// Slot of face b of an element in the neighbour list of its face a, seen from the face's
/// side-th element (0 or 1): 0 when a == b, else 1 + side * (nfaces - 1) + (b - (b > a)).
inline int block_slot(int nfaces, int side, int a, int b) {
  return a == b ? 0 : 1 + side * (nfaces - 1) + (b - (b > a ? 1 : 0));
}

}  // namespace dgk::hdg
