// Run-time parameters of the tunable nodal kernels (dgk/kernels/nodal_tet/tuned.hpp): plain data,
// so that the autotuner, its cache and the command line use them without Kokkos.
#pragma once

namespace dgk::kernels::nodal_tet {

/// What a micro kernel stages in team scratch ("field in shared", "operator in shared", both).
/// The volume finished by the lanes with its fields in registers takes Fields (the default: its
/// operator from memory) or Operator: each team first copies D_r, D_s and D_t's fragments into
/// its scratch and its warps read them there, for all of the team's groups (beyond N = 3 more
/// than the 48 KB a CUDA block has without opting in, docs/GPU.md).
enum class Staging { Fields = 1, Operator = 2, Both = 3 };
/// How the lift meets the flux gather and the update. FusedStage runs the whole LSERK stage in the
/// volume kernel (the tensor-core volume finished by the lanes, with the gather, the lift and the
/// update): no lift kernel, and rhs never reaches memory.
enum class LiftMode { Split, FusedLift, FusedUpdate, FusedStage };
/// Which implementation a stage runs.
enum class StageKernel { Thread, Micro, Batched, Tensor };

/// The most B values per lane the lane-finished tensor volume (and fused stage) is compiled to
/// keep in registers (MicroShape::register_fields): kst = ceil(np / 4) k-steps times
/// (nf + 1) / 2 column tiles, so up to N = 6 for Maxwell (docs/PERFORMANCE.md, "Fields in
/// registers at N = 6").
inline constexpr int max_lane_register_fields = 64;
/// The largest factor by which the stage as one product unrolls its volume's k-steps
/// (MicroShape::volume_unroll; the kernels and the tuner's search).
inline constexpr int merged_unroll_max = 3;

/// Work distribution of a micro kernel (the parameters of paper 000, Table 3) as the kernels read
/// it: the part of MicroShape that TunedKernels carries to the device. Its layout is that of the
/// kernels' argument, so a field added here moves the others' offsets in every kernel's code;
/// the latency-bound volumes at N = 8 and 9 are sensitive even to that (nvcc scheduled them 25%
/// slower after a 4-byte shift; docs/PERFORMANCE.md, "The fused stage's update by its lanes").
/// Choices that only pick a kernel belong to MicroShape.
struct KernelShape {
  int elements = 1;       ///< k, elements per microblock
  int inline_blocks = 1;  ///< w_i, microblocks per thread: 1, 2 or 4
  int sequential = 1;     ///< w_s, groups a team handles one after the other
  Staging staging = Staging::Fields;
  int rows = 1;           ///< r_i, nodes per thread (the volume kernel): 1 or 2, w_i r_i <= 4
  /// The kernel compiled with at most this many registers per thread (Kokkos launch bounds; 0:
  /// the compiler's choice). The micro volume kernel for teams of one warp (GPU builds, np <= 32,
  /// w_i = r_i = 1): 72 (28 teams of a warp per SM) or 64 (32); the tensor-core lift for teams
  /// of up to 8 warps (w_i <= 2, unpaired): 64 (four teams of 8 warps per SM).
  int max_registers = 0;
  // The tensor-core kernels read `elements` (elements per group), `sequential`,
  // `inline_blocks` (8-row tiles of the operator per warp: 1, 2 or 4) and these:
  int warps = 4;   ///< warps per team
  int passes = 1;  ///< volume: passes over the element's nodes (fewer rows of D q in scratch at a time)
  bool staged_product = false;  ///< lift: the product passes through scratch (a coalesced epilogue)
  bool paired_tiles = false;    ///< row tiles two by two into one m16n8k4 (compute capability 9.0): w_i >= 2,
                                ///< or the lane-finished volume (three row tiles per pass) at any w_i
  /// volume: each lane finishes the volume term of one element and node from its accumulators
  /// (four elements per warp, k = 4; the product never enters scratch), w_i = 1 or 2, one pass
  bool lane_epilogue = false;
  /// with lane_epilogue: the fields stay in registers as the product's operand (no team scratch)
  bool register_fields = false;
  /// with lane_epilogue: the staging and the k-steps unrolled (always so with register_fields)
  bool unrolled = false;
  /// tensor-core lift, unpaired: the epilogue loads rhs, res and q of a value (of a lane's two
  /// values of a tile, where the product lands) before it stores any, rather than value by
  /// value with q after the store to res: more loads in flight per thread, more registers
  bool batched_loads = false;
  /// tensor-core lift, product through scratch: each group starts with asynchronous copies of its
  /// rhs (and res, q in the fused update) into team scratch (cp.async, compute capability 8.0),
  /// which land while the team gathers and multiplies; the epilogue then reads scratch only
  bool async_copies = false;
  /// tensor-core lift at w_i = 1 (unpaired, uncapped, without batched loads or asynchronous
  /// copies): LIFT's fragments loaded several k-steps before their products (lift_a_ahead), the
  /// flux's from team scratch at their k-step; at w_i = 2 both are always loaded one k-step ahead
  bool loads_ahead = false;
  /// The micro and tensor-core kernels, CUDA builds that fit shared-memory carveouts: at most this
  /// many teams resident per multiprocessor (0: as many as registers and threads allow), through
  /// a carveout sized for them; fewer teams leave more of the multiprocessor's memory to the L1
  /// and fewer warps waiting on it (dgk/core/shared_carveout.hpp)
  int resident_teams = 0;
  /// Elements per team.
  int team_elements() const { return elements * inline_blocks * sequential; }
};

/// Work distribution of a micro kernel: what the kernels read, and the choices among compiled
/// kernels that are made on the host.
struct MicroShape : KernelShape {
  /// the fused stage at w_i = 1, fields in registers: the lane that finishes a value loads its
  /// res and q and stores the new res and q_out itself, so that rhs and res never enter team
  /// scratch (a smaller carveout, more L1 for the operators)
  bool lane_update = false;
  /// the fused stage at w_i = 1 as one product (product=merged): each lane applies the physics'
  /// volume term to its fields one reference direction at a time (with the element's metric
  /// terms and material, before the products: the term is linear), so that D_r, D_s, D_t and
  /// LIFT accumulate rhs in the same registers; a warp holds all of its elements' row tiles in
  /// one pass, reads its fields at each k-step and updates in memory from its lanes
  bool merged_product = false;
  /// with merged_product: the flux gathered in two halves of LIFT's k-steps, the second after
  /// the first half's products (printed gather=halves), so that a warp's scratch holds half the
  /// flux fragments
  bool gather_halves = false;
  /// with merged_product, paired row tiles at N = 3 and 4: the volume's k-steps unrolled by this
  /// factor (1: a loop of single k-steps; 0: all, printed only where not 0 as vunroll=U), which
  /// decides how many of their loads ptxas keeps in flight, so its registers and spills
  int volume_unroll = 0;
};

/// The tuned nodal kernels of one order: the volume kernel, the lift kernel and how the lift
/// meets the gather and the update. Thread is TeamKernels (one team per element); Batched uses
/// `batch` elements per team; Tensor (the volume kernel only) runs on FP64 tensor cores; the
/// fused modes run the micro lift.
struct NodalTuning {
  StageKernel volume = StageKernel::Thread;
  MicroShape volume_shape;
  StageKernel lift = StageKernel::Thread;
  MicroShape lift_shape;
  LiftMode mode = LiftMode::Split;
  int batch = 1;
  /// CUDA builds, stages of two kernels or more: the stage's kernels share one shared-memory
  /// carveout, the largest any of them needs, instead of each its own (dgk/core/shared_carveout.hpp)
  bool stage_carveout = false;
};

/// The shape of the volume kernel that runs a fused stage's volume part alone (the solver's
/// volume(), the plain CUDA comparison). The stage as one product has no volume kernel of its
/// own: its volume part is the lane-finished volume with its fields in scratch, uncapped (its
/// caps are the merged kernel's).
inline MicroShape volume_part(MicroShape s) {
  if (s.merged_product) s.max_registers = 0;
  return s;
}

/// The whole stage in one kernel, finished by the lanes on the tensor cores (the fused-stage mode),
/// with its fields in registers: four elements per warp, one row tile per pass (w_i = 1),
/// `sequential` groups per team of `warps` warps. The shapes that compile for fields stored
/// either way (TunedKernels::node_major_refusal).
inline NodalTuning lane_stage_in_registers(int sequential, int warps, bool paired, bool async_copies,
                                           int max_registers) {
  NodalTuning t;
  t.mode = LiftMode::FusedStage;
  t.volume = StageKernel::Tensor;
  t.volume_shape.elements = 4;
  t.volume_shape.sequential = sequential;
  t.volume_shape.warps = warps;
  t.volume_shape.paired_tiles = paired;
  t.volume_shape.lane_epilogue = true;
  t.volume_shape.register_fields = true;
  t.volume_shape.unrolled = true;
  t.volume_shape.async_copies = async_copies;
  t.volume_shape.max_registers = max_registers;
  return t;
}

}  // namespace dgk::kernels::nodal_tet
