// Bernstein-Bezier (BB) DG operators on tetrahedra as Kokkos team kernels, after paper 002
// (Chan & Warburton, section 3 and section 4.2.2):
//   volume:       rhs  = physics volume term of the derivatives from the sparse D_0..D_3 (Algorithm 2)
//   lift_sparse:  rhs += E_L (L_0 flux_0 | ... | L_0 flux_3), both sparse              (Algorithm 3)
//   lift_optimal: rhs += sum_f E_L^f L_0 flux_f, E_L^f slice by slice                 (Algorithm 1)
// The flux (surface) kernel is the nodal one (nodal_tet::TeamKernels::surface): the face
// coefficients of a Bernstein field sit at the nodal fmask positions, and the numerical flux of
// a linear physics is linear, so applying it to coefficients gives the flux's coefficients.
//
// Contracts and layouts are those of the nodal kernels (nodal_tet/kernels.hpp): one team per
// element, the threads of a team over its coefficients (TeamThreadRange), the element's data
// staged in team scratch; fields (element, field, coefficient); volume writes rhs, the lifts
// add to it. The team size is the caller's (see physics::default_launch_shape).
#pragma once

#include <cstddef>

#include <Kokkos_Core.hpp>

#include "dgk/core/error.hpp"
#include "dgk/kernels/bernstein_tet/data.hpp"
#include "dgk/kernels/nodal_tet/data.hpp"

namespace dgk::kernels::bernstein_tet {

struct TagVolume {};
struct TagLiftSparse {};
struct TagLiftOptimal {};

/// Dimension of the degree-n polynomials on the triangle and on the tetrahedron.
KOKKOS_INLINE_FUNCTION constexpr int tri_np(int n) {
  return (n + 1) * (n + 2) / 2;
}
KOKKOS_INLINE_FUNCTION constexpr int tet_np(int n) {
  return (n + 1) * (n + 2) * (n + 3) / 6;
}

/// n clamped to 1..most.
KOKKOS_INLINE_FUNCTION constexpr int clamp_count(int n, int most) {
  return n < 1 ? 1 : (n > most ? most : n);
}

template <int N, class Physics, class ExecutionSpace, class Real>
struct TeamKernels {
  using S = Sizes<N>;
  static constexpr int np = S::np, nfp = S::nfp, nf = Physics::num_fields;
  static constexpr int el_width = nfp + 3;  ///< nonzeros per row of E_L, at most (paper 002, 3.1.2)
  using Mem = typename ExecutionSpace::memory_space;
  using Member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using ScratchMatrix =
      Kokkos::View<Real**, Kokkos::LayoutRight, typename ExecutionSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  /// Team scratch of lift_optimal is the layered vectors of the four faces, nf x 4 np values
  /// (42 KB for Maxwell at N = 9 in double). Fields are processed in passes of at most
  /// optimal_fields_per_pass so that it stays below this budget, leaving room for the
  /// backend's own per-team buffer within the 48 KB of a GPU block.
  static constexpr std::size_t optimal_scratch_budget = 40 * 1024;
  static constexpr int optimal_fields_per_pass =
      clamp_count(static_cast<int>(optimal_scratch_budget / (4 * np * sizeof(Real))), nf);

  Operators<Real, Mem> ops;
  nodal_tet::MeshData<Real, Mem> mesh;
  nodal_tet::Fields<Real, Mem> q, rhs, flux;  // flux: K x nf x 4 nfp

  // --- Algorithm 2 ---------------------------------------------------------------------------
  KOKKOS_INLINE_FUNCTION void operator()(TagVolume, const Member& m) const {
    const int e = m.league_rank();
    // Algorithm 2, lines 1-5: the element's coefficients into scratch (every coefficient is read
    // by up to 16 threads, at scattered columns).
    ScratchMatrix sq(m.team_scratch(0), nf, np);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nf * np),
                         [&](const int k) { sq(k / np, k % np) = q(e, k / np, k % np); });
    m.team_barrier();
    // d/dr = (D_1 - D_0)/2, d/ds = (D_2 - D_0)/2, d/dt = (D_3 - D_0)/2 (line 12): the factor 1/2
    // goes into the metric terms, once per element and without rounding (a power of two).
    Real g[9];
    for (int c = 0; c < 9; ++c) g[c] = Real(0.5) * mesh.drdx(e, c);
    const Real mat[2] = {mesh.material(e, 0), mesh.material(e, 1)};
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np), [&](const int i) {
      // Line 8: the four values of row i, shared by D_0..D_3 (Lemma 1).
      Real v[4];
      for (int j = 0; j < 4; ++j) v[j] = ops.d_vals(i, j);
      // Lines 9-11: four nonzeros per row of each D_b; padded slots have value 0 and column i.
      Real du[4][nf];
      for (int b = 0; b < 4; ++b) {
        for (int f = 0; f < nf; ++f) du[b][f] = Real(0);
        for (int j = 0; j < 4; ++j) {
          const int c = ops.d_cols(i, 4 * b + j);
          for (int f = 0; f < nf; ++f) du[b][f] += v[j] * sq(f, c);
        }
      }
      // Line 12 and the chain rule with the (halved) metric terms.
      Real grad[3][nf];
      for (int f = 0; f < nf; ++f) {
        const Real ur = du[1][f] - du[0][f], us = du[2][f] - du[0][f], ut = du[3][f] - du[0][f];
        grad[0][f] = g[0] * ur + g[1] * us + g[2] * ut;
        grad[1][f] = g[3] * ur + g[4] * us + g[5] * ut;
        grad[2][f] = g[6] * ur + g[7] * us + g[8] * ut;
      }
      // Line 13.
      Real out[nf];
      Physics::volume(grad, mat, out);
      for (int f = 0; f < nf; ++f) rhs(e, f, i) = out[f];
    });
  }

  // --- Algorithm 3 ---------------------------------------------------------------------------
  KOKKOS_INLINE_FUNCTION void operator()(TagLiftSparse, const Member& m) const {
    const int e = m.league_rank();
    ScratchMatrix sf(m.team_scratch(0), nf, 4 * nfp);  // the flux coefficients p^f (lines 1-8)
    ScratchMatrix sl(m.team_scratch(0), nf, 4 * nfp);  // p_L^f = L_0 p^f (line 14)
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nf * 4 * nfp), [&](const int k) {
      sf(k / (4 * nfp), k % (4 * nfp)) = flux(e, k / (4 * nfp), k % (4 * nfp));
    });
    m.team_barrier();
    // Lines 10-16: the four faces at once, one thread per face coefficient. GPU choice: the fixed
    // width 7 (padding has value 0) keeps the threads of a warp in step.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 4 * nfp), [&](const int k) {
      const int face = k / nfp, row = k % nfp;
      Real acc[nf];
      for (int f = 0; f < nf; ++f) acc[f] = Real(0);
      for (int s = 0; s < l0_width; ++s) {
        const int c = face * nfp + ops.l0_cols(row, s);
        const Real v = ops.l0_vals(row, s);
        for (int f = 0; f < nf; ++f) acc[f] += v * sf(f, c);
      }
      for (int f = 0; f < nf; ++f) sl(f, k) = acc[f];
    });
    m.team_barrier();
    // Lines 17-24: one thread per volume coefficient, a row of E_L (all four faces) in ELL form,
    // run over its fixed width el_width = N_fp + 3 as in paper 002 (GPU choice, as above).
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np), [&](const int i) {
      Real acc[nf];
      for (int f = 0; f < nf; ++f) acc[f] = Real(0);
      for (int s = 0; s < el_width; ++s) {
        const int c = ops.el_cols(i, s);
        const Real v = ops.el_vals(i, s);
        for (int f = 0; f < nf; ++f) acc[f] += v * sl(f, c);
      }
      for (int f = 0; f < nf; ++f) rhs(e, f, i) += acc[f];
    });
  }

  // --- Algorithm 1 ---------------------------------------------------------------------------
  // Per face, the layered vector w^f = (L_0 u^f, (E^N_{N-1})^T L_0 u^f, ...) is built slice by
  // slice: layer i from layer i - 1 by one one-degree reduction (E^{N-i+1}_{N-i})^T, 3 nonzeros
  // per row. As in basis::bb_face_reduction_add, the reductions act on L_0 u^f (the printed
  // steps 3 and 6 reduce u^f; L^f = E_L^f L_0 needs L_0 u^f), and ell_i scales the output only.
  // The four faces advance together (one barrier per layer, N + 1 in all); the layers are kept
  // in scratch and a final gather adds, for each volume coefficient, its one entry from each
  // face: every output value has one writer, so no atomics and a fixed summation order.
  KOKKOS_INLINE_FUNCTION void operator()(TagLiftOptimal, const Member& m) const {
    constexpr int fp = optimal_fields_per_pass;
    const int e = m.league_rank();
    ScratchMatrix w(m.team_scratch(0), fp, 4 * np);  // w(field, face * np + layered position)
    for (int f0 = 0; f0 < nf; f0 += fp) {
      if (f0 > 0) m.team_barrier();  // the previous pass's gather has read w
      // Steps 1-2: layer 0 = L_0 u^f. The flux is read from global memory (up to 7 reads of each
      // value, from cache) rather than staged: scratch is spent on the layers.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 4 * nfp), [&](const int k) {
        const int face = k / nfp, row = k % nfp;
        Real acc[fp];
        for (int f = 0; f < fp; ++f) acc[f] = Real(0);
        for (int s = 0; s < l0_width; ++s) {
          const int c = face * nfp + ops.l0_cols(row, s);
          const Real v = ops.l0_vals(row, s);
          for (int f = 0; f < fp; ++f)
            if (f0 + f < nf) acc[f] += v * flux(e, f0 + f, c);
        }
        for (int f = 0; f < fp; ++f) w(f, face * np + row) = acc[f];
      });
      // Steps 3-6: layers 1..N. Layer i (degree N - i, at offset np - tet_np(N - i)) from layer
      // i - 1 (degree N - i + 1) through (E^{N-i+1}_{N-i})^T.
      for (int i = 1; i <= N; ++i) {
        m.team_barrier();
        const int deg = N - i + 1;
        const int rows = tri_np(deg - 1);
        const int in = np - tet_np(deg), out = np - tet_np(deg - 1);
        const int base = ops.reduce_offset(deg);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 4 * rows), [&](const int k) {
          const int face = k / rows, g = k % rows;
          const int c0 = ops.reduce_cols(base + g), c1 = ops.reduce_cols(base + rows + g),
                    c2 = ops.reduce_cols(base + 2 * rows + g);
          const Real v0 = ops.reduce_vals(base + g), v1 = ops.reduce_vals(base + rows + g),
                     v2 = ops.reduce_vals(base + 2 * rows + g);
          const int fi = face * np + in;
          for (int f = 0; f < fp; ++f)
            w(f, face * np + out + g) = v0 * w(f, fi + c0) + v1 * w(f, fi + c1) + v2 * w(f, fi + c2);
        });
      }
      m.team_barrier();
      // Gather: coefficient i is in layer face_layer(i, f) of face f, scaled by ell of it.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np), [&](const int i) {
        Real acc[fp];
        for (int f = 0; f < fp; ++f) acc[f] = Real(0);
        for (int face = 0; face < 4; ++face) {
          const Real l = ops.ell(ops.face_layer(i, face));
          const int p = face * np + ops.face_layer_pos(i, face);
          for (int f = 0; f < fp; ++f) acc[f] += l * w(f, p);
        }
        for (int f = 0; f < fp; ++f)
          if (f0 + f < nf) rhs(e, f0 + f, i) += acc[f];
      });
    }
  }

  // --- Launches --------------------------------------------------------------------------------
  void volume(const ExecutionSpace& space, int team) const {
    check("volume", false);
    Kokkos::parallel_for("dgk::bernstein_tet::volume",
                         Kokkos::TeamPolicy<ExecutionSpace, TagVolume>(space, mesh.num_elements, team)
                             .set_scratch_size(0, Kokkos::PerTeam(ScratchMatrix::shmem_size(nf, np))),
                         *this);
  }
  void lift_sparse(const ExecutionSpace& space, int team) const {
    check("lift_sparse", true);
    Kokkos::parallel_for("dgk::bernstein_tet::lift_sparse",
                         Kokkos::TeamPolicy<ExecutionSpace, TagLiftSparse>(space, mesh.num_elements, team)
                             .set_scratch_size(0, Kokkos::PerTeam(2 * ScratchMatrix::shmem_size(nf, 4 * nfp))),
                         *this);
  }
  void lift_optimal(const ExecutionSpace& space, int team) const {
    check("lift_optimal", true);
    Kokkos::parallel_for(
        "dgk::bernstein_tet::lift_optimal",
        Kokkos::TeamPolicy<ExecutionSpace, TagLiftOptimal>(space, mesh.num_elements, team)
            .set_scratch_size(0, Kokkos::PerTeam(ScratchMatrix::shmem_size(optimal_fields_per_pass, 4 * np))),
        *this);
  }

 private:
  // The Views a kernel uses: q and rhs (volume), flux and rhs (lifts).
  void check(const char* what, bool lift) const {
    DGK_THROW_IF(ops.order != N || ops.np != np || ops.el_width != el_width,
                 "bernstein_tet::TeamKernels<" << N << ">::" << what << ": the operators are of order " << ops.order
                                               << " (np " << ops.np << ")");
    auto bad = [&](const nodal_tet::Fields<Real, Mem>& v, int width) {
      return static_cast<int>(v.extent(0)) < mesh.num_elements || v.extent(1) != static_cast<std::size_t>(nf) ||
             v.extent(2) != static_cast<std::size_t>(width);
    };
    DGK_THROW_IF(bad(rhs, np) || (lift ? bad(flux, 4 * nfp) : bad(q, np)),
                 "bernstein_tet::TeamKernels<"
                     << N << ">::" << what << ": fields q " << q.extent(0) << " x " << q.extent(1) << " x "
                     << q.extent(2) << ", rhs " << rhs.extent(0) << " x " << rhs.extent(1) << " x " << rhs.extent(2)
                     << ", flux " << flux.extent(0) << " x " << flux.extent(1) << " x " << flux.extent(2) << " for "
                     << mesh.num_elements << " elements, " << nf << " fields, " << np << " coefficients");
  }
};

}  // namespace dgk::kernels::bernstein_tet
