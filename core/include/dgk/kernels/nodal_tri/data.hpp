// Device data of the nodal triangular DG operator: reference operators and per-element mesh
// data as Kokkos Views. Filled on the host (see dgk/physics/nodal_tri_solver.hpp) and read by
// the kernels of this folder. The layout follows nodal_tet/data.hpp with edges for faces.
#pragma once

#include <Kokkos_Core.hpp>

namespace dgk::kernels::nodal_tri {

template <int N>
struct Sizes {
  static constexpr int order = N;
  static constexpr int np = (N + 1) * (N + 2) / 2;
  static constexpr int nfp = N + 1;
  static constexpr int nfaces = 3;
};

/// Reference operators, rounded once to Real. Matrices are column-major (LayoutLeft) so that
/// consecutive nodes (threads) read consecutive entries of one column.
template <class Real, class MemorySpace>
struct Operators {
  Kokkos::View<Real**, Kokkos::LayoutLeft, MemorySpace> Dr, Ds;  ///< np x np
  Kokkos::View<Real**, Kokkos::LayoutLeft, MemorySpace> lift;    ///< np x 3 nfp
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> fmask;   ///< 3 x nfp
};

/// Per-element mesh data.
template <class Real, class MemorySpace>
struct MeshData {
  int num_elements = 0;
  /// rx, sx, ry, sy per element.
  Kokkos::View<Real* [4], Kokkos::LayoutRight, MemorySpace> drdx;
  /// Outward unit normal (x, y) and Fscale = sJ / J of each edge.
  Kokkos::View<Real* [3][3], Kokkos::LayoutRight, MemorySpace> face;
  /// Neighbour node of each edge node, as element * np + node; on the boundary, the node itself.
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> mapP;  ///< K x 3 nfp
  /// Boundary condition code of each edge (physics-defined), -1 for interior edges.
  Kokkos::View<int* [3], Kokkos::LayoutRight, MemorySpace> bc;
  /// Two material coefficients per element (physics-defined).
  Kokkos::View<Real* [2], Kokkos::LayoutRight, MemorySpace> material;
};

/// Fields: q(element, field, node), node fastest.
template <class Real, class MemorySpace>
using Fields = Kokkos::View<Real***, Kokkos::LayoutRight, MemorySpace>;

}  // namespace dgk::kernels::nodal_tri
