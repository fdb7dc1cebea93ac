// Reference-element operators of the HDG method on triangles (dim 2) and tetrahedra (dim 3):
// the orthonormal Dubiner basis of degree p on the element, an orthonormal basis of degree p on
// each face (Legendre on edges, Dubiner on triangles) in the face's canonical orientation
// (its vertices sorted by global number, so both elements of a face use the same functions),
// and the integrals the local solver needs. Host-side, double precision.
#pragma once

#include <array>
#include <vector>

#include <Eigen/Dense>

namespace dgk::hdg {

struct HdgReference {
  int dim = 0;     ///< 2 or 3
  int order = 0;   ///< polynomial degree p >= 0
  int np = 0;      ///< element basis functions
  int nfp = 0;     ///< face basis functions
  int nfaces = 0;  ///< dim + 1
  int nperm = 0;   ///< orientations of a face: dim! (2 for edges, 6 for triangles)
  /// Dr[r](i, j) = integral over the reference element of (d phi_j / d r_r) phi_i.
  std::vector<Eigen::MatrixXd> Dr;
  /// S[f](i, j) = integral over reference face f of phi_i phi_j (face parameter measure).
  std::vector<Eigen::MatrixXd> S;
  /// F[f * nperm + o](i, m) = integral over reference face f of phi_i psi_m, psi in the face's
  /// canonical parameterization when the face is met in orientation o (see face_orientation).
  std::vector<Eigen::MatrixXd> F;
  /// Element quadrature of degree 2p + 4 for right-hand sides and errors: points (reference
  /// coordinates, one row each), weights and basis values V(q, i) = phi_i(x_q).
  Eigen::MatrixXd quad_points;
  Eigen::VectorXd quad_weights;
  Eigen::MatrixXd quad_V;
  /// Face quadrature of degree 2p + 4 on the canonical face parameter domain (segment [-1, 1]
  /// or the reference triangle): barycentric weights of the face's sorted vertices per point,
  /// the weights, and the face basis values.
  Eigen::MatrixXd face_bary;
  Eigen::VectorXd face_weights;
  Eigen::MatrixXd face_V;
};

/// Builds the reference operators for dim in {2, 3} and order in 0..10. Throws dgk::Error
/// otherwise.
HdgReference make_hdg_reference(int dim, int order);

/// Local vertex numbers of face f of the reference element (dgk/basis/triangle_nodal.hpp and
/// dgk/basis/tetrahedron.hpp orders).
std::array<int, 3> reference_face_vertices(int dim, int f);

/// Orientation index of a face whose local vertices carry the global numbers g[0..dim-1]: the
/// index of the permutation pi with g[pi[k]] the k-th smallest, among the permutations of
/// 0..dim-1 in lexicographic order. The numbers must be distinct.
int face_orientation(int dim, const std::array<int, 3>& g);

}  // namespace dgk::hdg
