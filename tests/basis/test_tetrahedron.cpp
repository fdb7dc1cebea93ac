// Reference tetrahedron: warp & blend nodes and the nodal operators of make_tet_nodal.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "basis_test_util.hpp"
#include "dgk/basis/tetrahedron.hpp"
#include "dgk/basis/triangle.hpp"
#include "dgk/core/error.hpp"

namespace dgk::basis {
namespace {

using test::kEps;
using test::kSafety;

constexpr int kMaxOrder = 9;  // the orders dgk's kernels are compiled for

// Operators are built once per order and shared by the tests.
const TetNodal& tet(int n) {
  static std::array<std::unique_ptr<TetNodal>, tet_max_order + 1> cache;
  if (!cache[n]) cache[n] = std::make_unique<TetNodal>(make_tet_nodal(n));
  return *cache[n];
}

// Barycentrics of (r, s, t), in the vertex order of the header.
std::array<double, 4> barycentric(double r, double s, double t) {
  return {-0.5 * (1.0 + r + s + t), 0.5 * (1.0 + r), 0.5 * (1.0 + s), 0.5 * (1.0 + t)};
}

double cond_v(const TetNodal& op) {
  return test::cond1(op.V, op.Vinv);
}

// Columns of M LIFT belonging to face f, placed at the face's node columns (np x np).
Eigen::MatrixXd embedded_face_matrix(const TetNodal& op, const Eigen::MatrixXd& mlift, int f) {
  Eigen::MatrixXd e = Eigen::MatrixXd::Zero(op.np, op.np);
  for (int q = 0; q < op.nfp; ++q) e.col(op.fmask[f][q]) = mlift.col(f * op.nfp + q);
  return e;
}

// Points of face f for face parameters (u, v), in the parametrisation the face mass uses.
void face_points(int f, const Eigen::VectorXd& u, const Eigen::VectorXd& v, Eigen::VectorXd& r,
                 Eigen::VectorXd& s, Eigen::VectorXd& t) {
  const Eigen::VectorXd minus_one = Eigen::VectorXd::Constant(u.size(), -1.0);
  if (f == 0) {  // t = -1, (r, s)
    r = u;
    s = v;
    t = minus_one;
  } else if (f == 1) {  // s = -1, (r, t)
    r = u;
    s = minus_one;
    t = v;
  } else if (f == 2) {  // r + s + t = -1, (s, t)
    r = -(Eigen::VectorXd::Ones(u.size()) + u + v);
    s = u;
    t = v;
  } else {  // r = -1, (s, t)
    r = minus_one;
    s = u;
    t = v;
  }
}

TEST(TetNodes, CountsInsideAndFaces) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    Eigen::VectorXd r, s, t;
    tet_nodes(n, r, s, t);
    ASSERT_EQ(r.size(), tet_np(n));
    // Node coordinates are O(1); the warps sum O(n) terms.
    const double tol = kSafety * n * kEps;
    std::array<int, 4> on_face{0, 0, 0, 0};
    for (Eigen::Index k = 0; k < r.size(); ++k) {
      const auto l = barycentric(r(k), s(k), t(k));
      for (int v = 0; v < 4; ++v) EXPECT_GE(l[v], -tol) << "n = " << n << ", node " << k;
      // Face f is opposite the vertex it does not list: faces 0..3 <-> l3, l2, l0, l1.
      on_face[0] += std::abs(l[3]) < 1e-10;
      on_face[1] += std::abs(l[2]) < 1e-10;
      on_face[2] += std::abs(l[0]) < 1e-10;
      on_face[3] += std::abs(l[1]) < 1e-10;
    }
    for (int f = 0; f < 4; ++f) EXPECT_EQ(on_face[f], tet_nfp(n)) << "n = " << n << ", face " << f;

    // The equispaced nodes have the same count and ordering (t outer, s middle, r inner).
    Eigen::VectorXd re, se, te;
    tet_equispaced_nodes(n, re, se, te);
    ASSERT_EQ(re.size(), tet_np(n));
    EXPECT_EQ(re(1), -1.0 + 2.0 / n);
    EXPECT_EQ(se(n + 1), -1.0 + 2.0 / n);
    EXPECT_EQ(te(tet_nfp(n)), -1.0 + 2.0 / n);

    const TetNodal& op = tet(n);
    EXPECT_EQ(op.order, n);
    EXPECT_EQ(op.np, tet_np(n));
    EXPECT_EQ(op.nfp, tet_nfp(n));
    for (int f = 0; f < 4; ++f) {
      ASSERT_EQ(static_cast<int>(op.fmask[f].size()), tet_nfp(n));
      EXPECT_TRUE(std::is_sorted(op.fmask[f].begin(), op.fmask[f].end()));
      // Every node of the face lies on the face's three vertices' plane.
      for (int k : op.fmask[f]) {
        const auto l = barycentric(op.r(k), op.s(k), op.t(k));
        double off = 1.0;
        for (int v : tet_face_vertices[f]) off -= l[v];
        EXPECT_LT(std::abs(off), tol) << "n = " << n << ", face " << f << ", node " << k;
      }
    }
  }
}

TEST(TetNodes, SymmetricUnderVertexPermutations) {
  std::array<int, 4> p{0, 1, 2, 3};
  std::vector<std::array<int, 4>> perms;
  do {
    perms.push_back(p);
  } while (std::next_permutation(p.begin(), p.end()));
  ASSERT_EQ(perms.size(), 24u);

  for (int n = 1; n <= kMaxOrder; ++n) {
    Eigen::VectorXd r, s, t;
    tet_nodes(n, r, s, t);
    const double tol = kSafety * n * kEps;
    for (const auto& q : perms) {
      for (Eigen::Index k = 0; k < r.size(); ++k) {
        const auto l = barycentric(r(k), s(k), t(k));
        const double rr = 2.0 * l[q[1]] - 1.0;
        const double ss = 2.0 * l[q[2]] - 1.0;
        const double tt = 2.0 * l[q[3]] - 1.0;
        double best = 1e300;
        for (Eigen::Index m = 0; m < r.size(); ++m) {
          best = std::min(
              best, std::max({std::abs(r(m) - rr), std::abs(s(m) - ss), std::abs(t(m) - tt)}));
        }
        EXPECT_LT(best, tol) << "n = " << n << ", node " << k << " has no image under (" << q[0]
                             << q[1] << q[2] << q[3] << ")";
      }
    }
  }
}

// Lebesgue constant of the nodes (r, s, t), sampled on an equispaced lattice (a lower bound).
double tet_lebesgue(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s,
                    const Eigen::VectorXd& t) {
  Eigen::VectorXd rq, sq, tq;
  tet_equispaced_nodes(2 * n + 1, rq, sq, tq);
  const Eigen::MatrixXd v = tet_vandermonde(n, r, s, t);
  const Eigen::MatrixXd lagrange =
      v.transpose().partialPivLu().solve(tet_vandermonde(n, rq, sq, tq).transpose());
  return lagrange.cwiseAbs().colwise().sum().maxCoeff();
}

TEST(TetNodes, WarpAndBlendBeatsEquispacedInterpolation) {
  // The point of warp & blend: at N = 9 the Lebesgue constant is about 17, against about 70 for
  // the equispaced nodes.
  for (int n = 1; n <= kMaxOrder; ++n) {
    Eigen::VectorXd r, s, t, re, se, te;
    tet_nodes(n, r, s, t);
    tet_equispaced_nodes(n, re, se, te);
    const double lw = tet_lebesgue(n, r, s, t);
    const double le = tet_lebesgue(n, re, se, te);
    EXPECT_GE(lw, 1.0 - kSafety * n * kEps) << "n = " << n;
    if (n >= 4) {
      EXPECT_LT(lw, le) << "n = " << n;
    }
    if (n >= 7) {
      EXPECT_LT(lw, 0.5 * le) << "n = " << n;
    }
  }
}

TEST(TetNodal, RejectsUnsupportedOrders) {
  for (int n : {-1, 0, tet_max_order + 1}) {
    try {
      make_tet_nodal(n);
      ADD_FAILURE() << "order " << n << " was accepted";
    } catch (const dgk::Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(n)), std::string::npos) << e.what();
    }
  }
}

TEST(TetNodal, VandermondeInverse) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetNodal& op = tet(n);
    const Eigen::MatrixXd id = Eigen::MatrixXd::Identity(op.np, op.np);
    // Backward-stable solve: the residual is a modest multiple of cond(V) eps.
    const double tol = kSafety * kEps * cond_v(op);
    EXPECT_LT(test::max_abs(op.V * op.Vinv - id), tol) << "n = " << n;
    EXPECT_LT(test::max_abs(op.Vinv * op.V - id), tol) << "n = " << n;
    // M and Minv are inverses of each other; cond(M) = cond(V)^2.
    EXPECT_LT(test::max_abs(op.M * op.Minv - id), kSafety * kEps * cond_v(op) * cond_v(op))
        << "n = " << n;
    // Both are symmetric up to the rounding of their products.
    EXPECT_LT(test::max_abs(op.Minv - op.Minv.transpose()), kSafety * kEps * test::max_abs(op.Minv))
        << "n = " << n;
    EXPECT_LT(test::max_abs(op.M - op.M.transpose()), kSafety * kEps * test::max_abs(op.M))
        << "n = " << n;
  }
}

TEST(TetNodal, DifferentiationMatricesAreExactOnMonomials) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetNodal& op = tet(n);
    const double dnorm =
        std::max({test::norm_inf(op.Dr), test::norm_inf(op.Ds), test::norm_inf(op.Dt)});
    // D carries relative rounding ~ cond(V) eps, so |D f - f'| ~ cond(V) eps |D| |f|, |f| <= 1.
    const double tol = kSafety * kEps * cond_v(op) * dnorm;
    const auto pw = [](double x, int e) { return e < 0 ? 0.0 : test::ipow(x, e); };
    for (int a = 0; a <= n; ++a) {
      for (int b = 0; a + b <= n; ++b) {
        for (int c = 0; a + b + c <= n; ++c) {
          Eigen::VectorXd f(op.np), fr(op.np), fs(op.np), ft(op.np);
          for (int k = 0; k < op.np; ++k) {
            const double r = op.r(k), s = op.s(k), t = op.t(k);
            f(k) = pw(r, a) * pw(s, b) * pw(t, c);
            fr(k) = a * pw(r, a - 1) * pw(s, b) * pw(t, c);
            fs(k) = b * pw(r, a) * pw(s, b - 1) * pw(t, c);
            ft(k) = c * pw(r, a) * pw(s, b) * pw(t, c - 1);
          }
          const std::string what = "n = " + std::to_string(n) + ", r^" + std::to_string(a) + " s^" +
                                   std::to_string(b) + " t^" + std::to_string(c);
          EXPECT_LT(test::max_abs(op.Dr * f - fr), tol) << what;
          EXPECT_LT(test::max_abs(op.Ds * f - fs), tol) << what;
          EXPECT_LT(test::max_abs(op.Dt * f - ft), tol) << what;
        }
      }
    }
  }
}

// int l0^a l1^b l2^c l3^d dV = 6 |T| a! b! c! d! / (a+b+c+d+3)!, |T| = 4/3.
double barycentric_integral(const std::array<int, 4>& e) {
  const int sum = e[0] + e[1] + e[2] + e[3];
  double num = 6.0 * 4.0 / 3.0;
  for (int x : e) num *= test::factorial(x);
  return num / test::factorial(sum + 3);
}

// All exponent tuples (a, b, c, d) with a + b + c + d == total.
std::vector<std::array<int, 4>> homogeneous_exponents(int total) {
  std::vector<std::array<int, 4>> out;
  for (int a = 0; a <= total; ++a) {
    for (int b = 0; a + b <= total; ++b) {
      for (int c = 0; a + b + c <= total; ++c) out.push_back({a, b, c, total - a - b - c});
    }
  }
  return out;
}

Eigen::VectorXd barycentric_monomial(const TetNodal& op, const std::array<int, 4>& e) {
  Eigen::VectorXd f(op.np);
  for (int k = 0; k < op.np; ++k) {
    const auto l = barycentric(op.r(k), op.s(k), op.t(k));
    f(k) = test::ipow(l[0], e[0]) * test::ipow(l[1], e[1]) * test::ipow(l[2], e[2]) *
           test::ipow(l[3], e[3]);
  }
  return f;
}

TEST(TetNodal, MassMatrixIntegratesPolynomialsExactly) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetNodal& op = tet(n);
    // M = Vinv^T Vinv carries the relative rounding of Vinv (~ cond(V) eps) times |M|.
    const double tol = kSafety * kEps * cond_v(op) * test::norm_inf(op.M);
    const Eigen::VectorXd one = Eigen::VectorXd::Ones(op.np);
    EXPECT_NEAR(one.dot(op.M * one), 4.0 / 3.0, tol) << "n = " << n;

    // 1^T M f = int f for every barycentric monomial of degree <= n.
    for (int total = 0; total <= n; ++total) {
      for (const auto& e : homogeneous_exponents(total)) {
        EXPECT_NEAR(one.dot(op.M * barycentric_monomial(op, e)), barycentric_integral(e), tol)
            << "n = " << n << ", exponents " << e[0] << e[1] << e[2] << e[3];
      }
    }

    // f^T M g = int f g for the degree-n homogeneous monomials, which span P_n: M is the exact
    // L2 inner product on the whole space.
    const auto exps = homogeneous_exponents(n);
    ASSERT_EQ(static_cast<int>(exps.size()), op.np);
    Eigen::MatrixXd f(op.np, op.np), exact(op.np, op.np);
    for (int i = 0; i < op.np; ++i) f.col(i) = barycentric_monomial(op, exps[i]);
    for (int i = 0; i < op.np; ++i) {
      for (int j = 0; j < op.np; ++j) {
        exact(i, j) = barycentric_integral({exps[i][0] + exps[j][0], exps[i][1] + exps[j][1],
                                            exps[i][2] + exps[j][2], exps[i][3] + exps[j][3]});
      }
    }
    EXPECT_LT(test::max_abs(f.transpose() * op.M * f - exact),
              kSafety * kEps * cond_v(op) * test::max_abs(exact))
        << "n = " << n;
  }
}

TEST(TetNodal, IntegrationByPartsLinksDerivativesMassAndLift) {
  // int phi_i d_x phi_j + int d_x phi_i phi_j = sum_f int_f phi_i phi_j n_x dS. In the face
  // parametrisations of the face mass matrices, n_x dS is +-du dv on faces 0, 1, 3 and du dv on
  // face 2 (area factor sqrt(3) times normal component 1/sqrt(3)).
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetNodal& op = tet(n);
    const Eigen::MatrixXd mlift = op.M * op.LIFT;
    std::array<Eigen::MatrixXd, 4> e;
    for (int f = 0; f < 4; ++f) e[f] = embedded_face_matrix(op, mlift, f);

    const Eigen::MatrixXd mdr = op.M * op.Dr;
    const Eigen::MatrixXd mds = op.M * op.Ds;
    const Eigen::MatrixXd mdt = op.M * op.Dt;
    // Every term carries relative rounding ~ cond(V) eps of the largest entries involved.
    const double scale = std::max(
        {test::max_abs(mdr), test::max_abs(mds), test::max_abs(mdt), test::max_abs(op.Mface[0])});
    const double tol = kSafety * kEps * cond_v(op) * scale;
    EXPECT_LT(test::max_abs(mdr + mdr.transpose() - (e[2] - e[3])), tol) << "n = " << n;
    EXPECT_LT(test::max_abs(mds + mds.transpose() - (e[2] - e[1])), tol) << "n = " << n;
    EXPECT_LT(test::max_abs(mdt + mdt.transpose() - (e[2] - e[0])), tol) << "n = " << n;

    // M LIFT is the face mass on the face's own nodes and zero elsewhere.
    for (int f = 0; f < 4; ++f) {
      Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(op.np, op.nfp);
      for (int p = 0; p < op.nfp; ++p) expected.row(op.fmask[f][p]) = op.Mface[f].row(p);
      EXPECT_LT(test::max_abs(mlift.middleCols(Eigen::Index{f} * op.nfp, op.nfp) - expected), tol)
          << "n = " << n << ", face " << f;
    }
  }
}

TEST(TetNodal, FaceMassMatchesQuadratureOfTheRestrictedBasis) {
  // Independent construction: the tetrahedron's own Lagrange basis (V3D at face points times
  // Vinv), restricted to the face and integrated with a Gauss rule on the triangle. The basis
  // functions of the off-face nodes must vanish on the face.
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetNodal& op = tet(n);
    Eigen::VectorXd u, v, w;
    test::triangle_quadrature(n, u, v, w);  // exact to degree 2n + 1
    const double tol = kSafety * kEps * cond_v(op) * test::max_abs(op.Mface[0]);
    for (int f = 0; f < 4; ++f) {
      Eigen::VectorXd r, s, t;
      face_points(f, u, v, r, s, t);
      const Eigen::MatrixXd lagrange = tet_vandermonde(n, r, s, t) * op.Vinv;
      Eigen::MatrixXd on_face(lagrange.rows(), op.nfp);
      for (int p = 0; p < op.nfp; ++p) on_face.col(p) = lagrange.col(op.fmask[f][p]);
      const Eigen::MatrixXd mq = on_face.transpose() * w.asDiagonal() * on_face;
      EXPECT_LT(test::max_abs(mq - op.Mface[f]), tol) << "n = " << n << ", face " << f;

      Eigen::MatrixXd off_face = lagrange;
      for (int k : op.fmask[f]) off_face.col(k).setZero();
      EXPECT_LT(test::max_abs(off_face), kSafety * kEps * cond_v(op))
          << "n = " << n << ", face " << f;
    }
  }
}

TEST(TetNodal, FaceNodesAreTriangleNodesWhereTheBlendParametersAgree) {
  // The 2D and 3D warp & blend tables share alpha = 0 for N = 1, 2: there the face nodes are the
  // triangle's nodes, and each face mass is the triangle mass (V2D V2D^T)^{-1}.
  for (int n = 1; n <= 2; ++n) {
    const TetNodal& op = tet(n);
    Eigen::VectorXd tr, ts;
    tri_nodes(n, tr, ts);
    const Eigen::MatrixXd v2 = tri_vandermonde(n, tr, ts);
    const Eigen::MatrixXd v2inv =
        v2.partialPivLu().solve(Eigen::MatrixXd::Identity(op.nfp, op.nfp));
    const Eigen::MatrixXd mtri = v2inv.transpose() * v2inv;
    const double tol = kSafety * kEps * cond_v(op);
    for (int f = 0; f < 4; ++f) {
      // Face parameters of each face node.
      const Eigen::VectorXd& first = f <= 1 ? op.r : op.s;
      const Eigen::VectorXd& second = f == 0 ? op.s : op.t;
      std::vector<std::array<double, 2>> uv;
      for (int k : op.fmask[f]) uv.push_back({first(k), second(k)});
      // Match every triangle node to a face node; the permutation relates the two masses.
      std::vector<int> match(op.nfp, -1);
      for (int i = 0; i < op.nfp; ++i) {
        for (int p = 0; p < op.nfp; ++p) {
          if (std::abs(uv[p][0] - tr(i)) < tol && std::abs(uv[p][1] - ts(i)) < tol) match[i] = p;
        }
        ASSERT_GE(match[i], 0) << "n = " << n << ", face " << f << ", triangle node " << i;
      }
      for (int i = 0; i < op.nfp; ++i) {
        for (int j = 0; j < op.nfp; ++j) {
          EXPECT_NEAR(op.Mface[f](match[i], match[j]), mtri(i, j), tol)
              << "n = " << n << ", face " << f;
        }
      }
    }
  }
}

TEST(TetNodal, HighestOrderIsUsable) {
  const TetNodal op = make_tet_nodal(tet_max_order);
  EXPECT_EQ(op.np, tet_np(tet_max_order));
  // V Vinv = I, probed with a few vectors (the full product would dominate the test's time).
  const Eigen::MatrixXd x = Eigen::MatrixXd::Random(op.np, 4);
  EXPECT_LT(test::max_abs(op.V * (op.Vinv * x) - x), kSafety * kEps * cond_v(op));
  for (int f = 0; f < 4; ++f) EXPECT_EQ(static_cast<int>(op.fmask[f].size()), op.nfp);
  // Dr is exact on r^N.
  Eigen::VectorXd f(op.np), fr(op.np);
  for (int k = 0; k < op.np; ++k) {
    f(k) = test::ipow(op.r(k), tet_max_order);
    fr(k) = tet_max_order * test::ipow(op.r(k), tet_max_order - 1);
  }
  EXPECT_LT(test::max_abs(op.Dr * f - fr), kSafety * kEps * cond_v(op) * test::norm_inf(op.Dr));
}

}  // namespace
}  // namespace dgk::basis

namespace dgk::basis {
namespace {

// The sub-tetrahedra tile the reference element: N^3 cells of equal volume (4/3)/N^3, all
// positively oriented, every node used.
TEST(TetSubCells, TileTheReferenceTetrahedron) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    Eigen::VectorXd r, s, t;
    tet_equispaced_nodes(n, r, s, t);
    const auto cells = tet_sub_cells(n);
    ASSERT_EQ(static_cast<int>(cells.size()), n * n * n) << "order " << n;
    std::vector<int> used(static_cast<std::size_t>(tet_np(n)), 0);
    double total = 0.0;
    for (const auto& c : cells) {
      double d[3][3];
      for (int k = 0; k < 3; ++k) {
        d[k][0] = r(c[k + 1]) - r(c[0]);
        d[k][1] = s(c[k + 1]) - s(c[0]);
        d[k][2] = t(c[k + 1]) - t(c[0]);
      }
      const double vol = (d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) - d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) +
                          d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0])) / 6.0;
      EXPECT_NEAR(vol, 4.0 / 3.0 / (n * n * n), 1e-14) << "order " << n;
      total += vol;
      for (int v : c) ++used[static_cast<std::size_t>(v)];
    }
    EXPECT_NEAR(total, 4.0 / 3.0, 1e-13);
    for (int u : used) EXPECT_GT(u, 0) << "order " << n;
  }
  EXPECT_THROW(tet_sub_cells(0), dgk::Error);
}


// LIFT's four blocks are face 0's, permuted (tet_lift_symmetry): checked entry by entry at every
// compiled order, the permutations being permutations; a LIFT changed in one entry is refused
// with the face it belongs to.
TEST(TetNodal, LiftBlocksAreFaceZerosPermuted) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetNodal& op = tet(n);
    const TetLiftSymmetry sym = tet_lift_symmetry(op);
    ASSERT_TRUE(sym.found) << "n = " << n << ": " << sym.why;
    const double scale = op.LIFT.cwiseAbs().maxCoeff();
    EXPECT_LE(sym.max_error, 1e-12 * scale) << "n = " << n;
    // The measured error, for docs/PERFORMANCE.md ("LIFT by the tetrahedron's symmetry").
    std::printf("n = %d: LIFT's blocks are face 0's to %.1e (largest |LIFT| %.1f)\n", n, sym.max_error, scale);
    for (int f = 0; f < tet_nfaces; ++f) {
      auto sorted = [](std::vector<int> v) {
        std::sort(v.begin(), v.end());
        return v;
      };
      std::vector<int> nodes(static_cast<std::size_t>(op.np)), face_nodes(static_cast<std::size_t>(op.nfp));
      std::iota(nodes.begin(), nodes.end(), 0);
      std::iota(face_nodes.begin(), face_nodes.end(), 0);
      ASSERT_EQ(sorted(sym.volume[static_cast<std::size_t>(f)]), nodes) << "n = " << n << ", face " << f;
      ASSERT_EQ(sorted(sym.face[static_cast<std::size_t>(f)]), face_nodes) << "n = " << n << ", face " << f;
      double diff = 0;
      for (int i = 0; i < op.np; ++i)
        for (int j = 0; j < op.nfp; ++j)
          diff = std::max(diff, std::abs(op.LIFT(i, f * op.nfp + j) -
                                         op.LIFT(sym.volume[static_cast<std::size_t>(f)][static_cast<std::size_t>(i)],
                                                 sym.face[static_cast<std::size_t>(f)][static_cast<std::size_t>(j)])));
      EXPECT_LE(diff, 1e-12 * scale) << "n = " << n << ", face " << f;
    }
  }
  TetNodal changed = tet(4);
  changed.LIFT(3, 2 * changed.nfp + 5) += 1e-3;
  const TetLiftSymmetry sym = tet_lift_symmetry(changed);
  EXPECT_FALSE(sym.found);
  EXPECT_NE(sym.why.find("face 2: LIFT's block differs from face 0's"), std::string::npos) << sym.why;
}

}  // namespace
}  // namespace dgk::basis
