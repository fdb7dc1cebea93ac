// Reference tetrahedron: warp & blend nodes, the orthonormal basis and the nodal operators
// (Hesthaven & Warburton, Nodes3D, EquiNodes3D, WarpShiftFace3D, xyztorst, rsttoabc,
// Simplex3DP, GradSimplex3DP, Vandermonde3D, GradVandermonde3D, Dmatrices3D, Lift3D).
#include "dgk/basis/tetrahedron.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <vector>

#include <Eigen/LU>

#include "dgk/basis/polynomials.hpp"
#include "dgk/basis/triangle.hpp"
#include "dgk/core/error.hpp"

namespace dgk::basis {

namespace {

// Blend parameters of the 3D warp & blend construction, tabulated for N = 1..15.
constexpr double kAlphaStore[15] = {0.0,    0.0,     0.0,    0.1002, 1.1332, 1.5608, 1.3413, 1.2577,
                                    1.1603, 1.10153, 0.6080, 0.4523, 0.8856, 0.8717, 0.9655};

// Node-on-face tolerance. Node coordinates are O(1) and computed with a few roundings, while
// distinct nodes are at least O(1/N^2) apart, so an absolute 1e-10 separates the two cleanly.
constexpr double kFaceTol = 1e-10;

// Vertices of the equilateral tetrahedron used to build the nodes.
const Eigen::Vector3d& equilateral_vertex(int i) {
  static const Eigen::Vector3d v[4] = {{-1.0, -1.0 / std::sqrt(3.0), -1.0 / std::sqrt(6.0)},
                                       {1.0, -1.0 / std::sqrt(3.0), -1.0 / std::sqrt(6.0)},
                                       {0.0, 2.0 / std::sqrt(3.0), -1.0 / std::sqrt(6.0)},
                                       {0.0, 0.0, 3.0 / std::sqrt(6.0)}};
  return v[i];
}

// Two-dimensional warp & blend shift of a face (evalshift), in the face's equilateral frame.
void eval_shift(int n, double alpha, const Eigen::ArrayXd& l1, const Eigen::ArrayXd& l2,
                const Eigen::ArrayXd& l3, Eigen::ArrayXd& dx, Eigen::ArrayXd& dy) {
  const Eigen::ArrayXd warpf1 = 4.0 * warp_factor(n, (l3 - l2).matrix()).array();
  const Eigen::ArrayXd warpf2 = 4.0 * warp_factor(n, (l1 - l3).matrix()).array();
  const Eigen::ArrayXd warpf3 = 4.0 * warp_factor(n, (l2 - l1).matrix()).array();
  const Eigen::ArrayXd warp1 = l2 * l3 * warpf1 * (1.0 + (alpha * l1).square());
  const Eigen::ArrayXd warp2 = l1 * l3 * warpf2 * (1.0 + (alpha * l2).square());
  const Eigen::ArrayXd warp3 = l1 * l2 * warpf3 * (1.0 + (alpha * l3).square());
  const double pi = std::acos(-1.0);
  dx = warp1 + std::cos(2.0 * pi / 3.0) * warp2 + std::cos(4.0 * pi / 3.0) * warp3;
  dy = std::sin(2.0 * pi / 3.0) * warp2 + std::sin(4.0 * pi / 3.0) * warp3;
}

// Equilateral coordinates to reference (r, s, t): an affine map, inverted once.
void xyz_to_rst(const Eigen::MatrixX3d& xyz, Eigen::VectorXd& r, Eigen::VectorXd& s,
                Eigen::VectorXd& t) {
  const Eigen::Vector3d& v1 = equilateral_vertex(0);
  const Eigen::Vector3d& v2 = equilateral_vertex(1);
  const Eigen::Vector3d& v3 = equilateral_vertex(2);
  const Eigen::Vector3d& v4 = equilateral_vertex(3);
  Eigen::Matrix3d a;
  a.col(0) = 0.5 * (v2 - v1);
  a.col(1) = 0.5 * (v3 - v1);
  a.col(2) = 0.5 * (v4 - v1);
  const Eigen::Vector3d shift = 0.5 * (v2 + v3 + v4 - v1);
  const Eigen::Matrix3Xd rhs = xyz.transpose().colwise() - shift;
  const Eigen::Matrix3Xd rst = a.partialPivLu().solve(rhs);
  r = rst.row(0).transpose();
  s = rst.row(1).transpose();
  t = rst.row(2).transpose();
}

// Collapsed coordinates (r, s, t) -> (a, b, c) on the cube. On the collapsed edge and vertex
// the value of a (or b) is irrelevant because every mode that depends on it carries a vanishing
// factor; -1 is used as in the reference implementation.
void rst_to_abc(const Eigen::VectorXd& r, const Eigen::VectorXd& s, const Eigen::VectorXd& t,
                Eigen::VectorXd& a, Eigen::VectorXd& b, Eigen::VectorXd& c) {
  const Eigen::Index m = r.size();
  a.resize(m);
  b.resize(m);
  for (Eigen::Index k = 0; k < m; ++k) {
    const double da = -s(k) - t(k);
    a(k) = da > 1e-14 ? 2.0 * (1.0 + r(k)) / da - 1.0 : -1.0;
    const double db = 1.0 - t(k);
    b(k) = db > 1e-14 ? 2.0 * (1.0 + s(k)) / db - 1.0 : -1.0;
  }
  c = t;
}

// Orthonormal mode (i, j, k) at collapsed coordinates.
Eigen::VectorXd simplex_3d_p(const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                             const Eigen::VectorXd& c, int i, int j, int k) {
  const Eigen::ArrayXd h1 = jacobi_p(a, 0.0, 0.0, i);
  const Eigen::ArrayXd h2 = jacobi_p(b, 2.0 * i + 1.0, 0.0, j);
  const Eigen::ArrayXd h3 = jacobi_p(c, 2.0 * (i + j) + 2.0, 0.0, k);
  return 2.0 * std::sqrt(2.0) * h1 * h2 * (1.0 - b.array()).pow(i) * h3 *
         (1.0 - c.array()).pow(i + j);
}

// Gradient of simplex_3d_p with respect to (r, s, t).
void grad_simplex_3d_p(const Eigen::VectorXd& a, const Eigen::VectorXd& b, const Eigen::VectorXd& c,
                       int id, int jd, int kd, Eigen::VectorXd& dr, Eigen::VectorXd& ds,
                       Eigen::VectorXd& dt) {
  const Eigen::ArrayXd fa = jacobi_p(a, 0.0, 0.0, id);
  const Eigen::ArrayXd dfa = grad_jacobi_p(a, 0.0, 0.0, id);
  const Eigen::ArrayXd gb = jacobi_p(b, 2.0 * id + 1.0, 0.0, jd);
  const Eigen::ArrayXd dgb = grad_jacobi_p(b, 2.0 * id + 1.0, 0.0, jd);
  const Eigen::ArrayXd hc = jacobi_p(c, 2.0 * (id + jd) + 2.0, 0.0, kd);
  const Eigen::ArrayXd dhc = grad_jacobi_p(c, 2.0 * (id + jd) + 2.0, 0.0, kd);
  const Eigen::ArrayXd half_1pa = 0.5 * (1.0 + a.array());
  const Eigen::ArrayXd half_1pb = 0.5 * (1.0 + b.array());
  const Eigen::ArrayXd half_1mb = 0.5 * (1.0 - b.array());
  const Eigen::ArrayXd half_1mc = 0.5 * (1.0 - c.array());

  // r-derivative
  Eigen::ArrayXd vr = dfa * (gb * hc);
  if (id > 0) vr *= half_1mb.pow(id - 1);
  if (id + jd > 0) vr *= half_1mc.pow(id + jd - 1);

  // s-derivative
  Eigen::ArrayXd vs = half_1pa * vr;
  Eigen::ArrayXd tmp = dgb * half_1mb.pow(id);
  if (id > 0) tmp += (-0.5 * id) * (gb * half_1mb.pow(id - 1));
  if (id + jd > 0) tmp *= half_1mc.pow(id + jd - 1);
  tmp = fa * (tmp * hc);
  vs += tmp;

  // t-derivative
  Eigen::ArrayXd vt = half_1pa * vr + half_1pb * tmp;
  tmp = dhc * half_1mc.pow(id + jd);
  if (id + jd > 0) tmp -= 0.5 * (id + jd) * (hc * half_1mc.pow(id + jd - 1));
  tmp = fa * (gb * tmp);
  tmp *= half_1mb.pow(id);
  vt += tmp;

  const double scale = std::pow(2.0, 2 * id + jd + 1.5);
  dr = scale * vr;
  ds = scale * vs;
  dt = scale * vt;
}

// Mass matrix (V V^T)^{-1} of a Vandermonde matrix, formed as Vinv^T Vinv so that no explicit
// inverse of the (squared-conditioned) product is taken.
Eigen::MatrixXd mass_from_vandermonde(const Eigen::MatrixXd& v) {
  const Eigen::MatrixXd vinv =
      v.partialPivLu().solve(Eigen::MatrixXd::Identity(v.rows(), v.cols()));
  return vinv.transpose() * vinv;
}

}  // namespace

void tet_equispaced_nodes(int n, Eigen::VectorXd& r, Eigen::VectorXd& s, Eigen::VectorXd& t) {
  DGK_THROW_IF(n < 0, "tet_equispaced_nodes: negative order " << n);
  const int np = tet_np(n);
  r.resize(np);
  s.resize(np);
  t.resize(np);
  if (n == 0) {
    r(0) = s(0) = t(0) = -0.5;
    return;
  }
  int sk = 0;
  for (int k = 0; k <= n; ++k) {
    for (int j = 0; j <= n - k; ++j) {
      for (int i = 0; i <= n - k - j; ++i) {
        r(sk) = -1.0 + 2.0 * i / n;
        s(sk) = -1.0 + 2.0 * j / n;
        t(sk) = -1.0 + 2.0 * k / n;
        ++sk;
      }
    }
  }
}

std::vector<std::array<int, 4>> tet_sub_cells(int n) {
  DGK_THROW_IF(n < 1, "tet_sub_cells: order must be at least 1 (got " << n << ")");
  // Index of lattice point (i, j, k) (along r, s, t) in the ordering of tet_equispaced_nodes.
  std::vector<int> index(static_cast<std::size_t>((n + 1) * (n + 1) * (n + 1)), -1);
  auto at = [&](int i, int j, int k) -> int& { return index[static_cast<std::size_t>((k * (n + 1) + j) * (n + 1) + i)]; };
  int sk = 0;
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n - k; ++j)
      for (int i = 0; i <= n - k - j; ++i) at(i, j, k) = sk++;
  std::vector<std::array<int, 4>> cells;
  cells.reserve(static_cast<std::size_t>(n * n * n));
  using P = std::array<int, 3>;
  auto add = [&](P a, P b, P c, P d) {
    // Orient positively in (i, j, k) space, which is an affine image of (r, s, t).
    const P u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]},
        w{d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    const int det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
    if (det < 0) std::swap(c, d);
    cells.push_back({at(a[0], a[1], a[2]), at(b[0], b[1], b[2]), at(c[0], c[1], c[2]), at(d[0], d[1], d[2])});
  };
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n - k; ++j)
      for (int i = 0; i <= n - k - j; ++i) {
        const int level = i + j + k;
        const P a{i, j, k}, a1{i + 1, j, k}, a2{i, j + 1, k}, a3{i, j, k + 1};
        const P a12{i + 1, j + 1, k}, a13{i + 1, j, k + 1}, a23{i, j + 1, k + 1};
        if (level <= n - 1) add(a, a1, a2, a3);
        if (level <= n - 2) {
          // The octahedron a1, a2, a3, a12, a13, a23, split along its diagonal a1 - a23.
          const P ring[4] = {a2, a12, a13, a3};
          for (int m = 0; m < 4; ++m) add(a1, a23, ring[m], ring[(m + 1) % 4]);
        }
        if (level <= n - 3) add(a12, a13, a23, P{i + 1, j + 1, k + 1});
      }
  return cells;
}

void tet_nodes(int n, Eigen::VectorXd& r, Eigen::VectorXd& s, Eigen::VectorXd& t) {
  DGK_THROW_IF(n < 0, "tet_nodes: negative order " << n);
  tet_equispaced_nodes(n, r, s, t);
  if (n == 0) return;
  const int np = tet_np(n);
  const double alpha = n <= 15 ? kAlphaStore[n - 1] : 1.0;
  // Separates zero from nonzero barycentrics of the equispaced lattice (spacing 1/n).
  const double tol = 1e-10;

  // Barycentrics: L1 <-> v3 (t), L2 <-> v2 (s), L3 <-> v0, L4 <-> v1 (r).
  const Eigen::ArrayXd l1 = 0.5 * (1.0 + t.array());
  const Eigen::ArrayXd l2 = 0.5 * (1.0 + s.array());
  const Eigen::ArrayXd l3 = -0.5 * (1.0 + r.array() + s.array() + t.array());
  const Eigen::ArrayXd l4 = 0.5 * (1.0 + r.array());

  const Eigen::Vector3d& v1 = equilateral_vertex(0);
  const Eigen::Vector3d& v2 = equilateral_vertex(1);
  const Eigen::Vector3d& v3 = equilateral_vertex(2);
  const Eigen::Vector3d& v4 = equilateral_vertex(3);

  // Orthonormal tangents of each face of the equilateral tetrahedron.
  Eigen::Vector3d t1[4] = {v2 - v1, v2 - v1, v3 - v2, v3 - v1};
  Eigen::Vector3d t2[4] = {v3 - 0.5 * (v1 + v2), v4 - 0.5 * (v1 + v2), v4 - 0.5 * (v2 + v3),
                           v4 - 0.5 * (v1 + v3)};
  for (int f = 0; f < 4; ++f) {
    t1[f].normalize();
    t2[f].normalize();
  }

  Eigen::MatrixX3d xyz(np, 3);
  for (int d = 0; d < 3; ++d) {
    xyz.col(d) = l3 * v1(d) + l4 * v2(d) + l2 * v3(d) + l1 * v4(d);
  }

  // Each face's 2D warp, blended into the interior; nodes on a face's edges take that face's
  // warp alone (the edge warps of adjacent faces agree).
  Eigen::MatrixX3d shift = Eigen::MatrixX3d::Zero(np, 3);
  // Per face: the barycentric that vanishes on it (La), then the face's three (Lb, Lc, Ld).
  const std::array<std::array<const Eigen::ArrayXd*, 4>, 4> face_bary{
      {{&l1, &l2, &l3, &l4}, {&l2, &l1, &l3, &l4}, {&l3, &l1, &l4, &l2}, {&l4, &l1, &l3, &l2}}};
  for (int face = 0; face < 4; ++face) {
    const Eigen::ArrayXd* la = face_bary[face][0];
    const Eigen::ArrayXd* lb = face_bary[face][1];
    const Eigen::ArrayXd* lc = face_bary[face][2];
    const Eigen::ArrayXd* ld = face_bary[face][3];
    Eigen::ArrayXd warp1, warp2;
    eval_shift(n, alpha, *lb, *lc, *ld, warp1, warp2);

    Eigen::ArrayXd blend = (*lb) * (*lc) * (*ld);
    const Eigen::ArrayXd denom =
        ((*lb) + 0.5 * (*la)) * ((*lc) + 0.5 * (*la)) * ((*ld) + 0.5 * (*la));
    for (int k = 0; k < np; ++k) {
      if (denom(k) > tol) {
        blend(k) = (1.0 + (alpha * (*la)(k)) * (alpha * (*la)(k))) * blend(k) / denom(k);
      }
    }
    for (int k = 0; k < np; ++k) {
      shift.row(k) += (blend(k) * warp1(k)) * t1[face].transpose() +
                      (blend(k) * warp2(k)) * t2[face].transpose();
    }
    for (int k = 0; k < np; ++k) {
      const int inside = ((*lb)(k) > tol) + ((*lc)(k) > tol) + ((*ld)(k) > tol);
      if ((*la)(k) < tol && inside < 3) {
        shift.row(k) = warp1(k) * t1[face].transpose() + warp2(k) * t2[face].transpose();
      }
    }
  }
  xyz += shift;
  xyz_to_rst(xyz, r, s, t);
}

Eigen::MatrixXd tet_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s,
                                const Eigen::VectorXd& t) {
  DGK_THROW_IF(n < 0, "tet_vandermonde: negative order " << n);
  DGK_THROW_IF(r.size() != s.size() || r.size() != t.size(),
               "tet_vandermonde: point arrays differ in size (" << r.size() << ", " << s.size()
                                                                << ", " << t.size() << ")");
  Eigen::VectorXd a, b, c;
  rst_to_abc(r, s, t, a, b, c);
  Eigen::MatrixXd v(r.size(), tet_np(n));
  int sk = 0;
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n - i; ++j) {
      for (int k = 0; k <= n - i - j; ++k) v.col(sk++) = simplex_3d_p(a, b, c, i, j, k);
    }
  }
  return v;
}

void tet_grad_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s,
                          const Eigen::VectorXd& t, Eigen::MatrixXd& vr, Eigen::MatrixXd& vs,
                          Eigen::MatrixXd& vt) {
  DGK_THROW_IF(n < 0, "tet_grad_vandermonde: negative order " << n);
  DGK_THROW_IF(r.size() != s.size() || r.size() != t.size(),
               "tet_grad_vandermonde: point arrays differ in size (" << r.size() << ", " << s.size()
                                                                     << ", " << t.size() << ")");
  Eigen::VectorXd a, b, c;
  rst_to_abc(r, s, t, a, b, c);
  const int np = tet_np(n);
  vr.resize(r.size(), np);
  vs.resize(r.size(), np);
  vt.resize(r.size(), np);
  int sk = 0;
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n - i; ++j) {
      for (int k = 0; k <= n - i - j; ++k) {
        Eigen::VectorXd dr, ds, dt;
        grad_simplex_3d_p(a, b, c, i, j, k, dr, ds, dt);
        vr.col(sk) = dr;
        vs.col(sk) = ds;
        vt.col(sk) = dt;
        ++sk;
      }
    }
  }
}

TetNodal make_tet_nodal(int n) {
  DGK_THROW_IF(n < 1 || n > tet_max_order, "make_tet_nodal: order "
                                               << n << " is outside the supported range 1.."
                                               << tet_max_order);
  TetNodal op;
  op.order = n;
  op.np = tet_np(n);
  op.nfp = tet_nfp(n);
  tet_nodes(n, op.r, op.s, op.t);

  op.V = tet_vandermonde(n, op.r, op.s, op.t);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(op.V);
  op.Vinv = lu.solve(Eigen::MatrixXd::Identity(op.np, op.np));

  // D = Vgrad V^{-1}, obtained as the solution of V^T D^T = Vgrad^T rather than through Vinv.
  Eigen::MatrixXd vr, vs, vt;
  tet_grad_vandermonde(n, op.r, op.s, op.t, vr, vs, vt);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu_t(op.V.transpose());
  op.Dr = lu_t.solve(vr.transpose()).transpose();
  op.Ds = lu_t.solve(vs.transpose()).transpose();
  op.Dt = lu_t.solve(vt.transpose()).transpose();

  op.M = op.Vinv.transpose() * op.Vinv;
  op.Minv = op.V * op.V.transpose();

  // Face nodes, each list in increasing node index.
  for (int k = 0; k < op.np; ++k) {
    if (std::abs(1.0 + op.t(k)) < kFaceTol) op.fmask[0].push_back(k);
    if (std::abs(1.0 + op.s(k)) < kFaceTol) op.fmask[1].push_back(k);
    if (std::abs(1.0 + op.r(k) + op.s(k) + op.t(k)) < kFaceTol) op.fmask[2].push_back(k);
    if (std::abs(1.0 + op.r(k)) < kFaceTol) op.fmask[3].push_back(k);
  }
  for (int f = 0; f < tet_nfaces; ++f) {
    DGK_THROW_IF(static_cast<int>(op.fmask[f].size()) != op.nfp,
                 "make_tet_nodal: order " << n << " face " << f << " has " << op.fmask[f].size()
                                          << " nodes, expected " << op.nfp);
  }

  // Face mass matrices from the 2D orthonormal basis in each face's own parametrisation
  // (face 2 is parametrised by (s, t); its area factor is absorbed by the normal's length).
  Eigen::MatrixXd e = Eigen::MatrixXd::Zero(op.np, Eigen::Index{tet_nfaces} * op.nfp);
  for (int f = 0; f < tet_nfaces; ++f) {
    const std::vector<int>& ids = op.fmask[f];
    const Eigen::VectorXd& first = f <= 1 ? op.r : op.s;
    const Eigen::VectorXd& second = f == 0 ? op.s : op.t;
    Eigen::VectorXd fa(op.nfp), fb(op.nfp);
    for (int q = 0; q < op.nfp; ++q) {
      fa(q) = first(ids[q]);
      fb(q) = second(ids[q]);
    }
    op.Mface[f] = mass_from_vandermonde(tri_vandermonde(n, fa, fb));
    for (int q = 0; q < op.nfp; ++q) {
      for (int p = 0; p < op.nfp; ++p) e(ids[p], f * op.nfp + q) = op.Mface[f](p, q);
    }
  }
  op.LIFT = op.V * (op.V.transpose() * e);
  return op;
}

TetLiftSymmetry tet_lift_symmetry(const TetNodal& op, double tolerance) {
  TetLiftSymmetry sym;
  const int np = op.np, nfp = op.nfp;
  const double scale = op.LIFT.cwiseAbs().maxCoeff();
  // The vertex opposite each face (the one tet_face_vertices leaves out).
  constexpr std::array<int, 4> opposite{3, 2, 0, 1};
  auto bary = [&](int k) {
    return std::array<double, 4>{-0.5 * (1.0 + op.r(k) + op.s(k) + op.t(k)), 0.5 * (1.0 + op.r(k)),
                                 0.5 * (1.0 + op.s(k)), 0.5 * (1.0 + op.t(k))};
  };
  std::ostringstream why;
  for (int f = 0; f < tet_nfaces; ++f) {
    double best_error = -1;
    std::array<int, 4> q{0, 1, 2, 3};
    do {
      // The map whose image of x has barycentrics l_k = l_{q[k]}(x): face 0 (l3 = 0) goes to face
      // f where q[opposite f] = 3.
      if (q[static_cast<std::size_t>(opposite[static_cast<std::size_t>(f)])] != 3) continue;
      std::vector<int> image(static_cast<std::size_t>(np), -1);
      bool nodes = true;
      for (int k = 0; k < np && nodes; ++k) {
        const auto l = bary(k);
        const double rr = 2 * l[static_cast<std::size_t>(q[1])] - 1, ss = 2 * l[static_cast<std::size_t>(q[2])] - 1,
                     tt = 2 * l[static_cast<std::size_t>(q[3])] - 1;
        for (int m = 0; m < np; ++m)
          if (std::max({std::abs(op.r(m) - rr), std::abs(op.s(m) - ss), std::abs(op.t(m) - tt)}) < kFaceTol) {
            image[static_cast<std::size_t>(k)] = m;
            break;
          }
        nodes = image[static_cast<std::size_t>(k)] >= 0;
      }
      if (!nodes) continue;
      // Face 0's node j goes to face f's node face_image[j].
      const auto& f0 = op.fmask[0];
      const auto& ff = op.fmask[static_cast<std::size_t>(f)];
      std::vector<int> face_image(static_cast<std::size_t>(nfp), -1);
      for (int j = 0; j < nfp && nodes; ++j) {
        const auto at = std::find(ff.begin(), ff.end(), image[static_cast<std::size_t>(f0[static_cast<std::size_t>(j)])]);
        nodes = at != ff.end();
        if (nodes) face_image[static_cast<std::size_t>(j)] = static_cast<int>(at - ff.begin());
      }
      if (!nodes) continue;
      double error = 0;
      for (int i = 0; i < np; ++i)
        for (int j = 0; j < nfp; ++j)
          error = std::max(error, std::abs(op.LIFT(image[static_cast<std::size_t>(i)],
                                                   f * nfp + face_image[static_cast<std::size_t>(j)]) -
                                           op.LIFT(i, j)));
      if (best_error >= 0 && error >= best_error) continue;
      best_error = error;
      auto& vol = sym.volume[static_cast<std::size_t>(f)];
      auto& fac = sym.face[static_cast<std::size_t>(f)];
      vol.assign(static_cast<std::size_t>(np), 0);
      fac.assign(static_cast<std::size_t>(nfp), 0);
      for (int i = 0; i < np; ++i) vol[static_cast<std::size_t>(image[static_cast<std::size_t>(i)])] = i;
      for (int j = 0; j < nfp; ++j) fac[static_cast<std::size_t>(face_image[static_cast<std::size_t>(j)])] = j;
    } while (std::next_permutation(q.begin(), q.end()));
    if (best_error < 0)
      why << (why.tellp() > 0 ? "; " : "") << "face " << f << ": no vertex permutation maps the order-" << op.order
          << " nodes and face 0's nodes onto face " << f << "'s";
    else if (best_error > tolerance * scale)
      why << (why.tellp() > 0 ? "; " : "") << "face " << f << ": LIFT's block differs from face 0's by " << best_error
          << " (|LIFT| up to " << scale << ", tolerance " << tolerance * scale << ")";
    sym.max_error = std::max(sym.max_error, best_error);
  }
  sym.why = why.str();
  sym.found = sym.why.empty();
  return sym;
}

}  // namespace dgk::basis
