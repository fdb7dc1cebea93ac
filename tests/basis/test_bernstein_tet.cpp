// Bernstein-Bezier basis on the tetrahedron: ordering, evaluation and transforms, and the sparse
// derivative and lift operators of Chan & Warburton (Lemma 1, Section 3.1.2, Algorithms 1-3),
// each against a dense operator built independently by the Vandermonde or quadrature route.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "basis_test_util.hpp"
#include "dgk/basis/bernstein_tet.hpp"
#include "dgk/basis/tetrahedron.hpp"
#include "dgk/basis/triangle.hpp"
#include "dgk/core/error.hpp"

namespace dgk::basis {
namespace {

using test::kEps;
using test::kSafety;

constexpr int kMaxOrder = 9;  // the orders dgk's kernels are compiled for

// Operators are built once per order and shared by the tests.
const TetBernstein& bern(int n) {
  static std::array<std::unique_ptr<TetBernstein>, tet_max_order + 1> cache;
  if (!cache[n]) cache[n] = std::make_unique<TetBernstein>(make_tet_bernstein(n));
  return *cache[n];
}

const TetNodal& nodal(int n) {
  static std::array<std::unique_ptr<TetNodal>, tet_max_order + 1> cache;
  if (!cache[n]) cache[n] = std::make_unique<TetNodal>(make_tet_nodal(n));
  return *cache[n];
}

// 1-norm condition numbers of the Bernstein and orthonormal Vandermonde matrices.
double cond_vb(const TetBernstein& bb) {
  return test::cond1(bb.VB, bb.VBinv);
}

// Bound on the error of a quantity of size `scale` that went through the nodal <-> Bernstein
// transform: cond(VB) eps from the transform, plus np eps from the sums of np-term products.
double transform_tol(const TetBernstein& bb, double scale) {
  return kSafety * kEps * (cond_vb(bb) + bb.np) * scale;
}
double cond_v(int n) {
  return test::cond1(nodal(n).V, nodal(n).Vinv);
}

double cond2(const Eigen::MatrixXd& a) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(a);
  const Eigen::VectorXd& sv = svd.singularValues();
  return sv(0) / sv(sv.size() - 1);
}

std::string at(int n) {
  return "n = " + std::to_string(n);
}
std::string at(int n, int f) {
  return at(n) + ", face " + std::to_string(f);
}

// Random points strictly inside the reference tetrahedron (uniform barycentrics, normalized).
void random_points(int count, unsigned seed, Eigen::VectorXd& r, Eigen::VectorXd& s, Eigen::VectorXd& t) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.01, 1.0);
  r.resize(count);
  s.resize(count);
  t.resize(count);
  for (int k = 0; k < count; ++k) {
    const double l[4] = {u(gen), u(gen), u(gen), u(gen)};
    const double sum = l[0] + l[1] + l[2] + l[3];
    r(k) = 2.0 * l[1] / sum - 1.0;
    s(k) = 2.0 * l[2] / sum - 1.0;
    t(k) = 2.0 * l[3] / sum - 1.0;
  }
}

Eigen::VectorXd random_vector(int size, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd v(size);
  for (int k = 0; k < size; ++k) v(k) = u(gen);
  return v;
}

// Points of face f for face parameters (u, v), in the parametrisation of make_tet_nodal's face
// mass: (r, s), (r, t), (s, t), (s, t).
void face_points(int f, const Eigen::VectorXd& u, const Eigen::VectorXd& v, Eigen::VectorXd& r, Eigen::VectorXd& s,
                 Eigen::VectorXd& t) {
  const Eigen::VectorXd minus_one = Eigen::VectorXd::Constant(u.size(), -1.0);
  if (f == 0) {
    r = u;
    s = v;
    t = minus_one;
  } else if (f == 1) {
    r = u;
    s = minus_one;
    t = v;
  } else if (f == 2) {
    r = -(Eigen::VectorXd::Ones(u.size()) + u + v);
    s = u;
    t = v;
  } else {
    r = minus_one;
    s = u;
    t = v;
  }
}

// --- Dense matrices of the sparse operators, by applying the host functions to unit vectors ----

template <class Apply>
Eigen::MatrixXd columns_of(int rows, int cols, Apply apply) {
  Eigen::MatrixXd a(rows, cols);
  Eigen::VectorXd e(cols), out(rows);
  for (int j = 0; j < cols; ++j) {
    e.setZero();
    e(j) = 1.0;
    apply(e.data(), out.data());
    a.col(j) = out;
  }
  return a;
}

Eigen::MatrixXd sparse_bary(const TetBernstein& bb, int i) {
  return columns_of(bb.np, bb.np, [&](const double* u, double* o) { bb_apply_bary_derivative(bb, i, u, o); });
}

std::array<Eigen::MatrixXd, 3> sparse_gradient(const TetBernstein& bb) {
  std::array<Eigen::MatrixXd, 3> d;
  for (int c = 0; c < 3; ++c) {
    d[c] = columns_of(bb.np, bb.np, [&](const double* u, double* o) {
      std::vector<double> g[3] = {std::vector<double>(bb.np), std::vector<double>(bb.np), std::vector<double>(bb.np)};
      bb_apply_reference_gradient(bb, u, g[0].data(), g[1].data(), g[2].data());
      std::copy(g[c].begin(), g[c].end(), o);
    });
  }
  return d;
}

Eigen::MatrixXd sparse_l0(const TetBernstein& bb) {
  return columns_of(bb.nfp, bb.nfp, [&](const double* u, double* o) { bb_apply_l0(bb, u, o); });
}

// E_L straight from its ELL table (np x 4 nfp).
Eigen::MatrixXd sparse_el(const TetBernstein& bb) {
  Eigen::MatrixXd el = Eigen::MatrixXd::Zero(bb.np, Eigen::Index{tet_nfaces} * bb.nfp);
  for (int m = 0; m < bb.np; ++m) {
    for (int e = 0; e < bb.el_width; ++e) el(m, bb.el_cols[e * bb.np + m]) += bb.el_vals[e * bb.np + m];
  }
  return el;
}

Eigen::MatrixXd sparse_elevation(const TetBernstein& bb) {
  return columns_of(bb.nfp, tri_np(bb.order - 1), [&](const double* u, double* o) { bb_apply_elevation(bb, u, o); });
}

// Reduction block m, (E^m_{m-1})^T, from its table.
Eigen::MatrixXd sparse_reduction(const TetBernstein& bb, int m) {
  const int rows = tri_np(m - 1);
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(rows, tri_np(m));
  for (int g = 0; g < rows; ++g) {
    for (int j = 0; j < 3; ++j) {
      const int k = bb.reduce_offset[m] + j * rows + g;
      a(g, bb.reduce_cols[k]) += bb.reduce_vals[k];
    }
  }
  return a;
}

// Independent degree elevation E^n_m (m <= n): the degree-n Bernstein coefficients of the degree-m
// basis, by interpolation at the triangle's warp & blend nodes. Also returns the 1-norm
// condition number of the interpolation.
Eigen::MatrixXd elevation_by_interpolation(int n, int m, double* cond = nullptr) {
  Eigen::VectorXd r, s;
  tri_nodes(n, r, s);
  const Eigen::MatrixXd vn = tri_bernstein_vandermonde(n, r, s);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(vn);
  if (cond != nullptr) *cond = test::cond1(vn, lu.solve(Eigen::MatrixXd::Identity(vn.rows(), vn.cols())));
  return lu.solve(tri_bernstein_vandermonde(m, r, s));
}

// ------------------------------------------------------------------------------------------------

TEST(BernsteinTet, RejectsUnsupportedOrders) {
  for (int n : {-1, 0, tet_max_order + 1}) {
    try {
      make_tet_bernstein(n);
      ADD_FAILURE() << "order " << n << " was accepted";
    } catch (const dgk::Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(n)), std::string::npos) << e.what();
    }
  }
}

TEST(BernsteinTet, MultiIndicesFollowTheNodeLatticeAndTheFaces) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    ASSERT_EQ(bb.np, tet_np(n));
    ASSERT_EQ(bb.nfp, tet_nfp(n));
    const auto alpha = tet_bernstein_multi_indices(n);
    ASSERT_EQ(static_cast<int>(alpha.size()), bb.np);
    Eigen::VectorXd re, se, te;
    tet_equispaced_nodes(n, re, se, te);
    for (int m = 0; m < bb.np; ++m) {
      const auto& a = alpha[m];
      EXPECT_EQ(a[0] + a[1] + a[2] + a[3], n);
      for (int v = 0; v < 4; ++v) {
        EXPECT_GE(a[v], 0);
        EXPECT_EQ(bb.multi_index[v * bb.np + m], a[v]);
      }
      EXPECT_EQ(tet_bernstein_index(n, a[1], a[2], a[3]), m) << at(n);
      // Function m sits at equispaced node m: (r, s, t) = 2 (a1, a2, a3)/N - 1.
      EXPECT_NEAR(re(m), 2.0 * a[1] / n - 1.0, 4 * kEps) << at(n);
      EXPECT_NEAR(se(m), 2.0 * a[2] / n - 1.0, 4 * kEps) << at(n);
      EXPECT_NEAR(te(m), 2.0 * a[3] / n - 1.0, 4 * kEps) << at(n);
    }
    const auto beta = tri_bernstein_multi_indices(n);
    ASSERT_EQ(static_cast<int>(beta.size()), bb.nfp);
    for (int q = 0; q < bb.nfp; ++q) {
      EXPECT_EQ(beta[q][0] + beta[q][1] + beta[q][2], n);
      EXPECT_EQ(tri_bernstein_index(n, beta[q][1], beta[q][2]), q);
    }

    for (int f = 0; f < tet_nfaces; ++f) {
      const int o = tet_face_opposite_vertex[f];
      const auto& fv = tet_face_vertices[f];
      EXPECT_TRUE(std::find(fv.begin(), fv.end(), o) == fv.end()) << at(n, f);
      // The face's functions sit where make_tet_nodal's fmask puts the face's nodes.
      for (int q = 0; q < bb.nfp; ++q) {
        const int m = bb.face_to_volume[f * bb.nfp + q];
        EXPECT_EQ(m, nodal(n).fmask[f][q]) << at(n, f);
        EXPECT_EQ(alpha[m][o], 0) << at(n, f);
        for (int v = 0; v < 3; ++v) EXPECT_EQ(alpha[m][fv[v]], beta[q][v]) << at(n, f);
      }
      // The layered ordering is a permutation whose layer i holds the functions with a_o = i.
      std::vector<int> seen(bb.np, 0);
      for (int i = 0, p = 0; i <= n; ++i) {
        EXPECT_EQ(p, tet_np(n) - tet_np(n - i));
        for (const auto& g : tri_bernstein_multi_indices(n - i)) {
          const int m = bb.face_layer_to_volume[f * bb.np + p];
          ASSERT_GE(m, 0);
          ASSERT_LT(m, bb.np);
          ++seen[m];
          EXPECT_EQ(alpha[m][o], i) << at(n, f);
          for (int v = 0; v < 3; ++v) EXPECT_EQ(alpha[m][fv[v]], g[v]) << at(n, f);
          if (f == 0) {
            EXPECT_EQ(m, p);
          }
          ++p;
        }
      }
      for (int c : seen) EXPECT_EQ(c, 1) << at(n, f);
    }
  }
}

TEST(BernsteinTet, FaceTracesAreTriangleBernsteinPolynomials) {
  // On face f, in its own parameters, function face_to_volume[q] is the triangle's B_q and every
  // other function vanishes: what the lift's face mass and the flux coefficients rely on.
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    Eigen::VectorXd u, v, w;
    test::triangle_quadrature(n, u, v, w);  // just points spread over the triangle
    const Eigen::MatrixXd tri = tri_bernstein_vandermonde(n, u, v);
    // Entries are products of N + 1 factors of size <= 1 times a multinomial (<= 4^N), but the
    // basis sums to one: errors are a few ulps of 1 per factor.
    const double tol = kSafety * (n + 4) * kEps;
    for (int f = 0; f < tet_nfaces; ++f) {
      Eigen::VectorXd r, s, t;
      face_points(f, u, v, r, s, t);
      Eigen::MatrixXd vol = tet_bernstein_vandermonde(n, r, s, t);
      for (int q = 0; q < bb.nfp; ++q) {
        const int m = bb.face_to_volume[f * bb.nfp + q];
        EXPECT_LT(test::max_abs(vol.col(m) - tri.col(q)), tol) << at(n, f) << ", function " << q;
        vol.col(m).setZero();
      }
      EXPECT_LT(test::max_abs(vol), tol) << at(n, f);
    }
  }
}

TEST(BernsteinTet, PartitionOfUnityAndNonnegativity) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    // Each value carries ~(N + 4) roundings relative to itself; the sum of np nonnegative terms
    // adds at most np roundings of the total, 1.
    const double tol = kSafety * (bb.np + n + 4) * kEps;
    EXPECT_LT(test::max_abs(bb.VB.rowwise().sum() - Eigen::VectorXd::Ones(bb.np)), tol) << at(n);
    Eigen::VectorXd r, s, t;
    random_points(50, 7u + n, r, s, t);
    const Eigen::MatrixXd vb = tet_bernstein_vandermonde(n, r, s, t);
    EXPECT_LT(test::max_abs(vb.rowwise().sum() - Eigen::VectorXd::Ones(vb.rows())), tol) << at(n);
    EXPECT_GT(vb.minCoeff(), 0.0) << at(n);
    // B_alpha peaks at its own lattice point alpha / N (among the other lattice points).
    Eigen::VectorXd re, se, te;
    tet_equispaced_nodes(n, re, se, te);
    const Eigen::MatrixXd ve = tet_bernstein_vandermonde(n, re, se, te);
    for (int m = 0; m < bb.np; ++m) {
      Eigen::Index arg = 0;
      ve.col(m).maxCoeff(&arg);
      EXPECT_EQ(arg, m) << at(n) << ", function " << m;
    }
    // Triangle: the same.
    Eigen::VectorXd u, v, w;
    test::triangle_quadrature(n, u, v, w);
    const Eigen::MatrixXd tri = tri_bernstein_vandermonde(n, u, v);
    EXPECT_LT(test::max_abs(tri.rowwise().sum() - Eigen::VectorXd::Ones(tri.rows())), kSafety * (bb.nfp + n + 3) * kEps)
        << at(n);
    EXPECT_GE(tri.minCoeff(), 0.0) << at(n);
  }
}

TEST(BernsteinTet, TransformsAreInversesAndRoundTrip) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    const TetNodal& nd = nodal(n);
    const Eigen::MatrixXd id = Eigen::MatrixXd::Identity(bb.np, bb.np);
    // VBinv = Tinv Vinv carries Vinv's relative error (~cond(V) eps) amplified by Tinv and T: the
    // result is within the cond(VB) eps of a backward-stable inverse.
    const double tol = transform_tol(bb, 1.0);
    EXPECT_LT(test::max_abs(bb.VB * bb.VBinv - id), tol) << at(n);
    EXPECT_LT(test::max_abs(bb.VBinv * bb.VB - id), tol) << at(n);

    // nodal -> Bernstein -> nodal and back, on random data of size 1.
    const Eigen::VectorXd u = random_vector(bb.np, 11u + n);
    EXPECT_LT(test::max_abs(bb.VB * (bb.VBinv * u) - u), tol) << at(n);
    EXPECT_LT(test::max_abs(bb.VBinv * (bb.VB * u) - u), tol) << at(n);

    // Tinv holds the Bernstein coefficients of the orthonormal modes: VB Tinv = V. Tinv is exact
    // up to a few roundings per entry; the product sums np terms.
    const Eigen::MatrixXd abs_product = bb.VB.cwiseAbs() * bb.Tinv.cwiseAbs();
    EXPECT_LT(test::max_abs(bb.VB * bb.Tinv - nd.V), kSafety * kEps * (bb.np + n + 4) * test::max_abs(abs_product))
        << at(n);
    EXPECT_LT(test::max_abs(bb.Tinv * bb.T - id), tol) << at(n);

    // Linear precision: the coefficients of r, s, t are the lattice coordinates 2 a/N - 1.
    for (int c = 1; c <= 3; ++c) {
      const Eigen::VectorXd& x = c == 1 ? bb.r : (c == 2 ? bb.s : bb.t);
      const Eigen::VectorXd coef = bb.VBinv * x;
      for (int m = 0; m < bb.np; ++m) {
        EXPECT_NEAR(coef(m), 2.0 * bb.multi_index[c * bb.np + m] / n - 1.0, tol) << at(n) << ", coordinate " << c;
      }
    }

    // Mass matrix T^T T against the closed form int B_a B_b = 6 |T| binom-weights (a + b)!/(2N+3)!.
    Eigen::MatrixXd exact(bb.np, bb.np);
    const auto alpha = tet_bernstein_multi_indices(n);
    const auto multinomial = [](int deg, const std::array<int, 4>& a) {
      double v = test::factorial(deg);
      for (int x : a) v /= test::factorial(x);
      return v;
    };
    for (int i = 0; i < bb.np; ++i) {
      for (int j = 0; j < bb.np; ++j) {
        double prod = 1.0;
        for (int v = 0; v < 4; ++v) prod *= test::factorial(alpha[i][v] + alpha[j][v]);
        exact(i, j) =
            multinomial(n, alpha[i]) * multinomial(n, alpha[j]) * 6.0 * (4.0 / 3.0) * prod / test::factorial(2 * n + 3);
      }
    }
    // T = Vinv VB: relative error ~cond(V) eps in T, twice in T^T T.
    EXPECT_LT(test::max_abs(bb.M - exact), kSafety * kEps * cond_v(n) * test::max_abs(bb.M)) << at(n);
  }
}

TEST(BernsteinTet, ConditionNumbersStayModerate) {
  // 2-norm condition numbers (sigma_max / sigma_min) as in the paper's eq. (4), recorded as test
  // properties. The paper reports cond(VB) = O(10^3) at N = 9 on the warp & blend nodes.
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    const double c_vb = cond2(bb.VB);
    const double c_v = cond2(nodal(n).V);
    const double c_t = cond2(bb.T);
    const double c_l0 = cond2(bb.L0);
    const double c_lift = cond2(bb.LIFT.leftCols(bb.nfp));
    const double c_el = cond2(bb.EL.leftCols(bb.nfp));
    const std::string key = "n" + std::to_string(n);
    ::testing::Test::RecordProperty(key + "_cond_VB", std::to_string(c_vb));
    ::testing::Test::RecordProperty(key + "_cond_V", std::to_string(c_v));
    ::testing::Test::RecordProperty(key + "_cond_T", std::to_string(c_t));
    ::testing::Test::RecordProperty(key + "_cond_L0", std::to_string(c_l0));
    ::testing::Test::RecordProperty(key + "_cond_LIFTf", std::to_string(c_lift));
    ::testing::Test::RecordProperty(key + "_cond_ELf", std::to_string(c_el));
    EXPECT_LT(c_vb, 1e4) << at(n);
    // The change of basis costs at most the product of the two conditionings.
    EXPECT_LE(c_vb, c_v * c_t * (1.0 + kSafety * kEps * bb.np)) << at(n);
    // Factoring the lift helps ([CW] Section 4.1): E_L^f is better conditioned than L^f.
    EXPECT_LT(c_el, c_lift) << at(n);
  }
}

TEST(BernsteinTet, BarycentricDerivativesAreLemma1AndMatchTheDenseOperators) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    const auto alpha = tet_bernstein_multi_indices(n);
    for (int i = 0; i < 4; ++i) {
      const Eigen::MatrixXd d = sparse_bary(bb, i);
      // At most 4 nonzeros per row, the values a_j shared by D_0..D_3 (Lemma 1).
      for (int m = 0; m < bb.np; ++m) {
        int nnz = 0;
        for (int c = 0; c < bb.np; ++c) nnz += d(m, c) != 0.0;
        EXPECT_LE(nnz, 4) << at(n);
        EXPECT_EQ(d(m, m), alpha[m][i]) << at(n);
      }
      // Dense: VBinv times the barycentric partial derivatives at the nodes. Relative error
      // ~cond(VB) eps of the largest entry.
      EXPECT_LT(test::max_abs(d - bb.Dbary[i]), transform_tol(bb, test::max_abs(bb.Dbary[i]))) << at(n) << ", D_" << i;
    }
  }
}

TEST(BernsteinTet, ReferenceGradientMatchesTheNodalRoute) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    const auto g = sparse_gradient(bb);
    const std::array<const Eigen::MatrixXd*, 3> dense{&bb.Dr, &bb.Ds, &bb.Dt};
    for (int c = 0; c < 3; ++c) {
      // Chain rule: d/dr = (D_1 - D_0)/2 etc., exactly in the sparse entries.
      EXPECT_EQ(test::max_abs(g[c] - 0.5 * (sparse_bary(bb, c + 1) - sparse_bary(bb, 0))), 0.0) << at(n);
      // Dense: VBinv (d psi / dr) T, the orthonormal basis' derivative carried to Bernstein form.
      EXPECT_LT(test::max_abs(g[c] - *dense[c]), transform_tol(bb, test::max_abs(*dense[c])))
          << at(n) << ", direction " << c;
    }
  }
}

TEST(BernsteinTet, DenseOperatorsKeepTheSparseZeros) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    const TetBernsteinDense d = tet_bernstein_dense_operators(bb);
    const auto g = sparse_gradient(bb);
    EXPECT_EQ(test::max_abs(d.Dr - g[0]), 0.0) << at(n);
    EXPECT_EQ(test::max_abs(d.Ds - g[1]), 0.0) << at(n);
    EXPECT_EQ(test::max_abs(d.Dt - g[2]), 0.0) << at(n);
    const Eigen::MatrixXd l0 = sparse_l0(bb), el = sparse_el(bb);
    const int nfp = bb.nfp;
    ASSERT_EQ(d.LIFT.rows(), bb.np);
    ASSERT_EQ(d.LIFT.cols(), Eigen::Index{tet_nfaces} * nfp);
    for (int f = 0; f < tet_nfaces; ++f) {
      const Eigen::MatrixXd ef = el.middleCols(Eigen::Index{f} * nfp, nfp);
      const Eigen::MatrixXd lf = d.LIFT.middleCols(Eigen::Index{f} * nfp, nfp);
      // Entry (m, j) sums at most el_width products el(m, p) l0(p, j), in some order: within
      // el_width eps of the sum of their magnitudes; where no product is nonzero, exactly zero.
      const Eigen::MatrixXd magnitude = ef.cwiseAbs() * l0.cwiseAbs(), product = ef * l0;
      const double eps = std::numeric_limits<double>::epsilon();
      int zeros_broken = 0;
      for (int m = 0; m < bb.np; ++m) {
        for (int j = 0; j < nfp; ++j) {
          EXPECT_LE(std::abs(lf(m, j) - product(m, j)), bb.el_width * eps * magnitude(m, j)) << at(n, f);
          if (magnitude(m, j) == 0.0 && lf(m, j) != 0.0) ++zeros_broken;
        }
      }
      EXPECT_EQ(zeros_broken, 0) << at(n, f);
    }
  }
}

TEST(BernsteinTet, DifferentiationIsExactOnPolynomialsOfDegreeN) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    Eigen::VectorXd rq, sq, tq;
    random_points(40, 101u + n, rq, sq, tq);
    const Eigen::MatrixXd vq = tet_bernstein_vandermonde(n, rq, sq, tq);  // sums to one, >= 0
    const auto g = sparse_gradient(bb);
    const double dnorm = std::max({test::norm_inf(g[0]), test::norm_inf(g[1]), test::norm_inf(g[2])});
    // Coefficients from nodal values carry ~cond(VB) eps; differentiation scales by |D|; the
    // evaluation is a convex combination.
    const double tol = transform_tol(bb, dnorm);
    const auto pw = [](double x, int e) { return e < 0 ? 0.0 : test::ipow(x, e); };
    for (int a = 0; a <= n; ++a) {
      for (int b = 0; a + b <= n; ++b) {
        for (int c = 0; a + b + c <= n; ++c) {
          Eigen::VectorXd f(bb.np);
          for (int k = 0; k < bb.np; ++k) f(k) = pw(bb.r(k), a) * pw(bb.s(k), b) * pw(bb.t(k), c);
          const Eigen::VectorXd coef = bb.VBinv * f;
          Eigen::VectorXd dr(bb.np), ds(bb.np), dt(bb.np);
          bb_apply_reference_gradient(bb, coef.data(), dr.data(), ds.data(), dt.data());
          Eigen::VectorXd fr(rq.size()), fs(rq.size()), ft(rq.size()), fq(rq.size());
          for (Eigen::Index k = 0; k < rq.size(); ++k) {
            const double r = rq(k), s = sq(k), t = tq(k);
            fq(k) = pw(r, a) * pw(s, b) * pw(t, c);
            fr(k) = a * pw(r, a - 1) * pw(s, b) * pw(t, c);
            fs(k) = b * pw(r, a) * pw(s, b - 1) * pw(t, c);
            ft(k) = c * pw(r, a) * pw(s, b) * pw(t, c - 1);
          }
          const std::string what =
              at(n) + ", r^" + std::to_string(a) + " s^" + std::to_string(b) + " t^" + std::to_string(c);
          EXPECT_LT(test::max_abs(vq * coef - fq), transform_tol(bb, 1.0)) << what;
          EXPECT_LT(test::max_abs(vq * dr - fr), tol) << what;
          EXPECT_LT(test::max_abs(vq * ds - fs), tol) << what;
          EXPECT_LT(test::max_abs(vq * dt - ft), tol) << what;
        }
      }
    }
  }
}

TEST(BernsteinTet, DegreeElevationReproducesPolynomials) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    const Eigen::MatrixXd e = sparse_elevation(bb);
    double cond = 0.0;
    const Eigen::MatrixXd e_dense = elevation_by_interpolation(n, n - 1, &cond);
    // E has nonnegative entries with unit row sums; the interpolation carries ~cond eps.
    EXPECT_LT(test::max_abs(e - e_dense), kSafety * kEps * cond) << at(n);
    EXPECT_LT(test::max_abs(e.rowwise().sum() - Eigen::VectorXd::Ones(bb.nfp)), kSafety * 3 * kEps) << at(n);
    EXPECT_GE(e.minCoeff(), 0.0) << at(n);

    // A random degree-(N-1) polynomial evaluates the same from its elevated coefficients. Both
    // evaluations are convex combinations with ~(nfp + N) roundings.
    Eigen::VectorXd u, v, w;
    test::triangle_quadrature(n + 2, u, v, w);
    const Eigen::VectorXd c = random_vector(tri_np(n - 1), 23u + n);
    EXPECT_LT(test::max_abs(tri_bernstein_vandermonde(n, u, v) * (e * c) - tri_bernstein_vandermonde(n - 1, u, v) * c),
              kSafety * (bb.nfp + n + 3) * kEps)
        << at(n);

    // The one-degree reductions of Algorithm 1 are the transposed elevations of every degree.
    for (int m = 1; m <= n; ++m) {
      double cond_m = 0.0;
      const Eigen::MatrixXd em = elevation_by_interpolation(m, m - 1, &cond_m);
      EXPECT_LT(test::max_abs(sparse_reduction(bb, m) - em.transpose()), kSafety * kEps * cond_m)
          << at(n) << ", m = " << m;
    }
  }
}

TEST(BernsteinTet, LiftMatchesFaceQuadrature) {
  // L^f = M^{-1} M^f with M^{-1} = Tinv Tinv^T (M = T^T T) and M^f(a, q) = int_f B_a B_q by a
  // Gauss rule on the face, exact to degree 2N + 1: independent of the nodal LIFT used by
  // make_tet_bernstein.
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    Eigen::VectorXd u, v, w;
    test::triangle_quadrature(n, u, v, w);
    const double scale = test::max_abs(bb.LIFT);
    const double tol = transform_tol(bb, scale);
    for (int f = 0; f < tet_nfaces; ++f) {
      Eigen::VectorXd r, s, t;
      face_points(f, u, v, r, s, t);
      const Eigen::MatrixXd vol = tet_bernstein_vandermonde(n, r, s, t);
      Eigen::MatrixXd face(vol.rows(), bb.nfp);
      for (int q = 0; q < bb.nfp; ++q) face.col(q) = vol.col(bb.face_to_volume[f * bb.nfp + q]);
      const Eigen::MatrixXd mf = vol.transpose() * w.asDiagonal() * face;
      const Eigen::MatrixXd lift = bb.Tinv * (bb.Tinv.transpose() * mf);
      EXPECT_LT(test::max_abs(lift - bb.LIFT.middleCols(Eigen::Index{f} * bb.nfp, bb.nfp)), tol) << at(n, f);
    }
  }
}

TEST(BernsteinTet, LiftFactorsIntoELTimesL0) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    const int nfp = bb.nfp;
    const Eigen::MatrixXd l0 = sparse_l0(bb);
    const Eigen::MatrixXd el = sparse_el(bb);
    // The dense operators carry the absolute error of LIFT, ~cond(VB) eps |LIFT|; EL = LIFT L0^{-1}
    // amplifies it by cond(L0) (small, Lemma 5).
    const double lift_tol = transform_tol(bb, test::max_abs(bb.LIFT));
    const double cond_l0 = test::cond1(l0, l0.inverse());
    EXPECT_LT(test::max_abs(l0 - bb.L0), lift_tol) << at(n);
    EXPECT_LT(test::max_abs(el - bb.EL), lift_tol * cond_l0) << at(n);
    for (int f = 0; f < tet_nfaces; ++f) {
      const Eigen::MatrixXd lf = el.middleCols(Eigen::Index{f} * nfp, nfp) * l0;
      EXPECT_LT(test::max_abs(lf - bb.LIFT.middleCols(Eigen::Index{f} * nfp, nfp)), lift_tol) << at(n, f);
    }

    // L_0 is symmetric with eigenvalues (N + i + 3)(N + 1 - i)/2 of multiplicity i + 1, i = 0..N
    // ([CW] Lemma 5 for the tetrahedron).
    EXPECT_EQ(test::max_abs(l0 - l0.transpose()), 0.0) << at(n);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(l0);
    std::vector<double> expected;
    for (int i = 0; i <= n; ++i) {
      for (int k = 0; k <= i; ++k) expected.push_back(0.5 * (n + i + 3) * (n + 1 - i));
    }
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(static_cast<int>(expected.size()), nfp);
    for (int q = 0; q < nfp; ++q) {
      EXPECT_NEAR(eig.eigenvalues()(q), expected[q], kSafety * kEps * nfp * expected.back()) << at(n);
    }

    // Sparsity: row beta of L_0 has 1 + 2 #{k : b_k > 0} <= 7 entries (columns beta + e_j - e_k);
    // row alpha of E_L has sum_v tri_np(a_v) <= N_fp + 3 entries, the bound attained at the
    // vertices.
    const auto beta = tri_bernstein_multi_indices(n);
    for (int q = 0; q < nfp; ++q) {
      int nnz = 0;
      for (int c = 0; c < nfp; ++c) nnz += l0(q, c) != 0.0;
      int positive = 0;
      for (int k = 0; k < 3; ++k) positive += beta[q][k] > 0;
      EXPECT_EQ(nnz, 1 + 2 * positive) << at(n);
      EXPECT_EQ(bb.l0_nnz[q], nnz) << at(n);
      EXPECT_LE(nnz, TetBernstein::l0_width) << at(n);
    }
    EXPECT_EQ(bb.el_width, nfp + 3);
    int el_max = 0;
    for (int m = 0; m < bb.np; ++m) {
      int nnz = 0;
      for (Eigen::Index c = 0; c < el.cols(); ++c) nnz += el(m, c) != 0.0;
      int expected_nnz = 0;
      for (int v = 0; v < 4; ++v) expected_nnz += tri_np(bb.multi_index[v * bb.np + m]);
      EXPECT_EQ(nnz, expected_nnz) << at(n);
      EXPECT_EQ(bb.el_nnz[m], nnz) << at(n);
      el_max = std::max(el_max, nnz);
    }
    EXPECT_EQ(el_max, nfp + 3) << at(n);

    // The paper's layered form: in the layered ordering of face f, layer i of E_L^f is
    // ell_i (E^N_{N-i})^T, identical for every face (rotational symmetry).
    for (int i = 0; i <= n; ++i) {
      double cond = 0.0;
      const Eigen::MatrixXd reduction = bb.ell[i] * elevation_by_interpolation(n, n - i, &cond).transpose();
      const int offset = tet_np(n) - tet_np(n - i);
      for (int f = 0; f < tet_nfaces; ++f) {
        Eigen::MatrixXd layer(tri_np(n - i), nfp);
        for (int g = 0; g < tri_np(n - i); ++g) {
          layer.row(g) = el.block(bb.face_layer_to_volume[f * bb.np + offset + g], Eigen::Index{f} * nfp, 1, nfp);
        }
        EXPECT_LT(test::max_abs(layer - reduction), kSafety * kEps * cond * std::abs(bb.ell[i])) << at(n, f);
      }
    }
  }
}

TEST(BernsteinTet, Algorithm1MatchesTheSparseAndDenseLift) {
  for (int n = 1; n <= kMaxOrder; ++n) {
    const TetBernstein& bb = bern(n);
    const int nfp = bb.nfp;
    const Eigen::MatrixXd el = sparse_el(bb);
    const Eigen::MatrixXd l0 = sparse_l0(bb);
    double ell_max = 0.0;
    for (double x : bb.ell) ell_max = std::max(ell_max, std::abs(x));
    // Algorithm 1 and the ELL product differ only in rounding: i reductions, each a convex
    // combination, against the closed-form entries summed over up to N_fp terms; data of size 1.
    const double sparse_tol = kSafety * kEps * (nfp + n + 3) * ell_max;
    // The dense EL and LIFT carry ~cond(VB) eps |LIFT| per entry (EL times cond(L0)); a product
    // with data of size 1 sums up to 4 N_fp such errors.
    const double lift_tol = transform_tol(bb, test::max_abs(bb.LIFT));
    const double el_tol = lift_tol * test::cond1(l0, l0.inverse());
    std::vector<double> work(2 * static_cast<std::size_t>(nfp));
    for (int f = 0; f < tet_nfaces; ++f) {
      const Eigen::VectorXd v = random_vector(nfp, 31u + 4u * n + f);
      // Algorithm 1 accumulates: start from a nonzero vector.
      const Eigen::VectorXd start = random_vector(bb.np, 37u + 4u * n + f);
      Eigen::VectorXd out = start;
      bb_face_reduction_add(bb, f, v.data(), work.data(), out.data());
      const Eigen::VectorXd added = out - start;
      EXPECT_LT(test::max_abs(added - el.middleCols(Eigen::Index{f} * nfp, nfp) * v), sparse_tol) << at(n, f);
      EXPECT_LT(test::max_abs(added - bb.EL.middleCols(Eigen::Index{f} * nfp, nfp) * v), sparse_tol + nfp * el_tol)
          << at(n, f);
      // After L_0, Algorithm 1 applies the face lift L^f.
      Eigen::VectorXd lifted = Eigen::VectorXd::Zero(bb.np);
      const Eigen::VectorXd l0v = l0 * v;
      bb_face_reduction_add(bb, f, l0v.data(), work.data(), lifted.data());
      EXPECT_LT(test::max_abs(lifted - bb.LIFT.middleCols(Eigen::Index{f} * nfp, nfp) * v),
                sparse_tol * test::norm_inf(l0) + nfp * lift_tol)
          << at(n, f);
    }

    // The whole surface lift: L_0 then Algorithm 1 per face, L_0 then the ELL E_L (Algorithm 3),
    // and the dense LIFT.
    const Eigen::VectorXd flux = random_vector(tet_nfaces * nfp, 41u + n);
    Eigen::VectorXd optimal(bb.np), ell(bb.np);
    bb_apply_lift_optimal(bb, flux.data(), optimal.data());
    bb_apply_lift_ell(bb, flux.data(), ell.data());
    EXPECT_LT(test::max_abs(optimal - ell), tet_nfaces * sparse_tol * test::norm_inf(l0)) << at(n);
    EXPECT_LT(test::max_abs(optimal - bb.LIFT * flux), tet_nfaces * (sparse_tol * test::norm_inf(l0) + nfp * lift_tol))
        << at(n);
  }
}

TEST(BernsteinTet, HighestOrderIsUsable) {
  const TetBernstein bb = make_tet_bernstein(tet_max_order);
  EXPECT_EQ(bb.np, tet_np(tet_max_order));
  const Eigen::VectorXd x = random_vector(bb.np, 5u);
  EXPECT_LT(test::max_abs(bb.VB * (bb.VBinv * x) - x), transform_tol(bb, 1.0));
  const Eigen::VectorXd flux = random_vector(tet_nfaces * bb.nfp, 6u);
  Eigen::VectorXd optimal(bb.np);
  bb_apply_lift_optimal(bb, flux.data(), optimal.data());
  EXPECT_LT(test::max_abs(optimal - bb.LIFT * flux), tet_nfaces * bb.nfp * transform_tol(bb, test::max_abs(bb.LIFT)));
}

}  // namespace
}  // namespace dgk::basis
