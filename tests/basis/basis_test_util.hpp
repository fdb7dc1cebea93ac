// Shared helpers of the reference-element tests: machine epsilon, cheap condition numbers and
// an independent triangle quadrature.
#pragma once

#include <cmath>
#include <limits>

#include <Eigen/Dense>

#include "dgk/basis/polynomials.hpp"

namespace dgk::basis::test {

constexpr double kEps = std::numeric_limits<double>::epsilon();

/// Safety factor over the first-order rounding estimates the tolerances are built from (an
/// estimate such as cond(V) |D| eps bounds the error up to a modest constant, not exactly).
constexpr double kSafety = 4.0;

/// Induced 1-norm (maximum absolute column sum).
inline double norm1(const Eigen::MatrixXd& a) {
  return a.cwiseAbs().colwise().sum().maxCoeff();
}

/// Induced infinity-norm (maximum absolute row sum).
inline double norm_inf(const Eigen::MatrixXd& a) {
  return a.cwiseAbs().rowwise().sum().maxCoeff();
}

/// Largest absolute entry.
inline double max_abs(const Eigen::MatrixXd& a) {
  return a.cwiseAbs().maxCoeff();
}

/// 1-norm condition number from a matrix and its computed inverse.
inline double cond1(const Eigen::MatrixXd& a, const Eigen::MatrixXd& ainv) {
  return norm1(a) * norm1(ainv);
}

/// Collapsed-coordinate Gauss rule on the reference triangle {r, s >= -1, r + s <= 0}, exact for
/// polynomials of degree 2 q + 1: Gauss-Legendre in a times Gauss-Jacobi(1, 0) in b, whose
/// weight (1 - b) is the Jacobian of the collapse. The weights sum to the area, 2.
inline void triangle_quadrature(int q, Eigen::VectorXd& r, Eigen::VectorXd& s, Eigen::VectorXd& w) {
  Eigen::VectorXd xa, wa, xb, wb;
  jacobi_gq(0.0, 0.0, q, xa, wa);
  jacobi_gq(1.0, 0.0, q, xb, wb);
  const int n = (q + 1) * (q + 1);
  r.resize(n);
  s.resize(n);
  w.resize(n);
  int k = 0;
  for (int j = 0; j <= q; ++j) {
    for (int i = 0; i <= q; ++i) {
      r(k) = 0.5 * (1.0 + xa(i)) * (1.0 - xb(j)) - 1.0;
      s(k) = xb(j);
      w(k) = 0.5 * wa(i) * wb(j);
      ++k;
    }
  }
}

/// Integer power for monomials (std::pow with integer exponents is fine but slower).
inline double ipow(double x, int e) {
  double p = 1.0;
  for (int i = 0; i < e; ++i) p *= x;
  return p;
}

/// Factorial as a double (small arguments only).
inline double factorial(int n) {
  return std::tgamma(n + 1.0);
}

}  // namespace dgk::basis::test
