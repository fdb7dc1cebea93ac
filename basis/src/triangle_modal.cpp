#include "dgk/basis/triangle_modal.hpp"

#include <cmath>

#include "dgk/basis/quadrature.hpp"
#include "dgk/basis/triangle.hpp"
#include "dgk/core/error.hpp"

namespace dgk::basis {

std::array<double, 2> tri_edge_point(int f, double xi) {
  const double* a = tri_reference_vertices[f];
  const double* b = tri_reference_vertices[(f + 1) % 3];
  const double t = 0.5 * (1.0 + xi);
  return {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])};
}

TriModal make_tri_modal(int p) {
  DGK_THROW_IF(p < 0 || p > 15, "modal triangle order " << p << " is outside 0..15");
  TriModal m;
  m.order = p;
  m.np = tri_np(p);
  const auto vol = simplex_quadrature(2, 2 * p);
  m.r = vol.points.col(0);
  m.s = vol.points.col(1);
  m.w = vol.weights;
  m.phi = tri_vandermonde(p, m.r, m.s);
  tri_grad_vandermonde(p, m.r, m.s, m.dr, m.ds);
  const auto edge = simplex_quadrature(1, 2 * p + 1);
  m.xi = edge.points.col(0);
  m.xw = edge.weights;
  for (int f = 0; f < 3; ++f) {
    Eigen::VectorXd er(m.xi.size()), es(m.xi.size());
    for (Eigen::Index q = 0; q < m.xi.size(); ++q) {
      const auto x = tri_edge_point(f, m.xi(q));
      er(q) = x[0];
      es(q) = x[1];
    }
    m.edge_phi[static_cast<std::size_t>(f)] = tri_vandermonde(p, er, es);
  }
  m.phi0 = 1.0 / std::sqrt(2.0);
  return m;
}

}  // namespace dgk::basis
