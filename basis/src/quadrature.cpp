// Collapsed-coordinate Gauss-Jacobi rules on the reference simplices.
#include "dgk/basis/quadrature.hpp"

#include "dgk/basis/polynomials.hpp"
#include "dgk/core/error.hpp"

namespace dgk::basis {

SimplexQuadrature simplex_quadrature(int dim, int degree) {
  DGK_THROW_IF(dim < 1 || dim > 3, "simplex_quadrature: dimension " << dim << " is not 1, 2 or 3");
  DGK_THROW_IF(degree < 0, "simplex_quadrature: degree " << degree << " is negative");
  // n Gauss points per direction integrate degree 2n - 1 exactly. In collapsed coordinates a
  // polynomial of total degree k has degree k in each coordinate once the factors (1 - b) and
  // (1 - c)^2 of the Jacobian are absorbed into the Jacobi weights.
  const int n = degree / 2 + 1;
  Eigen::VectorXd a, wa, b, wb, c, wc;
  jacobi_gq(0.0, 0.0, n - 1, a, wa);
  SimplexQuadrature q;
  q.dim = dim;
  if (dim == 1) {
    q.points = a;
    q.weights = wa;
    return q;
  }
  jacobi_gq(1.0, 0.0, n - 1, b, wb);
  if (dim == 2) {
    q.points.resize(n * n, 2);
    q.weights.resize(n * n);
    for (int j = 0, k = 0; j < n; ++j)
      for (int i = 0; i < n; ++i, ++k) {
        q.points(k, 0) = 0.5 * (1.0 + a(i)) * (1.0 - b(j)) - 1.0;
        q.points(k, 1) = b(j);
        q.weights(k) = 0.5 * wa(i) * wb(j);
      }
    return q;
  }
  jacobi_gq(2.0, 0.0, n - 1, c, wc);
  q.points.resize(n * n * n, 3);
  q.weights.resize(n * n * n);
  for (int l = 0, k = 0; l < n; ++l)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i, ++k) {
        q.points(k, 0) = 0.25 * (1.0 + a(i)) * (1.0 - b(j)) * (1.0 - c(l)) - 1.0;
        q.points(k, 1) = 0.5 * (1.0 + b(j)) * (1.0 - c(l)) - 1.0;
        q.points(k, 2) = c(l);
        q.weights(k) = 0.125 * wa(i) * wb(j) * wc(l);
      }
  return q;
}

}  // namespace dgk::basis
