// Reference triangle: the nodal operators on the warp & blend nodes (Hesthaven & Warburton,
// Dmatrices2D, Lift2D, the Fmask of StartUp2D) and the sub-triangle split for drawing.
#include "dgk/basis/triangle_nodal.hpp"

#include <array>
#include <cmath>
#include <vector>

#include <Eigen/LU>

#include "dgk/basis/polynomials.hpp"
#include "dgk/basis/triangle.hpp"
#include "dgk/core/error.hpp"

namespace dgk::basis {

namespace {

// Node-on-edge tolerance. Node coordinates are O(1) and computed with a few roundings, while
// distinct nodes are at least O(1/N^2) apart, so an absolute 1e-10 separates the two cleanly.
constexpr double kEdgeTol = 1e-10;

// Mass matrix (V V^T)^{-1} of a Vandermonde matrix, formed as Vinv^T Vinv so that no explicit
// inverse of the (squared-conditioned) product is taken.
Eigen::MatrixXd mass_from_vandermonde(const Eigen::MatrixXd& v) {
  const Eigen::MatrixXd vinv = v.partialPivLu().solve(Eigen::MatrixXd::Identity(v.rows(), v.cols()));
  return vinv.transpose() * vinv;
}

// Orthonormal Legendre Vandermonde matrix of order n on [-1, 1] at the points x.
Eigen::MatrixXd line_vandermonde(int n, const Eigen::VectorXd& x) {
  Eigen::MatrixXd v(x.size(), n + 1);
  for (int j = 0; j <= n; ++j) v.col(j) = jacobi_p(x, 0.0, 0.0, j);
  return v;
}

}  // namespace

std::vector<std::array<int, 3>> tri_sub_cells(int n) {
  DGK_THROW_IF(n < 1, "tri_sub_cells: order must be at least 1 (got " << n << ")");
  // Index of lattice point (i, j) (along r, s) in the ordering of tri_nodes: s outer, r inner.
  auto at = [n](int i, int j) { return j * (n + 1) - j * (j - 1) / 2 + i; };
  std::vector<std::array<int, 3>> cells;
  cells.reserve(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n - j; ++i) {
      // Upward cell (i,j), (i+1,j), (i,j+1): counter-clockwise in (r, s).
      cells.push_back({at(i, j), at(i + 1, j), at(i, j + 1)});
      // Downward cell (i+1,j), (i+1,j+1), (i,j+1), where it fits under the hypotenuse.
      if (i + j <= n - 2) cells.push_back({at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  }
  return cells;
}

TriNodal make_tri_nodal(int n) {
  DGK_THROW_IF(n < 1 || n > tri_max_order,
               "make_tri_nodal: order " << n << " is outside the supported range 1.." << tri_max_order);
  TriNodal op;
  op.order = n;
  op.np = tri_np(n);
  op.nfp = tri_nfp(n);
  tri_nodes(n, op.r, op.s);

  op.V = tri_vandermonde(n, op.r, op.s);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(op.V);
  op.Vinv = lu.solve(Eigen::MatrixXd::Identity(op.np, op.np));

  // D = Vgrad V^{-1}, obtained as the solution of V^T D^T = Vgrad^T rather than through Vinv.
  Eigen::MatrixXd vr, vs;
  tri_grad_vandermonde(n, op.r, op.s, vr, vs);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu_t(op.V.transpose());
  op.Dr = lu_t.solve(vr.transpose()).transpose();
  op.Ds = lu_t.solve(vs.transpose()).transpose();

  op.M = op.Vinv.transpose() * op.Vinv;
  op.Minv = op.V * op.V.transpose();

  // Edge nodes, each list in increasing node index.
  for (int k = 0; k < op.np; ++k) {
    if (std::abs(1.0 + op.s(k)) < kEdgeTol) op.fmask[0].push_back(k);
    if (std::abs(op.r(k) + op.s(k)) < kEdgeTol) op.fmask[1].push_back(k);
    if (std::abs(1.0 + op.r(k)) < kEdgeTol) op.fmask[2].push_back(k);
  }
  for (int f = 0; f < tri_nedges; ++f) {
    DGK_THROW_IF(static_cast<int>(op.fmask[f].size()) != op.nfp,
                 "make_tri_nodal: order " << n << " edge " << f << " has " << op.fmask[f].size() << " nodes, expected "
                                          << op.nfp);
  }

  // Edge mass matrices from the orthonormal Legendre basis in each edge's own parameter: r on
  // edges 0 and 1, s on edge 2 (edge 1 is sqrt(2) times longer than its parameter range; that
  // factor is absorbed by the length of its normal, as in the surface Jacobian).
  Eigen::MatrixXd e = Eigen::MatrixXd::Zero(op.np, Eigen::Index{tri_nedges} * op.nfp);
  for (int f = 0; f < tri_nedges; ++f) {
    const std::vector<int>& ids = op.fmask[f];
    const Eigen::VectorXd& param = f <= 1 ? op.r : op.s;
    Eigen::VectorXd x(op.nfp);
    for (int q = 0; q < op.nfp; ++q) x(q) = param(ids[q]);
    op.Medge[f] = mass_from_vandermonde(line_vandermonde(n, x));
    for (int q = 0; q < op.nfp; ++q) {
      for (int p = 0; p < op.nfp; ++p) e(ids[p], f * op.nfp + q) = op.Medge[f](p, q);
    }
  }
  op.LIFT = op.V * (op.V.transpose() * e);
  return op;
}

}  // namespace dgk::basis
