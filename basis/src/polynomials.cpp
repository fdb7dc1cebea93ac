// Jacobi polynomials and Gauss / Gauss-Lobatto quadratures (Hesthaven & Warburton, JacobiP,
// GradJacobiP, JacobiGQ, JacobiGL).
#include "dgk/basis/polynomials.hpp"

#include <cmath>

#include <Eigen/Eigenvalues>

#include "dgk/core/error.hpp"

namespace dgk::basis {

namespace {

// Integral of the weight (1-x)^alpha (1+x)^beta over [-1, 1].
double jacobi_weight_mass(double alpha, double beta) {
  // Written with Gamma(alpha + beta + 2) so that alpha + beta = -1 (Chebyshev) stays finite.
  return std::pow(2.0, alpha + beta + 1.0) * std::tgamma(alpha + 1.0) * std::tgamma(beta + 1.0) /
         std::tgamma(alpha + beta + 2.0);
}

}  // namespace

Eigen::VectorXd jacobi_p(const Eigen::VectorXd& x, double alpha, double beta, int n) {
  DGK_THROW_IF(n < 0, "jacobi_p: negative degree " << n);
  DGK_THROW_IF(alpha <= -1.0 || beta <= -1.0, "jacobi_p: weight exponents must exceed -1 (alpha = "
                                                  << alpha << ", beta = " << beta << ")");
  const Eigen::Index m = x.size();
  const double ab = alpha + beta;

  // Three-term recurrence of the orthonormal polynomials; only two levels are kept.
  const double gamma0 = jacobi_weight_mass(alpha, beta);
  Eigen::VectorXd p_prev = Eigen::VectorXd::Constant(m, 1.0 / std::sqrt(gamma0));
  if (n == 0) return p_prev;

  const double gamma1 = (alpha + 1.0) * (beta + 1.0) / (ab + 3.0) * gamma0;
  Eigen::VectorXd p_cur = ((ab + 2.0) * x.array() / 2.0 + (alpha - beta) / 2.0) / std::sqrt(gamma1);
  if (n == 1) return p_cur;

  double a_old = 2.0 / (2.0 + ab) * std::sqrt((alpha + 1.0) * (beta + 1.0) / (ab + 3.0));
  for (int i = 1; i < n; ++i) {
    const double h1 = 2.0 * i + ab;
    const double a_new = 2.0 / (h1 + 2.0) *
                         std::sqrt((i + 1.0) * (i + 1.0 + ab) * (i + 1.0 + alpha) *
                                   (i + 1.0 + beta) / (h1 + 1.0) / (h1 + 3.0));
    const double b_new = -(alpha * alpha - beta * beta) / h1 / (h1 + 2.0);
    Eigen::VectorXd p_next =
        (-a_old * p_prev.array() + (x.array() - b_new) * p_cur.array()) / a_new;
    p_prev = std::move(p_cur);
    p_cur = std::move(p_next);
    a_old = a_new;
  }
  return p_cur;
}

Eigen::VectorXd grad_jacobi_p(const Eigen::VectorXd& x, double alpha, double beta, int n) {
  DGK_THROW_IF(n < 0, "grad_jacobi_p: negative degree " << n);
  if (n == 0) return Eigen::VectorXd::Zero(x.size());
  return std::sqrt(n * (n + alpha + beta + 1.0)) * jacobi_p(x, alpha + 1.0, beta + 1.0, n - 1);
}

void jacobi_gq(double alpha, double beta, int n, Eigen::VectorXd& x, Eigen::VectorXd& w) {
  DGK_THROW_IF(n < 0, "jacobi_gq: negative order " << n);
  DGK_THROW_IF(alpha <= -1.0 || beta <= -1.0, "jacobi_gq: weight exponents must exceed -1 (alpha = "
                                                  << alpha << ", beta = " << beta << ")");
  const double ab = alpha + beta;
  x.resize(n + 1);
  w.resize(n + 1);
  if (n == 0) {
    x(0) = -(alpha - beta) / (ab + 2.0);
    w(0) = jacobi_weight_mass(alpha, beta);
    return;
  }

  // Golub-Welsch: the nodes are the eigenvalues of the symmetric Jacobi matrix. The first
  // diagonal entry is written in its reduced form, which stays finite for alpha + beta = 0.
  Eigen::VectorXd diag(n + 1), sub(n);
  diag(0) = (beta - alpha) / (ab + 2.0);
  for (int i = 1; i <= n; ++i) {
    const double h = 2.0 * i + ab;
    diag(i) = (beta * beta - alpha * alpha) / (h * (h + 2.0));
  }
  // The first off-diagonal entry is also reduced ((i + ab) cancels h - 1), which keeps
  // alpha + beta = -1 finite.
  sub(0) = 2.0 / (ab + 2.0) * std::sqrt((alpha + 1.0) * (beta + 1.0) / (ab + 3.0));
  for (int i = 2; i <= n; ++i) {
    const double h = 2.0 * i + ab;
    sub(i - 1) =
        2.0 / h * std::sqrt(i * (i + ab) * (i + alpha) * (i + beta) / ((h - 1.0) * (h + 1.0)));
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig;
  eig.computeFromTridiagonal(diag, sub, Eigen::EigenvaluesOnly);
  x = eig.eigenvalues();  // ascending

  // Polish each node with Newton steps on P_{n+1}: the eigen solver's error scales with the
  // matrix norm, Newton's with the local conditioning of the root, which is much smaller.
  for (int it = 0; it < 3; ++it) {
    const Eigen::VectorXd p = jacobi_p(x, alpha, beta, n + 1);
    const Eigen::VectorXd dp = grad_jacobi_p(x, alpha, beta, n + 1);
    x.array() -= p.array() / dp.array();
  }

  // Christoffel formula with orthonormal polynomials: w_i = 1 / sum_k p_k(x_i)^2. Every term is
  // positive, so the weights carry no cancellation error (unlike squared eigenvector entries).
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(n + 1);
  for (int k = 0; k <= n; ++k) sum.array() += jacobi_p(x, alpha, beta, k).array().square();
  w = sum.cwiseInverse();

  // The symmetric weight gives a symmetric rule; enforce it to the last bit.
  if (alpha == beta) {
    for (int i = 0; i <= n / 2; ++i) {
      const int j = n - i;
      const double xs = 0.5 * (x(j) - x(i));
      const double ws = 0.5 * (w(i) + w(j));
      x(i) = -xs;
      x(j) = xs;
      w(i) = w(j) = ws;
    }
    if (n % 2 == 0) x(n / 2) = 0.0;
  }
}

Eigen::VectorXd jacobi_gl(double alpha, double beta, int n) {
  DGK_THROW_IF(n < 1, "jacobi_gl: order must be at least 1, got " << n);
  Eigen::VectorXd x(n + 1);
  x(0) = -1.0;
  x(n) = 1.0;
  if (n == 1) return x;
  // The interior Gauss-Lobatto points are the Gauss points of the (alpha+1, beta+1) weight.
  Eigen::VectorXd xint, wint;
  jacobi_gq(alpha + 1.0, beta + 1.0, n - 2, xint, wint);
  x.segment(1, n - 1) = xint;
  return x;
}

// One-dimensional warp: the interpolant (through the equispaced points) of the displacement
// from equispaced to Gauss-Lobatto points, divided by 1 - r^2. The division is carried out on
// the Lagrange form (the factors of the two end points cancel it exactly), so the result is a
// polynomial without the removable singularity; the interior displacements are the only ones
// that contribute because the end points do not move. Its value at r = +-1 is never used: the
// blend factors vanish there.
Eigen::VectorXd warp_factor(int n, const Eigen::VectorXd& rout) {
  const Eigen::VectorXd lgl = jacobi_gl(0.0, 0.0, n);
  Eigen::VectorXd req(n + 1);
  for (int i = 0; i <= n; ++i) req(i) = -1.0 + 2.0 * i / n;

  Eigen::VectorXd warp = Eigen::VectorXd::Zero(rout.size());
  for (int i = 1; i < n; ++i) {
    // ell_i(r) / (1 - r^2) = prod_{j != 0, i, n} (r - x_j) / (x_i - x_j) / ((1 + x_i)(1 - x_i)).
    Eigen::VectorXd term = Eigen::VectorXd::Constant(
        rout.size(), (lgl(i) - req(i)) / ((1.0 + req(i)) * (1.0 - req(i))));
    for (int j = 1; j < n; ++j) {
      if (j == i) continue;
      term.array() *= (rout.array() - req(j)) / (req(i) - req(j));
    }
    warp += term;
  }
  return warp;
}

}  // namespace dgk::basis
