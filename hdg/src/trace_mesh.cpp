// Trace mesh construction from the triangle and tetrahedron meshes and their connectivity.
#include "dgk/hdg/trace_mesh.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

#include "dgk/core/error.hpp"
#include "dgk/hdg/reference.hpp"
#include "dgk/mesh/tet_connectivity.hpp"

namespace dgk::hdg {

namespace {

template <int Dim, class Mesh, class Conn>
TraceMesh build(const Mesh& mesh, const Conn& conn) {
  constexpr int nv = Dim + 1;
  TraceMesh t;
  t.dim = Dim;
  t.nfaces = nv;
  t.num_slots = 1 + 2 * (nv - 1);
  t.source = mesh.source;
  const int ne = mesh.num_elements();
  const auto n = static_cast<std::size_t>(ne);
  t.vertex_xyz.resize(n);
  t.J.resize(n);
  t.drdx.resize(n);
  t.normal.resize(n);
  t.sJ.resize(n);
  t.element_face.resize(n);
  t.element_orientation.resize(n);
  const double ref_volume = Dim == 2 ? 2.0 : 4.0 / 3.0;
  for (int e = 0; e < ne; ++e) {
    const auto k = static_cast<std::size_t>(e);
    const auto& el = mesh.elements[k];
    Eigen::Matrix<double, Dim, Dim> jac;  // jac(d, r) = d x_d / d r_r
    for (int v = 0; v < nv; ++v)
      for (int d = 0; d < Dim; ++d)
        t.vertex_xyz[k][static_cast<std::size_t>(v * Dim + d)] =
            mesh.vertices[static_cast<std::size_t>(el[static_cast<std::size_t>(v)])][static_cast<std::size_t>(d)];
    for (int r = 0; r < Dim; ++r)
      for (int d = 0; d < Dim; ++d)
        jac(d, r) = 0.5 * (t.vertex_xyz[k][static_cast<std::size_t>((r + 1) * Dim + d)] -
                           t.vertex_xyz[k][static_cast<std::size_t>(d)]);
    const double J = jac.determinant();
    double h = 0;
    for (int a = 0; a < nv; ++a)
      for (int b = a + 1; b < nv; ++b) {
        double s = 0;
        for (int d = 0; d < Dim; ++d) {
          const double dx = t.vertex_xyz[k][static_cast<std::size_t>(a * Dim + d)] -
                            t.vertex_xyz[k][static_cast<std::size_t>(b * Dim + d)];
          s += dx * dx;
        }
        h = std::max(h, std::sqrt(s));
      }
    DGK_THROW_IF(!(J > 1e-12 * std::pow(h, Dim)), "mesh '" << mesh.source << "': element " << e
                                                           << " is inverted or degenerate (J = " << J
                                                           << ", longest edge " << h << ")");
    const Eigen::Matrix<double, Dim, Dim> inv = jac.inverse();  // inv(r, d) = d r_r / d x_d
    t.J[k] = J;
    for (int r = 0; r < Dim; ++r)
      for (int d = 0; d < Dim; ++d) t.drdx[k][static_cast<std::size_t>(r * Dim + d)] = inv(r, d);
    // Barycentric gradients: grad l_{r+1} = row r of inv / 2, grad l_0 = -(their sum).
    std::array<Eigen::Matrix<double, Dim, 1>, nv> grad;
    grad[0].setZero();
    for (int r = 0; r < Dim; ++r) {
      grad[static_cast<std::size_t>(r + 1)] = 0.5 * inv.row(r).transpose();
      grad[0] -= grad[static_cast<std::size_t>(r + 1)];
    }
    for (int f = 0; f < nv; ++f) {
      const auto fv = reference_face_vertices(Dim, f);
      int opposite = Dim == 2 ? 3 : 6;
      std::array<int, 3> g{-1, -1, -1};
      for (int v = 0; v < Dim; ++v) {
        opposite -= fv[static_cast<std::size_t>(v)];
        g[static_cast<std::size_t>(v)] = el[static_cast<std::size_t>(fv[static_cast<std::size_t>(v)])];
      }
      const auto& gl = grad[static_cast<std::size_t>(opposite)];
      const double len = gl.norm();
      for (int d = 0; d < Dim; ++d) t.normal[k][static_cast<std::size_t>(f * Dim + d)] = -gl(d) / len;
      // |face| = Dim |K| |grad l|; the parameter measure of a face is 2.
      t.sJ[k][static_cast<std::size_t>(f)] = Dim * J * ref_volume * len / 2.0;
      t.element_orientation[k][static_cast<std::size_t>(f)] = face_orientation(Dim, g);
    }
  }
  // Faces: numbered in the order their first element meets them.
  for (int e = 0; e < ne; ++e) {
    const auto k = static_cast<std::size_t>(e);
    for (int f = 0; f < nv; ++f) {
      const int nb = conn.EToE[k][static_cast<std::size_t>(f)];
      const int nf = conn.EToF[k][static_cast<std::size_t>(f)];
      if (nb >= 0 && nb < e) {
        t.element_face[k][static_cast<std::size_t>(f)] =
            t.element_face[static_cast<std::size_t>(nb)][static_cast<std::size_t>(nf)];
        t.face_element[static_cast<std::size_t>(t.element_face[k][static_cast<std::size_t>(f)])][1] = e;
        t.face_local[static_cast<std::size_t>(t.element_face[k][static_cast<std::size_t>(f)])][1] = f;
        continue;
      }
      DGK_THROW_IF(nb == e, "mesh '" << mesh.source << "': element " << e << " is its own neighbour across face " << f);
      t.element_face[k][static_cast<std::size_t>(f)] = t.num_faces();
      t.face_element.push_back({e, -1});
      t.face_local.push_back({f, -1});
      // Vertices in canonical (sorted global) order.
      const auto fv = reference_face_vertices(Dim, f);
      std::array<int, 3> g{};
      for (int v = 0; v < Dim; ++v)
        g[static_cast<std::size_t>(v)] = mesh.elements[k][static_cast<std::size_t>(fv[static_cast<std::size_t>(v)])];
      std::sort(g.begin(), g.begin() + Dim);
      std::array<double, 9> x{};
      for (int v = 0; v < Dim; ++v)
        for (int d = 0; d < Dim; ++d)
          x[static_cast<std::size_t>(v * Dim + d)] =
              mesh.vertices[static_cast<std::size_t>(g[static_cast<std::size_t>(v)])][static_cast<std::size_t>(d)];
      t.face_xyz.push_back(x);
    }
  }
  // Neighbour lists.
  const int nfc = t.num_faces();
  t.neighbours.assign(static_cast<std::size_t>(nfc * t.num_slots), 0);
  t.num_neighbours.assign(static_cast<std::size_t>(nfc), 0);
  for (int l = 0; l < nfc; ++l) {
    int* nbr = &t.neighbours[static_cast<std::size_t>(l * t.num_slots)];
    for (int s = 0; s < t.num_slots; ++s) nbr[s] = l;
    for (int side = 0; side < 2; ++side) {
      const int e = t.face_element[static_cast<std::size_t>(l)][static_cast<std::size_t>(side)];
      if (e < 0) continue;
      const int a = t.face_local[static_cast<std::size_t>(l)][static_cast<std::size_t>(side)];
      for (int b = 0; b < nv; ++b)
        if (b != a)
          nbr[block_slot(nv, side, a, b)] = t.element_face[static_cast<std::size_t>(e)][static_cast<std::size_t>(b)];
    }
    t.num_neighbours[static_cast<std::size_t>(l)] = t.is_boundary(l) ? nv : t.num_slots;
  }
  return t;
}

}  // namespace

double TraceMesh::volume(int e) const {
  return J[static_cast<std::size_t>(e)] * (dim == 2 ? 2.0 : 4.0 / 3.0);
}

TraceMesh make_trace_mesh(const mesh::TriMesh& mesh) {
  return build<2>(mesh, mesh::connect(mesh));
}
TraceMesh make_trace_mesh(const mesh::TetMesh& mesh) {
  return build<3>(mesh, mesh::connect(mesh));
}

}  // namespace dgk::hdg
