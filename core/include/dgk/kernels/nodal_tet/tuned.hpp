// Tunable nodal DG kernels on tetrahedra: the variants of paper 000 (sections 4-5) and paper 002
// (section 4.2) with their work-distribution parameters chosen at run time, so that an autotuner
// (dgk/physics/tet_tuning.hpp) can time them and keep the fastest. Same contracts as
// TeamKernels (dgk/kernels/nodal_tet/kernels.hpp):
//
//   micro volume   rhs = volume term; a team takes w_s sequential groups of w_i microblocks of k
//                  elements. A microblock's k np (element, node) pairs are the team's threads,
//                  rounded up to the warp size (the padding of paper 000, section 5.1); each thread
//                  computes its node of w_i elements, one per microblock of the group, so every
//                  operator entry it loads serves w_i elements and all fields. What sits in team
//                  scratch is a parameter: the element fields ("field in shared"), the operators
//                  ("operator in shared", loaded once per team and reused by its w_s w_i k
//                  elements), or both; the rest is read from global memory through the cache.
//                  A thread may also take r_i = 2 nodes (rows of D), so each field value it
//                  loads serves r_i rows: a w_i x r_i register tile.
//   micro lift     rhs += LIFT flux with the same parameters, in one of three modes:
//                    split         the flux comes from the surface kernel, through memory;
//                    fused lift    the team computes its elements' flux (the gather) into scratch
//                                  and lifts it: the flux never reaches global memory;
//                    fused update  as fused lift, then the LSERK update of paper 000's fused
//                                  surface kernel: res = a res + dt rhs, q_out = q + b res.
//                                  q_out is a second field buffer (the neighbours' traces are
//                                  still being read from q), which the solver swaps with q.
//   batched        the element-local products as KokkosBatched team GEMMs: per team, k
//                  elements' fields form a (k nf) x np row-major block, D (B^T) lands in scratch
//                  (volume), rhs block += flux block LIFT^T in place (lift).
// Elements are taken in order: a team's elements are consecutive, group by group; a thread
// past the last element computes on the last one (loads only) and writes nothing.
#pragma once

#include <cstddef>
#include <sstream>
#include <string>
#include <type_traits>

#include <KokkosBatched_Gemm_Decl.hpp>
#include <Kokkos_Core.hpp>

#include "dgk/core/error.hpp"
#include "dgk/kernels/nodal_tet/data.hpp"
#include "dgk/kernels/nodal_tet/kernels.hpp"
#include "dgk/kernels/nodal_tet/tuning_shape.hpp"

namespace dgk::kernels::nodal_tet {

template <int WI, int RI>
struct TagMicroVolume {};
template <int WI>
struct TagMicroLift {};
struct TagBatchedVolume {};
struct TagBatchedLift {};

template <int N, class Physics, class ExecutionSpace, class Real>
struct TunedKernels {
  using S = Sizes<N>;
  static constexpr int np = S::np, nfp = S::nfp, nc = 4 * S::nfp, nf = Physics::num_fields;
  using Mem = typename ExecutionSpace::memory_space;
  using Member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using Scratch = typename ExecutionSpace::scratch_memory_space;
  using ScratchArray = Kokkos::View<Real*, Scratch, Kokkos::MemoryUnmanaged>;
  using ScratchMatrix = Kokkos::View<Real**, Kokkos::LayoutRight, Scratch, Kokkos::MemoryUnmanaged>;
  static constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;

  Operators<Real, Mem> ops;
  MeshData<Real, Mem> mesh;
  Fields<Real, Mem> q, rhs, flux;  // flux: K x nf x 4 nfp (split mode)
  Fields<Real, Mem> res, q_out;    // fused update only
  MicroShape shape;
  LiftMode mode = LiftMode::Split;
  int batch = 1;  ///< elements per team of the batched kernels
  int begin = 0, end = 0;  ///< the elements a launch covers (the lift: a range, see lift())
  Real a = 0, b = 0, dt = 0;  ///< LSERK coefficients of the fused update

  // --- micro volume ------------------------------------------------------------------------
  template <int WI, int RI>
  KOKKOS_INLINE_FUNCTION void operator()(TagMicroVolume<WI, RI>, const Member& m) const {
    constexpr int nt = (np + RI - 1) / RI;  // threads per element; thread ii has nodes ii + r nt
    const int k = shape.elements, group = WI * k;
    const bool op_staged = static_cast<int>(shape.staging) & 2, fields_staged = static_cast<int>(shape.staging) & 1;
    const int team_first = begin + m.league_rank() * group * shape.sequential;
    Real* scratch = static_cast<Real*>(m.team_shmem().get_shmem(scratch_bytes_volume(shape)));
    if (scratch == nullptr) Kokkos::abort("dgk::nodal_tet::micro_volume: team scratch smaller than requested");
    const Real* D[3] = {ops.Dr.data(), ops.Ds.data(), ops.Dt.data()};
    if (op_staged) {
      Real* sd = scratch;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np * np), [&](const int t) {
        sd[t] = ops.Dr.data()[t];
        sd[np * np + t] = ops.Ds.data()[t];
        sd[2 * np * np + t] = ops.Dt.data()[t];
      });
      for (int d = 0; d < 3; ++d) D[d] = sd + d * np * np;
    }
    Real* sq = scratch + (op_staged ? 3 * np * np : 0);
    for (int s = 0; s < shape.sequential; ++s) {
      const int g0 = team_first + s * group;
      if (g0 >= end) break;
      if (fields_staged) {
        if (s > 0) m.team_barrier();  // the previous group has been read
        stage_rows(m, q, sq, g0, group, nf * np);
      }
      m.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, k * nt), [&](const int t) {
        const int l = t / nt, ii = t % nt;
        int row[RI];
        for (int r = 0; r < RI; ++r) row[r] = ii + r * nt < np ? ii + r * nt : np - 1;
        const Real* u[WI];
        int e[WI];
        group_rows<WI>(g0, l, fields_staged, sq, q.data(), np, u, e);
        Real dr[WI][RI][nf], ds[WI][RI][nf], dt_[WI][RI][nf];
        for (int w = 0; w < WI; ++w)
          for (int r = 0; r < RI; ++r)
            for (int f = 0; f < nf; ++f) dr[w][r][f] = ds[w][r][f] = dt_[w][r][f] = Real(0);
        for (int j = 0; j < np; ++j) {
          Real x[RI], y[RI], z[RI];
          for (int r = 0; r < RI; ++r) {
            x[r] = D[0][row[r] + j * np];
            y[r] = D[1][row[r] + j * np];
            z[r] = D[2][row[r] + j * np];
          }
          for (int w = 0; w < WI; ++w)
            for (int f = 0; f < nf; ++f) {
              const Real v = u[w][f * np + j];
              for (int r = 0; r < RI; ++r) {
                dr[w][r][f] += x[r] * v;
                ds[w][r][f] += y[r] * v;
                dt_[w][r][f] += z[r] * v;
              }
            }
        }
        for (int w = 0; w < WI; ++w)
          for (int r = 0; r < RI; ++r)
            if (e[w] < end && ii + r * nt < np) write_volume(e[w], ii + r * nt, dr[w][r], ds[w][r], dt_[w][r]);
      });
    }
  }

  // --- micro lift (split, fused lift, fused update) ----------------------------------------
  template <int WI>
  KOKKOS_INLINE_FUNCTION void operator()(TagMicroLift<WI>, const Member& m) const {
    const int k = shape.elements, group = WI * k;
    const bool op_staged = static_cast<int>(shape.staging) & 2;
    const bool flux_staged = (static_cast<int>(shape.staging) & 1) || mode != LiftMode::Split;
    const int team_first = begin + m.league_rank() * group * shape.sequential;
    Real* scratch = static_cast<Real*>(m.team_shmem().get_shmem(scratch_bytes_lift(shape, mode)));
    if (scratch == nullptr) Kokkos::abort("dgk::nodal_tet::micro_lift: team scratch smaller than requested");
    const Real* L = ops.lift.data();
    if (op_staged) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np * nc), [&](const int t) { scratch[t] = L[t]; });
      L = scratch;
    }
    Real* sf = scratch + (op_staged ? np * nc : 0);
    for (int s = 0; s < shape.sequential; ++s) {
      const int g0 = team_first + s * group;
      if (g0 >= end) break;
      if (flux_staged) {
        if (s > 0) m.team_barrier();
        if (mode == LiftMode::Split) {
          stage_rows(m, flux, sf, g0, group, nf * nc);
        } else {
          // The flux gather of the group's face nodes, into scratch.
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, group * nc), [&](const int t) {
            const int r = t / nc, c = t % nc, e = g0 + r;
            Real out[nf];
            if (e < end) {
              face_node_flux<Physics>(ops, mesh, q, e, c, out);
            } else {
              for (int f = 0; f < nf; ++f) out[f] = Real(0);
            }
            for (int f = 0; f < nf; ++f) sf[(static_cast<std::size_t>(r) * nf + f) * nc + c] = out[f];
          });
        }
      }
      m.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, k * np), [&](const int t) {
        const int l = t / np, i = t % np;
        const Real* u[WI];
        int e[WI];
        group_rows<WI>(g0, l, flux_staged, sf, flux.data(), nc, u, e);
        Real acc[WI][nf];
        for (int w = 0; w < WI; ++w)
          for (int f = 0; f < nf; ++f) acc[w][f] = Real(0);
        for (int c = 0; c < nc; ++c) {
          const Real x = L[i + c * np];
          for (int w = 0; w < WI; ++w)
            for (int f = 0; f < nf; ++f) acc[w][f] += x * u[w][f * nc + c];
        }
        for (int w = 0; w < WI; ++w) {
          if (e[w] >= end) continue;
          if (mode == LiftMode::FusedUpdate) {
            for (int f = 0; f < nf; ++f) {
              const Real r = a * res(e[w], f, i) + dt * (rhs(e[w], f, i) + acc[w][f]);
              res(e[w], f, i) = r;
              q_out(e[w], f, i) = q(e[w], f, i) + b * r;
            }
          } else {
            for (int f = 0; f < nf; ++f) rhs(e[w], f, i) += acc[w][f];
          }
        }
      });
    }
  }

  // --- batched (KokkosBatched team GEMM) ---------------------------------------------------
  KOKKOS_INLINE_FUNCTION void operator()(TagBatchedVolume, const Member& m) const {
    using namespace KokkosBatched;
    using Gemm = TeamGemm<Member, Trans::NoTranspose, Trans::Transpose, Algo::Gemm::Unblocked>;
    const int e0 = begin + m.league_rank() * batch;
    const int n = (end - e0 < batch ? end - e0 : batch) * nf;
    const Kokkos::View<const Real**, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> u(
        q.data() + static_cast<std::size_t>(e0) * nf * np, n, np);
    ScratchMatrix c[3] = {ScratchMatrix(m.team_scratch(0), np, n), ScratchMatrix(m.team_scratch(0), np, n),
                          ScratchMatrix(m.team_scratch(0), np, n)};
    Gemm::invoke(m, Real(1), ops.Dr, u, Real(0), c[0]);
    Gemm::invoke(m, Real(1), ops.Ds, u, Real(0), c[1]);
    Gemm::invoke(m, Real(1), ops.Dt, u, Real(0), c[2]);
    m.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n / nf * np), [&](const int t) {
      const int l = t / np, i = t % np;
      Real dr[nf], ds[nf], dt_[nf];
      for (int f = 0; f < nf; ++f) {
        dr[f] = c[0](i, l * nf + f);
        ds[f] = c[1](i, l * nf + f);
        dt_[f] = c[2](i, l * nf + f);
      }
      write_volume(e0 + l, i, dr, ds, dt_);
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(TagBatchedLift, const Member& m) const {
    using namespace KokkosBatched;
    using Gemm = TeamGemm<Member, Trans::NoTranspose, Trans::Transpose, Algo::Gemm::Unblocked>;
    const int e0 = begin + m.league_rank() * batch;
    const int n = (end - e0 < batch ? end - e0 : batch) * nf;
    const Kokkos::View<const Real**, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> f(
        flux.data() + static_cast<std::size_t>(e0) * nf * nc, n, nc);
    const Kokkos::View<Real**, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> r(
        rhs.data() + static_cast<std::size_t>(e0) * nf * np, n, np);
    Gemm::invoke(m, Real(1), f, ops.lift, Real(1), r);
  }

  // --- launches ----------------------------------------------------------------------------
  /// The volume term of every element.
  void micro_volume(const ExecutionSpace& space) const {
    TunedKernels k = *this;
    k.begin = 0;
    k.end = mesh.num_elements;
    k.dispatch_volume(shape, [&](auto tag) {
      k.template launch<decltype(tag)>(space, "dgk::nodal_tet::micro_volume", shape.team_elements(),
                                       scratch_bytes_volume(shape), micro_team(shape, shape.rows));
    });
  }
  /// The lift in `mode` for elements [first, last) (the fused modes compute those elements'
  /// flux, so a distributed run can leave the faces next to ghosts for after the exchange).
  void micro_lift(const ExecutionSpace& space, int first, int last) const {
    TunedKernels k = *this;
    k.begin = first;
    k.end = last;
    k.dispatch_wi(shape.inline_blocks, [&](auto wi) {
      k.template launch<TagMicroLift<decltype(wi)::value>>(space, "dgk::nodal_tet::micro_lift", shape.team_elements(),
                                                          scratch_bytes_lift(shape, mode), micro_team(shape));
    });
  }
  void batched_volume(const ExecutionSpace& space) const {
    TunedKernels k = *this;
    k.begin = 0;
    k.end = mesh.num_elements;
    k.launch<TagBatchedVolume>(space, "dgk::nodal_tet::batched_volume", batch,
                               ScratchMatrix::shmem_size(np, batch * nf) * 3, batched_team());
  }
  void batched_lift(const ExecutionSpace& space) const {
    TunedKernels k = *this;
    k.begin = 0;
    k.end = mesh.num_elements;
    k.launch<TagBatchedLift>(space, "dgk::nodal_tet::batched_lift", batch, 0, batched_team());
  }

  // --- what a launch needs, for the tuner's feasibility checks ------------------------------
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes_volume(const MicroShape& s) {
    const int st = static_cast<int>(s.staging);
    return scratch_bytes((st & 2 ? 3 * np * np : 0) + (st & 1 ? s.elements * s.inline_blocks * nf * np : 0));
  }
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes_lift(const MicroShape& s, LiftMode mode) {
    const int st = static_cast<int>(s.staging);
    const bool flux_staged = (st & 1) || mode != LiftMode::Split;
    return scratch_bytes((st & 2 ? np * nc : 0) + (flux_staged ? s.elements * s.inline_blocks * nf * nc : 0));
  }
  /// Bytes of team scratch for `values` reals, as the scratch allocator counts them: it rounds
  /// every request up to its alignment, so a request of an odd number of floats must be padded
  /// (or get_shmem finds the team's buffer too small); at least one value.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(std::size_t values) {
    constexpr std::size_t align = 16;
    return ((values > 0 ? values : 1) * sizeof(Real) + align - 1) / align * align;
  }
  /// Threads of a micro team: on the GPU k np rounded up to the warp size; on the host one (the
  /// team's loops run in one thread, teams spread over the cores).
  static int micro_team(const MicroShape& s, int rows = 1) {
    if (host) return 1;
    return (s.elements * ((np + rows - 1) / rows) + 31) / 32 * 32;
  }
  static int batched_team() {
    if (host) return 1;
    const int t = (np + 31) / 32 * 32;
    return t < 256 ? t : 256;
  }
  /// Why this launch cannot run on `space` (team too large for the kernel's registers, scratch
  /// beyond the backend's limit), or empty.
  std::string infeasible_volume(const ExecutionSpace& space, bool batched) const {
    if (batched) return check<TagBatchedVolume>(space, ScratchMatrix::shmem_size(np, batch * nf) * 3, batched_team());
    std::string why;
    dispatch_volume(shape, [&](auto tag) {
      why = check<decltype(tag)>(space, scratch_bytes_volume(shape), micro_team(shape, shape.rows));
    });
    return why;
  }
  std::string infeasible_lift(const ExecutionSpace& space, bool batched) const {
    if (batched) return check<TagBatchedLift>(space, 0, batched_team());
    std::string why;
    dispatch_wi(shape.inline_blocks, [&](auto wi) {
      why = check<TagMicroLift<decltype(wi)::value>>(space, scratch_bytes_lift(shape, mode), micro_team(shape));
    });
    return why;
  }

 private:
  // Copies rows [g0, g0 + count) of a (K, nf, width) field into scratch, the rows past the end
  // as copies of the last one.
  KOKKOS_INLINE_FUNCTION void stage_rows(const Member& m, const Fields<Real, Mem>& v, Real* dst, int g0, int count,
                                         int row) const {
    const Real* src = v.data();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, count * row), [&](const int t) {
      const int r = t / row, e = g0 + r < end ? g0 + r : end - 1;
      dst[t] = src[static_cast<std::size_t>(e) * row + t % row];
    });
  }

  // The volume term at node i of element e, stored in rhs.
  KOKKOS_INLINE_FUNCTION void write_volume(int e, int i, const Real (&dr)[nf], const Real (&ds)[nf],
                                           const Real (&dt_)[nf]) const {
    Real out[nf];
    volume_term<Physics>(mesh, e, dr, ds, dt_, out);
    for (int f = 0; f < nf; ++f) rhs(e, f, i) = out[f];
  }

  // The rows a thread of microblock slot l reads in a group starting at g0: element g0 + w k + l
  // of each inline block w, from scratch (staged, rows of `width` values) or from the global
  // field; past the last element, the last one.
  template <int WI>
  KOKKOS_INLINE_FUNCTION void group_rows(int g0, int l, bool staged, const Real* scratch, const Real* global,
                                         int width, const Real* (&u)[WI], int (&e)[WI]) const {
    const int k = shape.elements;
    for (int w = 0; w < WI; ++w) {
      e[w] = g0 + w * k + l;
      u[w] = staged ? scratch + static_cast<std::size_t>(w * k + l) * nf * width
                    : global + static_cast<std::size_t>(e[w] < end ? e[w] : end - 1) * nf * width;
    }
  }

  // The compiled (w_i, r_i) pairs of the volume kernel.
  template <class F>
  static void dispatch_volume(const MicroShape& s, F&& f) {
    if (s.rows == 1) {
      dispatch_wi(s.inline_blocks, [&](auto wi) { f(TagMicroVolume<decltype(wi)::value, 1>{}); });
      return;
    }
    DGK_THROW_IF(s.rows != 2 || s.inline_blocks > 2,
                 "nodal_tet::TunedKernels: r_i = " << s.rows << " with w_i = " << s.inline_blocks
                                                   << " (compiled: r_i = 1 with w_i = 1, 2, 4; r_i = 2 with w_i = 1, 2)");
    if (s.inline_blocks == 1)
      f(TagMicroVolume<1, 2>{});
    else
      f(TagMicroVolume<2, 2>{});
  }

  template <class F>
  static void dispatch_wi(int wi, F&& f) {
    switch (wi) {
      case 1: f(std::integral_constant<int, 1>{}); return;
      case 2: f(std::integral_constant<int, 2>{}); return;
      case 4: f(std::integral_constant<int, 4>{}); return;
      default: DGK_THROW_IF(true, "nodal_tet::TunedKernels: w_i = " << wi << " (expected 1, 2 or 4)");
    }
  }

  template <class Tag>
  Kokkos::TeamPolicy<ExecutionSpace, Tag> policy(const ExecutionSpace& space, int per_team, std::size_t scratch,
                                                 int team) const {
    const int teams = (end - begin + per_team - 1) / per_team;
    return Kokkos::TeamPolicy<ExecutionSpace, Tag>(space, teams > 0 ? teams : 1, team)
        .set_scratch_size(0, Kokkos::PerTeam(scratch));
  }

  template <class Tag>
  std::string check(const ExecutionSpace& space, std::size_t scratch, int team) const {
    Kokkos::TeamPolicy<ExecutionSpace, Tag> p(space, 1, 1);
    std::ostringstream why;
    const int most = p.team_size_max(*this, Kokkos::ParallelForTag());
    if (team > most) why << team << " threads per team, more than the " << most << " this kernel can launch";
    const std::size_t room = p.scratch_size_max(0);
    if (scratch > room)
      why << (why.tellp() > 0 ? "; " : "") << scratch << " bytes of team scratch, more than the " << room
          << " available";
    return why.str();
  }

  // Launches without checking: the solver checks a shape once, when it is chosen (infeasible_*).
  template <class Tag>
  void launch(const ExecutionSpace& space, const char* label, int per_team, std::size_t scratch, int team) const {
    if (end <= begin) return;
    Kokkos::parallel_for(label, policy<Tag>(space, per_team, scratch, team), *this);
  }
};

}  // namespace dgk::kernels::nodal_tet
