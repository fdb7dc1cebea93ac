// Reference operators of the HDG method, by quadrature exact for the products involved.
#include "dgk/hdg/reference.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "dgk/basis/polynomials.hpp"
#include "dgk/basis/quadrature.hpp"
#include "dgk/basis/tetrahedron.hpp"
#include "dgk/basis/triangle.hpp"
#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/core/error.hpp"

namespace dgk::hdg {

namespace {

// Vertices of the reference element, one row each.
Eigen::MatrixXd reference_vertices(int dim) {
  Eigen::MatrixXd v = Eigen::MatrixXd::Constant(dim + 1, dim, -1.0);
  for (int k = 0; k < dim; ++k) v(k + 1, k) = 1.0;
  return v;
}

std::vector<std::array<int, 3>> permutations(int dim) {
  std::array<int, 3> p{0, 1, 2};
  std::vector<std::array<int, 3>> out;
  do out.push_back(p);
  while (std::next_permutation(p.begin(), p.begin() + dim));
  return out;
}

// Element basis (and its reference gradients) at points given one per row.
Eigen::MatrixXd element_basis(int dim, int p, const Eigen::MatrixXd& x) {
  if (dim == 2) return basis::tri_vandermonde(p, x.col(0), x.col(1));
  return basis::tet_vandermonde(p, x.col(0), x.col(1), x.col(2));
}

std::vector<Eigen::MatrixXd> element_gradients(int dim, int p, const Eigen::MatrixXd& x) {
  std::vector<Eigen::MatrixXd> g(static_cast<std::size_t>(dim));
  if (dim == 2)
    basis::tri_grad_vandermonde(p, x.col(0), x.col(1), g[0], g[1]);
  else
    basis::tet_grad_vandermonde(p, x.col(0), x.col(1), x.col(2), g[0], g[1], g[2]);
  return g;
}

// Face basis at face parameter points (one row each).
Eigen::MatrixXd face_basis(int dim, int p, const Eigen::MatrixXd& xi) {
  if (dim == 3) return basis::tri_vandermonde(p, xi.col(0), xi.col(1));
  Eigen::MatrixXd v(xi.rows(), p + 1);
  for (int m = 0; m <= p; ++m) v.col(m) = basis::jacobi_p(xi.col(0), 0.0, 0.0, m);
  return v;
}

// Barycentric coordinates of face parameter points with respect to the face's vertices in
// canonical order: (1 - xi) / 2, (1 + xi) / 2 on edges; -(xi1 + xi2) / 2, (1 + xi1) / 2,
// (1 + xi2) / 2 on triangles.
Eigen::MatrixXd face_barycentric(int dim, const Eigen::MatrixXd& xi) {
  Eigen::MatrixXd b(xi.rows(), dim);
  if (dim == 2) {
    b.col(0) = (1.0 - xi.col(0).array()) / 2;
    b.col(1) = (1.0 + xi.col(0).array()) / 2;
  } else {
    b.col(0) = -(xi.col(0) + xi.col(1)).array() / 2;
    b.col(1) = (1.0 + xi.col(0).array()) / 2;
    b.col(2) = (1.0 + xi.col(1).array()) / 2;
  }
  return b;
}

}  // namespace

std::array<int, 3> reference_face_vertices(int dim, int f) {
  if (dim == 2)
    return {basis::tri_edge_vertices[static_cast<std::size_t>(f)][0],
            basis::tri_edge_vertices[static_cast<std::size_t>(f)][1], -1};
  return basis::tet_face_vertices[static_cast<std::size_t>(f)];
}

int face_orientation(int dim, const std::array<int, 3>& g) {
  const auto perms = permutations(dim);
  for (std::size_t o = 0; o < perms.size(); ++o) {
    bool sorted = true;
    for (int k = 0; k + 1 < dim; ++k)
      sorted &= g[static_cast<std::size_t>(perms[o][static_cast<std::size_t>(k)])] <
                g[static_cast<std::size_t>(perms[o][static_cast<std::size_t>(k + 1)])];
    if (sorted) return static_cast<int>(o);
  }
  DGK_THROW_IF(true, "face_orientation: a face uses a vertex twice ("
                         << g[0] << ", " << g[1] << (dim == 3 ? ", " + std::to_string(g[2]) : "") << ")");
  return -1;
}

HdgReference make_hdg_reference(int dim, int order) {
  DGK_THROW_IF(dim != 2 && dim != 3, "HDG: dimension " << dim << " is not 2 or 3");
  DGK_THROW_IF(order < 0 || order > 10, "HDG: order " << order << " is outside 0..10");
  HdgReference ref;
  ref.dim = dim;
  ref.order = order;
  ref.nfaces = dim + 1;
  ref.np = dim == 2 ? basis::tri_np(order) : basis::tet_np(order);
  ref.nfp = dim == 2 ? order + 1 : basis::tri_np(order);
  const auto perms = permutations(dim);
  ref.nperm = static_cast<int>(perms.size());

  // Volume: exact for the degree 2p - 1 integrands of Dr; degree 2p + 4 for data and errors.
  const auto vq = basis::simplex_quadrature(dim, 2 * order);
  const Eigen::MatrixXd V = element_basis(dim, order, vq.points);
  const auto G = element_gradients(dim, order, vq.points);
  for (int r = 0; r < dim; ++r)
    ref.Dr.push_back(V.transpose() * vq.weights.asDiagonal() * G[static_cast<std::size_t>(r)]);
  const auto eq = basis::simplex_quadrature(dim, 2 * order + 4);
  ref.quad_points = eq.points;
  ref.quad_weights = eq.weights;
  ref.quad_V = element_basis(dim, order, eq.points);

  // Faces: exact for degree 2p products of traces.
  const auto fq = basis::simplex_quadrature(dim - 1, 2 * order);
  const Eigen::MatrixXd bary = face_barycentric(dim, fq.points);
  const Eigen::MatrixXd psi = face_basis(dim, order, fq.points);
  const Eigen::MatrixXd verts = reference_vertices(dim);
  for (int f = 0; f < ref.nfaces; ++f) {
    const auto fv = reference_face_vertices(dim, f);
    for (int o = 0; o < ref.nperm; ++o) {
      // Canonical vertex k of the face is the element's face vertex perms[o][k].
      Eigen::MatrixXd x = Eigen::MatrixXd::Zero(fq.size(), dim);
      for (int k = 0; k < dim; ++k)
        x += bary.col(k) *
             verts.row(fv[static_cast<std::size_t>(perms[static_cast<std::size_t>(o)][static_cast<std::size_t>(k)])]);
      const Eigen::MatrixXd phi = element_basis(dim, order, x);
      ref.F.push_back(phi.transpose() * fq.weights.asDiagonal() * psi);
      if (o == 0) ref.S.push_back(phi.transpose() * fq.weights.asDiagonal() * phi);
    }
  }
  const auto dq = basis::simplex_quadrature(dim - 1, 2 * order + 4);
  ref.face_bary = face_barycentric(dim, dq.points);
  ref.face_weights = dq.weights;
  ref.face_V = face_basis(dim, order, dq.points);
  return ref;
}

}  // namespace dgk::hdg
