// Blocked nodal DG volume and lift kernels on tetrahedra: the comparison kernels of paper 002,
// section 4.2.1 ("element-per-thread", EPT), in team form. Same contracts as
// TeamKernels::volume (rhs = volume term) and TeamKernels::lift (rhs += LIFT * flux).
//
// A team takes a block of elements_per_team consecutive elements and applies the dense operator
// to all of them, as one small matrix product D * (q_e1 | q_e2 | ...):
//  - the block's fields are staged in team scratch (a contiguous copy, since the fields are
//    (element, field, node)); blocks too large for the scratch budget are staged and processed
//    in sub-blocks of at most volume_stage_max / lift_stage_max elements, one after the other;
//  - a thread owns one output row i for a register block of elements (volume_register_block or
//    lift_register_block of them) and keeps their sums in registers, as EPT keeps an element's
//    outputs in thread-local registers: each operator entry it reads (D(i, j) or LIFT(i, k),
//    coalesced across the threads of a warp) is used for every element and field of the
//    register block, and the team's other register blocks read the same entries at the same
//    time, from cache. Per element, operator traffic drops by the register block size compared
//    with TeamKernels, which reads the whole operator once per element.
// The elements of a block are consecutive, so a block that does not divide the element count
// leaves a shorter last block; a register block past the end repeats its last valid element
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

  /// Elements per register block: 3 nf sums per element in the volume kernel, nf in the lift,
  /// about 16 (volume) and 32 (lift) registers of sums per thread.
  static constexpr int volume_register_block = Impl::clamp_count(16 / nf, 8);
  static constexpr int lift_register_block = Impl::clamp_count(32 / nf, 8);
  /// Team scratch for staged fields, leaving room for the backend's own per-team buffer
  /// within the 48 KB of a GPU block.
  static constexpr std::size_t scratch_budget = 40 * 1024;
  static constexpr int volume_stage_max =
      Impl::clamp_count(static_cast<int>(scratch_budget / (nf * np * sizeof(Real))), 1 << 20);
  static constexpr int lift_stage_max =
      Impl::clamp_count(static_cast<int>(scratch_budget / (nf * 4 * nfp * sizeof(Real))), 1 << 20);

  Operators<Real, Mem> ops;
  MeshData<Real, Mem> mesh;
  Fields<Real, Mem> q, rhs, flux;  // flux: K x nf x 4 nfp
  int elements_per_team = 8;

  KOKKOS_INLINE_FUNCTION void operator()(TagBlockedVolume, const Member& m) const {
    constexpr int rb = volume_register_block;
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
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, blocks * np), [&](const int k) {
        const int i = k % np, b0 = (k / np) * rb, nb = Impl::min_int(rb, ns - b0);
        Real dr[rb][nf], ds[rb][nf], dt[rb][nf];
        for (int l = 0; l < rb; ++l)
          for (int f = 0; f < nf; ++f) dr[l][f] = ds[l][f] = dt[l][f] = Real(0);
        for (int j = 0; j < np; ++j) {
          const Real a = ops.Dr(i, j), b = ops.Ds(i, j), c = ops.Dt(i, j);
          for (int l = 0; l < rb; ++l) {
            const int bl = b0 + (l < nb ? l : nb - 1);
            for (int f = 0; f < nf; ++f) {
              const Real v = sq(bl, f, j);
              dr[l][f] += a * v;
              ds[l][f] += b * v;
              dt[l][f] += c * v;
            }
          }
        }
        for (int l = 0; l < rb; ++l) {
          if (l >= nb) break;
          const int e = e0 + b0 + l;
          Real g[9];
          for (int c = 0; c < 9; ++c) g[c] = mesh.drdx(e, c);
          const Real mat[2] = {mesh.material(e, 0), mesh.material(e, 1)};
          Real grad[3][nf];
          for (int f = 0; f < nf; ++f) {
            grad[0][f] = g[0] * dr[l][f] + g[1] * ds[l][f] + g[2] * dt[l][f];
            grad[1][f] = g[3] * dr[l][f] + g[4] * ds[l][f] + g[5] * dt[l][f];
            grad[2][f] = g[6] * dr[l][f] + g[7] * ds[l][f] + g[8] * dt[l][f];
          }
          Real out[nf];
          Physics::volume(grad, mat, out);
          for (int f = 0; f < nf; ++f) rhs(e, f, i) = out[f];
        }
      });
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(TagBlockedLift, const Member& m) const {
    constexpr int rb = lift_register_block;
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
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, blocks * np), [&](const int k) {
        const int i = k % np, b0 = (k / np) * rb, nb = Impl::min_int(rb, ns - b0);
        Real acc[rb][nf];
        for (int l = 0; l < rb; ++l)
          for (int f = 0; f < nf; ++f) acc[l][f] = Real(0);
        for (int c = 0; c < nc; ++c) {
          const Real a = ops.lift(i, c);
          for (int l = 0; l < rb; ++l) {
            const int bl = b0 + (l < nb ? l : nb - 1);
            for (int f = 0; f < nf; ++f) acc[l][f] += a * sf(bl, f, c);
          }
        }
        for (int l = 0; l < rb; ++l) {
          if (l >= nb) break;
          for (int f = 0; f < nf; ++f) rhs(e0 + b0 + l, f, i) += acc[l][f];
        }
      });
    }
  }

  void volume(const ExecutionSpace& space) const {
    launch<TagBlockedVolume>(space, "dgk::nodal_tet::blocked_volume", false, volume_stage_max, volume_register_block,
                             np);
  }
  void lift(const ExecutionSpace& space) const {
    launch<TagBlockedLift>(space, "dgk::nodal_tet::blocked_lift", true, lift_stage_max, lift_register_block, 4 * nfp);
  }

  /// Threads per team that volume() and lift() launch with.
  int volume_team_size(const ExecutionSpace& space) const {
    return team_size<TagBlockedVolume>(space, volume_stage_max, volume_register_block, np);
  }
  int lift_team_size(const ExecutionSpace& space) const {
    return team_size<TagBlockedLift>(space, lift_stage_max, lift_register_block, 4 * nfp);
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
  int team_size(const ExecutionSpace& space, int stage_max, int register_block, int width) const {
    DGK_THROW_IF(elements_per_team < 1,
                 "nodal_tet::BlockedKernels<" << N << ">: elements_per_team is " << elements_per_team);
    if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) return 1;
    const int cap = Impl::min_int(elements_per_team, stage_max);
    const int items = (cap + register_block - 1) / register_block * np;
    const int most = policy<Tag>(space, stage_max, width, 1).team_size_max(*this, Kokkos::ParallelForTag());
    const int want = (items + 31) / 32 * 32;
    return want < most ? want : most;
  }

  template <class Tag>
  void launch(const ExecutionSpace& space, const char* label, bool lift, int stage_max, int register_block,
              int width) const {
    // The Views the kernel reads: D and q (volume), LIFT and the flux (lift).
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
                 "nodal_tet::BlockedKernels<" << N << ">::" << (lift ? "lift" : "volume") << ": fields of "
                                              << rhs.extent(0) << " elements do not match the mesh ("
                                              << mesh.num_elements << " elements, " << nf << " fields, " << np
                                              << " nodes)");
    const int team = team_size<Tag>(space, stage_max, register_block, width);
    if (mesh.num_elements == 0) return;
    Kokkos::parallel_for(label, policy<Tag>(space, stage_max, width, team), *this);
  }
};

}  // namespace dgk::kernels::nodal_tet
