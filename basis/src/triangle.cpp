// Reference triangle: warp & blend nodes and the orthonormal Dubiner basis (Hesthaven &
// Warburton, Nodes2D, Warpfactor, xytors, rstoab, Simplex2DP, GradSimplex2DP, Vandermonde2D,
// GradVandermonde2D).
#include "dgk/basis/triangle.hpp"

#include <cmath>

#include "dgk/basis/polynomials.hpp"
#include "dgk/core/error.hpp"

namespace dgk::basis {

namespace {

// Blend parameters that minimise the Lebesgue constant, tabulated for N = 1..15.
constexpr double kAlphaOpt[15] = {0.0000, 0.0000, 1.4152, 0.1001, 0.2751, 0.9800, 1.0999, 1.2832,
                                  1.3648, 1.4773, 1.4959, 1.5743, 1.5770, 1.6223, 1.6258};

// Equilateral-triangle coordinates (x, y) to reference (r, s).
void xy_to_rs(const Eigen::VectorXd& x, const Eigen::VectorXd& y, Eigen::VectorXd& r,
              Eigen::VectorXd& s) {
  const double sqrt3 = std::sqrt(3.0);
  const Eigen::ArrayXd l1 = (sqrt3 * y.array() + 1.0) / 3.0;
  const Eigen::ArrayXd l2 = (-3.0 * x.array() - sqrt3 * y.array() + 2.0) / 6.0;
  const Eigen::ArrayXd l3 = (3.0 * x.array() - sqrt3 * y.array() + 2.0) / 6.0;
  r = -l2 + l3 - l1;
  s = -l2 - l3 + l1;
}

// Collapsed coordinates: (r, s) -> (a, b) on the square; the collapsed vertex s = 1 maps to
// a = -1 (any value works there since every mode with i > 0 carries a factor (1 - b)^i).
void rs_to_ab(const Eigen::VectorXd& r, const Eigen::VectorXd& s, Eigen::VectorXd& a,
              Eigen::VectorXd& b) {
  a.resize(r.size());
  for (Eigen::Index k = 0; k < r.size(); ++k) {
    const double denom = 1.0 - s(k);
    a(k) = denom > 1e-14 ? 2.0 * (1.0 + r(k)) / denom - 1.0 : -1.0;
  }
  b = s;
}

// Orthonormal mode (i, j) on the triangle at collapsed coordinates (a, b).
Eigen::VectorXd simplex_2d_p(const Eigen::VectorXd& a, const Eigen::VectorXd& b, int i, int j) {
  const Eigen::VectorXd h1 = jacobi_p(a, 0.0, 0.0, i);
  const Eigen::VectorXd h2 = jacobi_p(b, 2.0 * i + 1.0, 0.0, j);
  return std::sqrt(2.0) * h1.array() * h2.array() * (1.0 - b.array()).pow(i);
}

// Gradient of simplex_2d_p with respect to (r, s).
void grad_simplex_2d_p(const Eigen::VectorXd& a, const Eigen::VectorXd& b, int id, int jd,
                       Eigen::VectorXd& dr, Eigen::VectorXd& ds) {
  const Eigen::ArrayXd fa = jacobi_p(a, 0.0, 0.0, id);
  const Eigen::ArrayXd dfa = grad_jacobi_p(a, 0.0, 0.0, id);
  const Eigen::ArrayXd gb = jacobi_p(b, 2.0 * id + 1.0, 0.0, jd);
  const Eigen::ArrayXd dgb = grad_jacobi_p(b, 2.0 * id + 1.0, 0.0, jd);
  const Eigen::ArrayXd half_1mb = 0.5 * (1.0 - b.array());

  Eigen::ArrayXd dmr = dfa * gb;
  if (id > 0) dmr *= half_1mb.pow(id - 1);

  Eigen::ArrayXd dms = dfa * (gb * (0.5 * (1.0 + a.array())));
  if (id > 0) dms *= half_1mb.pow(id - 1);
  Eigen::ArrayXd tmp = dgb * half_1mb.pow(id);
  if (id > 0) tmp -= 0.5 * id * gb * half_1mb.pow(id - 1);
  dms += fa * tmp;

  const double scale = std::pow(2.0, id + 0.5);
  dr = scale * dmr;
  ds = scale * dms;
}

}  // namespace

void tri_nodes(int n, Eigen::VectorXd& r, Eigen::VectorXd& s) {
  DGK_THROW_IF(n < 0, "tri_nodes: negative order " << n);
  const int np = tri_np(n);
  if (n == 0) {
    r = Eigen::VectorXd::Constant(1, -1.0 / 3.0);
    s = Eigen::VectorXd::Constant(1, -1.0 / 3.0);
    return;
  }
  const double alpha = n < 16 ? kAlphaOpt[n - 1] : 5.0 / 3.0;

  // Equispaced barycentric lattice, s (l1) outer and r (l3) inner.
  Eigen::VectorXd l1(np), l2(np), l3(np);
  int sk = 0;
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n - i; ++j) {
      l1(sk) = static_cast<double>(i) / n;
      l3(sk) = static_cast<double>(j) / n;
      ++sk;
    }
  }
  l2 = Eigen::VectorXd::Ones(np) - l1 - l3;

  // Equilateral triangle, then warp along each edge and blend into the interior.
  Eigen::VectorXd x = -l2 + l3;
  Eigen::VectorXd y = (-l2 - l3 + 2.0 * l1) / std::sqrt(3.0);

  const Eigen::ArrayXd blend1 = 4.0 * l2.array() * l3.array();
  const Eigen::ArrayXd blend2 = 4.0 * l1.array() * l3.array();
  const Eigen::ArrayXd blend3 = 4.0 * l1.array() * l2.array();
  const Eigen::ArrayXd warpf1 = warp_factor(n, l3 - l2);
  const Eigen::ArrayXd warpf2 = warp_factor(n, l1 - l3);
  const Eigen::ArrayXd warpf3 = warp_factor(n, l2 - l1);
  const Eigen::ArrayXd warp1 = blend1 * warpf1 * (1.0 + (alpha * l1.array()).square());
  const Eigen::ArrayXd warp2 = blend2 * warpf2 * (1.0 + (alpha * l2.array()).square());
  const Eigen::ArrayXd warp3 = blend3 * warpf3 * (1.0 + (alpha * l3.array()).square());

  const double pi = std::acos(-1.0);
  x.array() += warp1 + std::cos(2.0 * pi / 3.0) * warp2 + std::cos(4.0 * pi / 3.0) * warp3;
  y.array() += std::sin(2.0 * pi / 3.0) * warp2 + std::sin(4.0 * pi / 3.0) * warp3;

  xy_to_rs(x, y, r, s);
}

Eigen::MatrixXd tri_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s) {
  DGK_THROW_IF(n < 0, "tri_vandermonde: negative order " << n);
  DGK_THROW_IF(r.size() != s.size(),
               "tri_vandermonde: r has " << r.size() << " points, s has " << s.size());
  Eigen::VectorXd a, b;
  rs_to_ab(r, s, a, b);
  Eigen::MatrixXd v(r.size(), tri_np(n));
  int sk = 0;
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n - i; ++j) v.col(sk++) = simplex_2d_p(a, b, i, j);
  }
  return v;
}

void tri_grad_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s,
                          Eigen::MatrixXd& vr, Eigen::MatrixXd& vs) {
  DGK_THROW_IF(n < 0, "tri_grad_vandermonde: negative order " << n);
  DGK_THROW_IF(r.size() != s.size(),
               "tri_grad_vandermonde: r has " << r.size() << " points, s has " << s.size());
  Eigen::VectorXd a, b;
  rs_to_ab(r, s, a, b);
  vr.resize(r.size(), tri_np(n));
  vs.resize(r.size(), tri_np(n));
  int sk = 0;
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n - i; ++j) {
      Eigen::VectorXd dr, ds;
      grad_simplex_2d_p(a, b, i, j, dr, ds);
      vr.col(sk) = dr;
      vs.col(sk) = ds;
      ++sk;
    }
  }
}

}  // namespace dgk::basis
