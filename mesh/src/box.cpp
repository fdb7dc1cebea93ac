// Box generator: Kuhn (Freudenthal) subdivision of a structured grid of cubes.
#include <array>
#include <climits>

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/host_memory.hpp"
#include "dgk/mesh/tet_mesh.hpp"

namespace dgk::mesh {

TetMesh make_box(const BoxSpec& spec) {
  const auto& n = spec.cells;
  for (int d = 0; d < 3; ++d) {
    DGK_THROW_IF(n[d] < 1,
                 "box: cube count along axis " << d << " is " << n[d] << ", must be at least 1");
    DGK_THROW_IF(!(spec.upper[d] > spec.lower[d]),
                 "box: upper corner " << spec.upper[d] << " along axis " << d
                                      << " is not above the lower corner " << spec.lower[d]);
  }
  // Divisions, not a product, so the check itself cannot overflow.
  const bool too_many = n[0] > INT_MAX / 6 / n[1] / n[2];
  const long long num_cubes = too_many ? LLONG_MAX : static_cast<long long>(n[0]) * n[1] * n[2];
  DGK_THROW_IF(too_many, "box: " << n[0] << " x " << n[1] << " x " << n[2]
                                                << " cubes give more than " << INT_MAX
                                                << " elements");
  // The host mesh takes about 60 bytes per element (vertices, connectivity, materials, regions)
  // before anything is derived from it; refuse what cannot fit.
  const double need = 60.0 * 6.0 * static_cast<double>(num_cubes);
  const double avail = host_available_bytes();
  DGK_THROW_IF(avail > 0 && need > avail, "box: " << n[0] << " x " << n[1] << " x " << n[2] << " cubes ("
                                                  << 6 * num_cubes << " elements) need about " << need / (1 << 30)
                                                  << " GiB of host memory, " << avail / (1 << 30)
                                                  << " GiB are available");

  TetMesh mesh;
  mesh.source =
      "box:" + std::to_string(n[0]) + "," + std::to_string(n[1]) + "," + std::to_string(n[2]);
  mesh.boundary_names = {"boundary", "xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};

  const int nvx = n[0] + 1, nvy = n[1] + 1, nvz = n[2] + 1;
  auto vertex = [&](int i, int j, int k) { return i + nvx * (j + nvy * k); };
  mesh.vertices.resize(static_cast<std::size_t>(nvx) * nvy * nvz);
  for (int k = 0; k < nvz; ++k) {
    for (int j = 0; j < nvy; ++j) {
      for (int i = 0; i < nvx; ++i) {
        const int ijk[3] = {i, j, k};
        auto& x = mesh.vertices[vertex(i, j, k)];
        for (int d = 0; d < 3; ++d) {
          // Exact end points: the last vertex is `upper`, not lower + n * h.
          const double a = static_cast<double>(ijk[d]) / n[d];
          x[d] = (1.0 - a) * spec.lower[d] + a * spec.upper[d];
        }
      }
    }
  }

  // Each tetrahedron walks from the cube's lower corner to its upper corner along the axes in
  // one of the 6 orders; all cubes use the same diagonal, so the subdivision is conforming.
  // The walk's orientation is the permutation's sign: odd ones swap vertices 1 and 2.
  constexpr int perms[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  mesh.elements.reserve(6 * num_cubes);
  for (int k = 0; k < n[2]; ++k) {
    for (int j = 0; j < n[1]; ++j) {
      for (int i = 0; i < n[0]; ++i) {
        for (int p = 0; p < 6; ++p) {
          int c[3] = {i, j, k};
          std::array<int, 4> el;
          el[0] = vertex(c[0], c[1], c[2]);
          for (int step = 0; step < 3; ++step) {
            ++c[perms[p][step]];
            el[step + 1] = vertex(c[0], c[1], c[2]);
          }
          if (p >= 3) std::swap(el[1], el[2]);
          mesh.elements.push_back(el);
        }
      }
    }
  }
  mesh.material.assign(mesh.elements.size(), {1.0, 1.0});
  mesh.region.assign(mesh.elements.size(), 0);

  // A face lies on the hull exactly when its three vertices share a boundary grid plane.
  mesh.boundary_faces.reserve(4 * (static_cast<std::size_t>(n[0]) * n[1] +
                                   static_cast<std::size_t>(n[1]) * n[2] +
                                   static_cast<std::size_t>(n[0]) * n[2]));
  for (const auto& el : mesh.elements) {
    for (const auto& fv : basis::tet_face_vertices) {
      std::array<int, 3> v{el[fv[0]], el[fv[1]], el[fv[2]]};
      std::array<std::array<int, 3>, 3> g;  // grid coordinates of the face vertices
      for (int q = 0; q < 3; ++q) g[q] = {v[q] % nvx, (v[q] / nvx) % nvy, v[q] / (nvx * nvy)};
      for (int d = 0; d < 3; ++d) {
        const int side = g[0][d];
        if ((side == 0 || side == n[d]) && g[1][d] == side && g[2][d] == side) {
          mesh.boundary_faces.push_back({v, 1 + 2 * d + (side == 0 ? 0 : 1)});
        }
      }
    }
  }
  return mesh;
}

}  // namespace dgk::mesh
