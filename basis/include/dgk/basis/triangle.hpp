// Reference triangle {(r,s): r,s >= -1, r+s <= 0}: warp & blend nodes, the orthonormal
// (Dubiner) basis and its Vandermonde matrices. Host-side, double precision.
#pragma once

#include <Eigen/Dense>

namespace dgk::basis {

/// Number of nodes of the order-N triangle.
constexpr int tri_np(int n) { return (n + 1) * (n + 2) / 2; }

/// Warp & blend nodes of order N on the reference triangle (r, s), in the standard ordering
/// (s outer, r inner, lexicographic).
void tri_nodes(int n, Eigen::VectorXd& r, Eigen::VectorXd& s);

/// Orthonormal basis on the triangle: V(i, j) = psi_j(r_i, s_i), j over (i + j <= N) modes.
Eigen::MatrixXd tri_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s);

/// Gradients of the orthonormal basis: Vr(i, j) = d psi_j / dr (r_i, s_i), likewise Vs.
void tri_grad_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s,
                          Eigen::MatrixXd& vr, Eigen::MatrixXd& vs);

}  // namespace dgk::basis
