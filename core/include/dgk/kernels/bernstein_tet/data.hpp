// Device data of the Bernstein-Bezier (BB) tetrahedral DG operators of paper 002 (Chan &
// Warburton): the sparse barycentric derivative tables of Lemma 1, the lift factorization
// L^f = E_L^f L_0 of section 3.1.2 (the ELL table of E_L for Algorithm 3 and the one-degree
// reductions for Algorithm 1) and the face-to-volume map. Filled on the host from
// basis::TetBernstein (dgk/basis/bernstein_tet.hpp) and read by the kernels of this folder.
//
// Mesh data and fields are those of the nodal family (nodal_tet/data.hpp): a Bernstein field
// holds coefficients where a nodal one holds nodal values, numbered like the nodal lattice.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include <Kokkos_Core.hpp>

#include "dgk/core/error.hpp"
#include "dgk/kernels/nodal_tet/data.hpp"

namespace dgk::basis {
struct TetBernstein;
}

namespace dgk::kernels::bernstein_tet {

/// Same sizes as the nodal family: one coefficient per lattice node.
template <int N>
using Sizes = nodal_tet::Sizes<N>;

/// Slots per row of the fixed-width sparse tables.
constexpr int derivative_width = 4;  ///< nonzeros per row of each D_i (paper 002, Lemma 1)
constexpr int l0_width = 7;          ///< nonzeros per row of L_0, at most

/// Vertex opposite face f (the barycentric that is zero on it), as in basis::tet_face_opposite_vertex.
KOKKOS_INLINE_FUNCTION constexpr int face_opposite_vertex(int f) {
  return f == 0 ? 3 : (f == 1 ? 2 : (f == 2 ? 0 : 1));
}

/// Reference operators, rounded once to Real. Tables of rows x slots are LayoutLeft so that
/// consecutive coefficients (threads) reading one slot touch consecutive addresses; padded slots
/// hold the value 0 and a valid column, so the kernels run the full width without branches.
template <class Real, class MemorySpace>
struct Operators {
  int order = 0, np = 0, nfp = 0;
  int el_width = 0;  ///< slots per row of E_L: nfp + 3

  /// Lemma 1: column of D_i in row m, slot j, at d_cols(m, 4 i + j) (np x 16); the value of
  /// slot j, shared by D_0..D_3, at d_vals(m, j) (np x 4).
  Kokkos::View<int**, Kokkos::LayoutLeft, MemorySpace> d_cols;
  Kokkos::View<Real**, Kokkos::LayoutLeft, MemorySpace> d_vals;

  /// L_0 (nfp x nfp) in ELL form, l0_width slots per row, the same for every face.
  Kokkos::View<int**, Kokkos::LayoutLeft, MemorySpace> l0_cols;
  Kokkos::View<Real**, Kokkos::LayoutLeft, MemorySpace> l0_vals;

  /// E_L = (E_L^0 | ... | E_L^3) (np x 4 nfp) in ELL form, el_width slots per row; column
  /// f * nfp + q is face f's coefficient q (Algorithm 3).
  Kokkos::View<int**, Kokkos::LayoutLeft, MemorySpace> el_cols;
  Kokkos::View<Real**, Kokkos::LayoutLeft, MemorySpace> el_vals;

  /// Algorithm 1: ell_i (N + 1), and the one-degree reductions (E^m_{m-1})^T, m = 1..N: block m
  /// has tri_np(m - 1) rows and 3 slots, row g slot j at reduce_offset(m) + j * rows + g.
  Kokkos::View<Real*, MemorySpace> ell;
  Kokkos::View<int*, MemorySpace> reduce_offset;  ///< N + 2
  Kokkos::View<int*, MemorySpace> reduce_cols;
  Kokkos::View<Real*, MemorySpace> reduce_vals;

  /// Face f's layered ordering (layer i = 0..N, a degree N - i triangle at offset
  /// tet_np(N) - tet_np(N - i)): volume coefficient of position p at face_layer_to_volume(f, p)
  /// (4 x np), and its inverse: position face_layer_pos(m, f) and layer face_layer(m, f) of
  /// volume coefficient m (np x 4), for the gather that closes Algorithm 1 without atomics.
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> face_layer_to_volume;
  Kokkos::View<int**, Kokkos::LayoutLeft, MemorySpace> face_layer_pos;
  Kokkos::View<int**, Kokkos::LayoutLeft, MemorySpace> face_layer;

  /// Volume coefficient of face f's coefficient q (4 x nfp): the nodal fmask.
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> fmask;
};

namespace Impl {

template <class View, class Fill>
View filled_view(const char* label, std::size_t n0, std::size_t n1, Fill&& fill) {
  View v(std::string(label), n0, n1);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < n0; ++i)
    for (std::size_t j = 0; j < n1; ++j) h(i, j) = fill(i, j);
  Kokkos::deep_copy(v, h);
  return v;
}

template <class View, class Fill>
View filled_view(const char* label, std::size_t n0, Fill&& fill) {
  View v(std::string(label), n0);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < n0; ++i) h(i) = fill(i);
  Kokkos::deep_copy(v, h);
  return v;
}

}  // namespace Impl

/// Device copy of the operators of basis::make_tet_bernstein, each entry rounded once to Real.
/// The table type is a template parameter (defaulted, deduced from the argument) so that this
/// header needs the basis component only where it is called: make_operators<Real, Mem>(bb).
template <class Real, class MemorySpace, class Bernstein = basis::TetBernstein>
Operators<Real, MemorySpace> make_operators(const Bernstein& bb) {
  static_assert(std::is_same_v<Bernstein, basis::TetBernstein>,
                "make_operators: the argument is the basis::TetBernstein of make_tet_bernstein");
  using Ops = Operators<Real, MemorySpace>;
  const std::size_t np = static_cast<std::size_t>(bb.np), nfp = static_cast<std::size_t>(bb.nfp);
  const int n = bb.order;
  DGK_THROW_IF(n < 1 || bb.np != (n + 1) * (n + 2) * (n + 3) / 6 || bb.nfp != (n + 1) * (n + 2) / 2,
               "make_operators: the Bernstein operators have inconsistent sizes (order " << n << ", np " << bb.np
                                                                                         << ", nfp " << bb.nfp << ")");
  DGK_THROW_IF(bb.el_width != bb.nfp + 3 || static_cast<int>(bb.l0_cols.size()) != l0_width * bb.nfp,
               "make_operators: unexpected sparse table widths (E_L " << bb.el_width << ", L_0 "
                                                                      << bb.l0_cols.size() / nfp << ")");
  Ops ops;
  ops.order = n;
  ops.np = bb.np;
  ops.nfp = bb.nfp;
  ops.el_width = bb.el_width;
  const std::size_t elw = static_cast<std::size_t>(bb.el_width);

  // The basis tables are column-major (entry (i, j) at [j * rows + i]), like the Views.
  ops.d_cols = Impl::filled_view<decltype(ops.d_cols)>(
      "dgk::bernstein_tet::d_cols", np, 16, [&](std::size_t m, std::size_t s) { return bb.d_cols[s * np + m]; });
  ops.d_vals = Impl::filled_view<decltype(ops.d_vals)>(
      "dgk::bernstein_tet::d_vals", np, 4, [&](std::size_t m, std::size_t s) { return Real(bb.d_vals[s * np + m]); });
  ops.l0_cols =
      Impl::filled_view<decltype(ops.l0_cols)>("dgk::bernstein_tet::l0_cols", nfp, l0_width,
                                               [&](std::size_t q, std::size_t s) { return bb.l0_cols[s * nfp + q]; });
  ops.l0_vals = Impl::filled_view<decltype(ops.l0_vals)>(
      "dgk::bernstein_tet::l0_vals", nfp, l0_width,
      [&](std::size_t q, std::size_t s) { return Real(bb.l0_vals[s * nfp + q]); });
  ops.el_cols = Impl::filled_view<decltype(ops.el_cols)>(
      "dgk::bernstein_tet::el_cols", np, elw, [&](std::size_t m, std::size_t s) { return bb.el_cols[s * np + m]; });
  ops.el_vals = Impl::filled_view<decltype(ops.el_vals)>(
      "dgk::bernstein_tet::el_vals", np, elw,
      [&](std::size_t m, std::size_t s) { return Real(bb.el_vals[s * np + m]); });

  ops.ell = Impl::filled_view<decltype(ops.ell)>("dgk::bernstein_tet::ell", bb.ell.size(),
                                                 [&](std::size_t i) { return Real(bb.ell[i]); });
  ops.reduce_offset = Impl::filled_view<decltype(ops.reduce_offset)>(
      "dgk::bernstein_tet::reduce_offset", bb.reduce_offset.size(), [&](std::size_t i) { return bb.reduce_offset[i]; });
  ops.reduce_cols = Impl::filled_view<decltype(ops.reduce_cols)>(
      "dgk::bernstein_tet::reduce_cols", bb.reduce_cols.size(), [&](std::size_t i) { return bb.reduce_cols[i]; });
  ops.reduce_vals = Impl::filled_view<decltype(ops.reduce_vals)>(
      "dgk::bernstein_tet::reduce_vals", bb.reduce_vals.size(), [&](std::size_t i) { return Real(bb.reduce_vals[i]); });

  ops.face_layer_to_volume = Impl::filled_view<decltype(ops.face_layer_to_volume)>(
      "dgk::bernstein_tet::face_layer_to_volume", 4, np,
      [&](std::size_t f, std::size_t p) { return bb.face_layer_to_volume[f * np + p]; });
  // Inverse maps: position and layer (the multi-index component at the opposite vertex).
  ops.face_layer_pos = decltype(ops.face_layer_pos)("dgk::bernstein_tet::face_layer_pos", np, 4);
  auto pos = Kokkos::create_mirror_view(ops.face_layer_pos);
  for (std::size_t m = 0; m < np; ++m)
    for (std::size_t f = 0; f < 4; ++f) pos(m, f) = -1;
  for (std::size_t f = 0; f < 4; ++f) {
    for (std::size_t p = 0; p < np; ++p) {
      const int m = bb.face_layer_to_volume[f * np + p];
      DGK_THROW_IF(m < 0 || m >= bb.np || pos(m, f) >= 0,
                   "make_operators: face " << f << "'s layered ordering is not a permutation (position " << p << ")");
      pos(m, f) = static_cast<int>(p);
    }
  }
  Kokkos::deep_copy(ops.face_layer_pos, pos);
  ops.face_layer = Impl::filled_view<decltype(ops.face_layer)>(
      "dgk::bernstein_tet::face_layer", np, 4, [&](std::size_t m, std::size_t f) {
        return bb.multi_index[static_cast<std::size_t>(face_opposite_vertex(static_cast<int>(f))) * np + m];
      });
  ops.fmask = Impl::filled_view<decltype(ops.fmask)>(
      "dgk::bernstein_tet::fmask", 4, nfp,
      [&](std::size_t f, std::size_t q) { return bb.face_to_volume[f * nfp + q]; });
  return ops;
}

}  // namespace dgk::kernels::bernstein_tet
