// Element orderings for locality: the flux gather reads each neighbour's trace, so elements
// that are near in space should be near in memory (paper 000's reordering, here by a
// space-filling curve). A mesh from a generator or Gmsh is renumbered once, before the solver
// is built; the solution is the same (each element's arithmetic does not depend on the order).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/mesh/tri_mesh.hpp"

namespace dgk::mesh {

enum class ElementOrder {
  None,               ///< as generated or read
  SpaceFillingCurve,  ///< along a Morton (Z-order) curve of the element centroids
  Random,             ///< a seeded random permutation: the worst case, for measuring locality
};

/// "none", "sfc", "random"; throws dgk::Error naming the choices.
ElementOrder parse_element_order(const std::string& name);
const char* element_order_name(ElementOrder o);

/// The permutation that puts element order[i] at position i. Morton keys use 21 bits per axis
/// of the centroids' bounding box (z = 0 in 2D); ties keep the original order.
std::vector<int> element_order(ElementOrder o, const std::vector<std::array<double, 3>>& centroids,
                               std::uint64_t seed = 1);

/// The mesh with its elements (and their materials and regions) in the given order; vertices
/// and boundary faces are unchanged. Throws dgk::Error when `order` is not a permutation.
TetMesh reorder_elements(const TetMesh& mesh, const std::vector<int>& order);
TriMesh reorder_elements(const TriMesh& mesh, const std::vector<int>& order);

/// The mesh renumbered by the named ordering ("none" returns it as it is).
TetMesh reorder_elements(const TetMesh& mesh, const std::string& order);
TriMesh reorder_elements(const TriMesh& mesh, const std::string& order);

/// Mean |e - n| over the interior faces (e, n): how far apart in memory neighbours lie.
double mean_neighbour_distance(const std::vector<int>& neighbours, int nfaces);

/// The share of interior faces (e, n) with |e - n| > distance: the neighbours' traces a gather
/// finds in no cache that holds only the last `distance` elements' data.
double far_neighbour_fraction(const std::vector<int>& neighbours, int nfaces, long long distance);

}  // namespace dgk::mesh
