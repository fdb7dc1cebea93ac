// Bernstein-Bezier basis on the tetrahedron: evaluation, transforms to and from the nodal and
// orthonormal bases, and the sparse derivative and lift operators of Chan & Warburton ([CW]).
#include "dgk/basis/bernstein_tet.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include <Eigen/LU>

#include "dgk/basis/polynomials.hpp"
#include "dgk/core/error.hpp"

namespace dgk::basis {

namespace {

double factorial(int n) {
  double f = 1.0;
  for (int k = 2; k <= n; ++k) f *= k;
  return f;
}

double binomial(int n, int k) {
  if (k < 0 || k > n) return 0.0;
  double b = 1.0;
  for (int j = 1; j <= k; ++j) b = b * (n - k + j) / j;  // exact: each partial product is integral
  return b;
}

template <std::size_t D>
double multinomial(int n, const std::array<int, D>& a) {
  double m = factorial(n);
  for (int x : a) m /= factorial(x);
  return m;
}

double ipow(double x, int e) {
  double p = 1.0;
  for (int k = 0; k < e; ++k) p *= x;
  return p;
}

std::array<double, 4> tet_barycentric(double r, double s, double t) {
  return {-0.5 * (1.0 + r + s + t), 0.5 * (1.0 + r), 0.5 * (1.0 + s), 0.5 * (1.0 + t)};
}

int tet_index(int n, const std::array<int, 4>& a) {
  return tet_bernstein_index(n, a[1], a[2], a[3]);
}

int tri_index(int n, const std::array<int, 3>& b) {
  return tri_bernstein_index(n, b[1], b[2]);
}

void check_points(const char* what, const Eigen::VectorXd& r, const Eigen::VectorXd& s, const Eigen::VectorXd& t) {
  DGK_THROW_IF(r.size() != s.size() || r.size() != t.size(),
               what << ": point arrays differ in size (" << r.size() << ", " << s.size() << ", " << t.size() << ")");
}

// --- Homogeneous polynomials in (l0, l1, l2, l3), power form -----------------------------------
// A degree-d polynomial is the vector of its coefficients of l^alpha, |alpha| = d, in
// tet_bernstein_index order.
struct PowerPoly {
  int degree = 0;
  std::vector<double> c;
};

PowerPoly power_poly(int degree) {
  return {degree, std::vector<double>(static_cast<std::size_t>(tet_np(degree)), 0.0)};
}

PowerPoly multiply(const PowerPoly& p, const PowerPoly& q) {
  const auto ap = tet_bernstein_multi_indices(p.degree);
  const auto aq = tet_bernstein_multi_indices(q.degree);
  PowerPoly out = power_poly(p.degree + q.degree);
  for (std::size_t i = 0; i < ap.size(); ++i) {
    if (p.c[i] == 0.0) continue;
    for (std::size_t j = 0; j < aq.size(); ++j) {
      if (q.c[j] == 0.0) continue;
      out.c[tet_index(out.degree, {ap[i][0] + aq[j][0], ap[i][1] + aq[j][1], ap[i][2] + aq[j][2],
                                   ap[i][3] + aq[j][3]})] += p.c[i] * q.c[j];
    }
  }
  return out;
}

// Value at x = 1 of the classical Jacobi polynomial P_n^(alpha, 0) is binom(n + alpha, n); the
// ratio to jacobi_p's value there is jacobi_p's normalization.
double jacobi_normalization(double alpha, int n) {
  const Eigen::VectorXd one = Eigen::VectorXd::Ones(1);
  return jacobi_p(one, alpha, 0.0, n)(0) / binomial(n + static_cast<int>(alpha), n);
}

// Orthonormal mode (i, j, k) of tet_vandermonde as a homogeneous polynomial of degree i + j + k,
// returned as an integer-coefficient polynomial and the factor `scale` it is to be multiplied by.
// With the collapsed coordinates a = (l1 - l0)/(l0 + l1), b = (l2 - l0 - l1)/(l0 + l1 + l2),
// c = 2 l3 - 1 the mode is
//   2 sqrt(2) 2^(2i + j) P_i(a) (l0 + l1)^i  P_j^(2i+1,0)(b) (l0 + l1 + l2)^j  P_k^(2i+2j+2,0)(c),
// and each factor is expanded with P_n^(al,0)(x) = sum_s binom(n+al, n-s) binom(n, s)
// ((x-1)/2)^s ((x+1)/2)^(n-s), where (x-1)/2 and (x+1)/2 are ratios of barycentric sums.
PowerPoly orthonormal_mode(int i, int j, int k, double& scale) {
  PowerPoly pa = power_poly(i);  // P_i(a) (l0 + l1)^i: (a-1)/2 = -l0/(l0+l1), (a+1)/2 = l1/(l0+l1)
  for (int q = 0; q <= i; ++q) {
    const double sign = q % 2 == 0 ? 1.0 : -1.0;
    pa.c[tet_index(i, {q, i - q, 0, 0})] = sign * binomial(i, q) * binomial(i, q);
  }
  PowerPoly pb = power_poly(j);  // (b-1)/2 = -(l0+l1)/(l0+l1+l2), (b+1)/2 = l2/(l0+l1+l2)
  const int alpha_b = 2 * i + 1;
  for (int q = 0; q <= j; ++q) {
    const double w = (q % 2 == 0 ? 1.0 : -1.0) * binomial(j + alpha_b, j - q) * binomial(j, q);
    for (int a0 = 0; a0 <= q; ++a0) pb.c[tet_index(j, {a0, q - a0, j - q, 0})] += w * binomial(q, a0);
  }
  PowerPoly pc = power_poly(k);  // (c-1)/2 = -(l0+l1+l2), (c+1)/2 = l3
  const int alpha_c = 2 * (i + j) + 2;
  for (int q = 0; q <= k; ++q) {
    const double w = (q % 2 == 0 ? 1.0 : -1.0) * binomial(k + alpha_c, k - q) * binomial(k, q);
    for (int a1 = 0; a1 <= q; ++a1) {
      for (int a2 = 0; a1 + a2 <= q; ++a2) {
        const std::array<int, 3> tri{q - a1 - a2, a1, a2};
        pc.c[tet_index(k, {tri[0], a1, a2, k - q})] += w * multinomial(q, tri);
      }
    }
  }
  scale = 2.0 * std::sqrt(2.0) * std::pow(2.0, 2 * i + j) * jacobi_normalization(0.0, i) *
          jacobi_normalization(alpha_b, j) * jacobi_normalization(alpha_c, k);
  return multiply(multiply(pa, pb), pc);
}

// --- Triangle degree elevation -----------------------------------------------------------------

// (E^n_m)_{beta, gamma}, m <= n: coefficient beta of the degree-m function gamma written in degree
// n, from B^m_gamma = B^m_gamma (sum of the barycentrics)^(n-m) = sum_{|delta| = n-m} B^m_gamma
// B^(n-m)_delta and B^m_gamma B^(n-m)_delta = [m!/gamma! (n-m)!/delta! / (n!/beta!)] B^n_beta.
double elevation_entry(int n, int m, const std::array<int, 3>& beta, const std::array<int, 3>& gamma) {
  const std::array<int, 3> delta{beta[0] - gamma[0], beta[1] - gamma[1], beta[2] - gamma[2]};
  if (delta[0] < 0 || delta[1] < 0 || delta[2] < 0) return 0.0;
  return multinomial(m, gamma) * multinomial(n - m, delta) / multinomial(n, beta);
}

}  // namespace

std::vector<std::array<int, 4>> tet_bernstein_multi_indices(int n) {
  DGK_THROW_IF(n < 0, "tet_bernstein_multi_indices: negative degree " << n);
  std::vector<std::array<int, 4>> out;
  out.reserve(static_cast<std::size_t>(tet_np(n)));
  for (int a3 = 0; a3 <= n; ++a3) {
    for (int a2 = 0; a2 <= n - a3; ++a2) {
      for (int a1 = 0; a1 <= n - a3 - a2; ++a1) out.push_back({n - a1 - a2 - a3, a1, a2, a3});
    }
  }
  return out;
}

std::vector<std::array<int, 3>> tri_bernstein_multi_indices(int n) {
  DGK_THROW_IF(n < 0, "tri_bernstein_multi_indices: negative degree " << n);
  std::vector<std::array<int, 3>> out;
  out.reserve(static_cast<std::size_t>(tri_np(n)));
  for (int b2 = 0; b2 <= n; ++b2) {
    for (int b1 = 0; b1 <= n - b2; ++b1) out.push_back({n - b1 - b2, b1, b2});
  }
  return out;
}

Eigen::MatrixXd tet_bernstein_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s,
                                          const Eigen::VectorXd& t) {
  check_points("tet_bernstein_vandermonde", r, s, t);
  const auto alpha = tet_bernstein_multi_indices(n);
  Eigen::MatrixXd v(r.size(), tet_np(n));
  for (Eigen::Index k = 0; k < r.size(); ++k) {
    const auto l = tet_barycentric(r(k), s(k), t(k));
    for (std::size_t m = 0; m < alpha.size(); ++m) {
      const auto& a = alpha[m];
      v(k, static_cast<Eigen::Index>(m)) =
          multinomial(n, a) * ipow(l[0], a[0]) * ipow(l[1], a[1]) * ipow(l[2], a[2]) * ipow(l[3], a[3]);
    }
  }
  return v;
}

Eigen::MatrixXd tet_bernstein_bary_derivative_vandermonde(int n, int i, const Eigen::VectorXd& r,
                                                          const Eigen::VectorXd& s, const Eigen::VectorXd& t) {
  check_points("tet_bernstein_bary_derivative_vandermonde", r, s, t);
  DGK_THROW_IF(i < 0 || i > 3, "tet_bernstein_bary_derivative_vandermonde: barycentric " << i << " is not 0..3");
  const auto alpha = tet_bernstein_multi_indices(n);
  Eigen::MatrixXd v = Eigen::MatrixXd::Zero(r.size(), tet_np(n));
  for (Eigen::Index k = 0; k < r.size(); ++k) {
    const auto l = tet_barycentric(r(k), s(k), t(k));
    for (std::size_t m = 0; m < alpha.size(); ++m) {
      std::array<int, 4> a = alpha[m];
      if (a[i] == 0) continue;
      const double coef = multinomial(n, a) * a[i];
      --a[i];
      v(k, static_cast<Eigen::Index>(m)) =
          coef * ipow(l[0], a[0]) * ipow(l[1], a[1]) * ipow(l[2], a[2]) * ipow(l[3], a[3]);
    }
  }
  return v;
}

Eigen::MatrixXd tri_bernstein_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s) {
  DGK_THROW_IF(r.size() != s.size(),
               "tri_bernstein_vandermonde: point arrays differ in size (" << r.size() << ", " << s.size() << ")");
  const auto beta = tri_bernstein_multi_indices(n);
  Eigen::MatrixXd v(r.size(), tri_np(n));
  for (Eigen::Index k = 0; k < r.size(); ++k) {
    const std::array<double, 3> l{-0.5 * (r(k) + s(k)), 0.5 * (1.0 + r(k)), 0.5 * (1.0 + s(k))};
    for (std::size_t m = 0; m < beta.size(); ++m) {
      const auto& b = beta[m];
      v(k, static_cast<Eigen::Index>(m)) = multinomial(n, b) * ipow(l[0], b[0]) * ipow(l[1], b[1]) * ipow(l[2], b[2]);
    }
  }
  return v;
}

Eigen::MatrixXd tet_modal_to_bernstein(int n) {
  DGK_THROW_IF(n < 0 || n > tet_max_order,
               "tet_modal_to_bernstein: degree " << n << " is outside the supported range 0.." << tet_max_order);
  // Every coefficient below is an integer, and for n <= tet_max_order even the sum of the
  // magnitudes of the terms of any coefficient stays below 2^53 (5.2e11 at n = 15): the products
  // and sums are exact in double, and each entry is rounded only by its final scaling.
  const int np = tet_np(n);
  const auto alpha = tet_bernstein_multi_indices(n);
  // (l0 + l1 + l2 + l3)^e in power form, to raise a mode of degree n - e to degree n.
  std::vector<PowerPoly> one_to(static_cast<std::size_t>(n) + 1);
  for (int e = 0; e <= n; ++e) {
    one_to[e] = power_poly(e);
    const auto ae = tet_bernstein_multi_indices(e);
    for (std::size_t m = 0; m < ae.size(); ++m) one_to[e].c[m] = multinomial(e, ae[m]);
  }
  Eigen::MatrixXd tinv(np, np);
  int col = 0;
  for (int i = 0; i <= n; ++i) {  // the mode order of tet_vandermonde
    for (int j = 0; j <= n - i; ++j) {
      for (int k = 0; k <= n - i - j; ++k) {
        double scale = 0.0;
        const PowerPoly mode = multiply(orthonormal_mode(i, j, k, scale), one_to[n - i - j - k]);
        // l^alpha = B_alpha / multinomial(n, alpha).
        for (int m = 0; m < np; ++m) tinv(m, col) = scale * mode.c[m] / multinomial(n, alpha[m]);
        ++col;
      }
    }
  }
  return tinv;
}

TetBernstein make_tet_bernstein(int n) {
  DGK_THROW_IF(n < 1 || n > tet_max_order,
               "make_tet_bernstein: order " << n << " is outside the supported range 1.." << tet_max_order);
  const TetNodal nodal = make_tet_nodal(n);
  TetBernstein bb;
  bb.order = n;
  bb.np = tet_np(n);
  bb.nfp = tet_nfp(n);
  const int np = bb.np;
  const int nfp = bb.nfp;
  const auto alpha = tet_bernstein_multi_indices(n);
  const auto beta = tri_bernstein_multi_indices(n);

  bb.multi_index.resize(4 * static_cast<std::size_t>(np));
  for (int m = 0; m < np; ++m) {
    for (int v = 0; v < 4; ++v) bb.multi_index[v * np + m] = alpha[m][v];
  }

  // Transforms.
  bb.r = nodal.r;
  bb.s = nodal.s;
  bb.t = nodal.t;
  bb.VB = tet_bernstein_vandermonde(n, bb.r, bb.s, bb.t);
  bb.Tinv = tet_modal_to_bernstein(n);
  bb.VBinv = bb.Tinv * nodal.Vinv;
  bb.T = nodal.Vinv * bb.VB;
  bb.M = bb.T.transpose() * bb.T;

  // Barycentric derivatives, [CW] Lemma 1 (row form of Lemma 2): row alpha of D_i has the value
  // a_j at column alpha + e_i - e_j.
  bb.d_cols.assign(16 * static_cast<std::size_t>(np), 0);
  bb.d_vals.assign(4 * static_cast<std::size_t>(np), 0.0);
  for (int m = 0; m < np; ++m) {
    for (int j = 0; j < 4; ++j) bb.d_vals[j * np + m] = alpha[m][j];
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        int col = m;
        if (alpha[m][j] > 0) {
          std::array<int, 4> a = alpha[m];
          ++a[i];
          --a[j];
          col = tet_index(n, a);
        }
        bb.d_cols[(4 * i + j) * np + m] = col;
      }
    }
  }

  // Face degree elevation E^N_{N-1}: row beta, slot j -> beta - e_j with weight b_j / N.
  bb.elev_cols.assign(3 * static_cast<std::size_t>(nfp), 0);
  bb.elev_vals.assign(3 * static_cast<std::size_t>(nfp), 0.0);
  for (int q = 0; q < nfp; ++q) {
    for (int j = 0; j < 3; ++j) {
      if (beta[q][j] == 0) continue;
      std::array<int, 3> b = beta[q];
      --b[j];
      bb.elev_cols[j * nfp + q] = tri_index(n - 1, b);
      bb.elev_vals[j * nfp + q] = static_cast<double>(beta[q][j]) / n;
    }
  }

  // One-degree reductions (E^m_{m-1})^T: row gamma (degree m-1), slot j -> gamma + e_j.
  bb.reduce_offset.assign(static_cast<std::size_t>(n) + 2, 0);
  for (int m = 1; m <= n; ++m) bb.reduce_offset[m + 1] = bb.reduce_offset[m] + 3 * tri_np(m - 1);
  bb.reduce_cols.assign(static_cast<std::size_t>(bb.reduce_offset[n + 1]), 0);
  bb.reduce_vals.assign(static_cast<std::size_t>(bb.reduce_offset[n + 1]), 0.0);
  for (int m = 1; m <= n; ++m) {
    const auto gamma = tri_bernstein_multi_indices(m - 1);
    const int rows = tri_np(m - 1);
    for (int g = 0; g < rows; ++g) {
      for (int j = 0; j < 3; ++j) {
        std::array<int, 3> b = gamma[g];
        ++b[j];
        bb.reduce_cols[bb.reduce_offset[m] + j * rows + g] = tri_index(m, b);
        bb.reduce_vals[bb.reduce_offset[m] + j * rows + g] = (gamma[g][j] + 1.0) / m;
      }
    }
  }

  // Lift factorization, [CW] Section 3.1.2.
  bb.ell.resize(static_cast<std::size_t>(n) + 1);
  for (int i = 0; i <= n; ++i) bb.ell[i] = (i % 2 == 0 ? 1.0 : -1.0) * binomial(n, i) / (1.0 + i);

  // L_0 = (N+1)^2/2 (E^{N+1}_N)^T E^{N+1}_N: entry (beta, gamma) sums over alpha = beta + e_j =
  // gamma + e_k the products (b_j + 1)/(N+1) * a_k/(N+1); the (N+1)^2 cancels. Nonzero only for
  // gamma = beta + e_j - e_k: 7 columns at most.
  bb.l0_cols.assign(static_cast<std::size_t>(TetBernstein::l0_width) * nfp, 0);
  bb.l0_vals.assign(static_cast<std::size_t>(TetBernstein::l0_width) * nfp, 0.0);
  bb.l0_nnz.assign(static_cast<std::size_t>(nfp), 0);
  for (int q = 0; q < nfp; ++q) {
    std::vector<std::pair<int, double>> row;
    for (int j = 0; j < 3; ++j) {
      std::array<int, 3> a = beta[q];
      ++a[j];
      for (int k = 0; k < 3; ++k) {
        if (a[k] == 0) continue;
        std::array<int, 3> g = a;
        --g[k];
        const int col = tri_index(n, g);
        const double val = 0.5 * (beta[q][j] + 1.0) * a[k];
        auto it = std::find_if(row.begin(), row.end(), [col](const auto& e) { return e.first == col; });
        if (it == row.end()) {
          row.emplace_back(col, val);
        } else {
          it->second += val;
        }
      }
    }
    std::sort(row.begin(), row.end());
    DGK_THROW_IF(static_cast<int>(row.size()) > TetBernstein::l0_width,
                 "make_tet_bernstein: L_0 row " << q << " has " << row.size() << " entries");
    bb.l0_nnz[q] = static_cast<int>(row.size());
    for (std::size_t e = 0; e < row.size(); ++e) {
      bb.l0_cols[e * nfp + q] = row[e].first;
      bb.l0_vals[e * nfp + q] = row[e].second;
    }
  }

  // Row maps of the layered ordering of each face.
  bb.face_layer_to_volume.assign(4 * static_cast<std::size_t>(np), 0);
  bb.face_to_volume.assign(4 * static_cast<std::size_t>(nfp), 0);
  for (int f = 0; f < tet_nfaces; ++f) {
    const int o = tet_face_opposite_vertex[f];
    const auto& fv = tet_face_vertices[f];
    int p = 0;
    for (int i = 0; i <= n; ++i) {
      for (const auto& g : tri_bernstein_multi_indices(n - i)) {
        std::array<int, 4> a{};
        a[o] = i;
        for (int v = 0; v < 3; ++v) a[fv[v]] = g[v];
        bb.face_layer_to_volume[f * np + p] = tet_index(n, a);
        if (i == 0) bb.face_to_volume[f * nfp + p] = tet_index(n, a);
        ++p;
      }
    }
  }

  // E_L in ELL form: row alpha, face f, layer i = a_o: the face-f columns beta >= gamma, gamma the
  // face components of alpha, with ell_i (E^N_{N-i})_{beta, gamma}.
  bb.el_width = nfp + 3;
  bb.el_cols.assign(static_cast<std::size_t>(bb.el_width) * np, 0);
  bb.el_vals.assign(static_cast<std::size_t>(bb.el_width) * np, 0.0);
  bb.el_nnz.assign(static_cast<std::size_t>(np), 0);
  for (int m = 0; m < np; ++m) {
    int e = 0;
    for (int f = 0; f < tet_nfaces; ++f) {
      const int i = alpha[m][tet_face_opposite_vertex[f]];
      const auto& fv = tet_face_vertices[f];
      const std::array<int, 3> gamma{alpha[m][fv[0]], alpha[m][fv[1]], alpha[m][fv[2]]};
      for (int q = 0; q < nfp; ++q) {
        const double w = elevation_entry(n, n - i, beta[q], gamma);
        if (w == 0.0) continue;
        DGK_THROW_IF(e >= bb.el_width, "make_tet_bernstein: E_L row " << m << " exceeds " << bb.el_width << " entries");
        bb.el_cols[e * np + m] = f * nfp + q;
        bb.el_vals[e * np + m] = bb.ell[i] * w;
        ++e;
      }
    }
    bb.el_nnz[m] = e;
  }

  // Dense operators by the Vandermonde route.
  for (int i = 0; i < 4; ++i) {
    bb.Dbary[i] = bb.VBinv * tet_bernstein_bary_derivative_vandermonde(n, i, bb.r, bb.s, bb.t);
  }
  // d/dr of the Bernstein functions at the nodes is (d psi/dr) T, psi the orthonormal basis.
  Eigen::MatrixXd vr, vs, vt;
  tet_grad_vandermonde(n, bb.r, bb.s, bb.t, vr, vs, vt);
  bb.Dr = bb.VBinv * (vr * bb.T);
  bb.Ds = bb.VBinv * (vs * bb.T);
  bb.Dt = bb.VBinv * (vt * bb.T);
  bb.LIFT.resize(np, Eigen::Index{tet_nfaces} * nfp);
  for (int f = 0; f < tet_nfaces; ++f) {
    // Face-f Bernstein functions at the nodal face nodes: the volume functions of the face (the
    // others vanish there).
    Eigen::MatrixXd vbf(nfp, nfp);
    for (int q = 0; q < nfp; ++q) {
      for (int p = 0; p < nfp; ++p) vbf(q, p) = bb.VB(nodal.fmask[f][q], bb.face_to_volume[f * nfp + p]);
    }
    bb.LIFT.middleCols(Eigen::Index{f} * nfp, nfp) =
        bb.VBinv * (nodal.LIFT.middleCols(Eigen::Index{f} * nfp, nfp) * vbf);
  }
  bb.L0.resize(nfp, nfp);
  for (int q = 0; q < nfp; ++q) bb.L0.row(q) = bb.LIFT.block(bb.face_to_volume[q], 0, 1, nfp);
  // EL_f = LIFT_f L0^{-1}: solve L0^T EL_f^T = LIFT_f^T (L0 is well conditioned, [CW] Lemma 5).
  const Eigen::PartialPivLU<Eigen::MatrixXd> l0_t(bb.L0.transpose());
  bb.EL.resize(np, Eigen::Index{tet_nfaces} * nfp);
  for (int f = 0; f < tet_nfaces; ++f) {
    bb.EL.middleCols(Eigen::Index{f} * nfp, nfp) =
        l0_t.solve(bb.LIFT.middleCols(Eigen::Index{f} * nfp, nfp).transpose()).transpose();
  }
  return bb;
}

void bb_apply_bary_derivative(const TetBernstein& bb, int i, const double* u, double* out) {
  DGK_THROW_IF(i < 0 || i > 3, "bb_apply_bary_derivative: barycentric " << i << " is not 0..3");
  const int np = bb.np;
  for (int m = 0; m < np; ++m) {
    double acc = 0.0;
    for (int j = 0; j < 4; ++j) acc += bb.d_vals[j * np + m] * u[bb.d_cols[(4 * i + j) * np + m]];
    out[m] = acc;
  }
}

void bb_apply_reference_gradient(const TetBernstein& bb, const double* u, double* ur, double* us, double* ut) {
  const int np = bb.np;
  for (int m = 0; m < np; ++m) {
    // The four values are shared by D_0..D_3 ([CW] Lemma 1): load them once per row.
    const double v[4] = {bb.d_vals[m], bb.d_vals[np + m], bb.d_vals[2 * np + m], bb.d_vals[3 * np + m]};
    double du[4] = {0.0, 0.0, 0.0, 0.0};
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) du[i] += v[j] * u[bb.d_cols[(4 * i + j) * np + m]];
    }
    ur[m] = 0.5 * (du[1] - du[0]);
    us[m] = 0.5 * (du[2] - du[0]);
    ut[m] = 0.5 * (du[3] - du[0]);
  }
}

void bb_apply_elevation(const TetBernstein& bb, const double* u, double* out) {
  const int nfp = bb.nfp;
  for (int q = 0; q < nfp; ++q) {
    double acc = 0.0;
    for (int j = 0; j < 3; ++j) acc += bb.elev_vals[j * nfp + q] * u[bb.elev_cols[j * nfp + q]];
    out[q] = acc;
  }
}

void bb_apply_l0(const TetBernstein& bb, const double* u, double* out) {
  const int nfp = bb.nfp;
  for (int q = 0; q < nfp; ++q) {
    double acc = 0.0;
    for (int e = 0; e < TetBernstein::l0_width; ++e) acc += bb.l0_vals[e * nfp + q] * u[bb.l0_cols[e * nfp + q]];
    out[q] = acc;
  }
}

void bb_apply_lift_ell(const TetBernstein& bb, const double* flux, double* out) {
  const int np = bb.np;
  const int nfp = bb.nfp;
  std::vector<double> lifted(static_cast<std::size_t>(tet_nfaces) * nfp);
  for (int f = 0; f < tet_nfaces; ++f) bb_apply_l0(bb, flux + f * nfp, lifted.data() + f * nfp);
  for (int m = 0; m < np; ++m) {
    double acc = 0.0;
    for (int e = 0; e < bb.el_width; ++e) acc += bb.el_vals[e * np + m] * lifted[bb.el_cols[e * np + m]];
    out[m] = acc;
  }
}

void bb_face_reduction_add(int n, const int* layer_to_volume, const double* ell, const int* reduce_offset,
                           const int* reduce_cols, const double* reduce_vals, const double* v, double* work,
                           double* out) {
  // Layer 0: the identity block of E_L^f.
  const int nfp = tri_np(n);
  for (int q = 0; q < nfp; ++q) out[layer_to_volume[q]] += v[q];
  // Layers 1..N: one-degree reduction of the previous slice, scaled by ell_i on output.
  const double* cur = v;
  double* next = work;
  int p = nfp;
  for (int i = 1; i <= n; ++i) {
    const int m = n - i + 1;  // the reduction (E^m_{m-1})^T
    const int rows = tri_np(m - 1);
    const int* cols = reduce_cols + reduce_offset[m];
    const double* vals = reduce_vals + reduce_offset[m];
    for (int g = 0; g < rows; ++g) {
      next[g] =
          vals[g] * cur[cols[g]] + vals[rows + g] * cur[cols[rows + g]] + vals[2 * rows + g] * cur[cols[2 * rows + g]];
      out[layer_to_volume[p + g]] += ell[i] * next[g];
    }
    p += rows;
    // Ping-pong between the two halves of work.
    cur = next;
    next = (next == work) ? work + nfp : work;
  }
}

void bb_face_reduction_add(const TetBernstein& bb, int face, const double* v, double* work, double* out) {
  DGK_THROW_IF(face < 0 || face >= tet_nfaces, "bb_face_reduction_add: face " << face << " is not 0..3");
  bb_face_reduction_add(bb.order, bb.face_layer_to_volume.data() + face * bb.np, bb.ell.data(), bb.reduce_offset.data(),
                        bb.reduce_cols.data(), bb.reduce_vals.data(), v, work, out);
}

void bb_apply_lift_optimal(const TetBernstein& bb, const double* flux, double* out) {
  const int nfp = bb.nfp;
  std::vector<double> lifted(static_cast<std::size_t>(nfp));
  std::vector<double> work(2 * static_cast<std::size_t>(nfp));
  std::fill(out, out + bb.np, 0.0);
  for (int f = 0; f < tet_nfaces; ++f) {
    bb_apply_l0(bb, flux + f * nfp, lifted.data());
    bb_face_reduction_add(bb, f, lifted.data(), work.data(), out);
  }
}

TetBernsteinDense tet_bernstein_dense_operators(const TetBernstein& bb) {
  const int np = bb.np, nc = tet_nfaces * bb.nfp;
  TetBernsteinDense d;
  d.Dr = d.Ds = d.Dt = Eigen::MatrixXd::Zero(np, np);
  d.LIFT = Eigen::MatrixXd::Zero(np, nc);
  std::vector<double> unit(static_cast<std::size_t>(std::max(np, nc)), 0.0), ur(np), us(np), ut(np), lifted(np);
  for (int j = 0; j < np; ++j) {
    unit[static_cast<std::size_t>(j)] = 1.0;
    bb_apply_reference_gradient(bb, unit.data(), ur.data(), us.data(), ut.data());
    unit[static_cast<std::size_t>(j)] = 0.0;
    for (int m = 0; m < np; ++m) {
      d.Dr(m, j) = ur[static_cast<std::size_t>(m)];
      d.Ds(m, j) = us[static_cast<std::size_t>(m)];
      d.Dt(m, j) = ut[static_cast<std::size_t>(m)];
    }
  }
  for (int j = 0; j < nc; ++j) {
    unit[static_cast<std::size_t>(j)] = 1.0;
    bb_apply_lift_ell(bb, unit.data(), lifted.data());
    unit[static_cast<std::size_t>(j)] = 0.0;
    for (int m = 0; m < np; ++m) d.LIFT(m, j) = lifted[static_cast<std::size_t>(m)];
  }
  return d;
}

}  // namespace dgk::basis
