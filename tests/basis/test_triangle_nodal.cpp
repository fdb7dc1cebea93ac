// Reference triangle: the nodal operators of make_tri_nodal (derivatives, mass, edge masses,
// LIFT, edge node lists) and the sub-triangle split of the node lattice.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "basis_test_util.hpp"
#include "dgk/basis/triangle.hpp"
#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/core/error.hpp"

namespace dgk::basis {
namespace {

using test::kEps;
using test::kSafety;

constexpr int kMaxOrder = 9;  // the orders dgk's kernels are compiled for

// Operators are built once per order and shared by the tests.
const TriNodal& tri(int n) {
  static std::array<std::unique_ptr<TriNodal>, tri_max_order + 1> cache;
  if (!cache[static_cast<std::size_t>(n)])
    cache[static_cast<std::size_t>(n)] = std::make_unique<TriNodal>(make_tri_nodal(n));
  return *cache[static_cast<std::size_t>(n)];
}

// Barycentrics of (r, s), in the vertex order of the header.
std::array<double, 3> barycentric(double r, double s) {
  return {-0.5 * (r + s), 0.5 * (1.0 + r), 0.5 * (1.0 + s)};
}

double cond_v(const TriNodal& op) {
  return test::cond1(op.V, op.Vinv);
}

// Columns of M LIFT belonging to edge f, placed at the edge's node columns (np x np).
Eigen::MatrixXd embedded_edge_matrix(const TriNodal& op, const Eigen::MatrixXd& mlift, int f) {
  Eigen::MatrixXd e = Eigen::MatrixXd::Zero(op.np, op.np);
  for (int q = 0; q < op.nfp; ++q) e.col(op.fmask[f][static_cast<std::size_t>(q)]) = mlift.col(f * op.nfp + q);
  return e;
}

TEST(TriNodal, RejectsUnsupportedOrders) {
  for (int n : {-1, 0, tri_max_order + 1}) {
    try {
      make_tri_nodal(n);
      ADD_FAILURE() << "order " << n << " was accepted";
    } catch (const dgk::Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(n)), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(tri_sub_cells(0), dgk::Error);
}

TEST(TriNodal, EdgeNodesRunFromTheFirstVertexToTheSecond) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TriNodal& op = tri(n);
    EXPECT_EQ(op.order, n);
    EXPECT_EQ(op.np, tri_np(n));
    EXPECT_EQ(op.nfp, n + 1);
    const double tol = kSafety * n * kEps;
    for (int f = 0; f < tri_nedges; ++f) {
      const auto& ids = op.fmask[static_cast<std::size_t>(f)];
      ASSERT_EQ(static_cast<int>(ids.size()), op.nfp) << "n = " << n << ", edge " << f;
      EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
      const int a = tri_edge_vertices[static_cast<std::size_t>(f)][0],
                b = tri_edge_vertices[static_cast<std::size_t>(f)][1];
      double last = -1.0;
      for (int k : ids) {
        const auto l = barycentric(op.r(k), op.s(k));
        // On the edge: the barycentrics of its two vertices sum to one.
        EXPECT_LT(std::abs(1.0 - l[static_cast<std::size_t>(a)] - l[static_cast<std::size_t>(b)]), tol)
            << "n = " << n << ", edge " << f << ", node " << k;
        EXPECT_GT(l[static_cast<std::size_t>(b)], last) << "n = " << n << ", edge " << f << ", node " << k;
        last = l[static_cast<std::size_t>(b)];
      }
      // The edge nodes are symmetric about the midpoint (what build_edge_maps relies on for the
      // two orientations of a shared edge).
      for (int q = 0; q < op.nfp; ++q) {
        const auto lq = barycentric(op.r(ids[static_cast<std::size_t>(q)]), op.s(ids[static_cast<std::size_t>(q)]));
        const auto lm = barycentric(op.r(ids[static_cast<std::size_t>(op.nfp - 1 - q)]),
                                    op.s(ids[static_cast<std::size_t>(op.nfp - 1 - q)]));
        EXPECT_NEAR(lq[static_cast<std::size_t>(b)], lm[static_cast<std::size_t>(a)], tol)
            << "n = " << n << ", edge " << f;
      }
    }
  }
}

TEST(TriNodal, DifferentiationMatricesAreExactOnPolynomialsOfDegreeN) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TriNodal& op = tri(n);
    // D carries relative rounding ~ cond(V) eps, so |D f - f'| ~ cond(V) eps |D| |f|, |f| <= 1.
    const double tol = kSafety * kEps * cond_v(op) * std::max(test::norm_inf(op.Dr), test::norm_inf(op.Ds));
    const auto pw = [](double x, int e) { return e < 0 ? 0.0 : test::ipow(x, e); };
    for (int a = 0; a <= n; ++a) {
      for (int b = 0; a + b <= n; ++b) {
        Eigen::VectorXd f(op.np), fr(op.np), fs(op.np);
        for (int k = 0; k < op.np; ++k) {
          const double r = op.r(k), s = op.s(k);
          f(k) = pw(r, a) * pw(s, b);
          fr(k) = a * pw(r, a - 1) * pw(s, b);
          fs(k) = b * pw(r, a) * pw(s, b - 1);
        }
        EXPECT_LT(test::max_abs(op.Dr * f - fr), tol) << "n = " << n << ", r^" << a << " s^" << b;
        EXPECT_LT(test::max_abs(op.Ds * f - fs), tol) << "n = " << n << ", r^" << a << " s^" << b;
      }
    }
    // The derivative of a degree-N polynomial's derivative is exact too: D_r D_s = D_s D_r.
    EXPECT_LT(test::max_abs(op.Dr * op.Ds - op.Ds * op.Dr),
              tol * std::max(test::norm_inf(op.Dr), test::norm_inf(op.Ds)))
        << "n = " << n;
  }
}

// int l0^a l1^b l2^c dA = 2 |T| a! b! c! / (a+b+c+2)!, |T| = 2.
double barycentric_integral(int a, int b, int c) {
  return 4.0 * test::factorial(a) * test::factorial(b) * test::factorial(c) / test::factorial(a + b + c + 2);
}

TEST(TriNodal, MassMatrixIsSymmetricPositiveDefiniteAndExact) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TriNodal& op = tri(n);
    const double tol = kSafety * kEps * cond_v(op) * test::norm_inf(op.M);
    EXPECT_LT(test::max_abs(op.M - op.M.transpose()), kSafety * kEps * test::max_abs(op.M)) << "n = " << n;
    // Positive definite: the Cholesky factorization exists and the smallest eigenvalue is
    // positive beyond its rounding.
    const Eigen::LLT<Eigen::MatrixXd> llt(op.M);
    EXPECT_EQ(llt.info(), Eigen::Success) << "n = " << n;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(op.M);
    EXPECT_GT(eig.eigenvalues().minCoeff(), tol) << "n = " << n;
    // M and Minv are inverses of each other; cond(M) = cond(V)^2.
    EXPECT_LT(test::max_abs(op.M * op.Minv - Eigen::MatrixXd::Identity(op.np, op.np)),
              kSafety * kEps * cond_v(op) * cond_v(op))
        << "n = " << n;

    // f^T M g = int f g for the degree-n barycentric monomials, which span P_n: M is the exact
    // L2 inner product on the whole space (the area is the case f = g = 1 at n = 0).
    const Eigen::VectorXd one = Eigen::VectorXd::Ones(op.np);
    EXPECT_NEAR(one.dot(op.M * one), 2.0, tol) << "n = " << n;
    std::vector<std::array<int, 3>> exps;
    for (int a = 0; a <= n; ++a)
      for (int b = 0; a + b <= n; ++b) exps.push_back({a, b, n - a - b});
    ASSERT_EQ(static_cast<int>(exps.size()), op.np);
    Eigen::MatrixXd f(op.np, op.np), exact(op.np, op.np);
    for (int i = 0; i < op.np; ++i) {
      const auto& e = exps[static_cast<std::size_t>(i)];
      for (int k = 0; k < op.np; ++k) {
        const auto l = barycentric(op.r(k), op.s(k));
        f(k, i) = test::ipow(l[0], e[0]) * test::ipow(l[1], e[1]) * test::ipow(l[2], e[2]);
      }
    }
    for (int i = 0; i < op.np; ++i)
      for (int j = 0; j < op.np; ++j) {
        const auto &a = exps[static_cast<std::size_t>(i)], &b = exps[static_cast<std::size_t>(j)];
        exact(i, j) = barycentric_integral(a[0] + b[0], a[1] + b[1], a[2] + b[2]);
      }
    EXPECT_LT(test::max_abs(f.transpose() * op.M * f - exact), kSafety * kEps * cond_v(op) * test::max_abs(exact))
        << "n = " << n;
  }
}

TEST(TriNodal, LiftIsTheEdgeMassOverTheMass) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TriNodal& op = tri(n);
    ASSERT_EQ(op.LIFT.rows(), op.np);
    ASSERT_EQ(op.LIFT.cols(), 3 * op.nfp);
    const Eigen::MatrixXd mlift = op.M * op.LIFT;
    const double tol = kSafety * kEps * cond_v(op) * std::max(test::max_abs(op.M), test::max_abs(op.Medge[0]));
    // M LIFT is each edge's mass matrix on the edge's own nodes and zero elsewhere.
    for (int f = 0; f < 3; ++f) {
      Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(op.np, op.nfp);
      for (int p = 0; p < op.nfp; ++p)
        expected.row(op.fmask[static_cast<std::size_t>(f)][static_cast<std::size_t>(p)]) =
            op.Medge[static_cast<std::size_t>(f)].row(p);
      EXPECT_LT(test::max_abs(mlift.middleCols(Eigen::Index{f} * op.nfp, op.nfp) - expected), tol)
          << "n = " << n << ", edge " << f;
    }
  }
}

TEST(TriNodal, EdgeMassMatchesQuadratureOfTheRestrictedBasis) {
  // Independent construction: the triangle's own Lagrange basis (V at edge points times Vinv),
  // restricted to each edge in its parameter (r on edges 0 and 1, s on edge 2) and integrated
  // with a Gauss-Legendre rule. The basis functions of the off-edge nodes vanish on the edge.
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TriNodal& op = tri(n);
    Eigen::VectorXd x, w;
    jacobi_gq(0.0, 0.0, n, x, w);  // exact to degree 2n + 1
    const double tol = kSafety * kEps * cond_v(op) * test::max_abs(op.Medge[0]);
    for (int f = 0; f < 3; ++f) {
      Eigen::VectorXd r(x.size()), s(x.size());
      for (Eigen::Index q = 0; q < x.size(); ++q) {
        if (f == 0) r(q) = x(q), s(q) = -1.0;
        if (f == 1) r(q) = x(q), s(q) = -x(q);
        if (f == 2) r(q) = -1.0, s(q) = x(q);
      }
      const Eigen::MatrixXd lagrange = tri_vandermonde(n, r, s) * op.Vinv;
      const auto& ids = op.fmask[static_cast<std::size_t>(f)];
      Eigen::MatrixXd on_edge(lagrange.rows(), op.nfp);
      for (int p = 0; p < op.nfp; ++p) on_edge.col(p) = lagrange.col(ids[static_cast<std::size_t>(p)]);
      EXPECT_LT(test::max_abs(on_edge.transpose() * w.asDiagonal() * on_edge - op.Medge[static_cast<std::size_t>(f)]),
                tol)
          << "n = " << n << ", edge " << f;
      Eigen::MatrixXd off_edge = lagrange;
      for (int k : ids) off_edge.col(k).setZero();
      EXPECT_LT(test::max_abs(off_edge), kSafety * kEps * cond_v(op)) << "n = " << n << ", edge " << f;
    }
  }
}

TEST(TriNodal, IntegrationByPartsLinksDerivativesMassAndLift) {
  // int phi_i d_r phi_j + int d_r phi_i phi_j = sum_f int_f phi_i phi_j n_r dS. In the edge
  // parameters of the edge masses, n_r dS is 0 on edge 0, +dr on edge 1 (normal (1,1)/sqrt 2,
  // length factor sqrt 2) and -ds on edge 2; n_s dS is -dr, +dr and 0.
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TriNodal& op = tri(n);
    const Eigen::MatrixXd mlift = op.M * op.LIFT;
    std::array<Eigen::MatrixXd, 3> e;
    for (int f = 0; f < 3; ++f) e[static_cast<std::size_t>(f)] = embedded_edge_matrix(op, mlift, f);
    const Eigen::MatrixXd mdr = op.M * op.Dr, mds = op.M * op.Ds;
    const double scale = std::max({test::max_abs(mdr), test::max_abs(mds), test::max_abs(op.Medge[0])});
    const double tol = kSafety * kEps * cond_v(op) * scale;
    EXPECT_LT(test::max_abs(mdr + mdr.transpose() - (e[1] - e[2])), tol) << "n = " << n;
    EXPECT_LT(test::max_abs(mds + mds.transpose() - (e[1] - e[0])), tol) << "n = " << n;
  }
}

TEST(TriNodal, HighestOrderIsUsable) {
  const TriNodal op = make_tri_nodal(tri_max_order);
  EXPECT_EQ(op.np, tri_np(tri_max_order));
  const Eigen::MatrixXd x = Eigen::MatrixXd::Random(op.np, 4);
  EXPECT_LT(test::max_abs(op.V * (op.Vinv * x) - x), kSafety * kEps * cond_v(op));
  for (int f = 0; f < 3; ++f) EXPECT_EQ(static_cast<int>(op.fmask[static_cast<std::size_t>(f)].size()), op.nfp);
}

// Signed doubled area of a triangle.
double doubled_area(const std::array<double, 2>& a, const std::array<double, 2>& b, const std::array<double, 2>& c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

TEST(TriSubCells, TileTheReferenceTriangleWithEqualPositiveCells) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const auto cells = tri_sub_cells(n);
    ASSERT_EQ(static_cast<int>(cells.size()), n * n) << "n = " << n;
    // Equispaced lattice in the node ordering of tri_nodes (s outer, r inner).
    std::vector<std::array<double, 2>> lattice;
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n - j; ++i) lattice.push_back({-1.0 + 2.0 * i / n, -1.0 + 2.0 * j / n});
    ASSERT_EQ(static_cast<int>(lattice.size()), tri_np(n));
    double total = 0.0;
    // Every directed edge once: an interior edge appears in both directions (two cells on
    // opposite sides), a boundary edge in one.
    std::map<std::pair<int, int>, int> directed;
    for (const auto& c : cells) {
      for (int v : c) ASSERT_TRUE(v >= 0 && v < tri_np(n)) << "n = " << n;
      const double a =
          0.5 * doubled_area(lattice[static_cast<std::size_t>(c[0])], lattice[static_cast<std::size_t>(c[1])],
                             lattice[static_cast<std::size_t>(c[2])]);
      EXPECT_NEAR(a, 2.0 / (n * n), 1e-14) << "n = " << n;
      total += a;
      for (int q = 0; q < 3; ++q)
        ++directed[{c[static_cast<std::size_t>(q)], c[static_cast<std::size_t>((q + 1) % 3)]}];
    }
    EXPECT_NEAR(total, 2.0, 1e-13) << "n = " << n;
    int boundary = 0;
    for (const auto& [edge, count] : directed) {
      EXPECT_EQ(count, 1) << "n = " << n << ", edge " << edge.first << "-" << edge.second << " used twice";
      if (!directed.count({edge.second, edge.first})) ++boundary;
    }
    EXPECT_EQ(boundary, 3 * n) << "n = " << n;  // n lattice edges along each side

    // The cells stay positively oriented on the warp & blend nodes as well.
    const TriNodal& op = tri(n);
    for (const auto& c : cells) {
      std::array<std::array<double, 2>, 3> p;
      for (int q = 0; q < 3; ++q)
        p[static_cast<std::size_t>(q)] = {op.r(c[static_cast<std::size_t>(q)]), op.s(c[static_cast<std::size_t>(q)])};
      EXPECT_GT(doubled_area(p[0], p[1], p[2]), 0.0) << "n = " << n;
    }
  }
}

}  // namespace
}  // namespace dgk::basis
