// The autotuner of the nodal tetrahedral kernels (paper 000, section 6): for one (case, order,
// precision, execution space, device) it times the variants of dgk/kernels/nodal_tet/tuned.hpp
// on the run's own mesh, keeps the fastest, and remembers the choice in a cache file so that
// later runs on the same device use it without timing again.
//
// The search, stage by stage (each timing is the median of `reps` fenced launches after a
// warm-up; in a distributed run the slowest rank's, so every rank makes the same choice):
//  1. volume: the thread kernel, the batched kernel for a few team sizes, and the micro kernel:
//     first every microblock size k (k np within the team limit, padding waste bounded) with every
//     staging at w_i = w_s = 1, then w_i x w_s (x r_i, nodes per thread, for the volume) for the
//     three best (k, staging), and for the volume on the GPU, where an element's nodes fit a
//     warp, one-warp teams under a register cap of 64 or 72 (x w_s); where the build has FP64
//     tensor cores (CUDA, double), the
//     tensor-core kernel: elements per group (x passes over the nodes for the volume, x the
//     product in registers or through scratch for the lift) at 4 warps and w_i = 2, then
//     w_i x warps x w_s x paired row tiles (m16n8k4, where the GPU has it) for the three best
//     (for the lift also under a register cap of 64 and with batched loads, capped or not, and
//     with asynchronous copies through scratch, capped or not: w_i = 1, 2 x 4, 8 warps and, uncapped,
//     one warp per item of the products (w_i row tiles by three column tiles) and beyond eight
//     items half as many; at w_i = 1 uncapped also with the next k-step's fragments loaded
//     ahead; then the
//     three fastest lifts with fewer resident teams, as many warps per SM as two or three teams
//     of eight warps, where the build fits shared-memory carveouts);
//     and the tensor-core volume finished by the lanes: its fields in registers, in scratch, or
//     in scratch with unrolled k-steps, x warps, then w_i x w_s x paired for the three best
//     (with its fields in registers also w_i x w_s under a register cap of 64, compiled at
//     N <= 3, and under launch bounds of 168 and of 255 registers);
//  2. lift, the same way, in each mode: split (the flux from the surface kernel through memory;
//     thread, batched, micro and tensor), fused lift (gather and lift in one kernel), fused update
//     (also the LSERK update), each with the micro and the tensor-core kernel;
//  3. where the build has FP64 tensor cores, the whole stage in one kernel (fused stage: the
//     volume finished by the lanes with the gather, the lift and the update), searched like that
//     volume kernel but timed as whole stages, its first round also with the update by the lanes
//     (fields in registers, x warps), whose refinements follow for the three best;
//  4. the whole RK stage for the best of each mode, with the best volume kernel and with the
//     next two volume kernels (whatever their times alone), and the best fused stage: the
//     fastest stage wins.
// Candidates that cannot launch (scratch or threads beyond the backend's limits) are skipped.
// Every stage timed in 3 and 4 is first checked against the straightforward kernels' stage from
// the same state (NodalTunable::stage_deviation): one that does not compute it (a kernel wrong
// on this device or compiler) is refused, reported on standard error and in the result, and
// never chosen.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "dgk/kernels/nodal_tet/tuning_shape.hpp"

namespace dgk::physics {

enum class TunedPart { Volume, Lift, Stage };

/// What the tuner needs of a solver (TetSolver implements it).
/// The fused stage on its fields stored two ways (NodalTunable::compare_stage_layouts).
struct StageLayoutComparison {
  std::string why;  ///< why it could not run (empty if it ran)
  /// Median seconds of one stage (a = 1, b = dt = 0, as time_part), [0]: the fields stored
  /// (element, field, node), the solver's; [1]: (element, node, field). The smaller of two
  /// medians each, taken alternately.
  double seconds[2] = {0, 0};
  /// Largest difference of res and of q_out between the two after one stage (a = 1/2, b = 1/4,
  /// dt = 1/100, res starting as q), and the largest |q_out|.
  double max_difference = 0, max_value = 0;
};

class NodalTunable {
 public:
  virtual ~NodalTunable() = default;
  /// Why `t` cannot run on this solver's execution space (empty if it can).
  virtual std::string infeasible(const kernels::nodal_tet::NodalTuning& t) const = 0;
  /// Runs the tuned family with `t` from now on; throws dgk::Error if it cannot run.
  virtual void set_tuning(const kernels::nodal_tet::NodalTuning& t) = 0;
  /// Median seconds of a part of the current tuning: the volume kernel, the lift kernel (split:
  /// the lift alone; fused: the fused kernel, gather included), or one whole RK stage. Leaves
  /// the state valid (the update runs with a = 1, b = dt = 0). Collective in a distributed run.
  virtual double time_part(TunedPart part, int reps) = 0;
  /// How far one RK stage of the current tuning lands from one of the straightforward (thread)
  /// kernels from the same state, in units of the rounding the stage may make: at most 1 where
  /// the tuning computes the same stage, far above where it does not. Leaves the state as it was.
  /// Collective in a distributed run.
  virtual double stage_deviation() = 0;
  /// The current tuning's fused stage (volume, gather, lift and update in one kernel) on copies of
  /// the state stored as the solver stores it, (element, field, node), and (element, node, field)
  /// (kernels::nodal_tet::NodeMajorFields): one stage on each, compared, then each timed. The
  /// state is untouched. `why` says what stops it: another mode, or a shape not compiled for
  /// the node-major arrangement.
  virtual StageLayoutComparison compare_stage_layouts(int reps) = 0;
  /// Whether the tuned flux gathers find the neighbour nodes by the mesh's face codes
  /// (mesh::FaceCodes; the default where the mesh has them) or by the per-node map: sets it
  /// (false always takes the map), and returns what the gathers now take.
  virtual bool use_face_codes(bool on) = 0;
  /// Nodes per element, and whether the kernels run on the host (one thread per team).
  virtual int nodes_per_element() const = 0;
  virtual bool host_kernels() const = 0;
  /// The hardware, in words (part of the cache key).
  virtual std::string device() const = 0;
};

/// What a tuning is for.
struct TuningKey {
  std::string physics;    ///< "maxwell3d", "acoustic3d"
  int order = 1;
  std::string precision;  ///< "float", "double"
  std::string backend;    ///< "cuda", "openmp", "serial"
  std::string device;
  /// "nodal" or "bernstein": the tuned kernels on the Bernstein basis' operators may choose
  /// otherwise (a cache entry without it is nodal).
  std::string basis = "nodal";
  /// The ptxas that assembled the GPU code ("ptxas 13.0.88"; backends::device_code_generator),
  /// or "" where it does not apply. A cache entry that names none was tuned before dgk recorded
  /// it and serves any code generator that has no entry of its own.
  std::string codegen{};
};

struct TuningTrial {
  /// "volume", "lift split", "lift fused-lift", "lift fused-update", "volume+surface+lift+update", "stage"
  std::string part;
  kernels::nodal_tet::NodalTuning tuning;
  double seconds = 0;
};

struct TuningResult {
  kernels::nodal_tet::NodalTuning choice;
  double stage_seconds = 0;     ///< one RK stage with the choice
  double baseline_seconds = 0;  ///< one RK stage with the straightforward (thread) kernels
  int elements = 0;             ///< of the mesh it was timed on
  std::vector<TuningTrial> trials;
  /// Stages refused because they did not compute the straightforward kernels' stage (seconds:
  /// their stage_deviation); none where every kernel is right.
  std::vector<TuningTrial> rejected;
};

/// Times the candidates on `solver` and leaves it running the fastest. `log`, if given, gets one
/// line per stage of the search.
TuningResult tune_nodal(NodalTunable& solver, int elements, int reps = 5, std::ostream* log = nullptr);

/// The tuning cache: a JSON file of choices by key. The path is $DGK_TUNING_CACHE, else
/// ${XDG_CACHE_HOME:-$HOME/.cache}/dgk/tuning.json.
class TuningCache {
 public:
  explicit TuningCache(std::string path = default_path());
  static std::string default_path();
  const std::string& path() const { return m_path; }
  /// The stored choice for `key`, if any. Throws dgk::Error naming the file and the entry if the
  /// file exists but cannot be read as a tuning cache.
  std::optional<TuningResult> find(const TuningKey& key) const;
  /// Adds or replaces the entry of `key` (the file is rewritten whole, through a temporary file
  /// renamed into place, so a reader never sees half a file).
  void store(const TuningKey& key, const TuningResult& result) const;

 private:
  std::string m_path;
};

}  // namespace dgk::physics
