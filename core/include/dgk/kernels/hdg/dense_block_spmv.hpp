// Matrix-vector products with a matrix in the dense block format of paper 001 (section IV):
// A(i, l, k), i < m = n_p n_c rows of block row l < r, k = j + m * slot < q = m n_a, and a
// neighbour list nbr(l, slot). With LayoutLeft, consecutive threads (i fastest, then l) read
// consecutive entries of A for each k, as the paper's Algorithm 2.
//
//   gather   (t_v): X(k, l) = x(j + m * nbr(l, slot))      the inflated input vector
//   contract (t_c): y(i + m * l) = sum_k A(i, l, k) X(k, l)
//   fused:          y(i + m * l) = sum_slot sum_j A(i, l, j + m * slot) x(j + m * nbr(l, slot))
#pragma once

#include <Kokkos_Core.hpp>

namespace dgk::kernels::hdg {

template <class Real, class Space>
struct DenseBlockView {
  using Mem = typename Space::memory_space;
  int m = 0, r = 0, na = 0;
  Kokkos::View<Real***, Kokkos::LayoutLeft, Mem> A;  ///< (m, r, m * na)
  Kokkos::View<int**, Kokkos::LayoutLeft, Mem> nbr;  ///< (r, na)
  KOKKOS_INLINE_FUNCTION int q() const { return m * na; }
};

template <class Real, class Space, class VecX, class MatX>
void gather(const DenseBlockView<Real, Space>& a, const VecX& x, const MatX& X) {
  const int m = a.m, q = a.q();
  const auto nbr = a.nbr;
  Kokkos::parallel_for(
      "dgk::hdg::gather", Kokkos::RangePolicy<Space>(0, static_cast<long>(q) * a.r), KOKKOS_LAMBDA(const long t) {
        const int k = static_cast<int>(t % q), l = static_cast<int>(t / q);
        X(k, l) = x((k % m) + static_cast<long>(m) * nbr(l, k / m));
      });
}

template <class Real, class Space, class MatX, class VecY>
void contract(const DenseBlockView<Real, Space>& a, const MatX& X, const VecY& y) {
  const int m = a.m, q = a.q();
  const auto A = a.A;
  Kokkos::parallel_for(
      "dgk::hdg::contract", Kokkos::RangePolicy<Space>(0, static_cast<long>(m) * a.r), KOKKOS_LAMBDA(const long t) {
        const int i = static_cast<int>(t % m), l = static_cast<int>(t / m);
        Real s = 0;
        for (int k = 0; k < q; ++k) s += A(i, l, k) * X(k, l);
        y(t) = s;
      });
}

template <class Real, class Space, class VecX, class VecY>
void fused(const DenseBlockView<Real, Space>& a, const VecX& x, const VecY& y) {
  const int m = a.m, na = a.na;
  const auto A = a.A;
  const auto nbr = a.nbr;
  Kokkos::parallel_for(
      "dgk::hdg::fused", Kokkos::RangePolicy<Space>(0, static_cast<long>(m) * a.r), KOKKOS_LAMBDA(const long t) {
        const int i = static_cast<int>(t % m), l = static_cast<int>(t / m);
        Real s = 0;
        for (int slot = 0; slot < na; ++slot) {
          const long base = static_cast<long>(m) * nbr(l, slot);
          for (int j = 0; j < m; ++j) s += A(i, l, j + m * slot) * x(base + j);
        }
        y(t) = s;
      });
}

}  // namespace dgk::kernels::hdg
