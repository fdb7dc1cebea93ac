// Reference triangle: warp & blend nodes, the orthonormal basis and its gradients.
#include <array>
#include <cmath>

#include <gtest/gtest.h>

#include "basis_test_util.hpp"
#include "dgk/basis/triangle.hpp"

namespace dgk::basis {
namespace {

using test::kEps;
using test::kSafety;

constexpr int kMaxOrder = 9;

// Barycentrics of (r, s): l0 <-> (-1,-1), l1 <-> (1,-1), l2 <-> (-1,1).
std::array<double, 3> barycentric(double r, double s) {
  return {-0.5 * (r + s), 0.5 * (1.0 + r), 0.5 * (1.0 + s)};
}

TEST(TriangleNodes, CountsInsideAndEdges) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    Eigen::VectorXd r, s;
    tri_nodes(n, r, s);
    ASSERT_EQ(r.size(), tri_np(n));
    ASSERT_EQ(s.size(), tri_np(n));
    // Node coordinates are O(1); the warp sums O(n) terms.
    const double tol = kSafety * n * kEps;
    std::array<int, 3> on_edge{0, 0, 0};
    for (Eigen::Index k = 0; k < r.size(); ++k) {
      const auto l = barycentric(r(k), s(k));
      for (int v = 0; v < 3; ++v) EXPECT_GE(l[v], -tol) << "n = " << n << ", node " << k;
      for (int v = 0; v < 3; ++v) on_edge[v] += std::abs(l[v]) < 1e-10;
    }
    for (int v = 0; v < 3; ++v) EXPECT_EQ(on_edge[v], n + 1) << "n = " << n << ", edge " << v;
  }
}

TEST(TriangleNodes, SymmetricUnderVertexPermutations) {
  const std::array<std::array<int, 3>, 6> perms{
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  for (int n = 1; n <= kMaxOrder; ++n) {
    Eigen::VectorXd r, s;
    tri_nodes(n, r, s);
    const double tol = kSafety * n * kEps;
    for (const auto& p : perms) {
      for (Eigen::Index k = 0; k < r.size(); ++k) {
        const auto l = barycentric(r(k), s(k));
        // The image has barycentrics l[p]: (r, s) = (2 l1 - 1, 2 l2 - 1).
        const double rr = 2.0 * l[p[1]] - 1.0;
        const double ss = 2.0 * l[p[2]] - 1.0;
        double best = 1e300;
        for (Eigen::Index m = 0; m < r.size(); ++m) {
          best = std::min(best, std::max(std::abs(r(m) - rr), std::abs(s(m) - ss)));
        }
        EXPECT_LT(best, tol) << "n = " << n << ", node " << k << " has no image under (" << p[0]
                             << p[1] << p[2] << ")";
      }
    }
  }
}

// Equispaced lattice of order m, in the node ordering (s outer, r inner).
void tri_lattice(int m, Eigen::VectorXd& r, Eigen::VectorXd& s) {
  r.resize(tri_np(m));
  s.resize(tri_np(m));
  int k = 0;
  for (int j = 0; j <= m; ++j) {
    for (int i = 0; i <= m - j; ++i) {
      r(k) = -1.0 + 2.0 * i / m;
      s(k) = -1.0 + 2.0 * j / m;
      ++k;
    }
  }
}

// Lebesgue constant of the nodes (r, s), sampled on a fine lattice (a lower bound).
double tri_lebesgue(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s) {
  Eigen::VectorXd rq, sq;
  tri_lattice(5 * n, rq, sq);
  const Eigen::MatrixXd v = tri_vandermonde(n, r, s);
  const Eigen::MatrixXd lagrange =
      v.transpose().partialPivLu().solve(tri_vandermonde(n, rq, sq).transpose());
  return lagrange.cwiseAbs().colwise().sum().maxCoeff();
}

TEST(TriangleNodes, WarpAndBlendBeatsEquispacedInterpolation) {
  // The point of warp & blend: a Lebesgue constant that grows slowly (about 5.7 at N = 9, where
  // the equispaced nodes are past 20).
  for (int n = 1; n <= kMaxOrder; ++n) {
    Eigen::VectorXd r, s, re, se;
    tri_nodes(n, r, s);
    tri_lattice(n, re, se);
    const double lw = tri_lebesgue(n, r, s);
    const double le = tri_lebesgue(n, re, se);
    EXPECT_GE(lw, 1.0 - kSafety * n * kEps) << "n = " << n;
    if (n >= 3) {
      EXPECT_LT(lw, le) << "n = " << n;
    }
    if (n >= 7) {
      EXPECT_LT(lw, 0.5 * le) << "n = " << n;
    }
  }
}

TEST(TriangleBasis, OrthonormalUnderQuadrature) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    Eigen::VectorXd r, s, w;
    test::triangle_quadrature(n, r, s, w);
    const Eigen::MatrixXd v = tri_vandermonde(n, r, s);
    const Eigen::MatrixXd gram = v.transpose() * w.asDiagonal() * v;
    const int np = tri_np(n);
    // Entries are quadrature sums over (n + 1)^2 points of products of unit-size modes.
    const double tol = kSafety * (n + 1) * (n + 1) * kEps;
    EXPECT_LT(test::max_abs(gram - Eigen::MatrixXd::Identity(np, np)), tol) << "n = " << n;
  }
}

TEST(TriangleBasis, VandermondeInverse) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    Eigen::VectorXd r, s;
    tri_nodes(n, r, s);
    const Eigen::MatrixXd v = tri_vandermonde(n, r, s);
    const int np = tri_np(n);
    const Eigen::MatrixXd vinv = v.partialPivLu().solve(Eigen::MatrixXd::Identity(np, np));
    // Backward-stable solve: the residual is a modest multiple of cond(V) eps.
    const double tol = kSafety * kEps * test::cond1(v, vinv);
    EXPECT_LT(test::max_abs(v * vinv - Eigen::MatrixXd::Identity(np, np)), tol) << "n = " << n;
  }
}

TEST(TriangleBasis, DifferentiationMatricesAreExactOnMonomials) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    Eigen::VectorXd r, s;
    tri_nodes(n, r, s);
    const int np = tri_np(n);
    const Eigen::MatrixXd v = tri_vandermonde(n, r, s);
    Eigen::MatrixXd vr, vs;
    tri_grad_vandermonde(n, r, s, vr, vs);
    // D = Vgrad V^{-1}, through a solve with V^T.
    const auto lu_t = v.transpose().partialPivLu();
    const Eigen::MatrixXd dr = lu_t.solve(vr.transpose()).transpose();
    const Eigen::MatrixXd ds = lu_t.solve(vs.transpose()).transpose();
    const Eigen::MatrixXd vinv = v.partialPivLu().solve(Eigen::MatrixXd::Identity(np, np));
    // D carries relative rounding ~ cond(V) eps, so |D f - f'| ~ cond(V) eps |D| |f|, |f| <= 1.
    const double tol =
        kSafety * kEps * test::cond1(v, vinv) * std::max(test::norm_inf(dr), test::norm_inf(ds));

    for (int a = 0; a <= n; ++a) {
      for (int b = 0; a + b <= n; ++b) {
        Eigen::VectorXd f(np), fr(np), fs(np);
        for (int k = 0; k < np; ++k) {
          f(k) = test::ipow(r(k), a) * test::ipow(s(k), b);
          fr(k) = a * test::ipow(r(k), a - 1 < 0 ? 0 : a - 1) * test::ipow(s(k), b);
          fs(k) = b * test::ipow(r(k), a) * test::ipow(s(k), b - 1 < 0 ? 0 : b - 1);
        }
        EXPECT_LT(test::max_abs(dr * f - fr), tol) << "n = " << n << ", r^" << a << " s^" << b;
        EXPECT_LT(test::max_abs(ds * f - fs), tol) << "n = " << n << ", r^" << a << " s^" << b;
      }
    }
  }
}

}  // namespace
}  // namespace dgk::basis
