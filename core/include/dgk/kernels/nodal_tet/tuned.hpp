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
//   tensor volume  the volume kernel on FP64 tensor cores (CUDA, double, compute capability 8.0
//                  and newer; dgk/core/tensor_core.hpp): per group of k elements one product
//                  [D_r; D_s; D_t] (3 np x np) times the group's fields (np x nf k columns). D
//                  is read from global memory in 8 x 4 fragments stored in the tensor cores'
//                  lane order (tensor_operator()), so a warp's load of a fragment is one
//                  coalesced 256-byte read that the L1 cache serves to every team on the SM; the
//                  fields are staged in scratch in the same lane order, zero-padded to whole
//                  4 x 8 fragments. A warp owns w_i 8-row tiles of the product at a time with
//                  three 8-column tiles, so each operator fragment serves 3 multiplies (with
//                  paired_tiles, row tiles go two by two into one m16n8k4 of compute capability
//                  9.0: half the instructions, half the independent ones in flight); the
//                  product lands in scratch (column-major) and each thread turns its node's
//                  3 nf derivatives into the volume term. `passes` > 1 computes the rows
//                  (nodes) in that many passes (at most one per 8-row tile), which bounds the
//                  scratch the product needs.
//   tensor lift    rhs += LIFT flux on the tensor cores, in the three modes of the micro lift:
//                  per group of k elements LIFT (np x 4 nfp, fragments in lane order) times the
//                  group's flux (4 nfp x nf k), which the team gathers (fused modes) or copies
//                  (split) into scratch in fragment order. The product is used where it lands
//                  (each lane adds its two values of an 8 x 8 tile to rhs, or applies the LSERK
//                  update to them) or, with staged_product, passes through scratch so that one
//                  thread per (element, field, node) finishes it in memory order.
//   tensor volume  with lane_epilogue: four elements per warp, their columns ordered so that
//   (lanes)        each lane's accumulators hold every field of one element at one node, where
//                  the lane finishes the volume term; the product never enters scratch, the
//                  warps never wait for each other, and the fields may stay in registers.
//   tensor stage   the same kernel running the whole LSERK stage (fused-stage mode): each warp
//   (lanes)        also gathers its four elements' flux into its scratch in the same column
//                  order and multiplies LIFT by it, so the lane that holds the volume term of an
//                  (element, node) also holds its lifted flux; their sum goes to the warp's
//                  scratch and the warp applies the update in memory order. One kernel per
//                  stage, and rhs never reaches memory.
//   tensor stage   the whole stage as one product (product=merged): the volume term is linear in
//   (merged)       the reference derivatives and the metric terms and material are constant on
//                  an element, so sum_d D_d (V_d q), with V_d q the physics' volume term of the
//                  fields at a node as if only direction d varied, is the volume term. Each lane
//                  forms V_d q of its B values, and [D_r D_s D_t LIFT] times [V_r q; V_s q;
//                  V_t q; flux] accumulates rhs itself: a third of the volume's accumulators, so
//                  a warp holds every row tile of its four elements in one pass, and its lanes
//                  update in memory. With gather=halves the flux is gathered in two halves of
//                  LIFT's k-steps, the second after the first half's products, into half the
//                  scratch.
// Elements are taken in order: a team's elements are consecutive, group by group; a thread
// past the last element computes on the last one (loads only) and writes nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

#include <KokkosBatched_Gemm_Decl.hpp>
#include <Kokkos_Core.hpp>

#include "dgk/core/async_copy.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/shared_carveout.hpp"
#include "dgk/core/tensor_core.hpp"
#include "dgk/kernels/nodal_tet/data.hpp"
#include "dgk/kernels/nodal_tet/kernels.hpp"
#include "dgk/kernels/nodal_tet/tuning_shape.hpp"

// Unrolls the next loop. The loops that hand register arrays (the accumulators) to an epilogue
// must be unrolled, or the arrays are indexed at run time and live in local memory on the GPU
// (docs/PERFORMANCE.md, "Local memory"). nvcc and clang read "unroll", GCC its own spelling.
#if defined(__CUDACC__) || defined(__clang__)
#define DGK_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define DGK_UNROLL _Pragma("GCC unroll 8")
#else
#define DGK_UNROLL
#endif

namespace dgk::kernels::nodal_tet {

template <int WI, int RI, int MaxRegisters = 0>
struct TagMicroVolume {};
template <int WI>
struct TagMicroLift {};
struct TagBatchedVolume {};
struct TagBatchedLift {};
template <int MB, bool Paired>
struct TagTensorVolume {};
template <int MB, bool Paired, int MaxRegisters = 0, bool Batched = false, bool Async = false, bool Ahead = false>
struct TagTensorLift {};
template <int WI, bool Paired, bool RegisterFields, bool Unrolled, bool Stage = false, int MaxRegisters = 0,
          bool Async = false, bool NodeMajor = false, bool Ops = false, bool LaneUpdate = false>
struct TagTensorVolumeLanes {};
template <bool Paired, int MaxRegisters = 0, bool GatherHalves = false, int VolumeUnroll = 0>
struct TagTensorStageMerged {};

/// Whether a physics has its volume term in two halves of one form (Maxwell3D::volume_half), and
/// whether its halves are Half fields each of Fields in all.
template <class P, class = void>
struct HasVolumeHalves : std::false_type {};
template <class P>
struct HasVolumeHalves<P, std::void_t<decltype(P::volume_half_size)>> : std::true_type {};
template <class P, int Half, int Fields>
constexpr bool volume_halves_fit() {
  if constexpr (HasVolumeHalves<P>::value)
    return P::volume_half_size == Half && 2 * Half == Fields;
  else
    return false;
}

/// Registers per thread a tag's kernel is compiled for (0: the compiler's choice), and the
/// largest team (threads) its launch bounds allow: one warp for the micro volume kernel, eight
/// for the tensor-core lift and the volume finished by the lanes.
template <class Tag>
struct RegisterCap : std::integral_constant<int, 0> {};
template <int WI, int RI, int MaxRegisters>
struct RegisterCap<TagMicroVolume<WI, RI, MaxRegisters>> : std::integral_constant<int, MaxRegisters> {};
template <int MB, bool Paired, int MaxRegisters, bool Batched, bool Async, bool Ahead>
struct RegisterCap<TagTensorLift<MB, Paired, MaxRegisters, Batched, Async, Ahead>>
    : std::integral_constant<int, MaxRegisters> {};
template <int WI, bool Paired, bool RegisterFields, bool Unrolled, bool Stage, int MaxRegisters, bool Async,
          bool NodeMajor, bool Ops, bool LaneUpdate>
struct RegisterCap<
    TagTensorVolumeLanes<WI, Paired, RegisterFields, Unrolled, Stage, MaxRegisters, Async, NodeMajor, Ops, LaneUpdate>>
    : std::integral_constant<int, MaxRegisters> {};
template <bool Paired, int MaxRegisters, bool GatherHalves, int VolumeUnroll>
struct RegisterCap<TagTensorStageMerged<Paired, MaxRegisters, GatherHalves, VolumeUnroll>>
    : std::integral_constant<int, MaxRegisters> {};
template <class Tag>
struct CappedTeam : std::integral_constant<int, 32> {};
template <int MB, bool Paired, int MaxRegisters, bool Batched, bool Async, bool Ahead>
struct CappedTeam<TagTensorLift<MB, Paired, MaxRegisters, Batched, Async, Ahead>>
    : std::integral_constant<int, 256> {};
/// The register cap of the lane-finished kernels for teams of up to two warps (lanes_mid_team
/// threads): six such teams, twelve warps, per SM (TunedKernels::tensor_lanes_mid).
inline constexpr int lanes_mid_registers = 168, lanes_mid_team = 64;
template <int WI, bool Paired, bool RegisterFields, bool Unrolled, bool Stage, int MaxRegisters, bool Async,
          bool NodeMajor, bool Ops, bool LaneUpdate>
struct CappedTeam<
    TagTensorVolumeLanes<WI, Paired, RegisterFields, Unrolled, Stage, MaxRegisters, Async, NodeMajor, Ops, LaneUpdate>>
    : std::integral_constant<int, MaxRegisters == lanes_mid_registers ? lanes_mid_team : 256> {};
/// The fused stage as one product is capped for teams of up to two warps: at 168 registers
/// twelve warps per SM, at 128 sixteen.
template <bool Paired, int MaxRegisters, bool GatherHalves, int VolumeUnroll>
struct CappedTeam<TagTensorStageMerged<Paired, MaxRegisters, GatherHalves, VolumeUnroll>>
    : std::integral_constant<int, lanes_mid_team> {};
/// Teams of `team` threads per SM whose registers fit an SM's 65536 under a cap: the minimum of
/// the launch bounds that impose the cap (the compiler then caps the registers to fit).
constexpr int teams_per_sm(int max_registers, int team) { return 65536 / (team * max_registers); }
constexpr int warp_teams_per_sm(int max_registers) { return teams_per_sm(max_registers, 32); }

/// Whether the warps of a lane-finished kernel wait at the team's barrier: where they use scratch
/// (their fields there, or the whole stage). Then a team's warps take their groups together, so
/// that each reaches it, and a warp past the last element computes the last one's and stores
/// nothing. With warp barriers (__syncwarp) inside Kokkos's loop over the league, nvcc compiled
/// the N = 8 volume into code that took 1.16 times as long as the same body without that loop;
/// with the team's barrier it takes as long as its plain CUDA port (docs/PERFORMANCE.md, "Warp
/// barriers inside Kokkos's league loop"). Without a barrier each warp leaves on its own, as
/// before: at N = 6 the team's exit made nvcc spill more of the volume with its fields in
/// registers (1.11 times the stage). Shared by the Kokkos kernel and its CUDA port.
constexpr bool lanes_team_barrier(bool register_fields, bool stage) { return !register_fields || stage; }

/// The field fragments of the volume finished by the lanes in a warp's scratch (the Kokkos kernel
/// and its plain CUDA port): the k-steps but the last hold 32 values per column tile, lane l's at
/// (ks tiles + j) 32 + l. Compact, the last k-step holds only its nodes inside the element: of
/// nodes 4 (ksteps - 1) + l % 4 the first `tail` (np - 4 (ksteps - 1), 1..4), the value of lane l
/// at (j tail + l % 4) 8 + l / 4 after the others; the rest of its lanes read zero. At N = 8 that
/// is 576 bytes less per warp, which keeps seven one-warp teams on an SM of 228 KB (Kokkos adds
/// its own reserve to each team's scratch). Not compact (or where np is a multiple of 4), the
/// last k-step is stored like the others, its padding nodes as zeros (tail = 4).
template <int Np, int Tiles, bool Compact = true>
struct LaneFragments {
  static constexpr int ksteps = (Np + 3) / 4, tail = Compact ? Np - 4 * (ksteps - 1) : 4;
  /// Whether the last k-step is read apart from the others (its own staging and k-step); else
  /// the kernels keep one loop over every k-step, which nvcc unrolls as before.
  static constexpr bool peeled = tail < 4;
  /// Values per warp.
  static constexpr int values = (ksteps - 1) * Tiles * 32 + Tiles * 8 * tail;
  KOKKOS_INLINE_FUNCTION static constexpr int at(int ks, int j, int lane) { return (ks * Tiles + j) * 32 + lane; }
  KOKKOS_INLINE_FUNCTION static constexpr bool in_last(int lane) { return lane % 4 < tail; }
  KOKKOS_INLINE_FUNCTION static constexpr int at_last(int j, int lane) {
    return tail == 4 ? at(ksteps - 1, j, lane) : (ksteps - 1) * Tiles * 32 + (j * tail + lane % 4) * 8 + lane / 4;
  }
  /// Stores lane `lane`'s value of k-step ks, tile j (the last k-step's padding nodes: nothing).
  template <class Real>
  KOKKOS_INLINE_FUNCTION static void put(Real* w, int ks, int j, int lane, Real v) {
    if (ks < ksteps - 1)
      w[at(ks, j, lane)] = v;
    else if (in_last(lane))
      w[at_last(j, lane)] = v;
  }
  /// Lane `lane`'s value of tile j at k-step ks, the last k-step if Last.
  template <bool Last, class Real>
  KOKKOS_INLINE_FUNCTION static Real get(const Real* w, int ks, int j, int lane) {
    if constexpr (Last)
      return in_last(lane) ? w[at_last(j, lane)] : Real(0);
    else
      return w[at(ks, j, lane)];
  }
};

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
  /// Whether this instantiation has the tensor-core volume kernel.
  static constexpr bool tensor_cores =
#ifdef DGK_TENSOR_CORES_F64
      std::is_same<ExecutionSpace, Kokkos::Cuda>::value && std::is_same<Real, double>::value;
#else
      false;
#endif
  // Tiles of the tensor-core product: 8-row tiles of one D (mtd), 4-wide steps over the nodes
  // (kst), and the 8-column tiles a warp holds at a time.
  static constexpr int mtd = (np + 7) / 8, kst = (np + 3) / 4, tensor_col_tiles = 3;
  // The lane-finished tensor volume kernel: 8-column tiles per four elements (two fields per
  // lane and tile), the B values a lane holds, and the most it may hold in registers.
  static constexpr int lane_tiles = (nf + 1) / 2, lane_fields = kst * lane_tiles,
                       max_lane_fields = max_lane_register_fields;
  // The volume's fields in scratch are compact (LaneFragments); in the fused stage they are not:
  // at N = 2, the one order where its choice keeps them in scratch and np is no multiple of 4,
  // the compact tail took 168 registers where the padded one takes 122.
  template <bool Stage>
  using LaneLayout = LaneFragments<np, lane_tiles, !Stage>;
  // The whole stage finished by the lanes: the B values of the four elements' flux (4 nfp face
  // nodes, nc / 4 k-steps, flux_step values each) in the warp's scratch, then their rhs (lane_rhs
  // values per lane).
  static constexpr int lane_rhs = (4 * nf * np + 31) / 32;
  // The lanes' gathers store each face node's flux values into B fragments: the 32 lanes of a
  // store write eight k-steps' rows, four consecutive values each. With k-steps 32 lane_tiles
  // values apart all eight runs fall on the same shared-memory banks, and each store takes four
  // times the wavefronts its bytes need; flux_pad values after each k-step's fragments put them
  // on different banks (flux_step values per k-step). Measured on the H200 (PERFORMANCE.md, "The
  // lanes' flux fragments padded"): a tenth of the stores' bank conflicts at N = 4, the stage as
  // one product 0.97-0.99 times as long at N = 1..5. The tensor-core lift's fragments stay
  // unpadded: padded the same way, its fused update at N = 6 took 1.02 times as long.
  static constexpr int flux_pad = 4, flux_step = lane_tiles * 32 + flux_pad, lane_flux_values = nc / 4 * flux_step;
  // The stage as one product's column slot s = 2 j + h (tile j, h = 0 or 1 of an element's two
  // columns there) holds field 2 j + h, or, where the physics has its volume term in two halves
  // of a column tile's fields each (merged_volume_in_halves), field volume_half_field(h, j): then
  // every lane forms the volume terms of its own column's fields only, from half the fields
  // (Maxwell: E from H, H from E), in the same instructions as the lanes of the other half.
  // Compiled at N = 3 and 5, where the H200 cache's stages took 0.97-0.98 and 0.95 times as long
  // as with every field formed by every lane; at N = 1 1.03 times, and at N = 4, whose uncapped
  // kernel then took 180 registers instead of 166, 1.20 times (docs/PERFORMANCE.md, "Maxwell's
  // volume term in two halves"). At N = 4 the kernels whose volume's k-steps are not all unrolled
  // (VolumeUnroll, MicroShape::volume_unroll) form the halves: their registers fit the halves.
  template <int VolumeUnroll>
  KOKKOS_INLINE_FUNCTION static constexpr bool merged_volume_in_halves() {
    return volume_halves_fit<Physics, lane_tiles, nf>() && (N == 3 || N == 5 || (N == 4 && VolumeUnroll != 0));
  }
  template <bool Halves>
  KOKKOS_INLINE_FUNCTION static constexpr int merged_field(int s) {
    if constexpr (Halves)
      return Physics::volume_half_field(s % 2, s / 2);
    else
      return s;
  }
  /// The slot of field f (merged_field's inverse).
  template <bool Halves>
  KOKKOS_INLINE_FUNCTION static constexpr int merged_slot(int f) {
    int slot = f;
    for (int s = 0; s < 2 * lane_tiles; ++s)
      if (merged_field<Halves>(s) == f) slot = s;
    return slot;
  }
  /// Whether the stage as one product may unroll its volume's k-steps by 1 to merged_unroll_max
  /// (MicroShape::volume_unroll), with paired row tiles.
  static constexpr bool merged_unrolls = N == 3 || N == 4;
  // LIFT's k-steps of the first of the two halves in which the stage as one product may gather its
  // flux (gather=halves): the larger half.
  static constexpr int merged_first_half = (nc / 4 + 1) / 2;
  // Values of D_r, D_s and D_t's fragments (tensor_fragments).
  static constexpr int d_fragment_values = 3 * mtd * kst * 32;
  /// Whether a tensor-core shape stages its operator in team scratch (the volume finished by the
  /// lanes with its fields in registers; MicroShape::staging).
  KOKKOS_INLINE_FUNCTION static bool operators_staged(const KernelShape& s) {
    return static_cast<int>(s.staging) & static_cast<int>(Staging::Operator);
  }

  Operators<Real, Mem> ops;
  MeshData<Real, Mem> mesh;
  Fields<Real, Mem> q, rhs, flux;  // flux: K x nf x 4 nfp (split mode)
  Fields<Real, Mem> res, q_out;    // fused update only
  /// What the kernels read of the launches' MicroShape. Its host-side choices (lane_update) are
  /// the launch functions' arguments, not members: the functor is the kernels' argument, and its
  /// size and offsets stay those the kernels were compiled and scheduled with.
  KernelShape shape;
  LiftMode mode = LiftMode::Split;
  int batch = 1;  ///< elements per team of the batched kernels
  int begin = 0, end = 0;  ///< the elements a launch covers (the lift: a range, see lift())
  Real a = 0, b = 0, dt = 0;  ///< LSERK coefficients of the fused update
  Kokkos::View<Real*, Mem> tensor_D;  ///< D_r, D_s, D_t in fragment order (tensor_operator())
  Kokkos::View<Real*, Mem> tensor_L;  ///< LIFT in fragment order (tensor_lift_operator())
  /// Host side: the shared-memory carveout of the stage these launches belong to (the largest its
  /// kernels need, raised by each launch; null: each kernel its own). See shared_carveout.hpp.
  int* stage_carveout = nullptr;

  // --- micro volume ------------------------------------------------------------------------
  template <int WI, int RI, int MaxRegisters>
  KOKKOS_INLINE_FUNCTION void operator()(TagMicroVolume<WI, RI, MaxRegisters>, const Member& m) const {
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
        DGK_UNROLL
        for (int w = 0; w < WI; ++w)
          DGK_UNROLL
          for (int r = 0; r < RI; ++r)
            if (e[w] < end && ii + r * nt < np) write_volume(e[w], ii + r * nt, dr[w][r], ds[w][r], dt_[w][r]);
      });
    }
  }

  // The row tiles (w_i) at which warp_products loads the next k-step's fragments ahead of the
  // current k-step's products. Measured on the H100 in double (PERFORMANCE.md, "The next
  // k-step's fragments loaded ahead"): at w_i = 2 the lifts took 0.69-0.94 times as long; at
  // w_i = 1 the lift at N = 6 took 1.06-1.08 times as long; at w_i = 4 the 20 more registers made
  // the lift at N = 8 twice as long. With it at w_i = 2, the tuner has both loops to choose; the
  // lift at w_i = 1 has it as a choice of its own (MicroShape::loads_ahead: at N = 5 the fused
  // update took 0.98 times as long).
  static constexpr int ahead_row_tiles = 2;
  // How many k-steps ahead the lift with loads ahead at w_i = 1 (loads=ahead) loads its A
  // fragments (LIFT, from the L2), its B fragments (team scratch) then loaded at their own
  // k-step: one k-step's three products did not cover an A fragment's wait. The fused lift at
  // N = 6 on an H100 took 0.979, 0.977 and 0.991 times as long going from one k-step to two,
  // from two to four and from four to six, with the same 56 registers (PERFORMANCE.md, "The
  // lift's operator fragments further ahead").
  static constexpr int lift_a_ahead = 6;

  // One k-step's operands: the A fragments of MB row tiles and the B fragments of NB column tiles.
  template <int MB, int NB>
  struct Fragments {
    Real a[MB], b[NB];
  };

  // The team's products on the tensor cores, warp by warp: C = A B with A's 8 x 4 fragments in
  // lane order at A + (tile steps + ks) 32 and B's 4 x 8 fragments in scratch at
  // B + (ks nt + t) 32. C's row slots 0 .. slots-1 map to A's row tiles through tile_of (-1: no
  // tile); a warp takes MB slots by tensor_col_tiles column tiles at a time, accumulating in
  // registers over the `steps` k-steps (row tiles paired into m16n8k4 with Paired; Ahead = 1:
  // each k-step's fragments loaded before the previous k-step's products; Ahead = D > 1: the A
  // fragments loaded D k-steps ahead, the B fragments at their k-step), and hands each lane's
  // two values of each 8 x 8 tile to out(slot, column tile, c0, c1) (lane l: row l / 4, columns
  // 2 (l % 4) and 2 (l % 4) + 1).
  template <int MB, bool Paired, int Ahead, class TileOf, class Out>
  KOKKOS_INLINE_FUNCTION static void warp_products(int lane, int warp, int warps, int slots, const Real* A, int steps,
                                                   const Real* B, int nt, TileOf&& tile_of, Out&& out) {
    constexpr int NB = tensor_col_tiles;
    const int mblocks = (slots + MB - 1) / MB, nblocks = (nt + NB - 1) / NB;
    for (int item = warp; item < mblocks * nblocks; item += warps) {
      const int mb = item % mblocks, nb = item / mblocks;
      int tile[MB];
      for (int i = 0; i < MB; ++i) tile[i] = mb * MB + i < slots ? tile_of(mb * MB + i) : -1;
      Real acc[MB][NB][2];
      for (int i = 0; i < MB; ++i)
        for (int j = 0; j < NB; ++j) acc[i][j][0] = acc[i][j][1] = Real(0);
      bool live[MB];
      for (int i = 0; i < MB; ++i) live[i] = tile[i] >= 0;
      const int cols = nt - nb * NB;
      // The fragments of k-step ks: A's of the live row tiles, B's of the columns in range.
      auto load = [&](int ks, Fragments<MB, NB>& x) {
        DGK_UNROLL
        for (int i = 0; i < MB; ++i)
          x.a[i] = live[i] ? A[(static_cast<std::size_t>(tile[i]) * steps + ks) * 32 + lane] : Real(0);
        DGK_UNROLL
        for (int j = 0; j < NB; ++j) x.b[j] = j < cols ? B[(ks * nt + nb * NB + j) * 32 + lane] : Real(0);
      };
      auto multiply = [&](const Fragments<MB, NB>& x) { mma_f64_block<Paired>(acc, x.a, x.b, live, cols); };
      if constexpr (Ahead > 1) {
        // A ring of the next Ahead k-steps' A fragments; slot ks % (Ahead + 1) holds k-step ks.
        // The k-loop is unrolled by the ring's length so that every slot index is a constant.
        constexpr int R = Ahead + 1;
        Real a[R][MB];
        auto load_a = [&](int ks, Real(&x)[MB]) {
          DGK_UNROLL
          for (int i = 0; i < MB; ++i)
            x[i] = live[i] && ks < steps ? A[(static_cast<std::size_t>(tile[i]) * steps + ks) * 32 + lane] : Real(0);
        };
        DGK_UNROLL
        for (int d = 0; d < Ahead; ++d) load_a(d, a[d]);
        for (int k0 = 0; k0 < steps; k0 += R) {
          DGK_UNROLL
          for (int d = 0; d < R; ++d) {
            const int ks = k0 + d;
            if (ks < steps) {
              load_a(ks + Ahead, a[(d + Ahead) % R]);
              Fragments<MB, NB> x;
              DGK_UNROLL
              for (int i = 0; i < MB; ++i) x.a[i] = a[d][i];
              DGK_UNROLL
              for (int j = 0; j < NB; ++j) x.b[j] = j < cols ? B[(ks * nt + nb * NB + j) * 32 + lane] : Real(0);
              multiply(x);
            }
          }
        }
      } else if constexpr (Ahead == 1) {
        // The next k-step's fragments are loaded before this k-step's products, so that their
        // loads are in flight during the products whatever registers the compiler gives the
        // kernel.
        Fragments<MB, NB> x;
        load(0, x);
        for (int ks = 0; ks < steps; ++ks) {
          Fragments<MB, NB> next{};
          if (ks + 1 < steps) load(ks + 1, next);
          multiply(x);
          x = next;
        }
      } else {
        for (int ks = 0; ks < steps; ++ks) {
          Fragments<MB, NB> x;
          load(ks, x);
          multiply(x);
        }
      }
      DGK_UNROLL
      for (int i = 0; i < MB; ++i)
        DGK_UNROLL
        for (int j = 0; j < NB; ++j)
          if (tile[i] >= 0 && nb * NB + j < nt) out(mb * MB + i, nb * NB + j, acc[i][j][0], acc[i][j][1]);
    }
  }

  // --- tensor-core volume -------------------------------------------------------------------
  template <int MB, bool Paired>
  KOKKOS_INLINE_FUNCTION void operator()(TagTensorVolume<MB, Paired>, const Member& m) const {
    if constexpr (tensor_cores) {
      const int E = shape.elements, nt = (nf * E + 7) / 8;
      const int cm = (mtd + shape.passes - 1) / shape.passes;  // row tiles of one D per pass
      const int ldc = tensor_ldc(cm);
      const int team_first = begin + m.league_rank() * E * shape.sequential;
      Real* sb = static_cast<Real*>(m.team_shmem().get_shmem(scratch_bytes_tensor(shape)));
      if (sb == nullptr) Kokkos::abort("dgk::nodal_tet::tensor_volume: team scratch smaller than requested");
      Real* sc = sb + kst * nt * 32;  // the product, column c at sc + c ldc, rows d cm 8 + node
      const int rank = m.team_rank(), lane = warp_lane(rank), warp = rank / 32, warps = m.team_size() / 32;
      const Real* A = tensor_D.data();
      for (int s = 0; s < shape.sequential; ++s) {
        const int g0 = team_first + s * E;
        if (g0 >= end) break;
        if (s > 0) m.team_barrier();  // the previous group's fields and product have been read
        // The group's fields as 4 x 8 fragments (rows: nodes, columns: element-major fields).
        stage_fragments(m, q, np, kst, g0, E, sb);
        m.team_barrier();
        for (int p = 0; p < shape.passes; ++p) {
          const int first_tile = p * cm;
          if (first_tile >= mtd) break;
          if (p > 0) m.team_barrier();  // the previous pass's product has been read
          // Slot r of the pass: direction r / cm, row tile first_tile + r % cm of that D.
          warp_products<MB, Paired, MB == ahead_row_tiles ? 1 : 0>(
              lane, warp, warps, 3 * cm, A, kst, sb, nt,
              [&](int r) {
                const int local = first_tile + r % cm;
                return local < mtd ? (r / cm) * mtd + local : -1;
              },
              [&](int r, int t, Real c0, Real c1) {
                const int row = (r / cm) * cm * 8 + (r % cm) * 8 + lane / 4, col = t * 8 + 2 * (lane % 4);
                sc[static_cast<std::size_t>(col) * ldc + row] = c0;
                sc[static_cast<std::size_t>(col + 1) * ldc + row] = c1;
              });
          m.team_barrier();
          const int node0 = first_tile * 8, nodes = (np - node0 < cm * 8 ? np - node0 : cm * 8);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, E * nodes), [&](const int x) {
            const int le = x / nodes, i = x % nodes, e = g0 + le;
            if (e >= end) return;
            Real dr[nf], ds[nf], dt_[nf];
            for (int f = 0; f < nf; ++f) {
              const Real* c = sc + static_cast<std::size_t>(le * nf + f) * ldc + i;
              dr[f] = c[0];
              ds[f] = c[cm * 8];
              dt_[f] = c[2 * cm * 8];
            }
            write_volume(e, node0 + i, dr, ds, dt_);
          });
        }
      }
    } else {
      (void)m;
      Kokkos::abort("dgk::nodal_tet::tensor_volume: not built for this backend or precision");
    }
  }

  // The lane's values of the A fragments of k-step ks of Count row tiles of an operator laid out
  // by tensor_fragments at F (`steps` k-steps per tile; tile(x) the x-th tile's index, zero where
  // !live[x]). With Pairs, from the copy in pairs of k-steps after its first `single` values: the
  // even k-step loads both k-steps' values in one 16-byte load and keeps the odd one's in next.
  template <bool Pairs, int Count, int Next, class Tile>
  KOKKOS_INLINE_FUNCTION static void operator_fragments(const Real* F, std::size_t single, int steps, int ks, int lane,
                                                        const bool (&live)[Count], const Tile& tile,
                                                        Real (&av)[Count], Real (&next)[Next]) {
    if constexpr (Pairs) {
      static_assert(Next == Count, "dgk::nodal_tet::operator_fragments: one kept value per tile");
      if (ks % 2 == 0) {
        const RealPair* pairs = reinterpret_cast<const RealPair*>(F + single);
        DGK_UNROLL
        for (int x = 0; x < Count; ++x) {
          const RealPair v = live[x]
                                 ? pairs[(static_cast<std::size_t>(tile(x)) * ((steps + 1) / 2) + ks / 2) * 32 + lane]
                                 : RealPair{Real(0), Real(0)};
          av[x] = v.x;
          next[x] = v.y;
        }
      } else {
        DGK_UNROLL
        for (int x = 0; x < Count; ++x) av[x] = next[x];
      }
    } else {
      (void)single;
      (void)next;
      DGK_UNROLL
      for (int x = 0; x < Count; ++x)
        av[x] = live[x] ? F[(static_cast<std::size_t>(tile(x)) * steps + ks) * 32 + lane] : Real(0);
    }
  }

  // step(ks) for ks = 0 .. Count-1, the loop unrolled or not.
  template <bool Unrolled, int Count, class Step>
  KOKKOS_INLINE_FUNCTION static void k_steps(Step&& step) {
    if constexpr (Unrolled) {
      DGK_UNROLL
      for (int ks = 0; ks < Count; ++ks) step(ks);
    } else {
      for (int ks = 0; ks < Count; ++ks) step(ks);
    }
  }
  // The same, the loop unrolled Unroll times on the GPU (0: all; elsewhere as the host compiler
  // chooses).
  template <int Unroll, int Count, class Step>
  KOKKOS_INLINE_FUNCTION static void k_steps_by(Step&& step) {
    if constexpr (Unroll == 0) {
      k_steps<true, Count>(step);
    } else {
#if defined(__CUDA_ARCH__)
#pragma unroll(Unroll)
#endif
      for (int ks = 0; ks < Count; ++ks) step(ks);
    }
  }

  // --- tensor-core volume, finished by the lanes ---------------------------------------------
  // Each warp takes four elements and orders their columns so that a lane's accumulators hold a
  // whole element: column 8 j + 2 q + h of the product is field 2 j + h of the warp's element q,
  // so with the three D's row tiles of one node tile in its slots, lane l holds d/dr, d/ds, d/dt
  // of every field of element l % 4 at node l / 4 of the tile (the C layout of tensor_core.hpp)
  // and computes the volume term there: the product never enters scratch and no barrier is
  // needed. The fields, as B fragments (lane l: element l / 8, field 2 j + (l / 4) % 2, node
  // 4 ks + l % 4), stay in registers for all row tiles (RegisterFields, lane_fields values per
  // lane) or in the warp's own part of team scratch (LaneFragments: the last k-step without its
  // padding nodes). A pass takes WI row tiles (paired into
  // m16n8k4 with Paired). Unrolled unrolls the staging and the k-steps (fields in registers need
  // it, or they live in local memory); which way is faster from scratch depends on the order
  // (the compiler then keeps more operator loads in flight, at the cost of registers).
  //
  // A warp's part of scratch is its own, but the warps wait at the team's barrier
  // (lanes_team_barrier).
  //
  // With Stage the warp runs its four elements' whole LSERK stage: it also gathers their flux
  // into its scratch, as B fragments in the same column order (lane_flux_values per warp), and
  // multiplies LIFT's row tiles of the pass by it, so the same lane holds the lifted flux of the
  // same (element, field, node); it adds it to the volume term into the warp's scratch, and the
  // warp then applies the update (res = a res + dt rhs, q_out = q + b res) in memory order, 32
  // consecutive values at a time. rhs never reaches memory.
  //
  // With Async (the fused stage), the warp starts each group with asynchronous copies of its four
  // elements' res into the place of their rhs in its scratch, which land while it stages the
  // fields and gathers the flux; each lane then turns its res into the new one there
  // (a res + dt rhs), the warp stores res from there in memory order, turns it into
  // q_out = q + b res there from the fields it holds as B fragments, and stores q_out in memory
  // order: the update loads nothing from memory.
  //
  // With NodeMajor (the fused stage, fields in registers) q, res and q_out are stored (element,
  // node, field) (NodeMajorFields): the same kernel, its fragments, gather and update indexing
  // an element's values by (node, field); the gather reads a face node's nf values two at a time.
  //
  // With Ops (the volume, its fields in registers) the team first copies D_r, D_s and D_t's
  // fragments into its scratch, and its warps read them there for all their groups; the warps
  // wait at the team's barrier once, after the copy.
  //
  // With LaneUpdate (the fused stage) the lane that finishes an (element, field, node) updates it
  // in memory itself: it loads that value's res and q before the pass's lift, and stores
  // res = a res + dt rhs and q_out = q + b res. Neither rhs nor res enters scratch, so a warp's
  // scratch holds its flux fragments only, and the shared-memory carveout leaves the L1 room for
  // the operators' fragments (at N = 4: 11.5 KB of scratch per warp instead of 18.4, so about
  // 88 KB of L1 against 28 KB beside twelve warps; docs/PERFORMANCE.md, "The fused stage's update
  // by its lanes"). A warp's accesses at one field touch 8 consecutive nodes of each of its four
  // elements (64 bytes), not whole rows.
  template <int WI, bool Paired, bool RegisterFields, bool Unrolled, bool Stage, int MaxRegisters, bool Async,
            bool NodeMajor, bool Ops, bool LaneUpdate>
  KOKKOS_INLINE_FUNCTION void operator()(
      TagTensorVolumeLanes<WI, Paired, RegisterFields, Unrolled, Stage, MaxRegisters, Async, NodeMajor, Ops, LaneUpdate>,
      const Member& m) const {
    static_assert(!Ops || (RegisterFields && !Stage),
                  "dgk::nodal_tet::tensor_volume_lanes: operators in scratch are the volume's, fields in registers");
    static_assert(Unrolled || !RegisterFields, "dgk::nodal_tet::tensor_volume_lanes: fields in registers need Unrolled");
    static_assert(Stage || !Async, "dgk::nodal_tet::tensor_volume_lanes: asynchronous copies are the fused stage's");
    static_assert(!NodeMajor || (Stage && RegisterFields),
                  "dgk::nodal_tet::tensor_volume_lanes: node-major fields are the fused stage's, in registers");
    static_assert(!LaneUpdate || (Stage && !Async),
                  "dgk::nodal_tet::tensor_volume_lanes: the lanes' update is the fused stage's, without copies");
    // Value (field f, node i) of an element's row.
    [[maybe_unused]] auto at = [](int f, int i) { return NodeMajor ? i * nf + f : f * np + i; };
    if constexpr (tensor_cores && (!RegisterFields || lane_fields <= max_lane_fields)) {
      constexpr int NB = lane_tiles;
      [[maybe_unused]] constexpr int kc = nc / 4;
      using Layout = LaneLayout<Stage>;
      // The fused stage with the lanes' update at N = 3 loads its operators' fragments two k-steps
      // at a time (lanes_pair_loads).
      constexpr bool pair_loads = Stage && LaneUpdate && lanes_pair_loads;
      constexpr int scratch_fields = RegisterFields ? 0 : Layout::values;
      const int rank = m.team_rank(), lane = warp_lane(rank), warp = rank / 32, warps = m.team_size() / 32;
      Real* mine = nullptr;  // the warp's fields (unless in registers), then its flux (Stage)
      constexpr bool geometry_copied = Stage && lanes_geometry_copied;
      constexpr int per_warp = scratch_fields + (Stage ? lane_flux_values + (LaneUpdate ? 0 : lane_rhs) * 32 : 0) +
                               (geometry_copied ? lane_geometry : 0);
      if constexpr (per_warp > 0) {
        Real* sb = static_cast<Real*>(m.team_shmem().get_shmem(scratch_bytes_tensor_lanes(shape, Stage, LaneUpdate)));
        if (sb == nullptr) Kokkos::abort("dgk::nodal_tet::tensor_volume_lanes: team scratch smaller than requested");
        // With Async from a 16-byte boundary (per_warp is a multiple of 4 values).
        if constexpr (Async) sb = align_16(sb);
        mine = sb + static_cast<std::size_t>(warp) * per_warp;
      }
      [[maybe_unused]] Real* fx = mine + scratch_fields;  // Stage: the flux, then rhs
      [[maybe_unused]] Real* rb = fx + lane_flux_values;
      // geometry_copied: the group's metric terms (9 per element), then its materials (2 each).
      [[maybe_unused]] Real* gs = rb + (LaneUpdate ? 0 : lane_rhs * 32);
      const Real* A = tensor_D.data();
      if constexpr (Ops) {
        Real* so = static_cast<Real*>(m.team_shmem().get_shmem(scratch_bytes_tensor_lanes(shape, Stage, LaneUpdate)));
        if (so == nullptr) Kokkos::abort("dgk::nodal_tet::tensor_volume_lanes: team scratch smaller than requested");
        async_copy_run(so, A, d_fragment_values, m.team_rank(), m.team_size());
        async_commit();
        async_wait<0>();
        m.team_barrier();
        A = so;
      }
      const int b_element = lane / 8, b_field = (lane / 4) % 2, b_node = lane % 4;
      constexpr bool synced = lanes_team_barrier(RegisterFields, Stage);
      for (int s = 0; s < shape.sequential; ++s) {
        const int g0 = (m.league_rank() * shape.sequential + s) * warps, e0 = begin + (g0 + warp) * 4;
        if ((synced ? begin + g0 * 4 : e0) >= end) break;
        // The warp's fields as B fragments; past the last element, the last one's.
        const int eb = e0 + b_element < end ? e0 + b_element : end - 1;
        const Real* src = q.data() + static_cast<std::size_t>(eb) * nf * np;
        [[maybe_unused]] const int face_code = Stage && lanes_face_codes ? face_codes(lane, e0, 4) : 0;
        Real bv[RegisterFields ? kst : 1][NB];
        if constexpr (synced) m.team_barrier();  // the previous group's fragments have been read
        // The warp's values (its elements' (field, node) rows, consecutive) and where they start.
        [[maybe_unused]] const int values = ((end - e0 < 4 ? end - e0 : 4)) * nf * np;
        [[maybe_unused]] const std::size_t first = static_cast<std::size_t>(e0) * nf * np;
        if constexpr (geometry_copied) {
          const int ne = end - e0 < 4 ? end - e0 : 4;
          const Real* g = mesh.drdx.data() + 9 * static_cast<std::size_t>(e0);
          const Real* mt = mesh.material.data() + 2 * static_cast<std::size_t>(e0);
          for (int x = lane; x < 11 * ne; x += 32) {
            if (x < 9 * ne)
              async_copy<sizeof(Real)>(gs + x, g + x);
            else
              async_copy<sizeof(Real)>(gs + 36 + (x - 9 * ne), mt + (x - 9 * ne));
          }
          if constexpr (!Async) async_commit();
        }
        if constexpr (Async) {
          // res into rhs's place (16 bytes at a time: nf np values per element is an even number
          // for Maxwell, so every group starts on a 16-byte boundary).
          if (e0 < end) async_copy_run(rb, res.data() + first, values, lane, 32);
          async_commit();
        }
        auto load = [&](int ks, int j) {
          const int f = 2 * j + b_field, i = 4 * ks + b_node;
          return f < nf && i < np ? src[at(f, i)] : Real(0);
        };
        if constexpr (Unrolled) {
          DGK_UNROLL
          for (int ks = 0; ks < kst; ++ks)
            DGK_UNROLL
            for (int j = 0; j < NB; ++j) {
              if constexpr (RegisterFields)
                bv[ks][j] = load(ks, j);
              else
                Layout::put(mine, ks, j, lane, load(ks, j));
            }
        } else if constexpr (!Layout::peeled) {
          for (int x = 0; x < kst * NB; ++x) mine[x * 32 + lane] = load(x / NB, x % NB);
        } else {
          for (int x = 0; x < (kst - 1) * NB; ++x) mine[x * 32 + lane] = load(x / NB, x % NB);
          DGK_UNROLL
          for (int j = 0; j < NB; ++j) Layout::put(mine, kst - 1, j, lane, load(kst - 1, j));
        }
        // The volume: the geometry of the lane's element, where read early (lanes_early_geometry);
        // past the last element, the last one's.
        [[maybe_unused]] ElementGeometry<Real> geo;
        if constexpr (!Stage && lanes_early_geometry)
          geo = element_geometry(mesh, e0 + lane % 4 < end ? e0 + lane % 4 : end - 1);
        if constexpr (Stage) {
          // The four elements' flux at their face nodes, lane by lane along the face nodes of
          // one element; zero past the last element and in a padding field column.
          constexpr int per_lane = lanes_gather_ahead ? (4 * nc + 31) / 32 : 0;
          constexpr bool codes = lanes_face_codes;
          gather_flux<2, NodeMajor, per_lane, codes>(
              lane, 32, e0, 4, 4 * nc, [&](int x, const Real(&out)[nf]) { put_lane_flux(fx, x, out); }, face_code);
        }
        // res (Async) and the geometry have landed (seen by the warp after the barrier).
        if constexpr (Async || geometry_copied) async_wait<0>();
        if constexpr (synced) m.team_barrier();
        const int e = e0 + lane % 4;
        // A pass over W row tiles from t0 (W = WI; paired at WI = 2 over an odd number of row
        // tiles, the last pass takes its one row tile as a pass of W = 1, whose D_r and D_s tiles
        // pair into one m16n8k4 and D_t's takes an m8n8k4, rather than three m16n8k4 each half
        // empty).
        auto pass = [&](const int t0, auto width) {
          // Slot d W + w: row tile t0 + w of D_d (pairs: two row tiles of one D).
          constexpr int W = decltype(width)::value, MW = 3 * W;
          bool live[MW];
          DGK_UNROLL
          for (int x = 0; x < MW; ++x) live[x] = t0 + x % W < mtd;
          Real acc[MW][NB][2];
          DGK_UNROLL
          for (int x = 0; x < MW; ++x)
            DGK_UNROLL
            for (int j = 0; j < NB; ++j) acc[x][j][0] = acc[x][j][1] = Real(0);
          [[maybe_unused]] Real next[pair_loads ? MW : 1];
          auto step = [&](int ks, auto last) {
            Real av[MW], b[NB];
            operator_fragments<pair_loads>(
                A, d_fragment_values, kst, ks, lane, live, [&](int x) { return (x / W) * mtd + t0 + x % W; }, av, next);
            DGK_UNROLL
            for (int j = 0; j < NB; ++j) {
              if constexpr (RegisterFields)
                b[j] = bv[ks][j];
              else
                b[j] = Layout::template get<decltype(last)::value>(mine, ks, j, lane);
            }
            mma_f64_block<Paired>(acc, av, b, live, NB);
          };
          // With the fields in registers or a padded last k-step, one loop (a peeled last step
          // changes the compiler's unrolling of the loop: at N = 7, 72 registers instead of 120
          // and twice the time).
          if constexpr (RegisterFields || !Layout::peeled) {
            k_steps<Unrolled, kst>([&](int ks) { step(ks, std::false_type{}); });
          } else {
            k_steps<Unrolled, kst - 1>([&](int ks) { step(ks, std::false_type{}); });
            step(kst - 1, std::true_type{});
          }
          // LaneUpdate: res and q of the values this lane finishes in the pass, loaded before the
          // lift's products so that they arrive during them.
          [[maybe_unused]] Real rv[LaneUpdate ? W : 1][nf], qv[LaneUpdate ? W : 1][nf];
          if constexpr (LaneUpdate) {
            DGK_UNROLL
            for (int w = 0; w < W; ++w) {
              const int i = (t0 + w) * 8 + lane / 4;
              if (i < np && e < end) {
                const std::size_t o = static_cast<std::size_t>(e) * nf * np;
                DGK_UNROLL
                for (int f = 0; f < nf; ++f) {
                  rv[w][f] = res.data()[o + at(f, i)];
                  qv[w][f] = q.data()[o + at(f, i)];
                }
              }
            }
          }
          // Stage: the lifted flux of the pass's row tiles, in the same lanes.
          [[maybe_unused]] Real lifted[Stage ? W : 1][NB][2];
          if constexpr (Stage) {
            const Real* L = tensor_L.data();
            bool llive[W];
            DGK_UNROLL
            for (int w = 0; w < W; ++w) {
              llive[w] = live[w];
              DGK_UNROLL
              for (int j = 0; j < NB; ++j) lifted[w][j][0] = lifted[w][j][1] = Real(0);
            }
            [[maybe_unused]] Real lnext[pair_loads ? W : 1];
            auto lift_step = [&](int ks) {
              Real av[W], b[NB];
              operator_fragments<pair_loads>(
                  L, static_cast<std::size_t>(mtd) * kc * 32, kc, ks, lane, llive, [&](int w) { return t0 + w; }, av,
                  lnext);
              DGK_UNROLL
              for (int j = 0; j < NB; ++j) b[j] = fx[ks * flux_step + j * 32 + lane];
              mma_f64_block<Paired>(lifted, av, b, llive, NB);
            };
            k_steps<Unrolled, kc>(lift_step);
          }
          DGK_UNROLL
          for (int w = 0; w < W; ++w) {
            const int i = (t0 + w) * 8 + lane / 4;
            if (i < np && e < end) {
              Real dr[nf], ds[nf], dt_[nf];
              DGK_UNROLL
              for (int f = 0; f < nf; ++f) {
                dr[f] = acc[w][f / 2][f % 2];
                ds[f] = acc[W + w][f / 2][f % 2];
                dt_[f] = acc[2 * W + w][f / 2][f % 2];
              }
              if constexpr (Stage) {
                Real out[nf];
                if constexpr (geometry_copied) {
                  ElementGeometry<Real> geo;
                  DGK_UNROLL
                  for (int c = 0; c < 9; ++c) geo.g[c] = gs[9 * (lane % 4) + c];
                  DGK_UNROLL
                  for (int c = 0; c < 2; ++c) geo.mat[c] = gs[36 + 2 * (lane % 4) + c];
                  volume_term<Physics>(geo, dr, ds, dt_, out);
                } else {
                  volume_term<Physics>(mesh, e, dr, ds, dt_, out);
                }
                if constexpr (LaneUpdate) {
                  const std::size_t o = static_cast<std::size_t>(e) * nf * np;
                  DGK_UNROLL
                  for (int f = 0; f < nf; ++f) {
                    const Real r = a * rv[w][f] + dt * (out[f] + lifted[w][f / 2][f % 2]);
                    res.data()[o + at(f, i)] = r;
                    q_out.data()[o + at(f, i)] = qv[w][f] + b * r;
                  }
                } else {
                  DGK_UNROLL
                  for (int f = 0; f < nf; ++f) {
                    Real& to = rb[(lane % 4) * nf * np + at(f, i)];
                    if constexpr (Async)
                      to = a * to + dt * (out[f] + lifted[w][f / 2][f % 2]);  // the new res
                    else
                      to = out[f] + lifted[w][f / 2][f % 2];
                  }
                }
              } else if constexpr (lanes_early_geometry) {
                write_volume(geo, e, i, dr, ds, dt_);
              } else {
                write_volume(e, i, dr, ds, dt_);
              }
            }
          }
        };
        constexpr bool odd_tail = Paired && WI == 2 && mtd % 2 == 1;
        for (int t0 = 0; t0 < (odd_tail ? mtd - 1 : mtd); t0 += WI) pass(t0, std::integral_constant<int, WI>{});
        if constexpr (odd_tail) pass(mtd - 1, std::integral_constant<int, 1>{});
        if constexpr (Async) {
          // The new res to memory in memory order; then each value of q the warp holds as a B
          // fragment (lane l: element l / 8, field 2 j + (l / 4) % 2, node 4 ks + l % 4) turns
          // its res in scratch into q_out = q + b res, which goes to memory in memory order too.
          m.team_barrier();
          for (int x = lane; x < values; x += 32) res.data()[first + x] = rb[x];
          m.team_barrier();  // res has been read from scratch
          if (e0 + b_element < end) {
            Real* r = rb + b_element * nf * np;
            k_steps<Unrolled, kst>([&](int ks) {
              DGK_UNROLL
              for (int j = 0; j < NB; ++j) {
                const int f = 2 * j + b_field, i = 4 * ks + b_node;
                if (f < nf && i < np) {
                  Real v;
                  if constexpr (RegisterFields)
                    v = bv[ks][j];
                  else
                    v = mine[Layout::at(ks, j, lane)];
                  r[at(f, i)] = v + b * r[at(f, i)];
                }
              }
            });
          }
          m.team_barrier();
          for (int x = lane; x < values; x += 32) q_out.data()[first + x] = rb[x];
        } else if constexpr (Stage && !LaneUpdate) {
          // The update in memory order: the four elements' (field, node) rows are consecutive.
          m.team_barrier();
          // Batches of loads before the stores, as in the batched lift_epilogue.
          constexpr int U = epilogue_batch;
          for (int x0 = lane; x0 < values; x0 += U * 32) {
            Real r0[U], q0[U];
            DGK_UNROLL
            for (int u = 0; u < U; ++u)
              if (x0 + u * 32 < values) {
                r0[u] = res.data()[first + x0 + u * 32];
                q0[u] = q.data()[first + x0 + u * 32];
              }
            DGK_UNROLL
            for (int u = 0; u < U; ++u)
              if (x0 + u * 32 < values) {
                const Real r = a * r0[u] + dt * rb[x0 + u * 32];
                res.data()[first + x0 + u * 32] = r;
                q_out.data()[first + x0 + u * 32] = q0[u] + b * r;
              }
          }
        }
      }
    } else {
      (void)m;
      Kokkos::abort("dgk::nodal_tet::tensor_volume_lanes: not built for this backend, precision or order");
    }
  }

  // --- the fused stage as one product ---------------------------------------------------
  // Four elements per warp in the column order of the lane-finished kernels (lane l's
  // accumulators: every field of element l % 4 at node 8 t + l / 4 of row tile t). The B values
  // of the volume are formed at each k-step from the fields in memory: lane l reads the nf fields
  // of element l / 8 at node 4 ks + l % 4 and forms the physics' volume term of each reference
  // direction d with the metric terms of d alone (grad[x][f] = (d r_d / d x_x) q_f); its column
  // holds field 2 j + (l / 4) % 2 of that. D_d's row tiles multiply V_d q, LIFT's the gathered
  // flux, all into the same mtd row tiles of rhs; each lane then updates the values it holds
  // (res = a res + dt rhs, q_out = q + b res), loading the next row tile's res and q before it
  // stores one. A warp's scratch holds its flux fragments only.
  //
  // With GatherHalves (MicroShape::gather_halves, printed gather=halves) the warp gathers its
  // flux in two halves of LIFT's k-steps (merged_first_half of them, then the rest) into the same
  // scratch, which then holds half the flux fragments: the first half before the products, the
  // second after the volume's and the first half's products, behind a barrier (its lanes have
  // read the first half). The team's scratch and the SM's carveout about halve, which leaves the
  // L1 more room for the operators' fragments and the fields; the accumulators are live through
  // the second half's gather. After it the warp asks the L1 for its group's res (PTX
  // prefetch.global.L1, no register), which its update would otherwise wait for from DRAM.
  //
  // With VolumeUnroll U > 0 (MicroShape::volume_unroll) the volume's k-steps run as a loop
  // unrolled U times rather than all unrolled.
  template <bool Paired, int MaxRegisters, bool GatherHalves, int VolumeUnroll>
  KOKKOS_INLINE_FUNCTION void operator()(TagTensorStageMerged<Paired, MaxRegisters, GatherHalves, VolumeUnroll>,
                                         const Member& m) const {
    if constexpr (lanes_merged_stage) {
      constexpr bool halves = merged_volume_in_halves<VolumeUnroll>();
      constexpr int NB = lane_tiles, RT = mtd, kc = nc / 4, kh = GatherHalves ? merged_first_half : kc;
      const int rank = m.team_rank(), lane = warp_lane(rank), warp = rank / 32, warps = m.team_size() / 32;
      Real* sb = static_cast<Real*>(m.team_shmem().get_shmem(scratch_bytes_tensor_merged(shape, GatherHalves)));
      if (sb == nullptr) Kokkos::abort("dgk::nodal_tet::tensor_stage_merged: team scratch smaller than requested");
      Real* fx = sb + static_cast<std::size_t>(warp) * kh * flux_step;
      const Real* A = tensor_D.data();
      const Real* L = tensor_L.data();
      const int b_element = lane / 8, b_field = (lane / 4) % 2, b_node = lane % 4;
      bool live[RT];
      DGK_UNROLL
      for (int t = 0; t < RT; ++t) live[t] = true;
      for (int s = 0; s < shape.sequential; ++s) {
        // The team's warps take their groups together (they meet at its barriers); a warp past
        // the last element computes the last one's and stores nothing.
        const int g0 = (m.league_rank() * shape.sequential + s) * warps, e0 = begin + (g0 + warp) * 4;
        if (begin + g0 * 4 >= end) break;
        if (s > 0) m.team_barrier();  // the previous group's flux has been read
        const int eb = e0 + b_element < end ? e0 + b_element : end - 1;
        [[maybe_unused]] const int face_code = lanes_face_codes ? face_codes(lane, e0, 4) : 0;
        // The flux of LIFT's k-steps [first, first + count) (face nodes 4 first.. of each
        // element) into the warp's scratch, from its first k-step.
        auto gather = [&](auto first, auto count) {
          constexpr int c0 = 4 * decltype(first)::value, per = 4 * decltype(count)::value;
          constexpr int per_lane = lanes_gather_ahead ? (4 * per + 31) / 32 : 0;
          gather_flux<2, false, per_lane, lanes_face_codes>(
              lane, 32, e0, 4, 4 * per,
              [&](int x, const Real(&out)[nf]) { put_lane_flux<halves>(fx, x / per, x % per, out); }, face_code, per,
              c0);
        };
        gather(std::integral_constant<int, 0>{}, std::integral_constant<int, kh>{});
        const ElementGeometry<Real> geo = element_geometry(mesh, eb);
        m.team_barrier();
        Real acc[RT][NB][2];
        DGK_UNROLL
        for (int t = 0; t < RT; ++t)
          DGK_UNROLL
          for (int j = 0; j < NB; ++j) acc[t][j][0] = acc[t][j][1] = Real(0);
        [[maybe_unused]] Real unused[1];
        const Real* src = q.data() + static_cast<std::size_t>(eb) * nf * np;
        // The volume: at k-step ks, D_d's row tiles times V_d q, d = r, s, t.
        if constexpr (halves) {
          // The lane's half of the fields: its inputs scaled by the half's factor, then at each
          // direction its column's values (Physics::volume_half).
          const Real c = Physics::volume_half_factor(b_field, geo.mat);
          int in[NB];
          DGK_UNROLL
          for (int j = 0; j < NB; ++j)
            in[j] = (b_field ? Physics::volume_half_input(1, j) : Physics::volume_half_input(0, j)) * np;
          k_steps_by<VolumeUnroll, kst>([&](int ks) {
            const int i = 4 * ks + b_node;
            Real v[NB];
            DGK_UNROLL
            for (int j = 0; j < NB; ++j) v[j] = i < np ? c * src[in[j] + i] : Real(0);
            DGK_UNROLL
            for (int d = 0; d < 3; ++d) {
              Real av[RT];
              operator_fragments<false>(A, 0, kst, ks, lane, live, [&](int t) { return d * mtd + t; }, av, unused);
              const Real g[3] = {geo.g[d], geo.g[3 + d], geo.g[6 + d]};
              Real bv[NB];
              Physics::volume_half(g, v, bv);
              mma_f64_block<Paired>(acc, av, bv, live, NB);
            }
          });
        } else {
          k_steps_by<VolumeUnroll, kst>([&](int ks) {
            const int i = 4 * ks + b_node;
            Real u[nf];
            DGK_UNROLL
            for (int f = 0; f < nf; ++f) u[f] = i < np ? src[f * np + i] : Real(0);
            DGK_UNROLL
            for (int d = 0; d < 3; ++d) {
              Real av[RT];
              operator_fragments<false>(A, 0, kst, ks, lane, live, [&](int t) { return d * mtd + t; }, av, unused);
              Real grad[3][nf], w[nf], bv[NB];
              DGK_UNROLL
              for (int x = 0; x < 3; ++x)
                DGK_UNROLL
                for (int f = 0; f < nf; ++f) grad[x][f] = geo.g[3 * x + d] * u[f];
              Physics::volume(grad, geo.mat, w);
              DGK_UNROLL
              for (int j = 0; j < NB; ++j) bv[j] = b_field ? (2 * j + 1 < nf ? w[2 * j + 1] : Real(0)) : w[2 * j];
              mma_f64_block<Paired>(acc, av, bv, live, NB);
            }
          });
        }
        const int e = e0 + lane % 4;
        const std::size_t o = static_cast<std::size_t>(e < end ? e : end - 1) * nf * np;
        // res and q of the values of row tile t this lane finishes.
        auto load = [&](int t, Real(&rv)[nf], Real(&qv)[nf]) {
          const int i = 8 * t + lane / 4;
          if (i < np && e < end) {
            DGK_UNROLL
            for (int f = 0; f < nf; ++f) {
              rv[f] = res.data()[o + f * np + i];
              qv[f] = q.data()[o + f * np + i];
            }
          }
        };
        Real rv[2][nf] = {}, qv[2][nf] = {};
        // The lift: LIFT's row tiles times the flux of k-steps [first, first + count), held in
        // scratch from its first k-step, into the same accumulators.
        auto lift = [&](auto first, auto count) {
          constexpr int k0 = decltype(first)::value;
          k_steps<true, decltype(count)::value>([&](int k) {
            Real av[RT], bv[NB];
            operator_fragments<false>(L, 0, kc, k0 + k, lane, live, [&](int t) { return t; }, av, unused);
            DGK_UNROLL
            for (int j = 0; j < NB; ++j) bv[j] = fx[k * flux_step + j * 32 + lane];
            mma_f64_block<Paired>(acc, av, bv, live, NB);
          });
        };
        if constexpr (GatherHalves) {
          lift(std::integral_constant<int, 0>{}, std::integral_constant<int, kh>{});
          m.team_barrier();  // the first half has been read
          gather(std::integral_constant<int, kh>{}, std::integral_constant<int, kc - kh>{});
          m.team_barrier();
          // The group's res asked of the L1 (its lines shared among the lanes) before the second
          // half's products, so that the update's loads of res find it there rather than wait
          // on DRAM.
          if (e0 < end)
            l1_prefetch(res.data() + static_cast<std::size_t>(e0) * nf * np,
                        static_cast<std::size_t>(end - e0 < 4 ? end - e0 : 4) * nf * np * sizeof(Real), lane, 32);
          load(0, rv[0], qv[0]);
          lift(std::integral_constant<int, kh>{}, std::integral_constant<int, kc - kh>{});
        } else {
          load(0, rv[0], qv[0]);
          lift(std::integral_constant<int, 0>{}, std::integral_constant<int, kc>{});
        }
        DGK_UNROLL
        for (int t = 0; t < RT; ++t) {
          if (t + 1 < RT) load(t + 1, rv[(t + 1) % 2], qv[(t + 1) % 2]);
          const int i = 8 * t + lane / 4;
          if (i < np && e < end) {
            DGK_UNROLL
            for (int f = 0; f < nf; ++f) {
              const Real r = a * rv[t % 2][f] + dt * acc[t][merged_slot<halves>(f) / 2][merged_slot<halves>(f) % 2];
              res.data()[o + f * np + i] = r;
              q_out.data()[o + f * np + i] = qv[t % 2][f] + b * r;
            }
          }
        }
      }
    } else {
      (void)m;
      Kokkos::abort("dgk::nodal_tet::tensor_stage_merged: not built for this backend, precision or order");
    }
  }

  /// `count` column-major matrices of np rows and `cols` columns (a multiple of 4 or not) as the
  /// tensor cores' A fragments: fragment (tile, ks) of 32 values at (tile steps + ks) 32, tile =
  /// matrix mtd + row tile, lane l holding M(8 row tile + l / 4, 4 ks + l % 4), zero outside M.
  /// With lanes_pair_loads the same values follow in pairs of k-steps: lane l's values of k-steps
  /// 2 p and 2 p + 1 side by side at ((tile pairs + p) 32 + l) 2, a zero k-step completing the last.
  static Kokkos::View<Real*, Mem> tensor_fragments(const ExecutionSpace& space,
                                                   const Kokkos::View<Real**, Kokkos::LayoutLeft, Mem> (&M)[3],
                                                   int count) {
    // With lanes_pair_loads a second copy follows, in pairs of k-steps.
    const int cols = static_cast<int>(M[0].extent(1)), steps = (cols + 3) / 4,
              pairs = lanes_pair_loads ? (steps + 1) / 2 : 0;
    // The divisor of the pairs' branch, never zero (that branch runs only where pairs > 0).
    const int pair_div = pairs > 0 ? pairs : 1;
    const std::size_t single = static_cast<std::size_t>(count) * mtd * steps * 32;
    Kokkos::View<Real*, Mem> frag("dgk::nodal_tet::tensor_fragments",
                                  single + static_cast<std::size_t>(count) * mtd * pairs * 64);
    const auto M0 = M[0], M1 = M[1], M2 = M[2];
    Kokkos::parallel_for("dgk::nodal_tet::tensor_fragments",
                         Kokkos::RangePolicy<ExecutionSpace>(space, 0, frag.extent(0)),
                         KOKKOS_LAMBDA(const std::size_t x) {
                           int l, ks, tile;
                           if (x < single) {
                             l = static_cast<int>(x % 32);
                             const int f = static_cast<int>(x / 32);
                             ks = f % steps;
                             tile = f / steps;
                           } else {  // pairs of k-steps: ((tile pairs + ks / 2) 32 + l) 2 + ks % 2
                             const std::size_t y = x - single;
                             l = static_cast<int>((y / 2) % 32);
                             const int f = static_cast<int>(y / 64);
                             ks = 2 * (f % pair_div) + static_cast<int>(y % 2);
                             tile = f / pair_div;
                           }
                           const int d = tile / mtd;
                           const int row = (tile % mtd) * 8 + l / 4, col = ks * 4 + l % 4;
                           Real v = Real(0);
                           if (row < np && col < cols)
                             v = d == 0 ? M0(row, col) : (d == 1 ? M1(row, col) : M2(row, col));
                           frag(x) = v;
                         });
    return frag;
  }

  /// D_r, D_s, D_t as the tensor-core volume kernel reads them (see tensor_fragments).
  static Kokkos::View<Real*, Mem> tensor_operator(const ExecutionSpace& space, const Operators<Real, Mem>& ops) {
    return tensor_fragments(space, {ops.Dr, ops.Ds, ops.Dt}, 3);
  }
  /// LIFT as the tensor-core lift kernel reads it (see tensor_fragments).
  static Kokkos::View<Real*, Mem> tensor_lift_operator(const ExecutionSpace& space, const Operators<Real, Mem>& ops) {
    return tensor_fragments(space, {ops.lift, ops.lift, ops.lift}, 1);
  }

  // --- tensor-core lift (split, fused lift, fused update) ---------------------------------
  //
  // With Async (the product through scratch), each group starts with asynchronous copies of its
  // rhs into the product's place in scratch and, in the fused-update mode, of its res and q into
  // scratch after it (in the split mode the flux fragments too): they arrive while the team
  // gathers and multiplies, the product is added to rhs where it lands, and the epilogue reads
  // scratch only and writes memory.
  template <int MB, bool Paired, int MaxRegisters, bool Batched, bool Async, bool Ahead>
  KOKKOS_INLINE_FUNCTION void operator()(TagTensorLift<MB, Paired, MaxRegisters, Batched, Async, Ahead>,
                                         const Member& m) const {
    if constexpr (tensor_cores) {
      constexpr int kc = nc / 4;  // k-steps over the face nodes (4 nfp is a multiple of 4)
      const int E = shape.elements, cols = nf * E, nt = (cols + 7) / 8;
      const int team_first = begin + m.league_rank() * E * shape.sequential;
      Real* sb = static_cast<Real*>(m.team_shmem().get_shmem(scratch_bytes_tensor_lift(shape, mode)));
      if (sb == nullptr) Kokkos::abort("dgk::nodal_tet::tensor_lift: team scratch smaller than requested");
      const int rank = m.team_rank(), lane = warp_lane(rank), warp = rank / 32, warps = m.team_size() / 32;
      // Fragment slot of the flux value at face node c, column col (element-major fields).
      auto slot = [&](int c, int col) { return ((c / 4) * nt + col / 8) * 32 + (col % 8) * 4 + c % 4; };
      const int ldc = tensor_lift_ldc();
      Real* sc = sb + kc * nt * 32;  // the product (staged_product or Async), column-major
      // Async, fused update: the group's res and q in memory order, from a 16-byte boundary.
      [[maybe_unused]] Real* sr = align_16(sc + static_cast<std::size_t>(nt) * 8 * ldc);
      [[maybe_unused]] Real* sq = sr + even(E * nf * np);
      for (int s = 0; s < shape.sequential; ++s) {
        const int g0 = team_first + s * E;
        if (g0 >= end) break;
        if (s > 0) m.team_barrier();  // the previous group's flux (and product) has been read
        [[maybe_unused]] const int total = (end - g0 < E ? end - g0 : E) * nf * np;  // the group's values
        [[maybe_unused]] const std::size_t base = static_cast<std::size_t>(g0) * nf * np;
        if constexpr (Async) {
          // First group of copies: the split mode's flux fragments and rhs (both needed by the
          // products); second: res and q (needed by the epilogue).
          if (mode == LiftMode::Split) stage_fragments<true>(m, flux, nc, kc, g0, E, sb);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, total), [&](const int x) {
            async_copy<8>(sc + static_cast<std::size_t>(x / np) * ldc + x % np, rhs.data() + base + x);
          });
          async_commit();
          if (mode == LiftMode::FusedUpdate) {
            async_copy_run(sr, res.data() + base, total, m.team_rank(), m.team_size());
            async_copy_run(sq, q.data() + base, total, m.team_rank(), m.team_size());
          }
          async_commit();
        }
        if (mode == LiftMode::Split) {
          if constexpr (!Async) stage_fragments<false>(m, flux, nc, kc, g0, E, sb);
        } else {
          // The flux gather of the group's face nodes, straight into fragment order; the padding
          // columns are zero.
          const int covered = (nt * 8 + nf - 1) / nf;  // elements whose columns reach the tiles
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, covered * nc), [&](const int x) {
            const int le = x / nc, c = x % nc, e = g0 + le;
            Real out[nf];
            if (le < E && e < end) {
              face_node_flux<Physics, nfp, np>(ops, mesh, q_fields(), e, c, out);
            } else {
              for (int f = 0; f < nf; ++f) out[f] = Real(0);
            }
            for (int f = 0; f < nf; ++f)
              if (le * nf + f < nt * 8) sb[slot(c, le * nf + f)] = out[f];
          });
        }
        if constexpr (Async) async_wait<1>();  // the first group of copies has landed
        m.team_barrier();
        if constexpr (!Async) {
          // The fused update's operands (rhs, res and q of the group) asked of the L1 while the
          // products run, so the update finds them near (PERFORMANCE.md, "The update's operands
          // asked ahead of the lift"). Three plain calls: a loop over an array of the three
          // pointers cost the loads-ahead kernel its shared-memory accesses.
          if (mode == LiftMode::FusedUpdate) {
            const std::size_t bytes = total * sizeof(Real);
            l1_prefetch(rhs.data() + base, bytes, m.team_rank(), m.team_size());
            l1_prefetch(res.data() + base, bytes, m.team_rank(), m.team_size());
            l1_prefetch(q.data() + base, bytes, m.team_rank(), m.team_size());
          }
        }
        if (shape.staged_product || Async) {
          // The product to scratch (column-major; with Async added to rhs there), then one thread
          // per (element, field, node) in memory order.
          warp_products<MB, Paired, Ahead ? lift_a_ahead : MB == ahead_row_tiles ? 1 : 0>(
              lane, warp, warps, mtd, tensor_L.data(), kc, sb, nt, [](int r) { return r; },
              [&](int r, int t, Real c0, Real c1) {
                const int row = r * 8 + lane / 4, col = t * 8 + 2 * (lane % 4);
                Real* at = sc + static_cast<std::size_t>(col) * ldc + row;
                if constexpr (Async) {
                  at[0] += c0;
                  at[ldc] += c1;
                } else {
                  at[0] = c0;
                  at[ldc] = c1;
                }
              });
          if constexpr (Async) async_wait<0>();
          m.team_barrier();
          // The group's values are one contiguous run of the fields, (g0 nf + col) np + i for
          // x = col np + i, starting at a multiple of nf np values.
          auto product = [&](int x) { return sc[static_cast<std::size_t>(x / np) * ldc + x % np]; };
          if constexpr (Async) {
            // rhs + LIFT flux in scratch; res and q too in the fused update. Two values at a time
            // where the fields' runs are even, as 16-byte stores.
            if constexpr (nf * np % 2 == 0) {
              Kokkos::parallel_for(Kokkos::TeamThreadRange(m, total / 2), [&](const int t) {
                const int x = 2 * t;
                const RealPair h{product(x), product(x + 1)};
                if (mode == LiftMode::FusedUpdate) {
                  const RealPair r{a * sr[x] + dt * h.x, a * sr[x + 1] + dt * h.y};
                  *reinterpret_cast<RealPair*>(res.data() + base + x) = r;
                  *reinterpret_cast<RealPair*>(q_out.data() + base + x) = RealPair{sq[x] + b * r.x, sq[x + 1] + b * r.y};
                } else {
                  *reinterpret_cast<RealPair*>(rhs.data() + base + x) = h;
                }
              });
            } else {
              Kokkos::parallel_for(Kokkos::TeamThreadRange(m, total), [&](const int x) {
                const Real h = product(x);
                if (mode == LiftMode::FusedUpdate) {
                  const Real r = a * sr[x] + dt * h;
                  res.data()[base + x] = r;
                  q_out.data()[base + x] = sq[x] + b * r;
                } else {
                  rhs.data()[base + x] = h;
                }
              });
            }
          } else if constexpr ((Batched || Ahead) && nf * np % 2 == 0) {
            // Two values at a time, each field's two values in one load: half the value-by-value
            // loop's rounds of waiting on memory (the loads-ahead kernel at N = 6 keeps its 56
            // registers; PERFORMANCE.md, "The fused gather + lift + update at N = 6 on an H100").
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, total / 2), [&](const int t) {
              lift_epilogue_pair(base + 2 * t, product(2 * t), product(2 * t + 1));
            });
          } else {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, E * nf * np), [&](const int x) {
              const int col = x / np, i = x % np, e = g0 + col / nf;
              if (e >= end) return;
              const Real v = sc[static_cast<std::size_t>(col) * ldc + i];
              if constexpr (Batched)
                lift_epilogue<1>([](int) { return true; },
                                 [&](int) { return FieldMajorFields<Real, nf, np>::index(e, col % nf, i); },
                                 [&](int) { return v; });
              else
                lift_epilogue<true>(e, col % nf, i, v);
            });
          }
        } else {
          // Each lane's two values of every 8 x 8 tile, where they land.
          warp_products<MB, Paired, Ahead ? lift_a_ahead : MB == ahead_row_tiles ? 1 : 0>(
              lane, warp, warps, mtd, tensor_L.data(), kc, sb, nt, [](int r) { return r; },
              [&](int r, int t, Real c0, Real c1) {
                const int i = r * 8 + lane / 4, col = t * 8 + 2 * (lane % 4);
                if (i >= np) return;
                const Real v[2] = {c0, c1};
                if constexpr (Batched) {
                  lift_epilogue<2>([&](int h) { return col + h < cols && g0 + (col + h) / nf < end; },
                                   [&](int h) { return (static_cast<std::size_t>(g0) * nf + col + h) * np + i; },
                                   [&](int h) { return v[h]; });
                } else {
                  for (int h = 0; h < 2; ++h) {
                    const int e = g0 + (col + h) / nf;
                    if (col + h < cols && e < end) lift_epilogue(e, (col + h) % nf, i, v[h]);
                  }
                }
              });
        }
      }
    } else {
      (void)m;
      Kokkos::abort("dgk::nodal_tet::tensor_lift: not built for this backend or precision");
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
              face_node_flux<Physics, nfp, np>(ops, mesh, q_fields(), e, c, out);
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
        for (int w = 0; w < WI; ++w)
          if (e[w] < end)
            for (int f = 0; f < nf; ++f) lift_epilogue(e[w], f, i, acc[w][f]);
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
  /// The volume term of every element on the tensor cores (tensor_D must be set).
  void tensor_volume(const ExecutionSpace& space) const {
    if constexpr (tensor_cores) {
      TunedKernels k = *this;
      k.begin = 0;
      k.end = mesh.num_elements;
      // A fused stage's shape times its volume part here (dgk bench): its asynchronous copies
      // belong to the stage's update, so the volume is the same kernel without them.
      MicroShape volume = with_host_choices(shape);
      volume.async_copies = false;
      k.shape = volume;
      if (shape.lane_epilogue)
        k.dispatch_tensor_lanes(volume, false, [&](auto tag) {
          k.template launch<decltype(tag)>(space, "dgk::nodal_tet::tensor_volume_lanes",
                                           4 * shape.warps * shape.sequential,
                                           scratch_bytes_tensor_lanes(volume, false, false), 32 * shape.warps);
        });
      else
        k.dispatch_tensor(shape, [&](auto tag) {
          k.template launch<decltype(tag)>(space, "dgk::nodal_tet::tensor_volume", shape.elements * shape.sequential,
                                           scratch_bytes_tensor(shape), 32 * shape.warps);
        });
    } else {
      (void)space;
      DGK_THROW_IF(true, "nodal_tet::TunedKernels: the tensor-core volume kernel is not built for this backend "
                         "and precision");
    }
  }
  /// `s` with the host-side choices of MicroShape `host` (lane_update, merged_product,
  /// gather_halves, volume_unroll), or none.
  static MicroShape with_host_choices(const KernelShape& s, const MicroShape& host = {}) {
    MicroShape m = host;
    static_cast<KernelShape&>(m) = s;
    return m;
  }
  /// The whole LSERK stage of elements [first, last), finished by the lanes (the fused-stage mode:
  /// volume, flux gather, lift and update into q_out; tensor_D and tensor_L must be set). With
  /// `node_major`, q, res and q_out hold their values (element, node, field) (NodeMajorFields;
  /// where compiled, node_major_refusal); `host` holds the tuning's host-side choices
  /// (with_host_choices).
  void tensor_stage(const ExecutionSpace& space, int first, int last, bool node_major = false,
                    const MicroShape& host = {}) const {
    if constexpr (tensor_cores) {
      TunedKernels k = *this;
      k.begin = first;
      k.end = last;
      const bool lane_update = host.lane_update, merged = host.merged_product, halves = host.gather_halves;
      k.dispatch_tensor_lanes(
          with_host_choices(shape, host), true,
          [&](auto tag) {
            k.template launch<decltype(tag)>(space, "dgk::nodal_tet::tensor_stage_lanes",
                                             4 * shape.warps * shape.sequential,
                                             scratch_bytes_tensor_lanes(shape, true, lane_update, merged, halves),
                                             32 * shape.warps);
          },
          node_major);
    } else {
      (void)space;
      (void)first;
      (void)last;
      (void)node_major;
      (void)host;
      DGK_THROW_IF(true, "nodal_tet::TunedKernels: the fused stage runs on FP64 tensor cores, not built for this "
                         "backend and precision");
    }
  }
  /// The lift in `mode` for elements [first, last) on the tensor cores (tensor_L must be set).
  void tensor_lift(const ExecutionSpace& space, int first, int last) const {
    if constexpr (tensor_cores) {
      TunedKernels k = *this;
      k.begin = first;
      k.end = last;
      k.dispatch_tensor_lift(shape, [&](auto tag) {
        k.template launch<decltype(tag)>(space, "dgk::nodal_tet::tensor_lift", shape.elements * shape.sequential,
                                         scratch_bytes_tensor_lift(shape, mode), 32 * shape.warps);
      });
    } else {
      (void)space;
      (void)first;
      (void)last;
      DGK_THROW_IF(true, "nodal_tet::TunedKernels: the tensor-core lift kernel is not built for this backend "
                         "and precision");
    }
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
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes_volume(const KernelShape& s) {
    const int st = static_cast<int>(s.staging);
    return scratch_bytes((st & 2 ? 3 * np * np : 0) + (st & 1 ? s.elements * s.inline_blocks * nf * np : 0));
  }
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes_lift(const KernelShape& s, LiftMode mode) {
    const int st = static_cast<int>(s.staging);
    const bool flux_staged = (st & 1) || mode != LiftMode::Split;
    return scratch_bytes((st & 2 ? np * nc : 0) + (flux_staged ? s.elements * s.inline_blocks * nf * nc : 0));
  }
  /// Rows of the tensor kernel's product in scratch per column: 3 D's cm row tiles, plus 4 so
  /// that the 8 rows x 4 column pairs a warp stores fall on distinct banks.
  KOKKOS_INLINE_FUNCTION static int tensor_ldc(int cm) { return 3 * cm * 8 + 4; }
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes_tensor(const KernelShape& s) {
    const int nt = (nf * s.elements + 7) / 8, cm = (mtd + s.passes - 1) / s.passes;
    return scratch_bytes(static_cast<std::size_t>(kst) * nt * 32 + static_cast<std::size_t>(nt) * 8 * tensor_ldc(cm));
  }
  /// The lane-finished volume kernel's scratch: each warp's field fragments, unless in registers,
  /// and for the whole stage its flux fragments and rhs (with asynchronous copies from a 16-byte
  /// boundary).
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes_tensor_lanes(const KernelShape& s, bool stage,
                                                                      bool lane_update, bool merged = false,
                                                                      bool halves = false) {
    if (stage && merged) return scratch_bytes_tensor_merged(s, halves);
    const int fields = stage ? LaneLayout<true>::values : LaneLayout<false>::values;
    const int per_warp = (s.register_fields ? 0 : fields) +
                         (stage ? lane_flux_values + (lane_update ? 0 : lane_rhs) * 32 +
                                      (lanes_geometry_copied ? lane_geometry : 0)
                                : 0);
    const int slack = stage && s.async_copies ? 16 / sizeof(Real) : 0;
    if (operators_staged(s) && !stage && s.register_fields) return scratch_bytes(d_fragment_values);
    return per_warp == 0 ? 0 : scratch_bytes(static_cast<std::size_t>(s.warps) * per_warp + slack);
  }
  /// The fused stage as one product: each warp's flux fragments (half of them, the larger half,
  /// with its flux gathered in two halves).
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes_tensor_merged(const KernelShape& s, bool halves = false) {
    const int per_warp = halves ? merged_first_half * flux_step : lane_flux_values;
    return scratch_bytes(static_cast<std::size_t>(s.warps) * per_warp);
  }
  KOKKOS_INLINE_FUNCTION static int tensor_lift_ldc() { return mtd * 8 + 4; }
  /// The tensor-core lift's scratch: the flux fragments, the product (staged_product, or the
  /// group's rhs with async copies), and with async copies in the fused update the group's res and
  /// q from a 16-byte boundary.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes_tensor_lift(const KernelShape& s, LiftMode mode) {
    const int nt = (nf * s.elements + 7) / 8;
    const bool product = s.staged_product || s.async_copies;
    const bool fields = s.async_copies && mode == LiftMode::FusedUpdate;
    return scratch_bytes(static_cast<std::size_t>(nc / 4) * nt * 32 +
                         (product ? static_cast<std::size_t>(nt) * 8 * tensor_lift_ldc() : 0) +
                         (fields ? 2 * static_cast<std::size_t>(even(s.elements * nf * np)) + 16 / sizeof(Real) : 0));
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
  static int micro_team(const KernelShape& s, int rows = 1) {
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
    std::string why = register_cap_refusal(shape);
    if (!why.empty()) return why;
    dispatch_volume(shape, [&](auto tag) {
      why = check<decltype(tag)>(space, scratch_bytes_volume(shape), micro_team(shape, shape.rows));
    });
    return why;
  }
  /// Why the tensor-core volume (lift = false) or lift kernel cannot run with this shape.
  std::string infeasible_tensor(const ExecutionSpace& space, bool lift = false, const MicroShape& host = {}) const {
    const bool lane_update = host.lane_update, merged = host.merged_product, halves = host.gather_halves;
    if constexpr (!tensor_cores) {
      (void)space;
      (void)lift;
      (void)lane_update;
      (void)merged;
      (void)halves;
      return "FP64 tensor cores: CUDA builds for compute capability 8.0 or newer, double precision only";
    } else {
      std::ostringstream o;
      if (shape.elements < 1 || shape.sequential < 1 || shape.warps < 1 || shape.warps > 32 || shape.passes < 1 ||
          (shape.inline_blocks != 1 && shape.inline_blocks != 2 && shape.inline_blocks != 4))
        o << "k = " << shape.elements << ", w_s = " << shape.sequential << ", warps = " << shape.warps
          << ", passes = " << shape.passes << ", row tiles w_i = " << shape.inline_blocks
          << " (expected k >= 1, w_s >= 1, 1 <= warps <= 32, passes >= 1, w_i in {1, 2, 4})";
      auto also = [&]() -> std::ostream& { return o << (o.tellp() > 0 ? "; " : ""); };
      if (shape.paired_tiles && !paired_tensor_cores())
        also() << "paired row tiles: the FP64 tensor cores' m16n8k4 needs device code for compute capability 9.0 "
                  "or newer";
      if (shape.paired_tiles && shape.inline_blocks < 2 && !shape.lane_epilogue)
        also() << "paired row tiles need w_i >= 2 row tiles per warp, or the volume finished by the lanes "
                  "(epilogue=lane), whose pass holds three (w_i = "
               << shape.inline_blocks << ")";
      if (shape.lane_epilogue && lift)
        also() << "the product finished by the lanes (epilogue=lane) is a volume kernel";
      if (const std::string why = operator_staging_refusal(shape, mode == LiftMode::FusedStage, lift); !why.empty())
        also() << why;
      const bool stage = mode == LiftMode::FusedStage && !lift;
      if (shape.max_registers != 0 && !lift && shape.lane_epilogue) {
        // The stage as one product has caps of its own (merged_refusal).
        const std::string why = merged ? std::string() : lanes_cap_refusal(shape, stage);
        if (!why.empty()) also() << why;
      } else if (shape.max_registers != 0 &&
                 (!lift || shape.max_registers != tensor_lift_cap || shape.inline_blocks > 2 ||
                  (shape.paired_tiles && shape.inline_blocks > 1) || shape.warps > 8)) {
        also() << "a register cap is compiled for the tensor-core lift with w_i <= 2 unpaired row tiles and at "
                  "most 8 warps: "
               << tensor_lift_cap << " registers (asked: " << shape.max_registers << " with w_i = "
               << shape.inline_blocks << (shape.paired_tiles ? " paired" : "") << ", " << shape.warps << " warps"
               << (lift ? ")" : ", a volume kernel)");
      }
      if (lane_update && (lift || !shape.lane_epilogue))
        also() << "the update by the lanes (update=lanes) is the fused stage's";
      else if (const std::string why = lane_update_refusal(with_host_choices(shape, host), stage); !why.empty())
        also() << why;
      if (merged && (lift || !shape.lane_epilogue))
        also() << "the stage as one product (product=merged) is the fused stage's";
      else if (const std::string why = merged_refusal(with_host_choices(shape, host), stage); !why.empty())
        also() << why;
      if (shape.async_copies && !lift) {
        if (const std::string why = async_stage_refusal(shape, stage); !why.empty()) also() << why;
      } else if (const std::string why = async_lift_refusal(shape); !why.empty())
        also() << why;
      if (shape.loads_ahead && !lift)
        also() << "loads ahead (loads=ahead) are compiled for the tensor-core lift (asked for a volume kernel)";
      else if (const std::string why = ahead_lift_refusal(shape); !why.empty())
        also() << why;
      if (shape.batched_loads && (!lift || (shape.paired_tiles && shape.inline_blocks > 1)))
        also() << "batched loads (loads=batched) are compiled for the tensor-core lift with unpaired row tiles"
               << (lift ? "" : " (asked for a volume kernel)");
      if (shape.lane_epilogue && (shape.elements != 4 || shape.passes != 1 || shape.inline_blocks > 2))
        also() << "the volume finished by the lanes takes k = 4 elements per warp, one pass, w_i = 1 or 2 row tiles "
                  "(k = "
               << shape.elements << ", passes = " << shape.passes << ", w_i = " << shape.inline_blocks << ")";
      if ((shape.register_fields || shape.unrolled) && !shape.lane_epilogue)
        also() << "fields in registers (fields=registers) and unrolled k-steps (unrolled) are for the volume "
                  "finished by the lanes (epilogue=lane)";
      if (stage && !shape.lane_epilogue)
        also() << "the fused stage is the volume finished by the lanes (epilogue=lane) with the gather, lift and update";
      if (shape.register_fields && lane_fields > max_lane_fields)
        also() << "fields in registers: " << lane_fields << " values per lane at N = " << N << ", more than the "
               << max_lane_fields << " compiled";
      if (!o.str().empty()) return o.str();
      std::string why;
      if (lift)
        dispatch_tensor_lift(shape, [&](auto tag) {
          why = check<decltype(tag)>(space, scratch_bytes_tensor_lift(shape, mode), 32 * shape.warps);
        });
      else if (shape.lane_epilogue)
        dispatch_tensor_lanes(with_host_choices(shape, host), stage, [&](auto tag) {
          why = check<decltype(tag)>(space, scratch_bytes_tensor_lanes(shape, stage, lane_update, merged, halves),
                                     32 * shape.warps);
        });
      else
        dispatch_tensor(shape, [&](auto tag) {
          why = check<decltype(tag)>(space, scratch_bytes_tensor(shape), 32 * shape.warps);
        });
      return why;
    }
  }
  std::string infeasible_lift(const ExecutionSpace& space, bool batched) const {
    if (batched) return check<TagBatchedLift>(space, 0, batched_team());
    std::string why;
    dispatch_wi(shape.inline_blocks, [&](auto wi) {
      why = check<TagMicroLift<decltype(wi)::value>>(space, scratch_bytes_lift(shape, mode), micro_team(shape));
    });
    return why;
  }

  /// Whether the register-capped volume kernels are compiled: GPU builds, where an element's
  /// nodes fit one warp.
  static constexpr bool register_caps = !host && np <= 32;
  /// The register cap compiled for the tensor-core lift (teams of up to eight warps: four such
  /// teams per SM instead of three at its 74-80 registers).
  static constexpr int tensor_lift_cap = 64;
  /// The register cap compiled for the volume finished by the lanes with its fields in registers
  /// (teams of up to eight warps), at the orders where its uncapped kernel needs a little more
  /// (N <= lanes_cap_orders): at N = 1, 72 registers hold seven teams of four warps per SM, 64
  /// hold eight (docs/PERFORMANCE.md, "What Kokkos costs").
  static constexpr int tensor_lanes_cap = 64;
  static constexpr int lanes_cap_orders = 3;
  static constexpr bool lanes_register_caps = tensor_cores && N <= lanes_cap_orders;
  /// The same kernel (and the fused stage's) with its fields in registers under launch bounds of
  /// one team of up to eight warps per SM: the compiler may take up to 255 registers, as it may
  /// without bounds, but it chooses differently. Without them nvcc gives the Kokkos kernel fewer
  /// registers than the same loops in plain CUDA (168 against 242 at N = 5) and issues each
  /// k-step's operator loads just before their products instead of all of a pass's up front
  /// (docs/PERFORMANCE.md, "Launch bounds for the lane-finished kernels"). Compiled wherever the
  /// fields fit registers.
  static constexpr int tensor_lanes_open = 255;
  static constexpr bool lanes_open_bounds = tensor_cores && lane_fields <= max_lane_fields;
  /// The same kernels, w_i = 1, under launch bounds of six teams of up to two warps per SM: at
  /// most 168 registers, twelve warps per SM. Without bounds nvcc's choice for the fused stage
  /// moves with changes elsewhere in the functor: at N = 4 the same loops took 168 registers in
  /// one build and 226 in another, which holds eight one-warp teams per SM instead of twelve and
  /// took 1.17 times as long (docs/PERFORMANCE.md, "A register cap of 168 for the lane-finished
  /// kernels"). Compiled at N = 3..5.
  static constexpr int tensor_lanes_mid = lanes_mid_registers;
  static constexpr bool lanes_mid_caps = lanes_open_bounds && N >= 3 && N <= 5;
  /// The fused stage with asynchronous copies of res (loads=async) is compiled at the orders where
  /// a fused stage can be the tuner's choice (N <= 5; from N = 6 its scratch leaves too few warps
  /// per SM), w_i = 1, with its fields in registers (uncapped or under tensor_lanes_mid) or in
  /// scratch with its k-steps unrolled.
  static constexpr bool lanes_async_stage = tensor_cores && N <= 5;
  /// The fused stage whose lanes update the values they finish in memory (MicroShape::lane_update)
  /// is compiled where the copies are, w_i = 1, with its fields in registers, uncapped or under
  /// tensor_lanes_mid, paired or not, in the solver's arrangement (element, field, node).
  static constexpr bool lanes_update_stage = tensor_cores && N <= 5 && lane_fields <= max_lane_fields;
  /// Whether the volume finished by the lanes reads the metric terms and the material of its lane's
  /// element once per group, before the products, instead of at each pass's epilogue, whose loads
  /// began only after the products and took a round trip of their own (at N = 2 the compiler had
  /// put the material's loads after the first uses of the metric terms: a third). At N <= 3,
  /// where it took less time. At N = 4, and in the fused stage at N = 2..4, the registers they
  /// hold through the products cost more than the round trip; in the fused stage at N = 1 the two
  /// took the same time (docs/PERFORMANCE.md, "The element's geometry before the products").
  static constexpr bool lanes_early_geometry = tensor_cores && N <= 3;
  /// Whether the fused stage with the lanes' update loads its operators' fragments (D and LIFT)
  /// two k-steps at a time, one 16-byte load per lane from a second copy of the fragments laid out
  /// in pairs after the first (tensor_fragments). At N = 3 it took 0.97 times as long and dropped
  /// the stack of the tables' shape (paired, cap 168) from 48 to 8 bytes; at N = 4 it took 1.025
  /// times as long, at N = 1, 2 the same (docs/PERFORMANCE.md, "Operator fragments in pairs of
  /// k-steps").
  static constexpr bool lanes_pair_loads = tensor_cores && N == 3;
  /// Whether the fused stage's flux gather loads the neighbour indices of all its lane's face
  /// nodes first, then the fields of two face nodes at a time, without a branch before their
  /// loads (gather_flux with PerThread). At N = 1, 2 and 3 the stage took 0.90, 0.95 and 0.94 times
  /// as long; at N = 4 1.04 times (docs/PERFORMANCE.md, "The flux gather's loads in flight").
  static constexpr bool lanes_gather_ahead = tensor_cores && N <= 3;
  /// Whether the fused stage's gather finds its neighbour nodes by the face codes
  /// (MeshData::face_neighbour) rather than by mapP (gather_flux). Not at N <= 3, whose gather
  /// loads the neighbour indices ahead (lanes_gather_ahead): there the codes' shuffle and table on
  /// each face node's path took longer. The tensor-core lift reads mapP: with the codes its
  /// gather took more registers (70 against 64 at N = 5, so three teams of eight warps per SM
  /// instead of four) and 1.23 times as long (docs/PERFORMANCE.md, "The flux gather by face
  /// codes").
  static constexpr bool lanes_face_codes = tensor_cores && !lanes_gather_ahead;
  /// Whether the fused stage copies its four elements' metric terms and materials into the warp's
  /// scratch asynchronously at the start of each group (lane_geometry values per warp), so that
  /// its epilogue reads them there instead of loading them after the products, and no register
  /// holds them through the gather and the products. At N = 1, 2 and 3 the stage took 0.988,
  /// 0.991 and 0.991 times as long; at N = 4 the stage took 200 registers instead of 166 and 1.44
  /// times as long (docs/PERFORMANCE.md, "The fused stage's geometry by asynchronous copies").
  static constexpr bool lanes_geometry_copied = tensor_cores && N <= 3;
  static constexpr int lane_geometry = 48;  // 4 (9 + 2) values, to a multiple of 16
  /// The fused stage as one product (MicroShape::merged_product), compiled where its
  /// accumulators hold all of an element's row tiles (mtd <= 7: N <= 5), uncapped or under a cap
  /// of 168 or lanes_merged_cap registers for teams of one or two warps.
  static constexpr bool lanes_merged_stage = tensor_cores && N <= 5;
  static constexpr int lanes_merged_cap = 128;
  /// Why the fused stage cannot run as one product (empty if it can, or if the shape does not
  /// ask for it).
  static std::string merged_refusal(const MicroShape& s, bool stage) {
    if (!s.merged_product) {
      if (s.gather_halves)
        return "the flux gathered in two halves (gather=halves) is the stage as one product's (product=merged)";
      if (s.volume_unroll != 0)
        return "the volume's k-steps unrolled by a factor (vunroll) are the stage as one product's (product=merged)";
      return {};
    }
    const bool capped = s.max_registers == tensor_lanes_mid || s.max_registers == lanes_merged_cap;
    const bool unroll = s.volume_unroll == 0 || (s.volume_unroll >= 1 && s.volume_unroll <= merged_unroll_max &&
                                                 merged_unrolls && s.paired_tiles);
    if (stage && lanes_merged_stage && s.elements == 4 && s.inline_blocks == 1 && !s.register_fields &&
        !s.lane_update && !s.async_copies && s.staging == Staging::Fields &&
        (s.max_registers == 0 || (capped && 32 * s.warps <= lanes_mid_team)) && unroll)
      return {};
    std::ostringstream o;
    if (!unroll && s.volume_unroll != 0 && stage && lanes_merged_stage) {
      o << "the stage as one product (product=merged) unrolls its volume's k-steps by 1 to " << merged_unroll_max
        << " (vunroll) with paired row tiles (mma=m16n8k4) at N = 3 and 4 only (asked: vunroll=" << s.volume_unroll
        << (s.paired_tiles ? "" : ", unpaired") << " at N = " << N << ")";
      return o.str();
    }
    o << "the stage as one product (product=merged) is compiled for the fused stage at N <= 5 with k = 4 "
         "elements per warp, w_i = 1, its fields read at each k-step (not fields=registers), without "
         "update=lanes or loads=async (it updates from its lanes), uncapped or capped at "
      << tensor_lanes_mid << " or " << lanes_merged_cap << " registers with at most " << lanes_mid_team / 32
      << " warps (asked: " << (stage ? "the fused stage" : "a volume kernel") << " at N = " << N << ", k = "
      << s.elements << ", w_i = " << s.inline_blocks << (s.register_fields ? ", fields in registers" : "")
      << (s.lane_update ? ", update=lanes" : "") << (s.async_copies ? ", loads=async" : "") << ", cap "
      << s.max_registers << ", " << s.warps << " warps" << (tensor_cores ? ")" : ", no tensor cores in this build)");
    return o.str();
  }
  /// Why the volume finished by the lanes cannot update in memory from its lanes (empty if it
  /// can, or if the shape does not ask for it).
  static std::string lane_update_refusal(const MicroShape& s, bool stage, bool node_major = false) {
    if (!s.lane_update) return {};
    if (stage && lanes_update_stage && !node_major && s.inline_blocks == 1 && s.register_fields && !s.async_copies &&
        s.staging == Staging::Fields &&
        (s.max_registers == 0 || (s.max_registers == tensor_lanes_mid && 32 * s.warps <= lanes_mid_team)))
      return {};
    std::ostringstream o;
    o << "the update by the lanes (update=lanes) is compiled for the fused stage at N <= 5 with w_i = 1, its fields in "
         "registers, uncapped or capped at "
      << tensor_lanes_mid << " registers with at most " << lanes_mid_team / 32
      << " warps, without asynchronous copies, fields stored (element, field, node) (asked: "
      << (stage ? "the fused stage" : "a volume kernel") << " at N = " << N << ", w_i = " << s.inline_blocks
      << (s.register_fields ? ", fields in registers" : ", fields in scratch") << ", cap " << s.max_registers << ", "
      << s.warps << " warps" << (s.async_copies ? ", loads=async" : "") << (node_major ? ", node-major" : "")
      << (tensor_cores ? ")" : ", no tensor cores in this build)");
    return o.str();
  }
  /// Why the volume finished by the lanes cannot run with asynchronous copies (empty if it can,
  /// or if the shape has none).
  static std::string async_stage_refusal(const KernelShape& s, bool stage) {
    if (!s.async_copies) return {};
    const bool fields = s.register_fields ? (s.max_registers == 0 || s.max_registers == tensor_lanes_mid)
                                          : (s.unrolled && s.max_registers == 0);
    if (stage && lanes_async_stage && s.inline_blocks == 1 && fields) return {};
    std::ostringstream o;
    o << "asynchronous copies (loads=async) are compiled for the fused stage at N <= 5 with w_i = 1, its fields in "
         "registers (uncapped or capped at "
      << tensor_lanes_mid << " registers) or in scratch unrolled, and for the tensor-core lift (asked: "
      << (stage ? "the fused stage" : "a volume kernel") << " at N = " << N << ", w_i = " << s.inline_blocks
      << (s.register_fields ? ", fields in registers" : (s.unrolled ? ", fields in scratch unrolled" : ", fields in scratch"))
      << ", cap " << s.max_registers << (tensor_cores ? ")" : ", no tensor cores in this build)");
    return o.str();
  }
  /// Why a tensor-core shape cannot take its staging (empty if it can): the operator in scratch
  /// (staged=operator) is compiled for the volume finished by the lanes with its fields in
  /// registers, uncapped, without asynchronous copies; every other tensor-core kernel reads its
  /// operator from memory (staged=fields).
  static std::string operator_staging_refusal(const KernelShape& s, bool stage, bool lift) {
    if (s.staging == Staging::Fields ||
        (s.staging == Staging::Operator && !lift && !stage && s.lane_epilogue && s.register_fields &&
         s.max_registers == 0 && !s.async_copies))
      return {};
    std::ostringstream o;
    o << "the operator in scratch (staged=operator) is compiled for the volume finished by the lanes (epilogue=lane) "
         "with its fields in registers, uncapped; the other tensor-core kernels take staged=fields (asked: staged="
      << (s.staging == Staging::Both ? "both" : "operator") << " for "
      << (lift ? "a lift" : stage ? "the fused stage" : "this volume kernel") << ")";
    return o.str();
  }
  /// Where the fused stage takes its fields (element, node, field) (tensor_stage with node_major):
  /// N <= 4, w_i = 1, its fields in registers, uncapped or under tensor_lanes_mid, with or
  /// without asynchronous copies, paired or not.
  static constexpr bool lanes_node_major = tensor_cores && N <= 4 && lane_fields <= max_lane_fields;
  /// Why the fused stage (`stage`; the volume alone has no node-major form) cannot take node-major
  /// fields in this shape (empty if it can).
  static std::string node_major_refusal(const KernelShape& s, bool stage) {
    if (stage && lanes_node_major && s.lane_epilogue && s.inline_blocks == 1 && s.register_fields &&
        (s.max_registers == 0 ||
         (lanes_mid_caps && s.max_registers == tensor_lanes_mid && 32 * s.warps <= lanes_mid_team)))
      return {};
    std::ostringstream o;
    o << "fields stored (element, node, field) are compiled for the fused stage at N <= 4 with w_i = 1 and its fields "
         "in registers, uncapped or capped at "
      << tensor_lanes_mid << " registers (asked: " << (stage ? "the fused stage" : "a volume kernel") << " at N = " << N
      << ", w_i = " << s.inline_blocks << (s.register_fields ? ", fields in registers" : ", fields in scratch")
      << ", cap " << s.max_registers << ", " << s.warps << " warps"
      << (tensor_cores ? ")" : ", no tensor cores in this build)");
    return o.str();
  }
  /// Why the tensor-core lift cannot run with asynchronous copies (loads=async) in this shape
  /// (empty if it can): compiled with the product through scratch, w_i <= 2 unpaired row tiles,
  /// without batched loads (the epilogue reads scratch), uncapped or under tensor_lift_cap.
  static std::string async_lift_refusal(const KernelShape& s) {
    if (!s.async_copies ||
        (s.staged_product && s.inline_blocks <= 2 && !s.paired_tiles && !s.batched_loads &&
         (s.max_registers == 0 || (s.max_registers == tensor_lift_cap && s.warps <= 8))))
      return {};
    std::ostringstream o;
    o << "asynchronous copies (loads=async) are compiled for the tensor-core lift with its product through scratch "
         "(product=scratch), w_i <= 2 unpaired row tiles, without batched loads, uncapped or capped at "
      << tensor_lift_cap << " registers with at most 8 warps (asked: "
      << (s.staged_product ? "product=scratch" : "the product where it lands") << ", w_i = " << s.inline_blocks
      << (s.paired_tiles ? " paired" : "") << (s.batched_loads ? ", loads=batched" : "")
      << ", cap " << s.max_registers << ", " << s.warps << " warps)";
    return o.str();
  }
  /// Why the tensor-core lift cannot load its fragments ahead (loads=ahead) in this
  /// shape (empty if it can): compiled at w_i = 1, unpaired, uncapped, without batched loads or
  /// asynchronous copies (at w_i = 2 the fragments are always loaded ahead).
  static std::string ahead_lift_refusal(const KernelShape& s) {
    if (!s.loads_ahead ||
        (s.inline_blocks == 1 && !s.paired_tiles && s.max_registers == 0 && !s.batched_loads && !s.async_copies))
      return {};
    std::ostringstream o;
    o << "loads ahead (loads=ahead) are compiled for the tensor-core lift with w_i = 1 unpaired row tile, "
         "uncapped, without batched loads or asynchronous copies (asked: w_i = "
      << s.inline_blocks << (s.paired_tiles ? " paired" : "") << ", cap " << s.max_registers
      << (s.batched_loads ? ", loads=batched" : "") << (s.async_copies ? ", loads=async" : "")
      << "); at w_i = 2 the fragments are always loaded ahead";
    return o.str();
  }
  /// Why the volume finished by the lanes (in the fused stage with `stage`) cannot run under the
  /// shape's register cap (empty if it can).
  static std::string lanes_cap_refusal(const KernelShape& s, bool stage) {
    const bool shape = s.register_fields && s.inline_blocks <= 2 && s.warps <= 8, unpaired = !s.paired_tiles;
    if (shape && ((lanes_register_caps && !stage && unpaired && s.max_registers == tensor_lanes_cap) ||
                  (lanes_open_bounds && unpaired && s.max_registers == tensor_lanes_open) ||
                  (lanes_mid_caps && s.max_registers == tensor_lanes_mid && s.inline_blocks == 1 &&
                   32 * s.warps <= lanes_mid_team)))
      return {};
    std::ostringstream o;
    o << "a register cap is compiled for the volume finished by the lanes on the tensor cores, with its fields in "
         "registers, w_i <= 2 row tiles and at most 8 warps: "
      << tensor_lanes_cap << " registers at N <= " << lanes_cap_orders << ", unpaired, not in the fused stage; "
      << tensor_lanes_mid << " at N = 3..5 with w_i = 1 and at most " << lanes_mid_team / 32
      << " warps, paired or not; and " << tensor_lanes_open
      << " (launch bounds of one team per SM), unpaired, wherever the fields fit registers (asked: "
      << s.max_registers << " at N = " << N << " with w_i = " << s.inline_blocks << (s.paired_tiles ? " paired" : "")
      << ", " << s.warps << " warps" << (s.register_fields ? "" : ", fields in scratch")
      << (stage ? ", the fused stage)" : ")");
    return o.str();
  }

  /// The compiled (w_i, r_i) pairs of the micro volume kernel, and its register caps, as f(tag).
  /// Public for the plain CUDA port of the benchmark program, which launches the same kernels.
  template <class F>
  static void dispatch_volume(const KernelShape& s, F&& f) {
    if (s.max_registers != 0) {
      const std::string why = register_cap_refusal(s);
      DGK_THROW_IF(!why.empty(), "nodal_tet::TunedKernels: " << why);
      if constexpr (register_caps) {
        if (s.max_registers == 64)
          f(TagMicroVolume<1, 1, 64>{});
        else
          f(TagMicroVolume<1, 1, 72>{});
      }
      return;
    }
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

  /// The compiled (w_i, paired) pairs of the tensor-core kernels, as f(integral_constant w_i,
  /// bool_constant paired): each its own kernel, so that the unpaired ones keep their own
  /// registers (w_i = 1 is never paired here: a pass of these kernels holds one row tile per w_i;
  /// the lane-finished kernels pair through dispatch_lanes). Public for the plain
  /// CUDA port of the benchmark program, which launches the same pairs.
  template <class F>
  static void dispatch_paired(const KernelShape& s, F&& f) {
    using yes = std::true_type;
    using no = std::false_type;
    if (!s.paired_tiles || s.inline_blocks == 1) {
      dispatch_wi(s.inline_blocks, [&](auto wi) { f(wi, no{}); });
      return;
    }
    dispatch_wi(s.inline_blocks, [&](auto wi) {
      if constexpr (decltype(wi)::value > 1) f(wi, yes{});
    });
  }

  /// The compiled (w_i, paired) pairs of the lane-finished kernels, as f(integral_constant w_i,
  /// bool_constant paired): w_i = 1 or 2, paired or not. A pass holds the row tiles of D_r, D_s
  /// and D_t (3 w_i), so at w_i = 1 pairing puts D_r's and D_s's into one m16n8k4 and D_t's alone
  /// into an m8n8k4: two instructions per column tile and k-step instead of three. Public for
  /// the plain CUDA port of the benchmark program, which launches the same pairs.
  template <class F>
  static void dispatch_lanes(const KernelShape& s, F&& f) {
    DGK_THROW_IF(s.inline_blocks != 1 && s.inline_blocks != 2,
                 "nodal_tet::TunedKernels: the volume finished by the lanes takes w_i = 1 or 2 (w_i = "
                     << s.inline_blocks << ")");
    auto with = [&](auto wi) {
      if (s.paired_tiles)
        f(wi, std::true_type{});
      else
        f(wi, std::false_type{});
    };
    if (s.inline_blocks == 1)
      with(std::integral_constant<int, 1>{});
    else
      with(std::integral_constant<int, 2>{});
  }

 private:
  // Elements [g0, g0 + count) of a (K, nf, width) field as the tensor cores' B fragments in
  // scratch: 4 x 8 fragment (ks, t) of `steps` x ceil(nf count / 8) at dst + (ks nt + t) 32, lane l
  // holding row 4 ks + l % 4 (node or face node) of column 8 t + l / 4 (element-major fields);
  // zero past the rows, the columns and the last element.
  // With Async, the values are copied asynchronously (async_copy; the zeros are stored).
  template <bool Async = false>
  KOKKOS_INLINE_FUNCTION void stage_fragments(const Member& m, const Fields<Real, Mem>& v, int width, int steps,
                                              int g0, int count, Real* dst) const {
    const int cols = nf * count, nt = (cols + 7) / 8;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, steps * nt * 32), [&](const int x) {
      const int l = x % 32, tile = x / 32, t = tile % nt, ks = tile / nt;
      const int col = t * 8 + l / 4, row = ks * 4 + l % 4, e = g0 + col / nf;
      const bool inside = col < cols && row < width && e < end;
      if constexpr (Async) {
        if (inside)
          async_copy<sizeof(Real)>(dst + x, &v(e, col % nf, row));
        else
          dst[x] = Real(0);
      } else {
        dst[x] = inside ? v(e, col % nf, row) : Real(0);
      }
    });
  }
  /// n rounded up to an even number; p rounded up to a 16-byte boundary.
  KOKKOS_INLINE_FUNCTION static int even(int n) { return n + n % 2; }
  KOKKOS_INLINE_FUNCTION static Real* align_16(Real* p) {
    return reinterpret_cast<Real*>((reinterpret_cast<std::uintptr_t>(p) + 15) / 16 * 16);
  }

  // What a lift kernel does with the lifted flux v at the field value `at` ((e nf + f) np + i):
  // add it to rhs, or in the fused-update mode apply the LSERK update with it. Split in two so
  // that a thread may load a batch of values before it stores any (lift_epilogue): the compiler
  // cannot move a load above a store that might alias it, so written value by value, each
  // value's loads wait for the previous value's stores, and a thread has one value's loads in
  // flight at a time.
  struct EpilogueIn {
    Real v, h, r, q;
  };
  KOKKOS_INLINE_FUNCTION EpilogueIn epilogue_load(std::size_t at, Real v) const {
    EpilogueIn in{v, rhs.data()[at], Real(0), Real(0)};
    if (mode == LiftMode::FusedUpdate) {
      in.r = res.data()[at];
      in.q = q.data()[at];
    }
    return in;
  }
  KOKKOS_INLINE_FUNCTION void epilogue_store(std::size_t at, const EpilogueIn& in) const {
    if (mode == LiftMode::FusedUpdate) {
      const Real r = a * in.r + dt * (in.h + in.v);
      res.data()[at] = r;
      q_out.data()[at] = in.q + b * r;
    } else {
      rhs.data()[at] = in.h + in.v;
    }
  }
  // The epilogue of U values: value u at field value at(u) with lifted flux v(u), where live(u);
  // all their loads first, then the stores.
  template <int U, class Live, class At, class Value>
  KOKKOS_INLINE_FUNCTION void lift_epilogue(const Live& live, const At& at, const Value& v) const {
    EpilogueIn in[U];
    DGK_UNROLL
    for (int u = 0; u < U; ++u)
      if (live(u)) in[u] = epilogue_load(at(u), v(u));
    DGK_UNROLL
    for (int u = 0; u < U; ++u)
      if (live(u)) epilogue_store(at(u), in[u]);
  }
  // The epilogue of the two values at field values at and at + 1 (at even, so the pair is aligned
  // to its size), with lifted fluxes v0 and v1: each field's pair in one load and one store.
  struct alignas(2 * sizeof(Real)) RealPair {
    Real x, y;
  };
  KOKKOS_INLINE_FUNCTION void lift_epilogue_pair(std::size_t at, Real v0, Real v1) const {
    auto load = [&](const Real* p) { return *reinterpret_cast<const RealPair*>(p + at); };
    auto store = [&](Real* p, const RealPair& v) { *reinterpret_cast<RealPair*>(p + at) = v; };
    const RealPair h = load(rhs.data());
    if (mode == LiftMode::FusedUpdate) {
      const RealPair r = load(res.data()), u = load(q.data());
      const RealPair s{a * r.x + dt * (h.x + v0), a * r.y + dt * (h.y + v1)};
      store(res.data(), s);
      store(q_out.data(), RealPair{u.x + b * s.x, u.y + b * s.y});
    } else {
      store(rhs.data(), RealPair{h.x + v0, h.y + v1});
    }
  }
  // The epilogue of one value, value by value: res and rhs, the store to res, then q; with
  // LoadsFirst its res, rhs and q loaded together, then the stores (q loaded after the store to
  // res waits for it: the compiler cannot tell that they do not alias). The fields are (element,
  // field, node) of this order, unpadded: one address for all four.
  template <bool LoadsFirst = false>
  KOKKOS_INLINE_FUNCTION void lift_epilogue(int e, int f, int i, Real v) const {
    const std::size_t at = FieldMajorFields<Real, nf, np>::index(e, f, i);
    if (mode == LiftMode::FusedUpdate) {
      if constexpr (LoadsFirst) {
        const Real r0 = res.data()[at], h = rhs.data()[at], u = q.data()[at];
        const Real r = a * r0 + dt * (h + v);
        res.data()[at] = r;
        q_out.data()[at] = u + b * r;
      } else {
        const Real r = a * res.data()[at] + dt * (rhs.data()[at] + v);
        res.data()[at] = r;
        q_out.data()[at] = q.data()[at] + b * r;
      }
    } else {
      rhs.data()[at] += v;
    }
  }
  /// The face codes (MeshData::face_neighbour) of a group of `count` (<= 8) elements from g0, as
  /// gather_flux takes them: at lane l < 4 count that of face l % 4 of element g0 + l / 4; zero
  /// past the last element and where the mesh has none.
  KOKKOS_INLINE_FUNCTION int face_codes(int lane, int g0, int count) const {
    const bool in = lane < 4 * count && g0 + lane / 4 < end && mesh.face_neighbour.extent(0) > 0;
    return in ? read_only(mesh.face_neighbour.data() + 4 * static_cast<std::size_t>(g0) + lane) : 0;
  }
  /// The neighbour element ep and node jp of face node c of element e (of a group of at most
  /// eight elements): with lanes_face_codes, from the face code that lane `holder` of the warp
  /// holds in `face_code` (face_codes(): holder = 4 (e - g0) + c / nfp) and the face's pattern,
  /// so that no load of mapP is on the fields' path; else, or where the mesh has no face codes,
  /// from mapP. Every lane of the warp calls it (the shuffle).
  KOKKOS_INLINE_FUNCTION void neighbour_node([[maybe_unused]] int face_code, [[maybe_unused]] int holder, int e,
                                             int c, int& ep, int& jp) const {
    if constexpr (lanes_face_codes) {
      constexpr int mp = MeshData<Real, Mem>::max_face_patterns;
      const int code = warp_shuffle(face_code, holder);
      if (mesh.face_neighbour.extent(0) > 0) {
        ep = code / mp;
        jp = read_only(mesh.face_pattern.data() + (code % mp) * nfp + c % nfp);
        return;
      }
    }
    const int nb = face_node_at<nfp>(ops, mesh, e, c).neighbour;
    ep = nb / np;
    jp = nb % np;
  }
  /// q as the flux gather reads it: (element, field, node) with the strides of this order.
  KOKKOS_INLINE_FUNCTION FieldMajorFields<Real, nf, np> q_fields() const { return {q.data()}; }
  /// Values a thread loads before it stores in the fused stage's update.
  static constexpr int epilogue_batch = 4;

  // The flux gather: the calling thread's share (rank of `threads`) of the face nodes x = le per +
  // c - c0, x < n, at face node c (c0 <= c < c0 + per; by default all nc face nodes) of element
  // g0 + le (zero where le >= count or past the last element), handed to store(x, out). Each
  // face node's flux waits on two dependent loads: where it reads (face_node_at) and the fields
  // there (face_node_states).
  //
  // With PerThread = 0, U face nodes at a time, each face node's flux computed in a branch on
  // whether it is in range (the compiler issues the next face node's loads after the previous
  // one's flux). With PerThread > 0 (at least the thread's count of face nodes), the thread
  // first loads the neighbour index of every one of its face nodes, then takes them U at a time:
  // all their fields' loads, then their fluxes, then the stores. Those loads wait on no branch:
  // a face node past the range reads an element's first face node and its flux is replaced by
  // zeros. So after the first U only the fields' loads are on the path, U face nodes' worth at a
  // time.
  // With NodeMajor, q is stored (element, node, field) (NodeMajorFields).
  //
  // With FaceCodes (the fused stage at N >= 4; threads a multiple of 32, count <= 8 elements),
  // lane l < 4 count of each warp
  // holds in face_code its face_codes() value, so that a face node finds its neighbour element and
  // node by a shuffle and a small table (MeshData::face_pattern) instead of a load of mapP: its
  // fields' loads wait on no load from memory but the codes', issued when the group starts. Every
  // lane then runs every pass (the shuffles need the whole warp). Where the mesh has no face codes
  // (MeshData::face_neighbour empty), mapP as without.
  /// The fused stages finished by the lanes: face node x of a group of four elements (element
  /// x / nc, face node c = x % nc) with its flux `out` into the warp's flux fragments `fx`, the
  /// lift's B values (k-step c / 4, column tile f / 2, lane (2 element + f % 2) 4 + c % 4; zero
  /// in a padding field column).
  KOKKOS_INLINE_FUNCTION static void put_lane_flux(Real* fx, int x, const Real (&out)[nf]) {
    put_lane_flux(fx, x / nc, x % nc, out);
  }
  /// The same for element qe of the group at face node c (counted from the first k-step that fx
  /// holds); with HalvesSlots in the column slots of the stage as one product that forms the
  /// volume in halves (merged_field).
  template <bool HalvesSlots = false>
  KOKKOS_INLINE_FUNCTION static void put_lane_flux(Real* fx, int qe, int c, const Real (&out)[nf]) {
    DGK_UNROLL
    for (int s = 0; s < 2 * lane_tiles; ++s) {
      const int f = merged_field<HalvesSlots>(s);
      fx[(c / 4) * flux_step + (s / 2) * 32 + (2 * qe + s % 2) * 4 + c % 4] = f < nf ? out[f] : Real(0);
    }
  }
  template <int U, bool NodeMajor = false, int PerThread = 0, bool FaceCodes = false, class Store>
  KOKKOS_INLINE_FUNCTION void gather_flux(int rank, int threads, int g0, int count, int n, const Store& store,
                                          [[maybe_unused]] int face_code = 0, int per = nc, int c0 = 0) const {
    using Q = std::conditional_t<NodeMajor, NodeMajorFields<Real, nf, np>, FieldMajorFields<Real, nf, np>>;
    const Q fields{q.data()};
    static_assert(!FaceCodes || lanes_face_codes, "dgk::nodal_tet::gather_flux: face codes where not compiled");
    // Face node x of element e at its face node c: the neighbour element and node (ep, jp).
    [[maybe_unused]] auto neighbour_of = [&](int x, int e, int c, int& ep, int& jp) {
      neighbour_node(face_code, x < n ? ((x / per) * 4 + c / nfp) % 32 : 0, e, c, ep, jp);
    };
    static_assert(!FaceCodes || PerThread == 0, "dgk::nodal_tet::gather_flux: face codes take no indices ahead");
    if constexpr (PerThread > 0) {
      // Face node x: whether it is in range, its element and its face node (if not, the first
      // face node of g0, or of the last element where g0 is past it).
      const int fallback = g0 < end ? g0 : end - 1;
      auto locate = [&](int x, int& e, int& c) {
        const int le = x / per;
        const bool in = x < n && le < count && g0 + le < end;
        e = in ? g0 + le : fallback;
        c = in ? c0 + x % per : 0;
        return in;
      };
      // The neighbour indices of all the thread's face nodes first; the rest of where a face
      // node reads (its element and node) is recomputed in its batch, where it costs no load on
      // the path (fmask is a small table).
      constexpr int R = (PerThread + U - 1) / U * U;
      int neighbour[R];
      DGK_UNROLL
      for (int r = 0; r < R; ++r) {
        int e, c;
        locate(rank + r * threads, e, c);
        neighbour[r] = face_node_at<nfp>(ops, mesh, e, c).neighbour;
      }
      DGK_UNROLL
      for (int r0 = 0; r0 < R; r0 += U) {
        const int x0 = rank + r0 * threads;
        if (x0 >= n) break;
        int e[U], c[U];
        bool in[U];
        Real qm[U][nf], qp[U][nf];
        DGK_UNROLL
        for (int u = 0; u < U; ++u) {
          in[u] = locate(x0 + u * threads, e[u], c[u]);
          face_node_states<np>(fields, e[u], FaceNodeAt{read_only(ops.fmask.data() + c[u]), neighbour[r0 + u]},
                               qm[u], qp[u]);
        }
        Real out[U][nf];
        DGK_UNROLL
        for (int u = 0; u < U; ++u) {
          face_flux_of_states<Physics>(mesh, e[u], c[u] / nfp, qm[u], qp[u], out[u]);
          DGK_UNROLL
          for (int f = 0; f < nf; ++f) out[u][f] = in[u] ? out[u][f] : Real(0);
        }
        DGK_UNROLL
        for (int u = 0; u < U; ++u)
          if (x0 + u * threads < n) store(x0 + u * threads, out[u]);
      }
    } else if constexpr (FaceCodes) {
      const int passes = (n + U * threads - 1) / (U * threads);
      for (int p = 0; p < passes; ++p) {
        const int x0 = rank + p * U * threads;
        Real out[U][nf];
        DGK_UNROLL
        for (int u = 0; u < U; ++u) {
          const int x = x0 + u * threads, le = x / per, e = g0 + le, c = c0 + x % per;
          int ep = 0, jp = 0;
          neighbour_of(x, e < end ? e : end - 1, c, ep, jp);
          if (x < n && le < count && e < end) {
            Real qm[nf], qp[nf];
            face_node_states(fields, e, read_only(ops.fmask.data() + c), ep, jp, qm, qp);
            face_flux_of_states<Physics>(mesh, e, c / nfp, qm, qp, out[u]);
          } else {
            for (int f = 0; f < nf; ++f) out[u][f] = Real(0);
          }
        }
        DGK_UNROLL
        for (int u = 0; u < U; ++u)
          if (x0 + u * threads < n) store(x0 + u * threads, out[u]);
      }
    } else {
      for (int x0 = rank; x0 < n; x0 += U * threads) {
        Real out[U][nf];
        DGK_UNROLL
        for (int u = 0; u < U; ++u) {
          const int x = x0 + u * threads, le = x / per, e = g0 + le;
          if (x < n && le < count && e < end) {
            face_node_flux<Physics, nfp, np>(ops, mesh, fields, e, c0 + x % per, out[u]);
          } else {
            for (int f = 0; f < nf; ++f) out[u][f] = Real(0);
          }
        }
        DGK_UNROLL
        for (int u = 0; u < U; ++u)
          if (x0 + u * threads < n) store(x0 + u * threads, out[u]);
      }
    }
  }

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
    write_volume(element_geometry(mesh, e), e, i, dr, ds, dt_);
  }
  /// The same with the element's geometry already read.
  KOKKOS_INLINE_FUNCTION void write_volume(const ElementGeometry<Real>& geo, int e, int i, const Real (&dr)[nf],
                                           const Real (&ds)[nf], const Real (&dt_)[nf]) const {
    Real out[nf];
    volume_term<Physics>(geo, dr, ds, dt_, out);
    Real* r = rhs.data() + static_cast<std::size_t>(e) * nf * np + i;  // rhs: (K, nf, np), unpadded
    for (int f = 0; f < nf; ++f) r[f * np] = out[f];
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

  template <class F>
  static void dispatch_tensor(const KernelShape& s, F&& f) {
    dispatch_paired(s, [&](auto wi, auto paired) { f(TagTensorVolume<decltype(wi)::value, decltype(paired)::value>{}); });
  }

  // The lane-finished kernels: the volume, or with `stage` the whole stage (paired or not: at
  // w_i = 2 the stage's lift pairs LIFT's two row tiles too; at w_i = 1 it holds one), with
  // asynchronous copies where compiled (async_stage_refusal).
  // With node_major, the fused stage on fields stored (element, node, field) (node_major_refusal).
  template <class F>
  static void dispatch_tensor_lanes(const MicroShape& s, bool stage, F&& f, bool node_major = false) {
    auto fields = [&](auto wi, auto paired, auto whole) {
      constexpr int WI = decltype(wi)::value;
      constexpr bool P = decltype(paired)::value, St = decltype(whole)::value;
      // The fields in registers under the cap C (0: none), with the copies or not: on the solver's
      // arrangement, or with node_major on (element, node, field) (the fused stage at w_i = 1).
      auto in_registers = [&](auto cap, auto async) {
        constexpr int C = decltype(cap)::value;
        constexpr bool A = decltype(async)::value;
        if (!node_major && s.lane_update) {
          if constexpr (St && WI == 1 && !A && lanes_update_stage)
            f(TagTensorVolumeLanes<WI, P, true, true, St, C, A, false, false, true>{});
        } else if (!node_major)
          f(TagTensorVolumeLanes<WI, P, true, true, St, C, A>{});
        else if constexpr (St && WI == 1 && lanes_node_major)
          f(TagTensorVolumeLanes<WI, P, true, true, St, C, A, true>{});
      };
      using Uncapped = std::integral_constant<int, 0>;
      using Mid = std::integral_constant<int, tensor_lanes_mid>;
      if (s.merged_product) {
        const std::string why = merged_refusal(s, St);
        DGK_THROW_IF(!why.empty(), "nodal_tet::TunedKernels: " << why);
        DGK_THROW_IF(node_major, "nodal_tet::TunedKernels: the stage as one product (product=merged) reads fields "
                                 "stored (element, field, node) only");
        if constexpr (St && WI == 1 && lanes_merged_stage) {
          auto unrolled = [&](auto cap, auto halves) {
            constexpr int C = decltype(cap)::value;
            constexpr bool G = decltype(halves)::value;
            if constexpr (P && merged_unrolls) {
              static_assert(merged_unroll_max == 3, "dgk::nodal_tet: one launch per unroll factor");
              if (s.volume_unroll == 1)
                return f(TagTensorStageMerged<P, C, G, 1>{});
              else if (s.volume_unroll == 2)
                return f(TagTensorStageMerged<P, C, G, 2>{});
              else if (s.volume_unroll == 3)
                return f(TagTensorStageMerged<P, C, G, 3>{});
            }
            f(TagTensorStageMerged<P, C, G>{});
          };
          auto capped = [&](auto halves) {
            if (s.max_registers == 0)
              unrolled(std::integral_constant<int, 0>{}, halves);
            else if (s.max_registers == tensor_lanes_mid)
              unrolled(std::integral_constant<int, tensor_lanes_mid>{}, halves);
            else
              unrolled(std::integral_constant<int, lanes_merged_cap>{}, halves);
          };
          if (s.gather_halves)
            capped(std::true_type{});
          else
            capped(std::false_type{});
        }
        return;
      }
      DGK_THROW_IF(s.gather_halves || s.volume_unroll != 0, "nodal_tet::TunedKernels: " << merged_refusal(s, St));
      if (node_major) {
        // Only shapes with their fields in registers pass, so only in_registers launches.
        const std::string why = node_major_refusal(s, St);
        DGK_THROW_IF(!why.empty(), "nodal_tet::TunedKernels: " << why);
      }
      if (s.lane_update) {
        // Only the fused stage at w_i = 1 with its fields in registers, uncapped or under the cap
        // of 168, passes, so only in_registers launches.
        const std::string why = lane_update_refusal(s, St, node_major);
        DGK_THROW_IF(!why.empty(), "nodal_tet::TunedKernels: " << why);
      }
      if (s.async_copies) {
        const std::string why = async_stage_refusal(s, St);
        DGK_THROW_IF(!why.empty(), "nodal_tet::TunedKernels: " << why);
        if constexpr (St && WI == 1 && lanes_async_stage) {
          if (s.max_registers == tensor_lanes_mid) {
            if constexpr (lanes_mid_caps) in_registers(Mid{}, std::true_type{});
          } else if (s.register_fields) {
            if constexpr (lane_fields <= max_lane_fields) in_registers(Uncapped{}, std::true_type{});
          } else {
            f(TagTensorVolumeLanes<WI, P, false, true, St, 0, true>{});
          }
        }
        return;
      }
      if (operators_staged(s)) {
        const std::string why = operator_staging_refusal(s, St, false);
        DGK_THROW_IF(!why.empty(), "nodal_tet::TunedKernels: " << why);
        if constexpr (!St && lane_fields <= max_lane_fields)
          f(TagTensorVolumeLanes<WI, P, true, true, St, 0, false, false, true>{});
        return;
      }
      if (s.max_registers != 0) {
        const std::string why = lanes_cap_refusal(s, St);
        DGK_THROW_IF(!why.empty(), "nodal_tet::TunedKernels: " << why);
        if (s.max_registers == tensor_lanes_cap) {
          if constexpr (lanes_register_caps && !St && !P)
            f(TagTensorVolumeLanes<WI, P, true, true, St, tensor_lanes_cap>{});
        } else if (s.max_registers == tensor_lanes_mid) {
          if constexpr (lanes_mid_caps && WI == 1) in_registers(Mid{}, std::false_type{});
        } else if constexpr (lanes_open_bounds && !P) {
          f(TagTensorVolumeLanes<WI, P, true, true, St, tensor_lanes_open>{});
        }
      } else if (s.register_fields)
        in_registers(Uncapped{}, std::false_type{});
      else if (s.unrolled)
        f(TagTensorVolumeLanes<WI, P, false, true, St>{});
      else
        f(TagTensorVolumeLanes<WI, P, false, false, St>{});
    };
    dispatch_lanes(s, [&](auto wi, auto paired) {
      if (stage)
        fields(wi, paired, std::true_type{});
      else
        fields(wi, paired, std::false_type{});
    });
  }

  // The tensor-core lifts, and under the register cap (tensor_lift_cap) those with w_i <= 2,
  // unpaired; with batched loads (unpaired) either way.
  template <class F>
  static void dispatch_tensor_lift(const KernelShape& s, F&& f) {
    dispatch_paired(s, [&](auto wi, auto paired) {
      constexpr int WI = decltype(wi)::value;
      constexpr bool P = decltype(paired)::value;
      DGK_THROW_IF(s.batched_loads && P, "nodal_tet::TunedKernels: batched loads in the tensor-core lift take "
                                         "unpaired row tiles");
      if (s.loads_ahead) {
        const std::string why = ahead_lift_refusal(s);
        DGK_THROW_IF(!why.empty(), "nodal_tet::TunedKernels: " << why);
        if constexpr (WI == 1 && !P) f(TagTensorLift<1, false, 0, false, false, true>{});
        return;
      }
      if (s.async_copies) {
        const std::string why = async_lift_refusal(s);
        DGK_THROW_IF(!why.empty(), "nodal_tet::TunedKernels: " << why);
        if constexpr (WI <= 2 && !P) {
          if (s.max_registers == 0)
            f(TagTensorLift<WI, false, 0, false, true>{});
          else
            f(TagTensorLift<WI, false, tensor_lift_cap, false, true>{});
        }
        return;
      }
      if (s.max_registers == 0) {
        if (!s.batched_loads)
          f(TagTensorLift<WI, P>{});
        else if constexpr (!P)
          f(TagTensorLift<WI, P, 0, true>{});
      } else if constexpr (WI <= 2 && !P) {
        DGK_THROW_IF(s.max_registers != tensor_lift_cap,
                     "nodal_tet::TunedKernels: the tensor-core lift is compiled for a register cap of "
                         << tensor_lift_cap << " (asked: " << s.max_registers << ")");
        if (s.batched_loads)
          f(TagTensorLift<WI, P, tensor_lift_cap, true>{});
        else
          f(TagTensorLift<WI, P, tensor_lift_cap>{});
      } else {
        DGK_THROW_IF(true, "nodal_tet::TunedKernels: a register cap for the tensor-core lift takes w_i <= 2 "
                           "unpaired row tiles");
      }
    });
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

  // The kernels are light weight for Kokkos: on CUDA the functor (under Kokkos's 4 KB limit for
  // kernel arguments) goes as a kernel argument instead of through constant memory, which Kokkos
  // would otherwise copy in the stream before every launch after waiting for the previous such
  // launch to finish (a few microseconds per launch, which the short kernels of the low orders
  // feel; docs/PERFORMANCE.md, "What Kokkos costs"). It is another kernel, with its own limits,
  // so the checks use the same policy type as the launches.
  template <class... Traits>
  static auto light(Kokkos::TeamPolicy<Traits...> p) {
    return Kokkos::Experimental::require(p, Kokkos::Experimental::WorkItemProperty::HintLightWeight);
  }
  // Why the volume shape's register cap is not compiled (empty if it is, or if it has none).
  static std::string register_cap_refusal(const KernelShape& s) {
    if (s.max_registers == 0 ||
        (register_caps && s.rows == 1 && s.inline_blocks == 1 && (s.max_registers == 64 || s.max_registers == 72)))
      return {};
    std::ostringstream o;
    o << "a register cap is compiled for the micro volume kernel with w_i = r_i = 1 on the GPU, where an "
         "element's nodes fit one warp: 64 or 72 registers (asked: "
      << s.max_registers << " with w_i = " << s.inline_blocks << ", r_i = " << s.rows << ", np = " << np
      << (host ? ", a host build)" : ")");
    return o.str();
  }
  // A tag's team policy: with a register cap, launch bounds of one-warp teams.
  template <class Tag, int Cap = RegisterCap<Tag>::value>
  struct PolicyFor {
    static constexpr int team = CappedTeam<Tag>::value;
    using type = Kokkos::TeamPolicy<ExecutionSpace, Tag, Kokkos::LaunchBounds<team, teams_per_sm(Cap, team)>>;
  };
  template <class Tag>
  struct PolicyFor<Tag, 0> {
    using type = Kokkos::TeamPolicy<ExecutionSpace, Tag>;
  };
  template <class Tag>
  using PolicyOf = typename PolicyFor<Tag>::type;

  template <class Tag>
  auto policy(const ExecutionSpace& space, int per_team, std::size_t scratch, int team) const {
    const int teams = (end - begin + per_team - 1) / per_team;
    return light(PolicyOf<Tag>(space, teams > 0 ? teams : 1, team).set_scratch_size(0, Kokkos::PerTeam(scratch)));
  }

  template <class Tag>
  std::string check(const ExecutionSpace& space, std::size_t scratch, int team) const {
    const auto p = light(PolicyOf<Tag>(space, 1, 1));
    std::ostringstream why;
    const std::size_t room = p.scratch_size_max(0);
    // The largest team Kokkos launches with this scratch (up to its limit): where a team may have
    // more than a block's default 48 KB (scripts/patches), the blocks a kernel's launch bounds
    // ask per multiprocessor may not fit the multiprocessor's shared memory.
    const int most =
        light(PolicyOf<Tag>(space, 1, 1).set_scratch_size(0, Kokkos::PerTeam(std::min(scratch, room))))
            .team_size_max(*this, Kokkos::ParallelForTag());
    if (team > most)
      why << team << " threads per team, more than the " << most << " this kernel can launch with " << scratch
          << " bytes of team scratch";
    if (scratch > room)
      why << (why.tellp() > 0 ? "; " : "") << scratch << " bytes of team scratch, more than the " << room
          << " available";
    return why.str();
  }

  // Launches without checking: the solver checks a shape once, when it is chosen (infeasible_*).
  template <class Tag>
  void launch(const ExecutionSpace& space, const char* label, int per_team, std::size_t scratch, int team) const {
    if (end <= begin) return;
    const auto p = policy<Tag>(space, per_team, scratch, team);
    Kokkos::parallel_for(label, p, *this);
    fit_team_shared_carveout<TunedKernels>(p, scratch, stage_carveout, shape.resident_teams);
  }
};

}  // namespace dgk::kernels::nodal_tet
