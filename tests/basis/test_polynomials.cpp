// Jacobi polynomials and Gauss quadratures.
#include <cmath>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "basis_test_util.hpp"
#include "dgk/basis/polynomials.hpp"

namespace dgk::basis {
namespace {

using test::kEps;
using test::kSafety;

// Weights of the kinds the tetrahedral basis uses ((2i+1, 0), (2(i+j)+2, 0)), symmetric ones
// and a Chebyshev-like one.
const std::vector<std::pair<double, double>> kWeights = {
    {0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0},  {1.0, 1.0},   {2.0, 0.0},
    {5.0, 0.0}, {9.0, 0.0}, {20.0, 0.0}, {-0.5, -0.5}, {0.5, 1.5}};

// Integral of (1-x)^a (1+x)^b over [-1, 1].
double weight_mass(double a, double b) {
  return std::pow(2.0, a + b + 1.0) * std::tgamma(a + 1.0) * std::tgamma(b + 1.0) /
         std::tgamma(a + b + 2.0);
}

TEST(Jacobi, OrthonormalUnderMatchingGaussQuadrature) {
  constexpr int kMaxDegree = 20;
  for (const auto& [a, b] : kWeights) {
    // kMaxDegree + 1 points integrate degree 2 kMaxDegree + 1 exactly: all products P_m P_n.
    Eigen::VectorXd x, w;
    jacobi_gq(a, b, kMaxDegree, x, w);
    ASSERT_EQ(x.size(), kMaxDegree + 1);
    // A sum of kMaxDegree + 1 positive terms, each with a few roundings.
    EXPECT_NEAR(w.sum(), weight_mass(a, b), kSafety * kMaxDegree * kEps * weight_mass(a, b));
    for (int i = 0; i < kMaxDegree; ++i) EXPECT_LT(x(i), x(i + 1)) << "nodes not ascending";
    EXPECT_GT(x(0), -1.0);
    EXPECT_LT(x(kMaxDegree), 1.0);
    EXPECT_GT(w.minCoeff(), 0.0);

    Eigen::MatrixXd p(kMaxDegree + 1, kMaxDegree + 1);
    for (int n = 0; n <= kMaxDegree; ++n) p.col(n) = jacobi_p(x, a, b, n);
    const Eigen::MatrixXd gram = p.transpose() * w.asDiagonal() * p;
    const double err = test::max_abs(gram - Eigen::MatrixXd::Identity(gram.rows(), gram.cols()));
    // Each entry is a sum of kMaxDegree + 1 weighted products of unit size on average: a few
    // ulps per term, times the number of terms.
    EXPECT_LT(err, kSafety * kMaxDegree * kEps) << "alpha = " << a << ", beta = " << b;
  }
}

TEST(Jacobi, GaussRuleMatchesLowOrderClosedForms) {
  // Two-point Gauss-Legendre: +-1/sqrt(3), weights 1.
  Eigen::VectorXd x, w;
  jacobi_gq(0.0, 0.0, 1, x, w);
  EXPECT_NEAR(x(0), -1.0 / std::sqrt(3.0), kSafety * kEps);
  EXPECT_NEAR(x(1), 1.0 / std::sqrt(3.0), kSafety * kEps);
  EXPECT_NEAR(w(0), 1.0, kSafety * kEps);
  EXPECT_NEAR(w(1), 1.0, kSafety * kEps);
  // One-point rule of the weight (1-x): the weight's mean, -1/3.
  jacobi_gq(1.0, 0.0, 0, x, w);
  EXPECT_NEAR(x(0), -1.0 / 3.0, kSafety * kEps);
  EXPECT_NEAR(w(0), 2.0, kSafety * kEps);
}

TEST(Jacobi, DerivativeIntegratesBackToThePolynomial) {
  // p(x) - p(-1) = int_{-1}^{x} p'(xi) dxi, evaluated exactly with Gauss-Legendre on [-1, x]:
  // an independent check of grad_jacobi_p.
  constexpr int kMaxDegree = 15;
  Eigen::VectorXd xq, wq;
  jacobi_gq(0.0, 0.0, kMaxDegree, xq, wq);
  const Eigen::VectorXd ends = Eigen::VectorXd::LinSpaced(9, -0.9, 1.0);
  const Eigen::VectorXd minus_one = Eigen::VectorXd::Constant(1, -1.0);
  for (const auto& [a, b] : kWeights) {
    for (int n = 0; n <= kMaxDegree; ++n) {
      const Eigen::VectorXd p_end = jacobi_p(ends, a, b, n);
      const double p_left = jacobi_p(minus_one, a, b, n)(0);
      const double scale = std::max(p_end.cwiseAbs().maxCoeff(), std::abs(p_left));
      for (Eigen::Index e = 0; e < ends.size(); ++e) {
        const double half = 0.5 * (ends(e) + 1.0);
        const Eigen::VectorXd xi = (xq.array() + 1.0) * half - 1.0;
        const double integral = half * wq.dot(grad_jacobi_p(xi, a, b, n));
        // The derivative is about n (n + a + b + 1) times the polynomial (the factor in front
        // of P_{n-1}^{(a+1,b+1)}); the quadrature sums n + 1 such terms.
        const double tol = kSafety * (n + 1) * (n + a + b + 1) * kEps * scale;
        EXPECT_NEAR(integral, p_end(e) - p_left, tol)
            << "alpha = " << a << ", beta = " << b << ", n = " << n << ", x = " << ends(e);
      }
    }
  }
}

TEST(Jacobi, GaussLobattoPointsIncludeEndpointsAndAreSymmetric) {
  for (int n = 1; n <= 20; ++n) {
    const Eigen::VectorXd x = jacobi_gl(0.0, 0.0, n);
    ASSERT_EQ(x.size(), n + 1);
    EXPECT_EQ(x(0), -1.0);
    EXPECT_EQ(x(n), 1.0);
    for (int i = 0; i < n; ++i) EXPECT_LT(x(i), x(i + 1)) << "n = " << n;
    for (int i = 0; i <= n; ++i) EXPECT_NEAR(x(i), -x(n - i), kSafety * kEps) << "n = " << n;

    // The interior points are the roots of P_n'. A root error of an ulp or so leaves a residual
    // of about |P_n''| ulps, and |P_n''| <= n^2 max|P_n'| (Markov).
    if (n >= 2) {
      const Eigen::VectorXd xin = x.segment(1, n - 1);
      const double scale = grad_jacobi_p(Eigen::VectorXd::Constant(1, 1.0), 0.0, 0.0, n).norm();
      const double residual = grad_jacobi_p(xin, 0.0, 0.0, n).cwiseAbs().maxCoeff();
      EXPECT_LT(residual, kSafety * n * n * kEps * scale) << "n = " << n;
    }
  }
  // A non-symmetric weight still keeps the end points.
  const Eigen::VectorXd x = jacobi_gl(1.0, 0.0, 6);
  EXPECT_EQ(x(0), -1.0);
  EXPECT_EQ(x(6), 1.0);
}

}  // namespace
}  // namespace dgk::basis
