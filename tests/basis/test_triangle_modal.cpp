// Reference triangle, modal operators of make_tri_modal: the volume and edge rules' exactness,
// the basis orthonormal under the volume rule, edge values consistent with the basis, and the
// symmetry of the edge rule the edge-wise kernel relies on (point q of one side is point
// nqe - 1 - q of the other).
#include <cmath>

#include <gtest/gtest.h>

#include "dgk/basis/quadrature.hpp"
#include "dgk/basis/triangle.hpp"
#include "dgk/basis/triangle_modal.hpp"
#include "dgk/core/error.hpp"

namespace dgk::basis {
namespace {

double factorial(int n) {
  return n <= 1 ? 1.0 : n * factorial(n - 1);
}

// Exact integral of (1 + r)^a (1 + s)^b over the reference triangle: with l = (1 + r) / 2 and
// m = (1 + s) / 2 (Jacobian 4) it is 4 * 2^(a + b) * a! b! / (a + b + 2)! (Dirichlet).
double exact_monomial(int a, int b) {
  return 4.0 * std::pow(2.0, a + b) * factorial(a) * factorial(b) / factorial(a + b + 2);
}

TEST(TriModal, VolumeRuleIsExactToDegree2p) {
  for (int p = 0; p <= 8; ++p) {
    const auto m = make_tri_modal(p);
    for (int a = 0; a <= 2 * p; ++a)
      for (int b = 0; a + b <= 2 * p; ++b) {
        double sum = 0;
        for (int k = 0; k < m.nq(); ++k) sum += m.w(k) * std::pow(1 + m.r(k), a) * std::pow(1 + m.s(k), b);
        const double ref = exact_monomial(a, b);
        EXPECT_NEAR(sum, ref, 1e-13 * std::pow(2.0, a + b)) << "p " << p << " monomial " << a << "," << b;
      }
  }
}

TEST(TriModal, EdgeRuleIsExactToDegree2pPlus1AndSymmetric) {
  for (int p = 0; p <= 8; ++p) {
    const auto m = make_tri_modal(p);
    ASSERT_EQ(m.nqe(), p + 1);
    for (int d = 0; d <= 2 * p + 1; ++d) {
      double sum = 0;
      for (int q = 0; q < m.nqe(); ++q) sum += m.xw(q) * std::pow(m.xi(q), d);
      const double ref = d % 2 == 1 ? 0.0 : 2.0 / (d + 1);
      EXPECT_NEAR(sum, ref, 1e-14) << "p " << p << " degree " << d;
    }
    for (int q = 0; q < m.nqe(); ++q) {
      EXPECT_NEAR(m.xi(q), -m.xi(m.nqe() - 1 - q), 1e-15) << "p " << p;
      EXPECT_NEAR(m.xw(q), m.xw(m.nqe() - 1 - q), 1e-15) << "p " << p;
    }
  }
}

TEST(TriModal, BasisIsOrthonormalUnderTheVolumeRule) {
  for (int p = 0; p <= 8; ++p) {
    const auto m = make_tri_modal(p);
    ASSERT_EQ(m.np, (p + 1) * (p + 2) / 2);
    const Eigen::MatrixXd G = m.phi.transpose() * m.w.asDiagonal() * m.phi;
    EXPECT_LT((G - Eigen::MatrixXd::Identity(m.np, m.np)).cwiseAbs().maxCoeff(), 1e-13) << "p " << p;
    // Mode 0 is the constant phi0, so a cell average is c0 * phi0.
    for (int k = 0; k < m.nq(); ++k) EXPECT_NEAR(m.phi(k, 0), m.phi0, 1e-15);
  }
}

// The derivative tables are exact: the gradient of an expansion integrated against the basis
// equals the integral by parts, checked here through d/dr and d/ds of (1 + r)^a (1 + s)^b.
TEST(TriModal, DerivativesMatchThePolynomials) {
  for (int p = 1; p <= 6; ++p) {
    const auto m = make_tri_modal(p);
    // Expansion of f = (1 + r)^a (1 + s)^b with a + b = p, by projection.
    for (int a = 0; a <= p; ++a) {
      const int b = p - a;
      Eigen::VectorXd f(m.nq());
      for (int k = 0; k < m.nq(); ++k) f(k) = std::pow(1 + m.r(k), a) * std::pow(1 + m.s(k), b);
      const Eigen::VectorXd c = m.phi.transpose() * m.w.asDiagonal() * f;
      const Eigen::VectorXd dr = m.dr * c, ds = m.ds * c;
      for (int k = 0; k < m.nq(); ++k) {
        const double er = a == 0 ? 0.0 : a * std::pow(1 + m.r(k), a - 1) * std::pow(1 + m.s(k), b);
        const double es = b == 0 ? 0.0 : b * std::pow(1 + m.r(k), a) * std::pow(1 + m.s(k), b - 1);
        EXPECT_NEAR(dr(k), er, 1e-11 * std::pow(2.0, p)) << "p " << p << " a " << a;
        EXPECT_NEAR(ds(k), es, 1e-11 * std::pow(2.0, p)) << "p " << p << " a " << a;
      }
    }
  }
}

TEST(TriModal, EdgeValuesAreTheBasisAtTheEdgePoints) {
  const auto m = make_tri_modal(4);
  for (int f = 0; f < 3; ++f)
    for (int q = 0; q < m.nqe(); ++q) {
      const auto x = tri_edge_point(f, m.xi(q));
      Eigen::VectorXd r(1), s(1);
      r(0) = x[0];
      s(0) = x[1];
      const Eigen::MatrixXd v = tri_vandermonde(4, r, s);
      EXPECT_LT((v.row(0) - m.edge_phi[static_cast<std::size_t>(f)].row(q)).cwiseAbs().maxCoeff(), 1e-14);
      // The point lies on the edge from vertex f to vertex f + 1.
      const double* a = tri_reference_vertices[f];
      const double* b = tri_reference_vertices[(f + 1) % 3];
      const double cross = (b[0] - a[0]) * (x[1] - a[1]) - (b[1] - a[1]) * (x[0] - a[0]);
      EXPECT_NEAR(cross, 0.0, 1e-15);
    }
}

TEST(TriModal, RejectsOrdersOutsideItsRange) {
  EXPECT_THROW(make_tri_modal(-1), dgk::Error);
  EXPECT_THROW(make_tri_modal(16), dgk::Error);
}

}  // namespace
}  // namespace dgk::basis
