// Modal DG on the reference triangle {(r,s): r,s >= -1, r+s <= 0} (paper 004, section 2-3): the
// orthonormal (Dubiner) basis evaluated at a volume rule exact to degree 2p and at Gauss-Legendre
// points exact to degree 2p+1 on each edge, with the weights folded in where the kernels use
// them. Host-side, double precision; the solver rounds it once to its precision.
#pragma once

#include <array>

#include <Eigen/Dense>

namespace dgk::basis {

/// Vertices of the reference triangle, counter-clockwise: (-1,-1), (1,-1), (-1,1). Edge f runs
/// from vertex f to vertex (f + 1) % 3; a point of an edge has the parameter xi in [-1, 1].
constexpr double tri_reference_vertices[3][2] = {{-1.0, -1.0}, {1.0, -1.0}, {-1.0, 1.0}};

struct TriModal {
  int order = 0;
  int np = 0;  ///< modes, (p + 1)(p + 2) / 2
  /// Volume rule exact to degree 2p: points (r, s), weights summing to 2.
  Eigen::VectorXd r, s, w;
  /// phi(k, j) = psi_j(r_k, s_k); dr, ds its derivatives.
  Eigen::MatrixXd phi, dr, ds;
  /// Edge rule exact to degree 2p+1 on [-1, 1]: parameters and weights summing to 2.
  Eigen::VectorXd xi, xw;
  /// edge_phi[f](q, j) = psi_j at the point xi_q of edge f.
  std::array<Eigen::MatrixXd, 3> edge_phi;
  /// The constant mode's value (mode 0); the cell average of a field is c_0 * phi0.
  double phi0 = 0.0;
  int nq() const { return static_cast<int>(w.size()); }
  int nqe() const { return static_cast<int>(xw.size()); }
};

/// Builds the modal operators of order p (0..15). Throws dgk::Error for anything else.
TriModal make_tri_modal(int p);

/// The reference point of parameter xi on edge f.
std::array<double, 2> tri_edge_point(int f, double xi);

}  // namespace dgk::basis
