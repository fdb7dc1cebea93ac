// Device data of the modal (quadrature-based) DG operator on triangles (paper 004, section 3):
// the basis at the quadrature points, per-element geometry, the edge list of the edge-wise
// surface kernel, per-element edge records of the element-wise one, and the boundary data.
// Filled on the host (dgk/physics/modal_tri_solver.hpp), read by kernels.hpp of this folder.
#pragma once

#include <Kokkos_Core.hpp>

namespace dgk::kernels::modal_tri {

template <int P>
struct Sizes {
  static constexpr int order = P;
  static constexpr int np = (P + 1) * (P + 2) / 2;  ///< modes
  static constexpr int nq = (P + 1) * (P + 1);      ///< volume points (collapsed rule, degree 2p)
  static constexpr int nqe = P + 1;                 ///< Gauss-Legendre points per edge (degree 2p+1)
};

template <class Real, class MemorySpace>
struct Operators {
  /// phi(k, j) = psi_j(x_k); wdr/wds(k, j) = w_k d psi_j / dr, ds (x_k) (volume points).
  Kokkos::View<Real**, Kokkos::LayoutRight, MemorySpace> phi, wdr, wds;
  /// ephi(f, q, j) = psi_j at point q of edge f; ewphi the same times the edge weight w_q.
  Kokkos::View<Real***, Kokkos::LayoutRight, MemorySpace> ephi, ewphi;
  /// Value of the constant mode (cell average = c_0 phi0).
  Real phi0 = 0;
};

/// Storage with the element index fastest on a GPU (coalesced one-thread-per-element access,
/// paper 004, figure 5b) and slowest on the host: the execution space's default layout.
template <class Real, class ExecutionSpace>
using Fields = Kokkos::View<Real***, typename ExecutionSpace::array_layout, typename ExecutionSpace::memory_space>;
template <class Real, class ExecutionSpace>
using EdgeFields = Kokkos::View<Real****, typename ExecutionSpace::array_layout, typename ExecutionSpace::memory_space>;

template <class Real, class MemorySpace>
struct MeshData {
  int num_elements = 0;
  int num_edges = 0;
  int num_boundary_edges = 0;  ///< edges 0 .. num_boundary_edges - 1 are on the boundary
  /// rx, sx, ry, sy and 1 / J per element.
  Kokkos::View<Real* [5], Kokkos::LayoutLeft, MemorySpace> geo;
  /// Edge list (paper 004, section 3.1): left element and its local edge, right element and its
  /// local edge (-1 and the boundary index on the boundary), in edge order.
  Kokkos::View<int* [4], Kokkos::LayoutLeft, MemorySpace> edge;
  /// Unit normal from left to right (x, y) and half length of each edge.
  Kokkos::View<Real* [3], Kokkos::LayoutLeft, MemorySpace> edge_geo;
  /// Per element and local edge: neighbour element, its local edge (or -1, boundary index),
  /// and the edge number in the edge list.
  Kokkos::View<int* [3][3], Kokkos::LayoutLeft, MemorySpace> elem_edge;
  /// Outward normal (x, y) and half length per element and local edge.
  Kokkos::View<Real* [3][3], Kokkos::LayoutLeft, MemorySpace> elem_edge_geo;
  /// Boundary condition code of each boundary edge, and four values per edge point in the
  /// left element's orientation: the prescribed state, the wall normal (x, y), or the point's
  /// coordinates (x, y) for the moving shock.
  Kokkos::View<int*, MemorySpace> bc;
  Kokkos::View<Real***, Kokkos::LayoutRight, MemorySpace> bdata;  ///< nb x nqe x 4
};

/// A straight shock x_s(y, t) = x0 + (y + speed t) * cot_angle with the post-shock state behind
/// it (x < x_s) and the pre-shock state ahead: the upper boundary of the double Mach reflection.
template <class Real>
struct MovingShock {
  Real x0 = 0, speed = 0, cot_angle = 0;
  Real post[4] = {0, 0, 0, 0}, pre[4] = {0, 0, 0, 0};
};

}  // namespace dgk::kernels::modal_tri
