// One-dimensional Jacobi polynomials and Gauss quadratures: the building blocks of every
// reference-element construction (Hesthaven & Warburton, "Nodal Discontinuous Galerkin
// Methods", appendix A). Host-side, double precision.
#pragma once

#include <Eigen/Dense>

namespace dgk::basis {

/// Orthonormal Jacobi polynomial P_n^{(alpha,beta)} evaluated at the points x.
Eigen::VectorXd jacobi_p(const Eigen::VectorXd& x, double alpha, double beta, int n);

/// Derivative of jacobi_p.
Eigen::VectorXd grad_jacobi_p(const Eigen::VectorXd& x, double alpha, double beta, int n);

/// Gauss quadrature of order n (n + 1 points) for the weight (1-x)^alpha (1+x)^beta.
void jacobi_gq(double alpha, double beta, int n, Eigen::VectorXd& x, Eigen::VectorXd& w);

/// Gauss-Lobatto points of order n (n + 1 points, endpoints included).
Eigen::VectorXd jacobi_gl(double alpha, double beta, int n);

/// Warp factor of the warp & blend node construction (Warburton 2006): the equispaced-to-
/// Gauss-Lobatto displacement of order n, interpolated and divided by 1 - r^2, at the points r.
Eigen::VectorXd warp_factor(int n, const Eigen::VectorXd& r);

}  // namespace dgk::basis
