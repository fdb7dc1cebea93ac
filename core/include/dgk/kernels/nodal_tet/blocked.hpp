// Blocked nodal DG volume and lift kernels on tetrahedra: the comparison kernels of paper 002,
// section 4.2.1 ("element-per-thread", EPT), in team form. Same contracts as
// TeamKernels::volume (rhs = volume term) and TeamKernels::lift (rhs += LIFT * flux).
//
// A team takes a block of elements_per_team consecutive elements and applies the dense operator
// to all of them, as one small matrix product D * (q_e1 | q_e2 | ...):
//  - the block's fields are staged in team scratch (a contiguous copy, since the fields are
//    (element, field, node)); blocks too large for the scratch budget are staged and processed
//    in sub-blocks of at most volume_stage_max / lift_stage_max elements, one after the other;
//  - a thread owns a register tile of the product, a few output rows (volume_rows, lift_rows)
//    for a few elements (volume_register_block, lift_register_block), and keeps its sums in
//    registers, as EPT keeps an element's outputs in thread-local registers: each operator entry
//    it reads (D(i, j) or LIFT(i, k), from global memory, coalesced across the threads of a
//    warp) serves every element and field of the tile, and each staged field value serves every
//    row of the tile. The team's other tiles read the same operator entries at about the same
//    time, from cache. Per element, operator traffic drops by the register block size compared
//    with TeamKernels, which reads the whole operator once per element; the ratio of
//    multiply-adds to loads grows with the tile (GPU choice: the tiles are sized for about 64-96
//    single or 32-48 double precision sums per thread, 3 nf sums per element in the volume
//    kernel, nf in the lift).
// The elements of a block are consecutive, so a block that does not divide the element count
// leaves a shorter last block; a tile past the last element or row repeats the last valid one
// (computed, never written) so that the inner loops have no branches.
//
// Launch shape (chosen here, not by the caller): on the GPU one thread per (row, register
// block) pair of a sub-block, rounded up to a warp multiple and capped by the backend's
// maximum; on the host one thread per team, the team's loops running sequentially.
#pragma once

#include <cstddef>

#include <Kokkos_Core.hpp>

#include "dgk/core/error.hpp"
#include "dgk/kernels/nodal_tet/data.hpp"
#include "dgk/kernels/nodal_tet/kernels.hpp"

namespace dgk::kernels::nodal_tet {

struct TagBlockedVolume {};
struct TagBlockedLift {};

namespace Impl {
KOKKOS_INLINE_FUNCTION constexpr int clamp_count(int n, int most) {
  return n < 1 ? 1 : (n > most ? most : n);
}
KOKKOS_INLINE_FUNCTION constexpr int min_int(int a, int b) {
  return a < b ? a : b;
}
}  // namespace Impl

template <int N, class Physics, class ExecutionSpace, class Real>
struct BlockedKernels {
  using S = Sizes<N>;
  static constexpr int np = S::np, nfp = S::nfp, nf = Physics::num_fields;
  using Mem = typename ExecutionSpace::memory_space;
  using Member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using ScratchBlock = Kokkos::View<Real***, Kokkos::LayoutRight, typename ExecutionSpace::scratch_memory_space,
                                    Kokkos::MemoryUnmanaged>;

  /// Register tile of a thread: rows x elements (see the file comment).
  static constexpr bool wide = sizeof(Real) > 4;
  static constexpr int volume_register_block = Impl::clamp_count(16 / nf, 8);
  static constexpr int volume_rows = wide ? 1 : 2;
  static constexpr int lift_register_block = Impl::clamp_count(16 / nf, 8);
  static constexpr int lift_rows = wide ? 2 : 4;
  /// Team scratch for staged fields, leaving room for the backend's own per-team buffer
  /// within the 48 KB of a GPU block.
  static constexpr std::size_t scratch_budget = 40 * 1024;
  static constexpr int volume_stage_max =
      Impl::clamp_count(static_cast<int>(scratch_budget / (nf * np * sizeof(Real))), 1 << 20);
  static constexpr int lift_stage_max =
      Impl::clamp_count(static_cast<int>(scratch_budget / (nf * 4 * nfp * sizeof(Real))), 1 << 20);

  /// Default block size: the fastest of 1, 2, 4, ..., 64 for both kernels in single precision
  /// on an H100 (98304 elements, acoustics), rounded to one value per order range.
  static constexpr int default_elements_per_team = N <= 4 ? 16 : (N <= 6 ? 8 : 4);

  Operators<Real, Mem> ops;
  MeshData<Real, Mem> mesh;
  Fields<Real, Mem> q, rhs, flux;  // flux: K x nf x 4 nfp
  int elements_per_team = default_elements_per_team;

  KOKKOS_INLINE_FUNCTION void operator()(TagBlockedVolume, const Member& m) const {
    constexpr int rb = volume_register_block, rr = volume_rows, row_groups = (np + rr - 1) / rr;
    const int first = m.league_rank() * elements_per_team;
    const int count = Impl::min_int(elements_per_team, mesh.num_elements - first);
    const int cap = Impl::min_int(elements_per_team, volume_stage_max);
    ScratchBlock sq(m.team_scratch(0), cap, nf, np);
    for (int s0 = 0; s0 < count; s0 += cap) {
      const int ns = Impl::min_int(cap, count - s0), e0 = first + s0;
      if (s0 > 0) m.team_barrier();  // the previous sub-block has been read
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, ns * nf * np), [&](const int k) {
        const int b = k / (nf * np), r = k % (nf * np);
        sq(b, r / np, r % np) = q(e0 + b, r / np, r % np);
      });
      m.team_barrier();
      const int blocks = (ns + rb - 1) / rb;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, blocks * row_groups), [&](const int k) {
        const int i0 = (k % row_groups) * rr, b0 = (k / row_groups) * rb, nb = Impl::min_int(rb, ns - b0);
        int row[rr];
        for (int r = 0; r < rr; ++r) row[r] = Impl::min_int(i0 + r, np - 1);
        Real dr[rr][rb][nf], ds[rr][rb][nf], dt[rr][rb][nf];
        for (int r = 0; r < rr; ++r)
          for (int l = 0; l < rb; ++l)
            for (int f = 0; f < nf; ++f) dr[r][l][f] = ds[r][l][f] = dt[r][l][f] = Real(0);
        for (int j = 0; j < np; ++j) {
          Real a[rr], b[rr], c[rr];
          for (int r = 0; r < rr; ++r) {
            a[r] = ops.Dr(row[r], j);
            b[r] = ops.Ds(row[r], j);
            c[r] = ops.Dt(row[r], j);
          }
          for (int l = 0; l < rb; ++l) {
            const int bl = b0 + (l < nb ? l : nb - 1);
            for (int f = 0; f < nf; ++f) {
              const Real v = sq(bl, f, j);
              for (int r = 0; r < rr; ++r) {
                dr[r][l][f] += a[r] * v;
                ds[r][l][f] += b[r] * v;
                dt[r][l][f] += c[r] * v;
              }
            }
          }
        }
        for (int l = 0; l < rb; ++l) {
          if (l >= nb) break;
          const int e = e0 + b0 + l;
          const auto geo = element_geometry(mesh, e);  // once for the element's rows
          for (int r = 0; r < rr; ++r) {
            if (i0 + r >= np) break;
            Real out[nf];
            volume_term<Physics>(geo, dr[r][l], ds[r][l], dt[r][l], out);
            for (int f = 0; f < nf; ++f) rhs(e, f, i0 + r) = out[f];
          }
        }
      });
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(TagBlockedLift, const Member& m) const {
    constexpr int rb = lift_register_block, rr = lift_rows, row_groups = (np + rr - 1) / rr;
    constexpr int nc = 4 * nfp;
    const int first = m.league_rank() * elements_per_team;
    const int count = Impl::min_int(elements_per_team, mesh.num_elements - first);
    const int cap = Impl::min_int(elements_per_team, lift_stage_max);
    ScratchBlock sf(m.team_scratch(0), cap, nf, nc);
    for (int s0 = 0; s0 < count; s0 += cap) {
      const int ns = Impl::min_int(cap, count - s0), e0 = first + s0;
      if (s0 > 0) m.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, ns * nf * nc), [&](const int k) {
        const int b = k / (nf * nc), r = k % (nf * nc);
        sf(b, r / nc, r % nc) = flux(e0 + b, r / nc, r % nc);
      });
      m.team_barrier();
      const int blocks = (ns + rb - 1) / rb;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, blocks * row_groups), [&](const int k) {
        const int i0 = (k % row_groups) * rr, b0 = (k / row_groups) * rb, nb = Impl::min_int(rb, ns - b0);
        int row[rr];
        for (int r = 0; r < rr; ++r) row[r] = Impl::min_int(i0 + r, np - 1);
        Real acc[rr][rb][nf];
        for (int r = 0; r < rr; ++r)
          for (int l = 0; l < rb; ++l)
            for (int f = 0; f < nf; ++f) acc[r][l][f] = Real(0);
        for (int c = 0; c < nc; ++c) {
          Real a[rr];
          for (int r = 0; r < rr; ++r) a[r] = ops.lift(row[r], c);
          for (int l = 0; l < rb; ++l) {
            const int bl = b0 + (l < nb ? l : nb - 1);
            for (int f = 0; f < nf; ++f) {
              const Real v = sf(bl, f, c);
              for (int r = 0; r < rr; ++r) acc[r][l][f] += a[r] * v;
            }
          }
        }
        for (int l = 0; l < rb; ++l) {
          if (l >= nb) break;
          for (int r = 0; r < rr; ++r) {
            if (i0 + r >= np) break;
            for (int f = 0; f < nf; ++f) rhs(e0 + b0 + l, f, i0 + r) += acc[r][l][f];
          }
        }
      });
    }
  }

  void volume(const ExecutionSpace& space) const {
    check(false);
    launch<TagBlockedVolume>(space, "dgk::nodal_tet::blocked_volume", volume_stage_max, np, volume_team_size(space));
  }
  void lift(const ExecutionSpace& space) const {
    check(true);
    launch<TagBlockedLift>(space, "dgk::nodal_tet::blocked_lift", lift_stage_max, 4 * nfp, lift_team_size(space));
  }

  /// Threads per team that volume() and lift() launch with.
  int volume_team_size(const ExecutionSpace& space) const {
    return team_size<TagBlockedVolume>(space, volume_stage_max, volume_register_block, volume_rows, np);
  }
  int lift_team_size(const ExecutionSpace& space) const {
    return team_size<TagBlockedLift>(space, lift_stage_max, lift_register_block, lift_rows, 4 * nfp);
  }

 private:
  template <class Tag>
  Kokkos::TeamPolicy<ExecutionSpace, Tag> policy(const ExecutionSpace& space, int stage_max, int width,
                                                 int team) const {
    const int blocks = (mesh.num_elements + elements_per_team - 1) / elements_per_team;
    const int cap = Impl::min_int(elements_per_team, stage_max);
    return Kokkos::TeamPolicy<ExecutionSpace, Tag>(space, blocks, team)
        .set_scratch_size(0, Kokkos::PerTeam(ScratchBlock::shmem_size(cap, nf, width)));
  }

  template <class Tag>
  int team_size(const ExecutionSpace& space, int stage_max, int register_block, int rows, int width) const {
    DGK_THROW_IF(elements_per_team < 1,
                 "nodal_tet::BlockedKernels<" << N << ">: elements_per_team is " << elements_per_team);
    if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) return 1;
    const int cap = Impl::min_int(elements_per_team, stage_max);
    const int items = (cap + register_block - 1) / register_block * ((np + rows - 1) / rows);
    const int most = policy<Tag>(space, stage_max, width, 1).team_size_max(*this, Kokkos::ParallelForTag());
    const int want = (items + 31) / 32 * 32;
    return want < most ? want : most;
  }

  // The Views a kernel reads: D and q (volume), LIFT and the flux (lift); and rhs.
  void check(bool lift) const {
    const int width = lift ? 4 * nfp : np;
    auto bad = [&](const Fields<Real, Mem>& v, int w) {
      return static_cast<int>(v.extent(0)) < mesh.num_elements || v.extent(1) != static_cast<std::size_t>(nf) ||
             v.extent(2) != static_cast<std::size_t>(w);
    };
    const std::size_t op_rows = lift ? ops.lift.extent(0) : ops.Dr.extent(0);
    const std::size_t op_cols = lift ? ops.lift.extent(1) : ops.Dr.extent(1);
    DGK_THROW_IF(op_rows != static_cast<std::size_t>(np) || op_cols != static_cast<std::size_t>(width),
                 "nodal_tet::BlockedKernels<" << N << ">::" << (lift ? "lift" : "volume") << ": operator of " << op_rows
                                              << " x " << op_cols << ", expected " << np << " x " << width);
    DGK_THROW_IF(bad(rhs, np) || bad(lift ? flux : q, width),
                 "nodal_tet::BlockedKernels<" << N << ">::" << (lift ? "lift" : "volume")
                                              << ": fields do not match the mesh (" << mesh.num_elements
                                              << " elements, " << nf << " fields, " << np << " nodes)");
  }

  template <class Tag>
  void launch(const ExecutionSpace& space, const char* label, int stage_max, int width, int team) const {
    if (mesh.num_elements == 0) return;
    Kokkos::parallel_for(label, policy<Tag>(space, stage_max, width, team), *this);
  }
};

}  // namespace dgk::kernels::nodal_tet
