// The tunable nodal kernels (dgk/kernels/nodal_tet/tuned.hpp) and their autotuner:
//  - every variant (micro volume and lift with each staging, w_i, w_s and microblock size, the
//    volume also with two nodes per thread; the tensor-core volume (its product through scratch
//    or finished by the lanes) and lift kernels (also under a register cap, and with batched
//    loads) where they are built; the batched team-GEMM kernels; the fused gather + lift and the fused gather + lift
//    + update; the whole stage in one kernel, finished by the lanes, where the tensor cores
//    are built)
//    takes the same LSERK step as the straightforward kernels, for every compiled order, in
//    double and float, on every enabled execution space, within a first-order rounding bound;
//  - the tuner picks a choice that runs and is no slower than what it timed for the baseline,
//    the cache keeps it (and refuses a damaged file with its name), and a case uses it.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include <Eigen/Dense>

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/tensor_core.hpp"
#include "dgk/core/order_dispatch.hpp"
#include "dgk/core/shared_carveout.hpp"
#include "dgk/kernels/nodal_tet/tuned.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/physics/maxwell3d.hpp"
#include "dgk/physics/tet_case.hpp"
#include "dgk/physics/tet_tuning.hpp"
#include "dgk_test_spaces.hpp"

namespace dgk::Testing {
namespace {

namespace nt = kernels::nodal_tet;
using physics::NodalTunable;
using physics::TetKernelFamily;

/// Safety factor over the first-order rounding bound (it holds up to modest constants).
constexpr double kSafety = 4.0;

/// The 2 x 2 x 2 box (48 elements) under an affine map with small vertex moves and materials in
/// [0.5, 2], so that metric terms and material jumps differ between elements.
mesh::TetMesh test_box() {
  mesh::BoxSpec spec;
  spec.cells = {2, 2, 2};
  auto m = mesh::make_box(spec);
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> move(-0.03, 0.03), coef(0.5, 2.0);
  for (auto& v : m.vertices) {
    const std::array<double, 3> x{v[0] + move(gen), v[1] + move(gen), v[2] + move(gen)};
    v = {x[0] + 0.2 * x[1] + 0.1 * x[2], 0.1 * x[0] + 0.9 * x[1] + 0.15 * x[2], 0.05 * x[0] + 0.1 * x[1] + 1.1 * x[2]};
  }
  for (auto& mat : m.material) mat = {coef(gen), coef(gen)};
  return m;
}

/// Every variant the tuned family offers, with parameters that exercise partial microblocks
/// (k = 3 does not divide 48 elements per group with w_i, w_s > 1), each staging and w_i.
std::vector<nt::NodalTuning> variants() {
  std::vector<nt::NodalTuning> all;
  const nt::NodalTuning base{};
  for (nt::Staging st : {nt::Staging::Fields, nt::Staging::Operator, nt::Staging::Both})
    for (int wi : {1, 2, 4})
      for (auto [k, ws] : {std::pair{1, 1}, std::pair{3, 3}, std::pair{5, 2}}) {
        nt::NodalTuning t = base;
        t.volume = nt::StageKernel::Micro;
        t.volume_shape = {k, wi, ws, st};
        t.lift = nt::StageKernel::Micro;
        t.lift_shape = {k, wi, ws, st};
        all.push_back(t);
        for (nt::LiftMode mode : {nt::LiftMode::FusedLift, nt::LiftMode::FusedUpdate}) {
          t.mode = mode;
          all.push_back(t);
        }
      }
  // Two nodes per thread in the volume kernel (np odd at N = 1, 3, ...: a last row past np).
  for (int wi : {1, 2})
    for (auto [k, ws] : {std::pair{1, 1}, std::pair{3, 2}}) {
      nt::NodalTuning t = base;
      t.volume = nt::StageKernel::Micro;
      t.volume_shape = {k, wi, ws, nt::Staging::Fields, 2};
      all.push_back(t);
    }
  // The volume kernel under a register cap, one-warp teams (GPU builds, np <= 32; k = 3 fills a
  // warp only at N = 1, 2).
  for (int cap : {64, 72})
    for (auto [k, ws, st] : {std::tuple{1, 1, nt::Staging::Fields}, std::tuple{3, 2, nt::Staging::Both}}) {
      nt::NodalTuning t = base;
      t.volume = nt::StageKernel::Micro;
      t.volume_shape = {k, 1, ws, st};
      t.volume_shape.max_registers = cap;
      all.push_back(t);
    }
  // The tensor-core volume kernel: partial groups (k = 3, 5), several warps, row tiles per warp,
  // passes over the nodes (more passes than row tiles at low orders) and sequential groups.
  // The tensor-core lift likewise, in each mode.
  auto tensor_shape = [](int k, int wi, int ws, int warps, int passes) {
    nt::MicroShape s;
    s.elements = k;
    s.inline_blocks = wi;
    s.sequential = ws;
    s.warps = warps;
    s.passes = passes;
    return s;
  };
  for (auto [k, wi, ws, warps, passes] : {std::array{1, 1, 1, 1, 1}, std::array{3, 2, 2, 3, 2},
                                          std::array{5, 4, 3, 4, 3}, std::array{2, 1, 1, 8, 1},
                                          std::array{1, 2, 1, 4, 64}}) {
    for (bool paired : {false, true}) {
      if (paired && wi < 2) continue;
      nt::NodalTuning t = base;
      t.volume = nt::StageKernel::Tensor;
      t.volume_shape = tensor_shape(k, wi, ws, warps, passes);
      t.volume_shape.paired_tiles = paired;
      all.push_back(t);
    }
  }
  // The tensor-core volume finished by the lanes: fields in registers or in each warp's scratch,
  // one or two row tiles per pass (paired or not), warps and sequential groups that leave the
  // last team partly empty.
  // fields: 0 in scratch, 1 in scratch with the k-steps unrolled, 2 in registers.
  for (auto [wi, ws, warps, pair, fields] : {std::array{1, 1, 1, 0, 2}, std::array{1, 3, 1, 0, 0},
                                             std::array{2, 2, 3, 0, 2}, std::array{2, 1, 4, 1, 0},
                                             std::array{2, 3, 1, 1, 2}, std::array{1, 2, 1, 0, 1},
                                             std::array{2, 1, 2, 1, 1}, std::array{1, 2, 1, 1, 2},
                                             std::array{1, 1, 3, 1, 0}}) {
    nt::NodalTuning t = base;
    t.volume = nt::StageKernel::Tensor;
    t.volume_shape = tensor_shape(4, wi, ws, warps, 1);
    t.volume_shape.paired_tiles = pair != 0;
    t.volume_shape.lane_epilogue = true;
    t.volume_shape.register_fields = fields == 2;
    t.volume_shape.unrolled = fields >= 1;
    all.push_back(t);
  }
  // The same with its fields in registers under a register cap (64: compiled at N <= 3 on the
  // tensor cores; 168: N = 3..5, w_i = 1, teams of up to two warps, in the fused stage too, paired
  // or not) or launch bounds of one team per SM (255: wherever the fields fit registers, in the
  // fused stage too): one or two row tiles per pass, a partly empty last team. Uncapped, the
  // volume with D_r, D_s, D_t's fragments in team scratch (ops: one copy for the team's groups),
  // paired or not, with several warps and groups in sequence.
  for (auto [wi, ws, warps, cap, stage, pair, ops] :
       {std::array{1, 1, 4, 64, 0, 0, 0}, std::array{2, 3, 3, 64, 0, 0, 0}, std::array{1, 1, 2, 255, 0, 0, 0},
        std::array{2, 3, 3, 255, 0, 0, 0}, std::array{1, 2, 1, 255, 1, 0, 0}, std::array{2, 3, 1, 255, 1, 0, 0},
        std::array{1, 3, 2, 168, 0, 0, 0}, std::array{1, 2, 1, 168, 1, 0, 0}, std::array{1, 3, 2, 168, 0, 1, 0},
        std::array{1, 3, 2, 168, 1, 1, 0}, std::array{1, 2, 4, 0, 0, 0, 1}, std::array{2, 3, 3, 0, 0, 1, 1},
        std::array{1, 1, 1, 0, 0, 1, 1}}) {
    nt::NodalTuning t = base;
    if (stage) t.mode = nt::LiftMode::FusedStage;
    t.volume = nt::StageKernel::Tensor;
    t.volume_shape = tensor_shape(4, wi, ws, warps, 1);
    t.volume_shape.paired_tiles = pair != 0;
    t.volume_shape.lane_epilogue = true;
    t.volume_shape.register_fields = true;
    t.volume_shape.unrolled = true;
    t.volume_shape.max_registers = cap;
    if (ops) t.volume_shape.staging = nt::Staging::Operator;
    all.push_back(t);
  }
  // The whole stage finished by the lanes (volume, gather, lift and update in one kernel): the
  // same fields in registers or scratch, one or two row tiles per pass (paired or not), partly
  // empty teams.
  for (auto [wi, ws, warps, fields, pair] :
       {std::array{1, 1, 1, 2, 0}, std::array{1, 3, 1, 0, 0}, std::array{2, 2, 3, 2, 0}, std::array{2, 1, 4, 0, 0},
        std::array{1, 2, 2, 1, 0}, std::array{1, 2, 1, 2, 1}, std::array{2, 3, 2, 0, 1}, std::array{2, 1, 1, 1, 1}}) {
    nt::NodalTuning t = base;
    t.mode = nt::LiftMode::FusedStage;
    t.volume = nt::StageKernel::Tensor;
    t.volume_shape = tensor_shape(4, wi, ws, warps, 1);
    t.volume_shape.paired_tiles = pair != 0;
    t.volume_shape.lane_epilogue = true;
    t.volume_shape.register_fields = fields == 2;
    t.volume_shape.unrolled = fields >= 1;
    all.push_back(t);
  }
  // The fused stage at w_i = 1, unrolled: w_s groups in sequence, paired or not, under the cap.
  auto fused_stage = [&](int ws, int warps, bool paired, int cap) {
    nt::NodalTuning t = base;
    t.mode = nt::LiftMode::FusedStage;
    t.volume = nt::StageKernel::Tensor;
    t.volume_shape = tensor_shape(4, 1, ws, warps, 1);
    t.volume_shape.paired_tiles = paired;
    t.volume_shape.lane_epilogue = true;
    t.volume_shape.unrolled = true;
    t.volume_shape.max_registers = cap;
    return t;
  };
  // The fused stage with asynchronous copies of res (w_i = 1): fields in registers (uncapped or
  // under the cap of 168) or in scratch unrolled, paired or not, partly empty teams and groups in
  // sequence (the warp's scratch reused).
  for (auto [ws, warps, fields, pair, cap] :
       {std::array{1, 1, 2, 0, 0}, std::array{3, 2, 2, 1, 0}, std::array{2, 1, 1, 0, 0}, std::array{3, 3, 1, 1, 0},
        std::array{2, 1, 2, 0, 168}, std::array{3, 2, 2, 1, 168}}) {
    nt::NodalTuning t = fused_stage(ws, warps, pair != 0, cap);
    t.volume_shape.register_fields = fields == 2;
    t.volume_shape.async_copies = true;
    all.push_back(t);
  }
  // The fused stage whose lanes update the values they finish in memory (w_i = 1, fields in
  // registers, uncapped or under the cap of 168, paired or not; partly empty teams, groups in
  // sequence).
  for (auto [ws, warps, pair, cap] :
       {std::array{1, 1, 0, 0}, std::array{3, 2, 1, 0}, std::array{2, 1, 0, 168}, std::array{3, 2, 1, 168}}) {
    nt::NodalTuning t = fused_stage(ws, warps, pair != 0, cap);
    t.volume_shape.register_fields = true;
    t.volume_shape.lane_update = true;
    all.push_back(t);
  }
  // The stage as one product (w_i = 1, fields read at each k-step, uncapped or under the caps of
  // 168 and 128, paired or not; partly empty teams, groups in sequence), its flux gathered ahead
  // into scratch at once or in two halves.
  for (bool halves : {false, true})
    for (auto [ws, warps, pair, cap] :
         {std::array{1, 1, 0, 0}, std::array{3, 2, 1, 0}, std::array{2, 1, 0, 168}, std::array{3, 2, 1, 128}}) {
      nt::NodalTuning t = fused_stage(ws, warps, pair != 0, cap);
      t.volume_shape.merged_product = true;
      t.volume_shape.gather_halves = halves;
      all.push_back(t);
    }
  // The same, paired, with the volume's k-steps unrolled by 1, 2 and 3 (compiled at N = 3 and 4,
  // where N = 4 forms Maxwell's volume in halves; partly empty teams, groups in sequence).
  for (bool halves : {false, true})
    for (auto [ws, warps, cap, unroll] :
         {std::array{3, 2, 0, 1}, std::array{2, 1, 168, 2}, std::array{3, 2, 128, 3}, std::array{1, 1, 0, 3}}) {
      nt::NodalTuning t = fused_stage(ws, warps, true, cap);
      t.volume_shape.merged_product = true;
      t.volume_shape.gather_halves = halves;
      t.volume_shape.volume_unroll = unroll;
      all.push_back(t);
    }
  for (nt::LiftMode mode : {nt::LiftMode::Split, nt::LiftMode::FusedLift, nt::LiftMode::FusedUpdate})
    for (auto [k, wi, ws, warps] : {std::array{1, 1, 1, 1}, std::array{3, 2, 2, 3}, std::array{5, 4, 1, 4}})
      for (bool staged : {false, true})
        for (bool paired : {false, true}) {
          if (paired && wi < 2) continue;
          nt::NodalTuning t = base;
          t.lift = nt::StageKernel::Tensor;
          t.lift_shape = tensor_shape(k, wi, ws, warps, 1);
          t.lift_shape.staged_product = staged;
          t.lift_shape.paired_tiles = paired;
          t.mode = mode;
          all.push_back(t);
        }
  // The tensor-core lift under its register cap, in each mode (w_i = 1, 2; partial groups; one
  // element per group, whose scratch fits at every order).
  for (nt::LiftMode mode : {nt::LiftMode::Split, nt::LiftMode::FusedLift, nt::LiftMode::FusedUpdate})
    for (auto [k, wi, warps, staged] : {std::array{3, 2, 8, 1}, std::array{5, 1, 4, 0}, std::array{1, 1, 4, 0}}) {
      nt::NodalTuning t = base;
      t.lift = nt::StageKernel::Tensor;
      t.lift_shape = tensor_shape(k, wi, 2, warps, 1);
      t.lift_shape.staged_product = staged != 0;
      t.lift_shape.max_registers = 64;
      t.mode = mode;
      all.push_back(t);
    }
  // The tensor-core lift with batched loads, in each mode, capped or not, its product used where it
  // lands or through scratch (partial groups, a second group in sequence).
  for (nt::LiftMode mode : {nt::LiftMode::Split, nt::LiftMode::FusedLift, nt::LiftMode::FusedUpdate})
    for (auto [k, wi, ws, warps, staged, cap] : {std::array{3, 2, 2, 4, 1, 0}, std::array{1, 1, 1, 2, 0, 0},
                                                 std::array{5, 4, 1, 4, 0, 0}, std::array{1, 2, 2, 8, 1, 64},
                                                 std::array{1, 1, 1, 4, 0, 64}}) {
      nt::NodalTuning t = base;
      t.lift = nt::StageKernel::Tensor;
      t.lift_shape = tensor_shape(k, wi, ws, warps, 1);
      t.lift_shape.staged_product = staged != 0;
      t.lift_shape.max_registers = cap;
      t.lift_shape.batched_loads = true;
      t.mode = mode;
      all.push_back(t);
    }
  // The tensor-core lift with asynchronous copies, in each mode, capped or not (partial groups,
  // a second group in sequence; one element per group, whose scratch fits at every order; eleven
  // warps, one per item of the products at N = 8, more than some orders have).
  for (nt::LiftMode mode : {nt::LiftMode::Split, nt::LiftMode::FusedLift, nt::LiftMode::FusedUpdate})
    for (auto [k, wi, ws, warps, cap] : {std::array{3, 2, 2, 4, 0}, std::array{1, 1, 2, 8, 64},
                                         std::array{5, 1, 1, 2, 0}, std::array{1, 2, 1, 4, 0},
                                         std::array{1, 2, 1, 11, 0}}) {
      nt::NodalTuning t = base;
      t.lift = nt::StageKernel::Tensor;
      t.lift_shape = tensor_shape(k, wi, ws, warps, 1);
      t.lift_shape.staged_product = true;
      t.lift_shape.max_registers = cap;
      t.lift_shape.async_copies = true;
      t.mode = mode;
      all.push_back(t);
    }
  // The tensor-core lift at w_i = 1 with the next k-step's fragments loaded ahead, in each mode,
  // its product where it lands or through scratch (partial groups, a second group in sequence).
  for (nt::LiftMode mode : {nt::LiftMode::Split, nt::LiftMode::FusedLift, nt::LiftMode::FusedUpdate})
    for (auto [k, ws, warps, staged] : {std::array{1, 2, 4, 1}, std::array{5, 1, 8, 0}}) {
      nt::NodalTuning t = base;
      t.lift = nt::StageKernel::Tensor;
      t.lift_shape = tensor_shape(k, 1, ws, warps, 1);
      t.lift_shape.staged_product = staged != 0;
      t.lift_shape.loads_ahead = true;
      t.mode = mode;
      all.push_back(t);
    }
  for (int b : {1, 3, 7}) {
    nt::NodalTuning t = base;
    t.volume = nt::StageKernel::Batched;
    t.lift = nt::StageKernel::Batched;
    t.batch = b;
    all.push_back(t);
  }
  return all;
}

/// Whether the tensor-core volume kernel is built for this backend and precision.
bool tensor_cores(Backend backend, const std::string& precision) {
#ifdef DGK_TENSOR_CORES_F64
  return backend == Backend::Cuda && precision == "double";
#else
  (void)backend;
  (void)precision;
  return false;
#endif
}

/// Whether the tensor cores also have m16n8k4 (paired row tiles) in this build's device code.
bool paired_tensor_cores(Backend backend, const std::string& precision) {
  return tensor_cores(backend, precision) && dgk::paired_tensor_cores();
}

/// Whether the register-capped volume kernels are built for this backend and order (GPU builds,
/// np <= 32).
bool register_caps(Backend backend, int order) { return backend == Backend::Cuda && order <= 3; }

/// Whether the lane-finished tensor volume kernel keeps maxwell3d's fields in registers at this
/// order (at most nt::max_lane_register_fields values per lane: kst = ceil(np / 4) k-steps
/// times three column tiles).
bool register_fields(int order) {
  const int np = (order + 1) * (order + 2) * (order + 3) / 6;
  return (np + 3) / 4 * 3 <= nt::max_lane_register_fields;
}

/// Whether the lane-finished tensor volume and stage with their fields in registers are compiled
/// under launch bounds of one team per SM (max_registers = 255): wherever the fields fit.
bool lanes_open_bounds(Backend backend, const std::string& precision, int order) {
  return tensor_cores(backend, precision) && register_fields(order);
}

/// Whether they are compiled under the register cap of 168 too (max_registers = 168, w_i = 1,
/// teams of up to two warps): at N = 3..5.
bool lanes_mid_caps(Backend backend, const std::string& precision, int order) {
  return lanes_open_bounds(backend, precision, order) && order >= 3 && order <= 5;
}

/// Whether a tuning runs a tensor-core kernel with paired row tiles.
bool paired(const nt::NodalTuning& t) {
  return (t.volume == nt::StageKernel::Tensor && t.volume_shape.paired_tiles) ||
         (t.lift == nt::StageKernel::Tensor && t.lift_shape.paired_tiles);
}

struct Stepped {
  std::vector<double> q;
  double dt = 0;
};

/// A smooth state with all fields nonzero.
void test_fields(double x, double y, double z, double, double* out) {
  for (int c = 0; c < 6; ++c) out[c] = std::sin(1.3 * x + 0.7 * c) * std::cos(0.9 * y - 0.4 * c) + 0.3 * z * c;
}

/// One LSERK step of maxwell3d from test_fields.
Stepped step_once(Backend backend, const std::string& precision, int order, const physics::TetKernels& k,
                  const mesh::TetMesh& mesh, const nt::NodalTuning* tuning) {
  auto sim = physics::make_tet_solver("maxwell3d", backend, precision, order, k, mesh, std::vector<int>(8, 0));
  if (tuning) dynamic_cast<NodalTunable&>(*sim).set_tuning(*tuning);
  sim->set_fields(test_fields, 0.0);
  Stepped s;
  s.dt = sim->max_dt(0.5);
  sim->step(s.dt);
  s.q = sim->host_fields();
  return s;
}

/// The tuned family, its choice left to set_tuning or the tuner.
physics::TetKernels tuned_family() {
  physics::TetKernels k;
  k.family = TetKernelFamily::Tuned;
  return k;
}

/// The fused stage in three shapes (one warp, fields in registers): w_s = 1; w_s = 2 with
/// asynchronous copies (two groups in sequence); w_s = 1 with the lanes' update.
std::vector<nt::NodalTuning> fused_stage_shapes() {
  nt::NodalTuning lanes = nt::lane_stage_in_registers(1, 1, false, false, 0);
  lanes.volume_shape.lane_update = true;
  // The stage as one product with its flux gathered in two halves (fields read at each
  // k-step, updated by its lanes).
  nt::NodalTuning merged = nt::lane_stage_in_registers(1, 1, false, false, 0);
  merged.volume_shape.register_fields = false;
  merged.volume_shape.merged_product = merged.volume_shape.gather_halves = true;
  return {nt::lane_stage_in_registers(1, 1, false, false, 0), nt::lane_stage_in_registers(2, 1, false, true, 0), lanes,
          merged};
}

/// The largest absolute difference of two equally long host field vectors, and the largest value.
double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}
double max_abs(const std::vector<double>& a) {
  double m = 0;
  for (double v : a) m = std::max(m, std::abs(v));
  return m;
}

/// A maxwell3d solver of the tuned family on `mesh`.
auto tuned_maxwell(Backend backend, const std::string& precision, int order, const mesh::TetMesh& mesh) {
  return physics::make_tet_solver("maxwell3d", backend, precision, order, tuned_family(), mesh, std::vector<int>(8, 0));
}

/// LaneFragments<np, tiles> (compact) stores every (k-step, tile, lane) value of a node inside the
/// element once, in `values` slots without a gap, and reads it back; the last k-step's padding
/// lanes read zero and store nothing.
template <int Np, int Tiles>
void check_lane_fragments() {
  using F = nt::LaneFragments<Np, Tiles>;
  SCOPED_TRACE("np = " + std::to_string(Np) + ", tiles = " + std::to_string(Tiles));
  constexpr int guard = 64;
  std::vector<double> w(F::values + guard, -1.0);
  auto code = [](int ks, int j, int lane) { return 1.0 + (ks * Tiles + j) * 32 + lane; };
  for (int ks = 0; ks < F::ksteps; ++ks)
    for (int j = 0; j < Tiles; ++j)
      for (int lane = 0; lane < 32; ++lane) F::put(w.data(), ks, j, lane, code(ks, j, lane));
  int inside = 0;
  for (int ks = 0; ks < F::ksteps; ++ks)
    for (int j = 0; j < Tiles; ++j)
      for (int lane = 0; lane < 32; ++lane) {
        const bool node_inside = 4 * ks + lane % 4 < Np;
        inside += node_inside;
        const double got = ks + 1 < F::ksteps ? F::template get<false>(w.data(), ks, j, lane)
                                              : F::template get<true>(w.data(), ks, j, lane);
        EXPECT_EQ(got, node_inside ? code(ks, j, lane) : 0.0) << "k-step " << ks << ", tile " << j << ", lane " << lane;
      }
  EXPECT_EQ(inside, F::values);
  EXPECT_TRUE(std::none_of(w.begin(), w.begin() + F::values, [](double v) { return v < 0; })) << "a slot left unwritten";
  EXPECT_TRUE(std::all_of(w.begin() + F::values, w.end(), [](double v) { return v == -1.0; })) << "a store past the end";
}

TEST(LaneFragments, EveryNodeInsideOnceWithoutPadding) {
  for (int order = 1; order <= max_compiled_order; ++order)
    dispatch_order(order, [](auto n) {
      constexpr int N = decltype(n)::value, np = (N + 1) * (N + 2) * (N + 3) / 6;
      check_lane_fragments<np, 2>();  // four fields (acoustics)
      check_lane_fragments<np, 3>();  // six (Maxwell)
      // Padded (the fused stage): every k-step alike, the padding nodes stored.
      using Padded = nt::LaneFragments<np, 3, false>;
      EXPECT_EQ(Padded::values, Padded::ksteps * 3 * 32);
      for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(Padded::at_last(2, lane), Padded::at(Padded::ksteps - 1, 2, lane));
    });
}

/// Bytes of team scratch the tensor-core lift takes with `t` (its lift shape and mode) for
/// maxwell3d in double at `order`.
template <class Space>
std::size_t tensor_lift_scratch(int order, const nt::NodalTuning& t) {
  std::size_t bytes = 0;
  dispatch_order(order, [&](auto n) {
    using K = nt::TunedKernels<decltype(n)::value, physics::Maxwell3D, Space, double>;
    bytes = K::scratch_bytes_tensor_lift(t.lift_shape, t.mode);
  });
  return bytes;
}

/// The 48 KiB of shared memory a CUDA block gets without opting in to more.
constexpr std::size_t kDefaultBlockShared = 48 * 1024;

template <class Space>
class TunedKernels : public ::testing::Test {};
TYPED_TEST_SUITE(TunedKernels, ExecutionSpaces, SpaceNames);

TYPED_TEST(TunedKernels, EveryVariantTakesTheReferenceStep) {
  using Space = TypeParam;
  if (!physics::tet_solvers_built(BackendOf<Space>::value)) GTEST_SKIP() << "no solvers for this backend in this build";
  const Backend backend = BackendOf<Space>::value;
  const auto mesh = test_box();
  const auto geo = mesh::geometric_factors(mesh);
  double metric = 0, fscale = 0;
  for (int e = 0; e < mesh.num_elements(); ++e) {
    for (double g : geo.drdx[e]) metric = std::max(metric, std::abs(g));
    for (double f : geo.fscale[e]) fscale = std::max(fscale, f);
  }
  const auto tunings = variants();
  for (const std::string precision : {"double", "float"}) {
    const double eps = precision == "double" ? std::numeric_limits<double>::epsilon()
                                             : static_cast<double>(std::numeric_limits<float>::epsilon());
    for (int order = 1; order <= max_compiled_order; ++order) {
      physics::TetKernels thread;
      const auto ref = step_once(backend, precision, order, thread, mesh, nullptr);
      double qmax = 0;
      for (double v : ref.q) qmax = std::max(qmax, std::abs(v));
      // The kernels differ at most in how the compiler contracts a * b + c: each of the np-term
      // derivative sums and 4 nfp-term lift sums may round differently, relative to the sum of
      // the absolute terms, bounded through the operators' row sums, the metric, Fscale, the
      // fields and the material coefficients (at most 1 / 0.5 = 2, times the six-term flux).
      // Five stages, each adding dt times the difference.
      const auto nodal = basis::make_tet_nodal(order);
      const double dsum = (nodal.Dr.cwiseAbs() + nodal.Ds.cwiseAbs() + nodal.Dt.cwiseAbs()).rowwise().sum().maxCoeff();
      const double lsum = nodal.LIFT.cwiseAbs().rowwise().sum().maxCoeff();
      const double terms = nodal.np + 4 * nodal.nfp;
      const double rhs_abs = 2.0 * 3 * dsum * metric * qmax + 2.0 * 6 * lsum * fscale * 2 * qmax;
      const double tol = kSafety * eps * terms * rhs_abs * ref.dt * 5 + kSafety * eps * qmax;
      // Variants run per kind: micro split, fused lift, fused update, batched.
      int ran[4] = {0, 0, 0, 0}, ran_rows = 0, ran_tensor[4] = {0, 0, 0, 0}, ran_paired = 0, ran_capped = 0,
          ran_lanes = 0, ran_lane_registers = 0, ran_stage = 0, ran_lift_capped = 0, ran_batched = 0,
          ran_lanes_capped = 0, ran_lanes_open[2] = {0, 0}, ran_lanes_mid[2] = {0, 0};
      int ran_async[3] = {0, 0, 0};  // split, fused lift, fused update
      int ran_ahead = 0, ran_async_stage = 0, ran_lane_update = 0, ran_merged[2] = {0, 0}, ran_unrolled[2] = {0, 0};
      int ran_beyond_default = 0;  // tensor-core lifts whose team scratch exceeds kDefaultBlockShared
      int ran_ops = 0;  // the lane-finished volume with its operators in scratch
      for (const auto& t : tunings) {
        auto probe = tuned_maxwell(backend, precision, order, mesh);
        const std::string why = dynamic_cast<NodalTunable&>(*probe).infeasible(t);
        if (!why.empty()) {
          // Only the backend's limits (scratch, threads per team) may stop a variant, and the
          // tensor-core kernel where the build or the precision has none (or no m16n8k4), and
          // the register cap where it is not compiled.
          const bool no_cap = t.volume_shape.max_registers != 0 &&
                              !(t.volume_shape.max_registers == 255   ? lanes_open_bounds(backend, precision, order)
                                : t.volume_shape.max_registers == 168 ? lanes_mid_caps(backend, precision, order)
                                                                      : register_caps(backend, order));
          const bool no_registers = t.volume_shape.register_fields && !register_fields(order);
          // The fused stage with asynchronous copies is compiled at N <= 5.
          const bool no_async_stage = t.volume_shape.async_copies && order > 5;
          // So is the fused stage whose lanes update in memory.
          const bool no_lane_update = t.volume_shape.lane_update && order > 5;
          // And the stage as one product.
          const bool no_merged = t.volume_shape.merged_product &&
                                 (order > 5 || (t.volume_shape.volume_unroll != 0 && order != 3 && order != 4));
          const bool no_tensor = ((t.volume == nt::StageKernel::Tensor || t.lift == nt::StageKernel::Tensor) &&
                                  !tensor_cores(backend, precision)) ||
                                 (paired(t) && !paired_tensor_cores(backend, precision));
          EXPECT_TRUE(why.find("scratch") != std::string::npos || why.find("threads") != std::string::npos ||
                      (no_tensor && why.find("tensor cores") != std::string::npos) ||
                      (no_cap && why.find("register cap") != std::string::npos) ||
                      (no_registers && why.find("fields in registers") != std::string::npos) ||
                      (no_async_stage && why.find("asynchronous copies") != std::string::npos) ||
                      (no_lane_update && why.find("update by the lanes") != std::string::npos) ||
                      (no_merged && why.find("one product") != std::string::npos))
              << physics::to_string(t) << ": " << why;
          continue;
        }
        const bool tensor = t.volume == nt::StageKernel::Tensor || t.lift == nt::StageKernel::Tensor;
        EXPECT_TRUE(!tensor || tensor_cores(backend, precision));
        if (t.volume == nt::StageKernel::Tensor) ++ran_tensor[0];
        if (t.mode == nt::LiftMode::FusedStage) ++ran_stage;
        if (t.lift == nt::StageKernel::Tensor) ++ran_tensor[1 + static_cast<int>(t.mode)];
        if (!tensor) ++ran[t.volume == nt::StageKernel::Batched ? 3 : static_cast<int>(t.mode)];
        if (t.volume_shape.rows > 1) ++ran_rows;
        if (paired(t)) ++ran_paired;
        if (t.volume_shape.merged_product) ++ran_merged[t.volume_shape.gather_halves];
        if (t.volume_shape.volume_unroll != 0) ++ran_unrolled[t.volume_shape.gather_halves];
        if (t.volume_shape.max_registers != 0 && t.volume_shape.max_registers != 255 &&
            t.volume_shape.max_registers != 168 && !t.volume_shape.merged_product)
          ++ran_capped;  // 255, 168: below
        if (t.lift_shape.max_registers != 0) ++ran_lift_capped;
        if (t.lift_shape.batched_loads) ++ran_batched;
        if (t.lift_shape.async_copies) ++ran_async[static_cast<int>(t.mode)];
        if (t.lift_shape.loads_ahead) ++ran_ahead;
        if (t.lift == nt::StageKernel::Tensor && precision == "double" &&
            tensor_lift_scratch<Space>(order, t) > kDefaultBlockShared)
          ++ran_beyond_default;
        if (t.volume_shape.async_copies) ++ran_async_stage;
        if (t.volume_shape.lane_update) ++ran_lane_update;
        if (t.volume_shape.staging == nt::Staging::Operator) ++ran_ops;
        if (t.volume == nt::StageKernel::Tensor && t.volume_shape.lane_epilogue && !t.volume_shape.merged_product) {
          ++(t.volume_shape.register_fields ? ran_lane_registers : ran_lanes);
          if (t.volume_shape.max_registers == 64) ++ran_lanes_capped;
          if (t.volume_shape.max_registers == 255) ++ran_lanes_open[t.mode == nt::LiftMode::FusedStage];
          if (t.volume_shape.max_registers == 168) ++ran_lanes_mid[t.mode == nt::LiftMode::FusedStage];
        }
        const auto got = step_once(backend, precision, order, tuned_family(), mesh, &t);
        ASSERT_EQ(got.q.size(), ref.q.size());
        double diff = 0;
        for (std::size_t i = 0; i < got.q.size(); ++i) diff = std::max(diff, std::abs(got.q[i] - ref.q[i]));
        EXPECT_LE(diff, tol) << precision << " order " << order << ": " << physics::to_string(t);
        // The tuner's own check passes it too (from the same fields as the step).
        probe->set_fields(test_fields, 0.0);
        auto& tunable = dynamic_cast<NodalTunable&>(*probe);
        tunable.set_tuning(t);
        EXPECT_LE(tunable.stage_deviation(), 1.0) << precision << " order " << order << ": " << physics::to_string(t);
      }
      // The smallest shapes (one element per microblock and team, fields staged) fit every
      // backend, so every kind runs at every order.
      for (int kind = 0; kind < 4; ++kind) EXPECT_GE(ran[kind], 1) << precision << " order " << order << " kind " << kind;
      EXPECT_GE(ran_rows, 1) << precision << " order " << order << ": no two-node variant ran";
      // Tensor-core volume, then lift split, fused lift, fused update.
      if (tensor_cores(backend, precision)) {
        for (int kind = 0; kind < 4; ++kind)
          EXPECT_GE(ran_tensor[kind], 1) << precision << " order " << order << ": no tensor-core variant " << kind;
      }
      // The lane-finished volume with its fields in one warp's scratch runs wherever that
      // scratch fits the backend's limit (up to N = 8 in double on the GPUs measured).
      nt::NodalTuning one_warp;
      one_warp.volume = nt::StageKernel::Tensor;
      one_warp.volume_shape.elements = 4;
      one_warp.volume_shape.warps = 1;
      one_warp.volume_shape.lane_epilogue = true;
      auto probe = tuned_maxwell(backend, precision, order, mesh);
      const bool lane_scratch_fits = dynamic_cast<NodalTunable&>(*probe).infeasible(one_warp).empty();
      // The fused stage with one warp per team, its fields in scratch, fits where the lane-finished
      // volume does with its flux and rhs too (up to N = 5 in double under Kokkos 3.4).
      nt::NodalTuning one_stage = one_warp;
      one_stage.mode = nt::LiftMode::FusedStage;
      const bool stage_fits = dynamic_cast<NodalTunable&>(*probe).infeasible(one_stage).empty();
      if (tensor_cores(backend, precision)) {
        EXPECT_TRUE((ran_lanes >= 1 || !lane_scratch_fits) && (ran_lane_registers >= 1 || !register_fields(order)))
            << precision << " order " << order << ": the lane-finished tensor volume did not run (fields in scratch "
            << ran_lanes << " times, in registers " << ran_lane_registers << ")";
        EXPECT_TRUE(ran_stage >= 1 || !stage_fits) << precision << " order " << order << ": the fused stage did not run";
        // With asynchronous copies: in registers wherever they hold the fields (N <= 5), in scratch
        // where one warp's fits.
        EXPECT_TRUE(order > 5 || ran_async_stage >= (register_fields(order) ? 2 : 0) + (stage_fits ? 1 : 0))
            << precision << " order " << order << ": the fused stage with asynchronous copies ran " << ran_async_stage
            << " times";
        // The lanes' update: wherever the fields fit registers at N <= 5, uncapped (and under the
        // cap of 168 where it is compiled).
        EXPECT_TRUE(order > 5 || !register_fields(order) ||
                    ran_lane_update >= (lanes_mid_caps(backend, precision, order) ? 4 : 2))
            << precision << " order " << order << ": the fused stage with the lanes' update ran " << ran_lane_update
            << " times";
        // The stage as one product: at N <= 5, paired where the device code has m16n8k4 (at
        // N = 5 one shape may meet the backend's limits, as the check above allows), with its
        // flux gathered at once and in two halves.
        for (int halves : {0, 1})
          EXPECT_TRUE(order > 5 ||
                      ran_merged[halves] >= (paired_tensor_cores(backend, precision) ? (order < 5 ? 4 : 3) : 2))
              << precision << " order " << order << ": the stage as one product "
              << (halves ? "gathering in two halves" : "gathering at once") << " ran " << ran_merged[halves]
              << " times";
        // Its volume's k-steps unrolled by a factor: paired at N = 3 and 4, where the device code
        // has m16n8k4, every shape.
        const bool unrolls = (order == 3 || order == 4) && paired_tensor_cores(backend, precision);
        for (int halves : {0, 1})
          EXPECT_EQ(ran_unrolled[halves], unrolls ? 4 : 0)
              << precision << " order " << order << ": the stage as one product with its volume's k-steps unrolled "
              << "by a factor " << (halves ? "gathering in two halves" : "gathering at once") << " ran "
              << ran_unrolled[halves] << " times";
        EXPECT_GE(ran_lift_capped, 1) << precision << " order " << order << ": the capped tensor-core lift did not run";
        // One element per group fits every order, in each mode.
        EXPECT_GE(ran_batched, 3) << precision << " order " << order << ": the lift with batched loads did not run";
        // The lift with asynchronous copies runs in each mode where its smallest group (one
        // element) fits the backend's scratch: its fused update also holds the group's res and q,
        // more than 48 KiB at N = 9 in double.
        for (nt::LiftMode mode : {nt::LiftMode::Split, nt::LiftMode::FusedLift, nt::LiftMode::FusedUpdate}) {
          nt::NodalTuning smallest;
          smallest.lift = nt::StageKernel::Tensor;
          smallest.lift_shape.elements = 1;
          smallest.lift_shape.warps = 4;
          smallest.lift_shape.staged_product = true;
          smallest.lift_shape.async_copies = true;
          smallest.mode = mode;
          const std::string why = dynamic_cast<NodalTunable&>(*probe).infeasible(smallest);
          const int m = static_cast<int>(mode);
          EXPECT_TRUE(ran_async[m] >= 1 || (!why.empty() && why.find("scratch") != std::string::npos))
              << precision << " order " << order << ": the lift with asynchronous copies did not run in mode " << m
              << " (the smallest group: " << (why.empty() ? "feasible" : why) << ")";
        }
        EXPECT_GE(ran_async[0] + ran_async[1], 4)
            << precision << " order " << order << ": the lift with asynchronous copies did not run";
        // The lift with its fragments loaded ahead, one element per group, in each mode.
        EXPECT_GE(ran_ahead, 3) << precision << " order " << order << ": the lift with loads ahead did not run";
        // Where the backend lets a team have more than a block's default 48 KiB (a Kokkos whose
        // CUDA launches opt in to the device's maximum, see scripts/patches), the lifts that need
        // it run: at N >= 6 the split lift with five elements per group, w_i = 4, its product
        // through scratch, takes more.
        nt::NodalTuning wide;
        wide.lift = nt::StageKernel::Tensor;
        wide.lift_shape.elements = 5;
        wide.lift_shape.inline_blocks = 4;
        wide.lift_shape.warps = 4;
        wide.lift_shape.staged_product = true;
        const std::size_t wide_bytes = tensor_lift_scratch<Space>(order, wide);
        const std::size_t room = Kokkos::TeamPolicy<Space>(1, 1).scratch_size_max(0);
        if (wide_bytes > kDefaultBlockShared && wide_bytes <= room) {
          EXPECT_GE(ran_beyond_default, 1) << precision << " order " << order << ": no lift with " << wide_bytes
                                           << " bytes of team scratch or more ran (the backend allows " << room << ")";
        }
        // The volume with its operators in scratch runs wherever its fields fit registers and D_r,
        // D_s, D_t's fragments the backend's team scratch (with the device's opt-in maximum, N <= 6).
        nt::NodalTuning small;
        small.volume = nt::StageKernel::Tensor;
        small.volume_shape = one_warp.volume_shape;
        small.volume_shape.register_fields = small.volume_shape.unrolled = true;
        small.volume_shape.staging = nt::Staging::Operator;
        const std::string why = dynamic_cast<NodalTunable&>(*probe).infeasible(small);
        EXPECT_TRUE(ran_ops >= 1 || !why.empty())
            << precision << " order " << order << ": the volume with its operators in scratch did not run";
        EXPECT_TRUE(why.empty() || why.find("scratch") != std::string::npos ||
                    (!register_fields(order) && why.find("fields in registers") != std::string::npos))
            << precision << " order " << order << ": " << why;
      }
      if (register_caps(backend, order)) {
        EXPECT_GE(ran_capped, 2) << precision << " order " << order << ": the register caps did not run";
      }
      if (register_caps(backend, order) && tensor_cores(backend, precision)) {
        EXPECT_GE(ran_lanes_capped, 2) << precision << " order " << order
                                       << ": the lane-finished volume under its register cap did not run";
      }
      if (lanes_open_bounds(backend, precision, order)) {
        EXPECT_TRUE(ran_lanes_open[0] >= 2 && ran_lanes_open[1] >= 2)
            << precision << " order " << order << ": the lane-finished volume and stage under launch bounds of one "
            << "team per SM did not run (" << ran_lanes_open[0] << " and " << ran_lanes_open[1] << " times)";
      }
      if (lanes_mid_caps(backend, precision, order)) {
        EXPECT_TRUE(ran_lanes_mid[0] >= 1 && ran_lanes_mid[1] >= 1)
            << precision << " order " << order << ": the lane-finished volume and stage under the register cap of 168 "
            << "did not run (" << ran_lanes_mid[0] << " and " << ran_lanes_mid[1] << " times)";
      }
      if (paired_tensor_cores(backend, precision)) {
        EXPECT_GE(ran_paired, 1) << precision << " order " << order << ": no variant with paired row tiles ran";
      }
    }
  }
}

// The fused stage on its fields stored (element, node, field) computes what it computes on the
// solver's (element, field, node): the same products, flux and update, in the same order, only
// the addresses differ, so res and q_out agree to the bit. Where the node-major form is compiled
// (tensor cores, N <= 4, fields in registers, uncapped or under the cap of 168; paired or not,
// with asynchronous copies or not, partly empty teams), it runs; elsewhere the reason is given.
TYPED_TEST(TunedKernels, TheFusedStageTakesNodeMajorFields) {
  using Space = TypeParam;
  if (!physics::tet_solvers_built(BackendOf<Space>::value)) GTEST_SKIP() << "no solvers for this backend in this build";
  const Backend backend = BackendOf<Space>::value;
  const auto mesh = test_box();
  int ran = 0;
  for (int order = 1; order <= std::min(5, max_compiled_order); ++order) {
    auto sim = tuned_maxwell(backend, "double", order, mesh);
    sim->set_fields(test_fields, 0.0);
    auto& tunable = dynamic_cast<NodalTunable&>(*sim);
    nt::NodalTuning split;
    split.volume = nt::StageKernel::Micro;
    split.lift = nt::StageKernel::Micro;
    tunable.set_tuning(split);
    EXPECT_NE(tunable.compare_stage_layouts(1).why.find("not the tuned fused stage"), std::string::npos);
    for (auto [ws, warps, pair, async, cap] :
         {std::array{1, 1, 0, 0, 0}, std::array{2, 1, 1, 0, 0}, std::array{3, 2, 1, 1, 0}, std::array{1, 3, 0, 1, 0},
          std::array{2, 1, 0, 1, 168}, std::array{1, 2, 1, 0, 168}}) {
      const nt::NodalTuning t = nt::lane_stage_in_registers(ws, warps, pair != 0, async != 0, cap);
      if (!tunable.infeasible(t).empty()) continue;  // the variants' test covers these refusals
      tunable.set_tuning(t);
      const auto c = tunable.compare_stage_layouts(1);
      const bool compiled = order <= 4 && (cap == 0 || lanes_mid_caps(backend, "double", order));
      if (!compiled) {
        EXPECT_NE(c.why.find("(element, node, field)"), std::string::npos) << physics::to_string(t) << ": " << c.why;
        continue;
      }
      ASSERT_TRUE(c.why.empty()) << "order " << order << ", " << physics::to_string(t) << ": " << c.why;
      EXPECT_GT(c.max_value, 0.0);
      EXPECT_EQ(c.max_difference, 0.0) << "order " << order << ", " << physics::to_string(t);
      EXPECT_GT(c.seconds[0], 0.0);
      EXPECT_GT(c.seconds[1], 0.0);
      ++ran;
    }
  }
  // On the tensor cores it ran at every order up to 4.
  if (tensor_cores(backend, "double")) {
    EXPECT_GE(ran, std::min(4, max_compiled_order));
  }
}

// The tuned gathers give the same stage, bit for bit, whether they find the neighbour nodes by
// the face codes or by the per-node map: the fused stage (one warp, fields in registers; with and
// without the lanes' update, with asynchronous copies, two groups in sequence), which takes the
// codes at N >= 4 on the tensor cores.
TYPED_TEST(TunedKernels, TheGathersTakeTheFaceCodesOrTheMap) {
  using Space = TypeParam;
  if (!physics::tet_solvers_built(BackendOf<Space>::value)) GTEST_SKIP() << "no solvers for this backend in this build";
  const Backend backend = BackendOf<Space>::value;
  const auto mesh = test_box();
  int compared = 0;
  for (int order = 1; order <= std::min(6, max_compiled_order); ++order) {
    for (const nt::NodalTuning& t : fused_stage_shapes()) {
      std::vector<double> q[2];
      bool codes[2] = {false, false};
      for (int with = 0; with < 2; ++with) {
        auto sim = tuned_maxwell(backend, "double", order, mesh);
        auto& tunable = dynamic_cast<NodalTunable&>(*sim);
        if (!tunable.infeasible(t).empty()) break;
        codes[with] = tunable.use_face_codes(with == 1);
        tunable.set_tuning(t);
        sim->set_fields(test_fields, 0.0);
        const double dt = sim->max_dt(0.5);
        sim->step(dt);
        q[with] = sim->host_fields();
      }
      if (q[1].empty()) continue;
      EXPECT_FALSE(codes[0]);
      EXPECT_TRUE(codes[1]) << "order " << order << ": the box mesh has face codes";
      ASSERT_EQ(q[0].size(), q[1].size());
      EXPECT_GT(max_abs(q[0]), 0.0);
      EXPECT_EQ(max_difference(q[0], q[1]), 0.0) << "order " << order << ": " << physics::to_string(t);
      ++compared;
    }
  }
  // The fused stage runs on the tensor cores only, at every order up to 5 in one shape at least.
  if (tensor_cores(backend, "double")) {
    EXPECT_GE(compared, std::min(5, max_compiled_order));
  }
}

// The tuned kernels run on the Bernstein basis with the dense forms of its operators: one step
// of each variant (the straightforward kernels; the fused stage in three shapes on the tensor
// cores) ends where the Bernstein kernels of paper 002 (sparse derivative, lift slice by slice)
// end, to the rounding of the longer sums.
TYPED_TEST(TunedKernels, TheBernsteinBasisRunsTheTunedKernels) {
  using Space = TypeParam;
  if (!physics::tet_solvers_built(BackendOf<Space>::value)) GTEST_SKIP() << "no solvers for this backend in this build";
  const Backend backend = BackendOf<Space>::value;
  const auto mesh = test_box();
  const std::vector<int> bcs(8, 0);
  physics::TetKernels bernstein = tuned_family(), optimal;
  bernstein.basis = optimal.basis = physics::TetBasis::Bernstein;
  optimal.family = TetKernelFamily::Optimal;
  std::vector<nt::NodalTuning> shapes = fused_stage_shapes();
  shapes.insert(shapes.begin(), nt::NodalTuning{});  // the straightforward kernels
  int stages = 0;
  for (int order = 1; order <= std::min(5, max_compiled_order); ++order) {
    auto ref = physics::make_tet_solver("maxwell3d", backend, "double", order, optimal, mesh, bcs);
    ref->set_fields(test_fields, 0.0);
    const double dt = ref->max_dt(0.5);
    ref->step(dt);
    const std::vector<double> expected = ref->host_fields();
    const double scale = max_abs(expected);
    // Five stages, each value a sum of at most np + 4 nfp terms, carried to the nodes by VB
    // (condition number below 20 up to N = 5).
    const int np = (order + 1) * (order + 2) * (order + 3) / 6, nfp = (order + 1) * (order + 2) / 2;
    const double tol = 5.0 * 20.0 * (np + 4 * nfp) * std::numeric_limits<double>::epsilon() * scale;
    for (const nt::NodalTuning& t : shapes) {
      auto sim = physics::make_tet_solver("maxwell3d", backend, "double", order, bernstein, mesh, bcs);
      auto& tunable = dynamic_cast<NodalTunable&>(*sim);
      if (!tunable.infeasible(t).empty()) continue;
      tunable.set_tuning(t);
      sim->set_fields(test_fields, 0.0);
      sim->step(dt);
      const std::vector<double> q = sim->host_fields();
      ASSERT_EQ(q.size(), expected.size());
      EXPECT_LE(max_difference(q, expected), tol) << "order " << order << ": " << physics::to_string(t);
      // The tuner's check against the straightforward kernels on the same operators.
      EXPECT_LE(tunable.stage_deviation(), 1.0) << "order " << order << ": " << physics::to_string(t);
      if (t.mode == nt::LiftMode::FusedStage) ++stages;
    }
  }
  if (tensor_cores(backend, "double")) {
    EXPECT_GE(stages, std::min(5, max_compiled_order));
  }
}

TYPED_TEST(TunedKernels, InvalidParametersAreRefusedWithTheReason) {
  using Space = TypeParam;
  if (!physics::tet_solvers_built(BackendOf<Space>::value)) GTEST_SKIP() << "no solvers for this backend in this build";
  auto sim = tuned_maxwell(BackendOf<Space>::value, "double", 2, test_box());
  auto& s = dynamic_cast<NodalTunable&>(*sim);
  nt::NodalTuning t;
  t.volume = nt::StageKernel::Micro;
  t.volume_shape.inline_blocks = 3;
  EXPECT_NE(s.infeasible(t).find("w_i"), std::string::npos);
  EXPECT_THROW(s.set_tuning(t), Error);
  t = {};
  t.volume = nt::StageKernel::Micro;
  t.volume_shape = {1, 4, 1, nt::Staging::Fields, 2};  // r_i = 2 is compiled for w_i <= 2
  EXPECT_NE(s.infeasible(t).find("r_i"), std::string::npos);
  t = {};
  t.volume = nt::StageKernel::Micro;
  t.volume_shape.max_registers = 50;  // compiled: 64, 72
  EXPECT_NE(s.infeasible(t).find("register cap"), std::string::npos) << s.infeasible(t);
  t.volume_shape.max_registers = 64;
  t.volume_shape.inline_blocks = 2;  // compiled for w_i = 1
  EXPECT_NE(s.infeasible(t).find("register cap"), std::string::npos) << s.infeasible(t);
  t = {};
  t.lift = nt::StageKernel::Micro;
  t.lift_shape.max_registers = 64;  // the micro volume kernel's and the tensor-core lift's only
  EXPECT_NE(s.infeasible(t).find("register cap"), std::string::npos) << s.infeasible(t);
  t.lift = nt::StageKernel::Tensor;
  t.lift_shape.inline_blocks = 4;  // compiled for w_i <= 2
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "register cap" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  t.lift_shape.inline_blocks = 2;
  t.lift_shape.max_registers = 72;  // compiled: 64
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "register cap" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  // The volume finished by the lanes is capped with its fields in registers, not in the fused stage.
  t = {};
  t.volume = nt::StageKernel::Tensor;
  t.volume_shape.elements = 4;
  t.volume_shape.lane_epilogue = true;
  t.volume_shape.max_registers = 64;
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "register cap" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  t.volume_shape.register_fields = true;
  t.volume_shape.unrolled = true;
  t.mode = nt::LiftMode::FusedStage;
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "register cap" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  // Launch bounds of one team per SM (255) are compiled for the fused stage too, with the fields
  // in registers only; no other cap is.
  const bool cores = tensor_cores(BackendOf<Space>::value, "double");
  t.volume_shape.max_registers = 255;
  if (cores) {
    EXPECT_EQ(s.infeasible(t), "");
  }
  t.volume_shape.register_fields = false;
  EXPECT_NE(s.infeasible(t).find(cores ? "register cap" : "tensor cores"), std::string::npos) << s.infeasible(t);
  t.volume_shape.register_fields = true;
  t.volume_shape.max_registers = 128;
  EXPECT_NE(s.infeasible(t).find(cores ? "register cap" : "tensor cores"), std::string::npos) << s.infeasible(t);
  t.volume_shape.max_registers = 168;  // compiled at N = 3..5 (this solver's order is 2)
  EXPECT_NE(s.infeasible(t).find(cores ? "168 at N = 3..5 with w_i = 1" : "tensor cores"), std::string::npos)
      << s.infeasible(t);
  t = {};
  t.lift = nt::StageKernel::Micro;
  t.lift_shape.batched_loads = true;  // the tensor-core lift's only
  EXPECT_NE(s.infeasible(t).find("batched loads"), std::string::npos) << s.infeasible(t);
  t = {};
  t.lift = nt::StageKernel::Tensor;
  t.lift_shape.inline_blocks = 2;
  t.lift_shape.paired_tiles = true;  // compiled unpaired
  t.lift_shape.batched_loads = true;
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "batched loads" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  // Asynchronous copies: the tensor-core lift's only, with its product through scratch.
  t = {};
  t.lift = nt::StageKernel::Micro;
  t.lift_shape.async_copies = true;
  EXPECT_NE(s.infeasible(t).find("asynchronous copies"), std::string::npos) << s.infeasible(t);
  t = {};
  t.lift = nt::StageKernel::Tensor;
  t.lift_shape.async_copies = true;  // the product where it lands
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "asynchronous copies"
                                                                                 : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  t.lift_shape.staged_product = true;
  t.lift_shape.batched_loads = true;  // the epilogue reads scratch
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "asynchronous copies"
                                                                                 : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  // The operator in scratch (staged=operator): the micro kernels', and of the tensor-core kernels
  // compiled for the volume finished by the lanes with its fields in registers, uncapped, only.
  for (int other : {0, 1, 2, 3}) {
    t = {};
    t.volume = nt::StageKernel::Tensor;
    t.volume_shape.elements = 4;
    t.volume_shape.lane_epilogue = other != 0;  // 0: the tensor-core volume through scratch
    t.volume_shape.register_fields = t.volume_shape.unrolled = other != 1;  // 1: fields in scratch
    if (other == 2) t.volume_shape.max_registers = 255;
    if (other == 3) t.mode = nt::LiftMode::FusedStage;
    t.volume_shape.staging = nt::Staging::Operator;
    EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "staged=operator"
                                                                                   : "tensor cores"),
              std::string::npos)
        << other << ": " << s.infeasible(t);
  }
  t = {};
  t.lift = nt::StageKernel::Tensor;
  t.lift_shape.staging = nt::Staging::Operator;
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "staged=operator"
                                                                                 : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  // Loads ahead: the tensor-core lift at w_i = 1 only (at w_i = 2 they always are).
  t = {};
  t.lift = nt::StageKernel::Micro;
  t.lift_shape.loads_ahead = true;
  EXPECT_NE(s.infeasible(t).find("lift: loads ahead are compiled for the tensor-core lift only"), std::string::npos)
      << s.infeasible(t);
  t = {};
  t.lift = nt::StageKernel::Tensor;
  t.lift_shape.loads_ahead = true;  // w_i = 1: runs where the build has tensor cores
  if (tensor_cores(BackendOf<Space>::value, "double")) {
    EXPECT_TRUE(s.infeasible(t).empty()) << s.infeasible(t);
    t.lift_shape.inline_blocks = 2;
    EXPECT_NE(s.infeasible(t).find("loads ahead (loads=ahead) are compiled for the tensor-core lift with w_i = 1"),
              std::string::npos)
        << s.infeasible(t);
    t.lift_shape.inline_blocks = 1;
    t.lift_shape.max_registers = 64;
    EXPECT_NE(s.infeasible(t).find("loads=ahead"), std::string::npos) << s.infeasible(t);
  } else {
    EXPECT_NE(s.infeasible(t).find("tensor cores"), std::string::npos) << s.infeasible(t);
  }
  t = {};
  t.mode = nt::LiftMode::FusedLift;  // with the thread lift
  EXPECT_NE(s.infeasible(t).find("fused modes"), std::string::npos);
  t = {};
  t.volume = nt::StageKernel::Tensor;
  t.volume_shape.warps = 0;
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "warps" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  t = {};
  t.volume = nt::StageKernel::Tensor;
  t.volume_shape.lane_epilogue = true;
  t.volume_shape.elements = 2;  // four elements per warp
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "k = 4" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  t.volume_shape.elements = 4;
  t.volume_shape.lane_epilogue = false;
  t.volume_shape.unrolled = true;  // needs the lanes' epilogue
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "epilogue=lane" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  t = {};
  t.lift = nt::StageKernel::Tensor;
  t.lift_shape.lane_epilogue = true;  // a volume kernel
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "volume kernel" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  // The fused stage: the lane-finished tensor volume and no lift kernel of its own, paired where
  // the device code has m16n8k4.
  t = {};
  t.mode = nt::LiftMode::FusedStage;
  t.volume = nt::StageKernel::Micro;
  EXPECT_NE(s.infeasible(t).find("epilogue=lane"), std::string::npos) << s.infeasible(t);
  t.volume = nt::StageKernel::Tensor;
  t.volume_shape.elements = 4;
  t.volume_shape.lane_epilogue = true;
  t.lift = nt::StageKernel::Micro;
  EXPECT_NE(s.infeasible(t).find("no lift kernel"), std::string::npos) << s.infeasible(t);
  t.lift = nt::StageKernel::Thread;
  for (int wi : {1, 2}) {
    t.volume_shape.inline_blocks = wi;
    t.volume_shape.paired_tiles = true;
    if (paired_tensor_cores(BackendOf<Space>::value, "double")) {
      EXPECT_EQ(s.infeasible(t), "");
    } else {
      EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "m16n8k4" : "tensor cores"),
                std::string::npos)
          << s.infeasible(t);
      EXPECT_THROW(s.set_tuning(t), Error);
    }
  }
  // Paired row tiles at w_i = 1: the volume finished by the lanes only (its pass holds three).
  t = {};
  t.volume = nt::StageKernel::Tensor;
  t.volume_shape.paired_tiles = true;
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "w_i >= 2" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  t.volume_shape.elements = 4;
  t.volume_shape.lane_epilogue = true;
  if (paired_tensor_cores(BackendOf<Space>::value, "double"))
    EXPECT_EQ(s.infeasible(t), "");
  else
    EXPECT_NE(s.infeasible(t).find("tensor cores"), std::string::npos) << s.infeasible(t);
  // The flux gathered in two halves: the stage as one product's only.
  t.mode = nt::LiftMode::FusedStage;
  t.volume_shape.gather_halves = true;
  EXPECT_NE(s.infeasible(t).find(tensor_cores(BackendOf<Space>::value, "double") ? "gather=halves" : "tensor cores"),
            std::string::npos)
      << s.infeasible(t);
  t.volume_shape.merged_product = true;  // with the stage as one product the flag itself is no reason
  EXPECT_EQ(s.infeasible(t).find("gather=halves"), std::string::npos) << s.infeasible(t);
  t = {};
  t.lift_shape.gather_halves = true;
  EXPECT_NE(s.infeasible(t).find("gather=halves"), std::string::npos) << s.infeasible(t);
  t = {};
  t.batch = 0;
  EXPECT_NE(s.infeasible(t).find("batched"), std::string::npos);
  // One shared-memory carveout for the stage's kernels: where the kernels fit carveouts (CUDA),
  // and for stages of more than one kernel.
  t = {};
  t.stage_carveout = true;
  if (fits_shared_carveout<Space>()) {
    EXPECT_TRUE(s.infeasible(t).empty()) << s.infeasible(t);
  } else {
    EXPECT_NE(s.infeasible(t).find("carveout=stage"), std::string::npos) << s.infeasible(t);
  }
  t.mode = nt::LiftMode::FusedStage;
  t.volume = nt::StageKernel::Tensor;
  t.volume_shape.elements = 4;
  t.volume_shape.lane_epilogue = true;
  EXPECT_NE(s.infeasible(t).find("carveout=stage"), std::string::npos) << s.infeasible(t);
  // Fewer resident teams: the micro and tensor-core kernels, through the carveout (CUDA), apart
  // from a stage's shared carveout; a negative count is an error.
  t = {};
  t.lift = nt::StageKernel::Micro;
  t.lift_shape.resident_teams = 2;
  if (fits_shared_carveout<Space>()) {
    EXPECT_TRUE(s.infeasible(t).empty()) << s.infeasible(t);
  } else {
    EXPECT_NE(s.infeasible(t).find("lift: teams=2 resident per multiprocessor: the resident teams are capped "
                                   "through the shared-memory carveout"),
              std::string::npos)
        << s.infeasible(t);
  }
  t.lift_shape.resident_teams = -1;
  EXPECT_NE(s.infeasible(t).find("lift: teams=-1 resident per multiprocessor (expected a positive number"),
            std::string::npos)
      << s.infeasible(t);
  EXPECT_THROW(s.set_tuning(t), Error);
  t = {};
  t.volume_shape.resident_teams = 3;  // the thread volume kernel
  EXPECT_NE(s.infeasible(t).find("volume: teams=3 resident per multiprocessor: a cap on resident teams is for the "
                                 "micro and tensor-core kernels"),
            std::string::npos)
      << s.infeasible(t);
  if (fits_shared_carveout<Space>()) {
    t = {};
    t.lift = nt::StageKernel::Micro;
    t.lift_shape.resident_teams = 2;
    t.stage_carveout = true;
    EXPECT_NE(s.infeasible(t).find("with carveout=stage"), std::string::npos) << s.infeasible(t);
  }
}

TYPED_TEST(TunedKernels, TheCarveoutChangesNoValue) {
  using Space = TypeParam;
  if (!physics::tet_solvers_built(BackendOf<Space>::value)) GTEST_SKIP() << "no solvers for this backend in this build";
  const Backend backend = BackendOf<Space>::value;
  const auto mesh = test_box();
  // Every two-kernel (or longer) stage that the build runs with one carveout, and every stage
  // whose last kernel is capped at one or two resident teams: the same step, value for value, as
  // with each kernel's own carveout for all the teams it can hold (the carveout moves no
  // arithmetic).
  int compared = 0, capped = 0;
  for (int order : {2, 5}) {
    if (order > max_compiled_order) continue;
    auto sim = tuned_maxwell(backend, "double", order, mesh);
    auto& s = dynamic_cast<NodalTunable&>(*sim);
    for (const auto& own : variants()) {
      if (!s.infeasible(own).empty()) continue;
      const auto alone = step_once(backend, "double", order, tuned_family(), mesh, &own);
      auto shared = own;
      shared.stage_carveout = true;
      if (s.infeasible(shared).empty()) {
        EXPECT_EQ(step_once(backend, "double", order, tuned_family(), mesh, &shared).q, alone.q)
            << physics::to_string(shared) << ", order " << order;
        ++compared;
      }
      for (int teams : {1, 2}) {
        auto few = own;
        (few.mode == nt::LiftMode::FusedStage ? few.volume_shape : few.lift_shape).resident_teams = teams;
        if (!s.infeasible(few).empty()) continue;
        EXPECT_EQ(step_once(backend, "double", order, tuned_family(), mesh, &few).q, alone.q)
            << physics::to_string(few) << ", order " << order;
        ++capped;
      }
    }
  }
  if (fits_shared_carveout<Space>()) {
    EXPECT_GT(compared, 0);
    EXPECT_GT(capped, 0);
  } else {
    EXPECT_EQ(compared + capped, 0);  // refused where the kernels fit no carveout
  }
}

/// A cache file private to one test, removed at the end.
struct TempCache {
  std::string path;
  explicit TempCache(const std::string& name)
      : path((std::filesystem::temp_directory_path() / ("dgk-test-" + name + "-" + std::to_string(::getpid()) + ".json"))
                 .string()) {
    std::filesystem::remove(path);
  }
  ~TempCache() { std::filesystem::remove(path); }
};

// The ptxas that assembled the GPU code is part of a choice's key: an entry of the key's own
// code generator wins; an entry that names none (tuned before dgk recorded it) serves the code
// generators that have no entry of their own; an entry of another code generator serves none.
TEST(TuningCache, TheCodeGeneratorSeparatesChoicesAndAnUnnamedEntryServesTheRest) {
  TempCache tmp("tuning-codegen");
  const physics::TuningCache cache(tmp.path);
  physics::TuningKey unnamed{"maxwell3d", 4, "double", "cuda", "NVIDIA H200"};
  physics::TuningKey newer = unnamed, older = unnamed;
  newer.codegen = "ptxas 13.0.88";
  older.codegen = "ptxas 11.8.89";
  auto with_seconds = [](double seconds) {
    physics::TuningResult r;
    r.stage_seconds = seconds;
    return r;
  };
  cache.store(newer, with_seconds(2e-3));
  EXPECT_FALSE(cache.find(older)) << "an entry of another code generator serves none";
  EXPECT_FALSE(cache.find(unnamed));
  ASSERT_TRUE(cache.find(newer));
  EXPECT_EQ(cache.find(newer)->stage_seconds, 2e-3);
  cache.store(unnamed, with_seconds(1e-3));
  ASSERT_TRUE(cache.find(older));
  EXPECT_EQ(cache.find(older)->stage_seconds, 1e-3) << "the unnamed entry serves a code generator without one";
  EXPECT_EQ(cache.find(newer)->stage_seconds, 2e-3) << "an entry of the key's own code generator comes first";
  EXPECT_EQ(cache.find(unnamed)->stage_seconds, 1e-3);
  cache.store(older, with_seconds(3e-3));
  EXPECT_EQ(cache.find(older)->stage_seconds, 3e-3);
  EXPECT_EQ(cache.find(unnamed)->stage_seconds, 1e-3);
  // The code generator is written into the entry's key.
  std::ifstream in(tmp.path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"codegen\": \"ptxas 13.0.88\""), std::string::npos) << text;
}

TYPED_TEST(TunedKernels, TunerChoosesARunnableVariantAndTheCacheKeepsIt) {
  using Space = TypeParam;
  if (!physics::tet_solvers_built(BackendOf<Space>::value)) GTEST_SKIP() << "no solvers for this backend in this build";
  const Backend backend = BackendOf<Space>::value;
  const auto mesh = test_box();
  auto sim = tuned_maxwell(backend, "double", 3, mesh);
  sim->set_fields(test_fields, 0.0);
  auto& s = dynamic_cast<NodalTunable&>(*sim);
  const auto r = physics::tune_nodal(s, mesh.num_elements(), 3);
  EXPECT_TRUE(s.infeasible(r.choice).empty());
  EXPECT_GT(r.stage_seconds, 0.0);
  EXPECT_GT(r.baseline_seconds, 0.0);
  EXPECT_EQ(r.elements, mesh.num_elements());
  // Every part was searched: volume, the three lift modes, the fused stage where the build has
  // FP64 tensor cores, and the stages.
  std::vector<std::string> parts = {"volume", "lift split", "lift fused-lift", "lift fused-update", "stage"};
  if (tensor_cores(backend, "double")) parts.push_back("volume+surface+lift+update");
  for (const auto& part : parts)
    EXPECT_TRUE(std::any_of(r.trials.begin(), r.trials.end(), [&](const auto& t) { return t.part == part; })) << part;
  // The choice is the fastest stage among those timed.
  for (const auto& t : r.trials)
    if (t.part == "stage") {
      EXPECT_LE(r.stage_seconds, t.seconds);
    }
  // Every stage it checked computed the straightforward kernels' stage, and the check leaves the
  // state as it was.
  EXPECT_TRUE(r.rejected.empty()) << physics::to_string(r.rejected.front().tuning) << ": "
                                  << r.rejected.front().seconds;
  const auto before = sim->host_fields();
  EXPECT_LE(s.stage_deviation(), 1.0);
  EXPECT_EQ(sim->host_fields(), before);

  TempCache tmp("tuning-cache");
  const physics::TuningCache cache(tmp.path);
  const physics::TuningKey key{"maxwell3d", 3, "double", backend_name(backend), s.device()};
  EXPECT_FALSE(cache.find(key));
  cache.store(key, r);
  const auto back = cache.find(key);
  ASSERT_TRUE(back);
  EXPECT_EQ(physics::to_string(back->choice), physics::to_string(r.choice));
  EXPECT_EQ(back->elements, r.elements);
  physics::TuningKey other = key;
  other.order = 4;
  EXPECT_FALSE(cache.find(other));
  cache.store(key, r);  // replaces, does not duplicate
  std::ifstream in(tmp.path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("\"order\": 3"), text.rfind("\"order\": 3"));
  // The stage's shared carveout travels with the choice.
  auto shared = r;
  shared.choice.stage_carveout = !r.choice.stage_carveout;
  physics::TuningKey fifth = key;
  fifth.order = 5;
  cache.store(fifth, shared);
  ASSERT_TRUE(cache.find(fifth));
  EXPECT_EQ(cache.find(fifth)->choice.stage_carveout, shared.choice.stage_carveout);
  EXPECT_EQ(cache.find(key)->choice.stage_carveout, r.choice.stage_carveout);

  // A value of the wrong type is refused with the file, the entry and the key: the lift's
  // resident_teams, whatever number the tuner chose, becomes a text.
  {
    std::ifstream stored(tmp.path);
    std::string json((std::istreambuf_iterator<char>(stored)), std::istreambuf_iterator<char>());
    const std::string field = "\"resident_teams\": ";
    const auto lift = json.find("\"lift_shape\"");
    ASSERT_NE(lift, std::string::npos) << json;
    const auto at = json.find(field, lift);
    ASSERT_NE(at, std::string::npos) << json;
    const auto value = at + field.size(), end = json.find_first_not_of("0123456789", value);
    ASSERT_GT(end, value) << json;
    json.replace(value, end - value, "\"three\"");
    std::ofstream(tmp.path) << json;
  }
  try {
    (void)cache.find(key);
    ADD_FAILURE() << "a cache with a text for a number was read";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(tmp.path), std::string::npos) << what;
    EXPECT_NE(what.find("entry 1"), std::string::npos) << what;
    EXPECT_NE(what.find("lift_shape.resident_teams' is \"three\" (expected an integer)"), std::string::npos)
        << what;
  }

  // A damaged file is refused with its name.
  { std::ofstream(tmp.path) << "{ \"format\": \"dgk tuning cache\", \"entries\": [ {\"key\": 3} ] }"; }
  try {
    (void)cache.find(key);
    ADD_FAILURE() << "a damaged cache was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(tmp.path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("entry 1"), std::string::npos) << e.what();
  }
  { std::ofstream(tmp.path) << "not json"; }
  EXPECT_THROW((void)cache.find(key), Error);
}

/// A solver whose stages with some tunings compute something else (as a kernel miscompiled for
/// a device would), and are the fastest: only the tuner's check keeps them out. With `factor`,
/// each tuning's times are also scaled by factor(tuning, part timed), as a device where it runs
/// that much faster or slower would measure.
class WrongStages : public NodalTunable {
 public:
  WrongStages(NodalTunable& inner, std::function<bool(const nt::NodalTuning&)> wrong,
              std::function<double(const nt::NodalTuning&, physics::TunedPart)> factor = {})
      : m_inner(inner), m_wrong(std::move(wrong)), m_factor(std::move(factor)) {}
  std::string infeasible(const nt::NodalTuning& t) const override { return m_inner.infeasible(t); }
  void set_tuning(const nt::NodalTuning& t) override {
    m_current = t;
    m_inner.set_tuning(t);
  }
  double time_part(physics::TunedPart part, int reps) override {
    const double t = m_inner.time_part(part, reps) * (m_factor ? m_factor(m_current, part) : 1.0);
    return m_wrong(m_current) ? t * 1e-3 : t;
  }
  double stage_deviation() override { return m_wrong(m_current) ? 1e6 : m_inner.stage_deviation(); }
  physics::StageLayoutComparison compare_stage_layouts(int reps) override {
    return m_inner.compare_stage_layouts(reps);
  }
  bool use_face_codes(bool on) override { return m_inner.use_face_codes(on); }
  int nodes_per_element() const override { return m_inner.nodes_per_element(); }
  bool host_kernels() const override { return m_inner.host_kernels(); }
  std::string device() const override { return m_inner.device(); }

 private:
  NodalTunable& m_inner;
  std::function<bool(const nt::NodalTuning&)> m_wrong;
  std::function<double(const nt::NodalTuning&, physics::TunedPart)> m_factor;
  nt::NodalTuning m_current;
};

/// What the tuner tests tune: a double Maxwell solver of the tuned family of order `order` on the
/// test box, its fields set.
struct TunerSubject {
  TunerSubject(Backend backend, int order)
      : mesh(test_box()), sim(tuned_maxwell(backend, "double", order, mesh)) {
    sim->set_fields(test_fields, 0.0);
  }
  NodalTunable& tunable() { return dynamic_cast<NodalTunable&>(*sim); }
  mesh::TetMesh mesh;
  std::unique_ptr<Simulation> sim;
};

TYPED_TEST(TunedKernels, TunerRefusesAStageThatComputesSomethingElse) {
  using Space = TypeParam;
  if (!physics::tet_solvers_built(BackendOf<Space>::value)) GTEST_SKIP() << "no solvers for this backend in this build";
  TunerSubject subject(BackendOf<Space>::value, 2);
  const auto& mesh = subject.mesh;
  auto& inner = subject.tunable();
  // The fused-update stages wrong: another mode is chosen, and each refusal is reported.
  WrongStages fused_update(inner, [](const nt::NodalTuning& t) { return t.mode == nt::LiftMode::FusedUpdate; });
  const auto r = physics::tune_nodal(fused_update, mesh.num_elements(), 1);
  EXPECT_NE(r.choice.mode, nt::LiftMode::FusedUpdate) << physics::to_string(r.choice);
  ASSERT_FALSE(r.rejected.empty());
  for (const auto& t : r.rejected) {
    EXPECT_EQ(t.tuning.mode, nt::LiftMode::FusedUpdate) << physics::to_string(t.tuning);
    EXPECT_GT(t.seconds, 1.0);
  }
  for (const auto& t : r.trials) EXPECT_FALSE(t.part == "stage" && t.tuning.mode == nt::LiftMode::FusedUpdate);
  // Every tuned stage wrong: the straightforward kernels.
  const std::string thread = physics::to_string(nt::NodalTuning{});
  WrongStages all(inner, [&](const nt::NodalTuning& t) { return physics::to_string(t) != thread; });
  const auto s = physics::tune_nodal(all, mesh.num_elements(), 1);
  EXPECT_EQ(physics::to_string(s.choice), thread);
  EXPECT_GE(s.rejected.size(), 3u);
}

TYPED_TEST(TunedKernels, TunerTimesTheLanesUpdateWhateverLeadsItsFirstRound) {
  using Space = TypeParam;
  const Backend backend = BackendOf<Space>::value;
  if (!physics::tet_solvers_built(backend)) GTEST_SKIP() << "no solvers for this backend in this build";
  if (!tensor_cores(backend, "double")) GTEST_SKIP() << "the lanes' update is a tensor-core kernel";
  TunerSubject subject(backend, 3);
  const auto& mesh = subject.mesh;
  auto& inner = subject.tunable();
  // A device where the fused stages with their fields in registers are slow unless their lanes
  // update the values they finish, which are fast: no shape with its fields in registers leads
  // the first round, and the lanes' update must still be found, and refined.
  const auto stage_in_registers = [](const nt::NodalTuning& t) {
    return t.mode == nt::LiftMode::FusedStage && t.volume_shape.register_fields;
  };
  WrongStages skewed(
      inner, [](const nt::NodalTuning&) { return false; },
      [&](const nt::NodalTuning& t, physics::TunedPart) {
        if (!stage_in_registers(t)) return 1.0;
        return t.volume_shape.lane_update ? 1e-2 : 10.0;
      });
  const auto r = physics::tune_nodal(skewed, mesh.num_elements(), 1);
  EXPECT_TRUE(stage_in_registers(r.choice) && r.choice.volume_shape.lane_update) << physics::to_string(r.choice);
  EXPECT_TRUE(std::any_of(r.trials.begin(), r.trials.end(), [&](const auto& t) {
    const auto& s = t.tuning.volume_shape;
    return stage_in_registers(t.tuning) && s.lane_update && (s.paired_tiles || s.sequential > 1 || s.max_registers > 0);
  })) << "no refinement of the lanes' update was timed";
  EXPECT_TRUE(r.rejected.empty());
}

TYPED_TEST(TunedKernels, TunerTimesTheNextVolumesInWholeStages) {
  using Space = TypeParam;
  if (!physics::tet_solvers_built(BackendOf<Space>::value)) GTEST_SKIP() << "no solvers for this backend in this build";
  TunerSubject subject(BackendOf<Space>::value, 2);
  const auto& mesh = subject.mesh;
  auto& inner = subject.tunable();
  // A device where the straightforward volume kernel is by far the fastest alone and by far the
  // slowest in a stage: the stages of two kernels must also be timed with the volumes that
  // follow it alone, however much slower, and one of those must win.
  const auto thread_volume = [](const nt::NodalTuning& t) {
    return t.mode != nt::LiftMode::FusedStage && t.volume == nt::StageKernel::Thread;
  };
  WrongStages skewed(
      inner, [](const nt::NodalTuning&) { return false; },
      [&](const nt::NodalTuning& t, physics::TunedPart part) {
        if (!thread_volume(t) || part == physics::TunedPart::Lift) return 1.0;
        return part == physics::TunedPart::Volume ? 1e-3 : 1e3;
      });
  const auto r = physics::tune_nodal(skewed, mesh.num_elements(), 1);
  EXPECT_FALSE(thread_volume(r.choice)) << physics::to_string(r.choice);
  // Each stage timed with the straightforward volume and a lift that is not batched (whose batch
  // would be the volume's too) was also timed with two other volumes.
  const auto split = [](const nt::NodalTuning& t) {
    const std::string s = physics::to_string(t);
    const auto at = s.find("; ");
    return std::make_pair(s.substr(0, at), at == std::string::npos ? std::string() : s.substr(at + 2));
  };
  int checked = 0;
  for (const auto& t : r.trials) {
    if (t.part != "stage" || !thread_volume(t.tuning) || t.tuning.lift == nt::StageKernel::Batched) continue;
    const std::string lift = split(t.tuning).second;
    std::set<std::string> volumes;
    for (const auto& u : r.trials)
      if (u.part == "stage" && !thread_volume(u.tuning) && u.tuning.mode == t.tuning.mode && split(u.tuning).second == lift)
        volumes.insert(split(u.tuning).first);
    EXPECT_GE(volumes.size(), 2u) << lift;
    ++checked;
  }
  EXPECT_GE(checked, 2);
  EXPECT_TRUE(r.rejected.empty());
}

TYPED_TEST(TunedKernels, CaseTunesOnFirstUseThenUsesTheCache) {
  using Space = TypeParam;
  if (!physics::tet_solvers_built(BackendOf<Space>::value)) GTEST_SKIP() << "no solvers for this backend in this build";
  TempCache tmp("case-cache");
  ASSERT_EQ(setenv("DGK_TUNING_CACHE", tmp.path.c_str(), 1), 0);
  physics::CaseOptions o;
  o.name = "maxwell3d";
  o.order = 2;
  o.mesh = "box:2";
  o.backend = BackendOf<Space>::value;
  o.final_time = 0.0;
  o.tune = "auto";
  {
    physics::TetCase first(o);
    EXPECT_EQ(first.kernels().family, TetKernelFamily::Tuned);
    EXPECT_TRUE(first.kernels().tuned);
    EXPECT_NE(first.tuning_source().find("tuned now"), std::string::npos) << first.tuning_source();
    physics::TetCase second(o);
    EXPECT_NE(second.tuning_source().find("cache"), std::string::npos) << second.tuning_source();
    EXPECT_EQ(physics::to_string(second.kernels()), physics::to_string(first.kernels()));
  }
  o.tune = "sometimes";
  EXPECT_THROW(physics::TetCase bad(o), Error);
  unsetenv("DGK_TUNING_CACHE");
}

}  // namespace
}  // namespace dgk::Testing
