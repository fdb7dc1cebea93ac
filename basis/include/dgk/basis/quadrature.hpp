// Quadrature on the reference simplices (segment [-1, 1], triangle and tetrahedron with the
// vertices of dgk/basis/triangle.hpp and dgk/basis/tetrahedron.hpp): Gauss-Jacobi rules in
// collapsed coordinates (Karniadakis & Sherwin, section 4.1.1), exact for polynomials of the
// requested total degree. Host-side, double precision.
#pragma once

#include <Eigen/Dense>

namespace dgk::basis {

struct SimplexQuadrature {
  int dim = 0;
  /// Points, one row each, in reference coordinates (r), (r, s) or (r, s, t).
  Eigen::MatrixXd points;
  /// Weights; they sum to the reference measure (2, 2 or 4/3).
  Eigen::VectorXd weights;
  int size() const { return static_cast<int>(weights.size()); }
};

/// A rule on the reference simplex of dimension dim (1, 2 or 3) exact for every polynomial of
/// total degree at most degree (>= 0). Throws dgk::Error for anything else.
SimplexQuadrature simplex_quadrature(int dim, int degree);

}  // namespace dgk::basis
