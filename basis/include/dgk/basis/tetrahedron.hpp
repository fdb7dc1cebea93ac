// Reference tetrahedron and its nodal (warp & blend) DG operators.
//
// Reference element: vertices v0 = (-1,-1,-1), v1 = (1,-1,-1), v2 = (-1,1,-1), v3 = (-1,-1,1).
// Barycentrics of (r,s,t): l0 = -(1+r+s+t)/2, l1 = (1+r)/2, l2 = (1+s)/2, l3 = (1+t)/2.
// Faces (0-based, same order as Hesthaven & Warburton):
//   face 0: t = -1        vertices {0, 1, 2}
//   face 1: s = -1        vertices {0, 1, 3}
//   face 2: r + s + t = -1 vertices {1, 2, 3}
//   face 3: r = -1        vertices {0, 2, 3}
// Host-side, double precision; the device copies are rounded once to the run's precision.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <Eigen/Dense>

namespace dgk::basis {

constexpr int tet_np(int n) { return (n + 1) * (n + 2) * (n + 3) / 6; }
constexpr int tet_nfp(int n) { return (n + 1) * (n + 2) / 2; }
constexpr int tet_nfaces = 4;
/// Highest order the nodal tetrahedron is built for (the warp & blend parameters are tabulated
/// to 15; dgk's compiled kernels go to 9).
constexpr int tet_max_order = 15;

/// Local vertex numbers of each face, in the order listed above.
constexpr std::array<std::array<int, 3>, 4> tet_face_vertices{{{0, 1, 2}, {0, 1, 3}, {1, 2, 3}, {0, 2, 3}}};

/// Warp & blend nodes of order N on the reference tetrahedron, in the standard ordering
/// (t outer, s middle, r inner).
void tet_nodes(int n, Eigen::VectorXd& r, Eigen::VectorXd& s, Eigen::VectorXd& t);

/// Equispaced nodes of order N, same ordering.
void tet_equispaced_nodes(int n, Eigen::VectorXd& r, Eigen::VectorXd& s, Eigen::VectorXd& t);

/// Split of the order-N node lattice into N^3 positively oriented sub-tetrahedra (4 node indices
/// each, in the ordering of tet_nodes): N(N+1)(N+2)/6 corner tetrahedra, four per interior
/// octahedron and the inverted corner tetrahedra. Used to draw high-order fields with linear
/// cells.
std::vector<std::array<int, 4>> tet_sub_cells(int n);

/// Orthonormal (Koornwinder/Dubiner) basis on the tetrahedron at the given points.
Eigen::MatrixXd tet_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s,
                                const Eigen::VectorXd& t);

/// Gradients of the orthonormal basis at the given points.
void tet_grad_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s,
                          const Eigen::VectorXd& t, Eigen::MatrixXd& vr, Eigen::MatrixXd& vs,
                          Eigen::MatrixXd& vt);

/// All nodal operators of the order-N tetrahedron.
struct TetNodal {
  int order = 0;
  int np = 0;   ///< nodes per element
  int nfp = 0;  ///< nodes per face
  Eigen::VectorXd r, s, t;               ///< nodes (np)
  Eigen::MatrixXd V, Vinv;               ///< Vandermonde and inverse (np x np)
  Eigen::MatrixXd Dr, Ds, Dt;            ///< differentiation matrices (np x np)
  Eigen::MatrixXd M, Minv;               ///< mass matrix and inverse (np x np)
  std::array<Eigen::MatrixXd, 4> Mface;  ///< face mass on each face's own nodes (nfp x nfp)
  Eigen::MatrixXd LIFT;                  ///< np x (4 nfp): column block f lifts face f
  std::array<std::vector<int>, 4> fmask; ///< node indices of each face (nfp each)
};

/// Builds the operators of order n (1 <= n <= tet_max_order); throws dgk::Error otherwise.
TetNodal make_tet_nodal(int n);

/// LIFT's four column blocks as one block seen through the tetrahedron's symmetries: a vertex
/// permutation that takes face 0 to face f maps the (symmetric) nodes onto themselves and face
/// 0's nodes onto face f's, so that LIFT(i, f nfp + j) = LIFT(volume[f][i], face[f][j]) for every
/// node i and face node j (face 0's block, indices permuted). A kernel may then read face 0's
/// np x nfp block only, a quarter of LIFT.
struct TetLiftSymmetry {
  bool found = false;
  std::array<std::vector<int>, 4> volume;  ///< np each: the node of face 0's block for node i
  std::array<std::vector<int>, 4> face;    ///< nfp each: face 0's node for face f's node j
  double max_error = 0;  ///< the largest |LIFT(i, f nfp + j) - LIFT(volume, face)| over all entries
  std::string why;       ///< empty if found; else which face has no such permutation
};

/// The permutations of TetLiftSymmetry for op's nodes, each checked against op.LIFT to `tolerance`
/// times LIFT's largest magnitude.
TetLiftSymmetry tet_lift_symmetry(const TetNodal& op, double tolerance = 1e-12);

}  // namespace dgk::basis
