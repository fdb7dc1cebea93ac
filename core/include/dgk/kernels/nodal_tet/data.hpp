// Device data of the nodal tetrahedral DG operator: reference operators and per-element mesh
// data as Kokkos Views. Filled on the host (see dgk/physics/tet_solver.hpp) and read by
// the kernels of this folder. Every View here is allocated without padding, so the kernels may
// index a row from data() with strides known at compile time (or from the extents). Nothing
// writes the mesh data while a kernel runs: the kernels read it, and fmask, through the
// read-only path (dgk/core/read_only.hpp).
#pragma once

#include <Kokkos_Core.hpp>

namespace dgk::kernels::nodal_tet {

template <int N>
struct Sizes {
  static constexpr int order = N;
  static constexpr int np = (N + 1) * (N + 2) * (N + 3) / 6;
  static constexpr int nfp = (N + 1) * (N + 2) / 2;
  static constexpr int nfaces = 4;
};

/// Reference operators, rounded once to Real. Matrices are column-major (LayoutLeft) so that
/// consecutive nodes (threads) read consecutive entries of one column.
template <class Real, class MemorySpace>
struct Operators {
  Kokkos::View<Real**, Kokkos::LayoutLeft, MemorySpace> Dr, Ds, Dt;  ///< np x np
  Kokkos::View<Real**, Kokkos::LayoutLeft, MemorySpace> lift;        ///< np x 4 nfp
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> fmask;       ///< 4 x nfp
};

/// Per-element mesh data.
template <class Real, class MemorySpace>
struct MeshData {
  int num_elements = 0;
  /// rx, sx, tx, ry, sy, ty, rz, sz, tz per element.
  Kokkos::View<Real* [9], Kokkos::LayoutRight, MemorySpace> drdx;
  /// Each face's outward unit normal (x, y, z), then the physics' flux coefficients (at most
  /// max_flux_coefficients; Physics::face_coefficients of the materials on both sides) times
  /// Fscale = sJ / J: face_values values, one 64-byte run per face in double.
  static constexpr int face_values = 8, max_flux_coefficients = face_values - 3;
  Kokkos::View<Real* [4][face_values], Kokkos::LayoutRight, MemorySpace> face;
  /// Neighbour node of each face node, as element * np + node; on the boundary, the node itself.
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> mapP;  ///< K x 4 nfp
  /// Boundary condition code of each face (physics-defined), -1 for interior faces.
  Kokkos::View<int* [4], Kokkos::LayoutRight, MemorySpace> bc;
  /// Two material coefficients per element (physics-defined), read by the volume term.
  Kokkos::View<Real* [2], Kokkos::LayoutRight, MemorySpace> material;
};

/// Fields: q(element, field, node), node fastest.
template <class Real, class MemorySpace>
using Fields = Kokkos::View<Real***, Kokkos::LayoutRight, MemorySpace>;

}  // namespace dgk::kernels::nodal_tet
