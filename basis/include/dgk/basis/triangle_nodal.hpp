// Nodal (warp & blend) DG operators of the reference triangle, the 2D counterpart of
// dgk/basis/tetrahedron.hpp.
//
// Reference element: vertices v0 = (-1,-1), v1 = (1,-1), v2 = (-1,1).
// Barycentrics of (r,s): l0 = -(r+s)/2, l1 = (1+r)/2, l2 = (1+s)/2.
// Edges (0-based, same order as Hesthaven & Warburton):
//   edge 0: s = -1      vertices {0, 1}
//   edge 1: r + s = 0   vertices {1, 2}
//   edge 2: r = -1      vertices {0, 2}
// The nodes of each edge (fmask) are listed in increasing node index, which runs from the edge's
// first vertex to its second. Host-side, double precision; the device copies are rounded once to
// the run's precision.
#pragma once

#include <array>
#include <vector>

#include <Eigen/Dense>

#include "dgk/basis/triangle.hpp"

namespace dgk::basis {

constexpr int tri_nfp(int n) {
  return n + 1;
}
constexpr int tri_nedges = 3;
/// Highest order the nodal triangle is built for (the warp & blend parameters are tabulated to
/// 15; dgk's compiled kernels go to 9).
constexpr int tri_max_order = 15;

/// Local vertex numbers of each edge, in the order listed above.
constexpr std::array<std::array<int, 2>, 3> tri_edge_vertices{{{0, 1}, {1, 2}, {0, 2}}};

/// Split of the order-N node lattice into N^2 positively oriented sub-triangles (3 node indices
/// each, in the ordering of tri_nodes): N(N+1)/2 upward and N(N-1)/2 downward lattice cells.
/// Used to draw high-order fields with linear cells.
std::vector<std::array<int, 3>> tri_sub_cells(int n);

/// All nodal operators of the order-N triangle.
struct TriNodal {
  int order = 0;
  int np = 0;                             ///< nodes per element
  int nfp = 0;                            ///< nodes per edge
  Eigen::VectorXd r, s;                   ///< nodes (np)
  Eigen::MatrixXd V, Vinv;                ///< Vandermonde and inverse (np x np)
  Eigen::MatrixXd Dr, Ds;                 ///< differentiation matrices (np x np)
  Eigen::MatrixXd M, Minv;                ///< mass matrix and inverse (np x np)
  std::array<Eigen::MatrixXd, 3> Medge;   ///< edge mass on each edge's own nodes (nfp x nfp)
  Eigen::MatrixXd LIFT;                   ///< np x (3 nfp): column block f lifts edge f
  std::array<std::vector<int>, 3> fmask;  ///< node indices of each edge (nfp each)
};

/// Builds the operators of order n (1 <= n <= tri_max_order); throws dgk::Error otherwise.
TriNodal make_tri_nodal(int n);

}  // namespace dgk::basis
