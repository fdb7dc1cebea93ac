#include "dgk/physics/tet_tuning.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <ostream>
#include <sstream>
#include <type_traits>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "dgk/core/error.hpp"
#include "dgk/physics/tet_kernels.hpp"

namespace dgk::physics {

using kernels::nodal_tet::LiftMode;
using kernels::nodal_tet::MicroShape;
using kernels::nodal_tet::NodalTuning;
using kernels::nodal_tet::StageKernel;
using kernels::nodal_tet::Staging;

namespace {

nlohmann::json tuning_json(const NodalTuning& t);  // every field of a tuning, as the cache keeps it

// Microblock sizes worth timing: on the GPU every k whose k np threads fit a team of at most
// 1024 and waste at most a quarter of the padded team (k = 1 always); on the host, where a team
// is one thread and k only sets how many elements it takes, a few sizes.
// The warps per team of the tensor-core lift worth timing for np nodes, k elements per group and
// w_i row tiles per warp: four, eight, as many as the products have items (a warp's w_i 8-row
// tiles by three 8-column tiles), up to 32, and beyond eight items half as many (two rounds). The columns are counted for six fields a node
// (Maxwell); for the acoustic system's four the count is the same up to k = 8, and a wrong guess
// only times another team size.
std::vector<int> lift_warps(int np, int k, int wi) {
  const int row_tiles = (np + 7) / 8, col_tiles = (6 * k + 7) / 8;
  const int items = (row_tiles + wi - 1) / wi * ((col_tiles + 2) / 3);
  std::vector<int> warps{4, 8};
  for (int w : {items, items > 8 ? (items + 1) / 2 : 0})
    if (w > 1 && w <= 32 && std::find(warps.begin(), warps.end(), w) == warps.end()) warps.push_back(w);
  return warps;
}

std::vector<int> microblock_sizes(int np, bool host) {
  if (host) return {1, 4, 16};
  std::vector<int> ks;
  for (int k : {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64}) {
    const int threads = k * np, padded = (threads + 31) / 32 * 32;
    if (padded > 1024) break;
    if (k == 1 || 4 * threads >= 3 * padded) ks.push_back(k);
  }
  return ks;
}

void fastest_first(std::vector<TuningTrial>& trials) {
  std::stable_sort(trials.begin(), trials.end(), [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
}

struct Search {
  NodalTunable& solver;
  int reps;
  std::ostream* log;
  std::vector<TuningTrial>& trials;

  std::vector<TuningTrial>& rejected;

  // Whether `c` can run and, for a whole stage, computes the straightforward kernels' stage
  // (refused and recorded if it differs).
  bool admissible(const NodalTuning& c, TunedPart part, const std::string& name) {
    if (!solver.infeasible(c).empty()) return false;
    if (part != TunedPart::Stage) return true;
    solver.set_tuning(c);
    const double deviation = solver.stage_deviation();
    if (deviation <= 1.0) return true;
    rejected.push_back({name, c, deviation});
    std::cerr << "dgk tune: refused " << to_string(c) << ": its RK stage differs from the straightforward "
              << "kernels' by " << deviation << " times the rounding allowance\n";
    return false;
  }

  // Times `part` of each candidate that can run; returns them sorted fastest first. A whole
  // stage is first checked against the straightforward kernels' (refused if it differs). With
  // several rounds the candidates are timed in turn, round after round, and each keeps the median
  // of its rounds: a drift of the device (clocks, memory) between the first candidate and the
  // last then weighs on all of them alike.
  std::vector<TuningTrial> time_all(const std::vector<NodalTuning>& candidates, TunedPart part, const std::string& name,
                                    int rounds = 1) {
    std::vector<NodalTuning> runnable;
    for (const auto& c : candidates)
      if (admissible(c, part, name)) runnable.push_back(c);
    std::vector<std::vector<double>> seconds(runnable.size());
    for (int r = 0; r < rounds; ++r)
      for (std::size_t i = 0; i < runnable.size(); ++i) {
        solver.set_tuning(runnable[i]);
        seconds[i].push_back(solver.time_part(part, reps));
      }
    std::vector<TuningTrial> timed;
    for (std::size_t i = 0; i < runnable.size(); ++i) {
      auto& t = seconds[i];
      std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
      timed.push_back({name, runnable[i], t[t.size() / 2]});
      trials.push_back(timed.back());
    }
    fastest_first(timed);
    return timed;
  }

  // Times `first`, then what `refine` makes of each of the three fastest; all the trials,
  // fastest first.
  template <class Refine>
  std::vector<TuningTrial> two_rounds(const std::vector<NodalTuning>& first, TunedPart part, const std::string& name,
                                      Refine&& refine) {
    auto best = time_all(first, part, name);
    std::vector<NodalTuning> second;
    for (std::size_t b = 0; b < std::min<std::size_t>(3, best.size()); ++b) refine(best[b].tuning, second);
    // Each shape once: two of the three may refine into the same shapes, or into one of the first.
    std::vector<nlohmann::json> seen;
    for (const auto& c : first) seen.push_back(tuning_json(c));
    std::vector<NodalTuning> fresh;
    for (const auto& c : second) {
      auto j = tuning_json(c);
      if (std::find(seen.begin(), seen.end(), j) != seen.end()) continue;
      seen.push_back(std::move(j));
      fresh.push_back(c);
    }
    auto more = time_all(fresh, part, name);
    best.insert(best.end(), more.begin(), more.end());
    fastest_first(best);
    return best;
  }

  // The micro kernel's shapes for one stage, searched as the file comment of tet_tuning.hpp says.
  std::vector<TuningTrial> micro(NodalTuning base, bool volume, TunedPart part, const std::string& name) {
    auto with = [&](const MicroShape& s) {
      NodalTuning t = base;
      (volume ? t.volume_shape : t.lift_shape) = s;
      (volume ? t.volume : t.lift) = StageKernel::Micro;
      return t;
    };
    std::vector<NodalTuning> first;
    for (int k : microblock_sizes(solver.nodes_per_element(), solver.host_kernels()))
      for (Staging st : {Staging::Fields, Staging::Operator, Staging::Both}) first.push_back(with({k, 1, 1, st}));
    return two_rounds(first, part, name, [&](const NodalTuning& t, std::vector<NodalTuning>& second) {
      const auto& s = volume ? t.volume_shape : t.lift_shape;
      for (int wi : {1, 2, 4})
        for (int ws : {1, 2, 4})
          for (int ri : {1, 2}) {
            if ((wi == 1 && ws == 1 && ri == 1) || (ri > 1 && (!volume || wi > 2))) continue;
            second.push_back(with({s.elements, wi, ws, s.staging, ri}));
          }
      // The volume kernel for one-warp teams under a register cap (GPU builds, np <= 32;
      // refused and skipped elsewhere, or where k np exceeds a warp).
      if (volume)
        for (int cap : {64, 72})
          for (int ws : {1, 2, 4}) {
            MicroShape c{s.elements, 1, ws, s.staging, 1};
            c.max_registers = cap;
            second.push_back(with(c));
          }
    });
  }

  // The tensor-core kernel's shapes for one stage (none where the build has no tensor cores:
  // every candidate is then infeasible and skipped). Passes over the nodes are the volume's.
  std::vector<TuningTrial> tensor(NodalTuning base, bool volume, TunedPart part, const std::string& name) {
    auto with = [&](int k, int wi, int ws, int warps, int passes, bool staged_product, bool paired = false,
                    int max_registers = 0, bool batched = false, bool async = false, bool ahead = false) {
      NodalTuning t = base;
      MicroShape s;
      s.elements = k;
      s.inline_blocks = wi;
      s.sequential = ws;
      s.warps = warps;
      s.passes = passes;
      s.staged_product = staged_product;
      s.paired_tiles = paired;
      s.max_registers = max_registers;
      s.batched_loads = batched;
      s.async_copies = async;
      s.loads_ahead = ahead;
      (volume ? t.volume_shape : t.lift_shape) = s;
      (volume ? t.volume : t.lift) = StageKernel::Tensor;
      return t;
    };
    std::vector<NodalTuning> first;
    for (int k : {1, 2, 4, 8, 16})
      for (int passes : volume ? std::vector<int>{1, 2, 3, 4, 8} : std::vector<int>{1})
        for (bool staged : volume ? std::vector<bool>{false} : std::vector<bool>{false, true})
          first.push_back(with(k, 2, 1, 4, passes, staged));
    auto best = two_rounds(first, part, name, [&](const NodalTuning& t, std::vector<NodalTuning>& second) {
      const auto& s = volume ? t.volume_shape : t.lift_shape;
      // Row tiles paired into m16n8k4 where the build has it (else refused and skipped).
      for (int wi : {1, 2, 4})
        for (int warps : {2, 4, 8})
          for (int ws : {1, 4})
            for (bool paired : {false, true}) {
              if ((wi == 2 && warps == 4 && ws == 1 && !paired) || (paired && wi < 2)) continue;
              second.push_back(with(s.elements, wi, ws, warps, s.passes, s.staged_product, paired));
            }
      // The lift under a register cap, for more resident teams (w_i <= 2 unpaired, up to 8 warps),
      // with batched loads (more loads in flight per thread, more registers), capped or not, and
      // with asynchronous copies of the epilogue's operands (its product through scratch); at
      // w_i = 1 also with the next k-step's fragments loaded ahead. Besides four and eight warps,
      // one warp per item of the products (w_i row tiles by three column tiles), so that no
      // warp idles in the products' last round (at N = 8, w_i = 2: eleven warps, not two rounds
      // of eight with five idle).
      if (!volume)
        for (int wi : {1, 2})
          for (int warps : lift_warps(solver.nodes_per_element(), s.elements, wi))
            for (int cap : {0, 64}) {
              if (cap != 0 && warps > 8) continue;  // the cap is compiled for teams of up to 8 warps
              for (bool batched : {false, true})
                if (cap != 0 || batched)
                  second.push_back(with(s.elements, wi, 1, warps, 1, s.staged_product, false, cap, batched));
              second.push_back(with(s.elements, wi, 1, warps, 1, true, false, cap, false, true));
              if (wi == 1 && cap == 0)
                second.push_back(with(s.elements, 1, 1, warps, 1, s.staged_product, false, 0, false, false, true));
            }
    });
    if (volume) return best;
    // The three fastest lifts with fewer resident teams (a smaller shared-memory carveout, more
    // L1 for LIFT): as many warps per SM as two or three teams of eight warps (refused and skipped
    // where the build does not fit carveouts).
    std::vector<NodalTuning> third;
    for (std::size_t b = 0; b < std::min<std::size_t>(3, best.size()); ++b)
      for (int teams : {2, 3}) {
        NodalTuning t = best[b].tuning;
        t.lift_shape.resident_teams = teams * 8 / t.lift_shape.warps;
        third.push_back(t);
      }
    auto more = time_all(third, part, name);
    best.insert(best.end(), more.begin(), more.end());
    fastest_first(best);
    return best;
  }

  // The tensor-core volume finished by the lanes (four elements per warp): the fields in
  // registers or in the warp's scratch (k-steps unrolled or not) and the warps per team first,
  // then row tiles per pass (paired or not) and groups in sequence. None where the build has no
  // tensor cores.
  std::vector<TuningTrial> tensor_lanes(NodalTuning base, TunedPart part, const std::string& name) {
    const bool stage = base.mode == LiftMode::FusedStage;
    auto with = [&](int wi, int ws, int warps, bool paired, bool registers, bool unrolled, int max_registers = 0,
                    bool async = false, bool lane_update = false, bool merged = false, bool halves = false) {
      NodalTuning t = base;
      MicroShape s;
      s.max_registers = max_registers;
      s.async_copies = async;
      s.lane_update = lane_update;
      s.merged_product = merged;
      s.gather_halves = halves;
      s.elements = 4;
      s.inline_blocks = wi;
      s.sequential = ws;
      s.warps = warps;
      s.paired_tiles = paired;
      s.lane_epilogue = true;
      s.register_fields = registers;
      s.unrolled = unrolled;
      t.volume_shape = s;
      t.volume = StageKernel::Tensor;
      return t;
    };
    std::vector<NodalTuning> first;
    for (int fields : {0, 1, 2})  // in registers, in scratch unrolled, in scratch
      for (int warps : {1, 2, 4, 8}) first.push_back(with(1, 1, warps, false, fields == 0, fields < 2));
    // The fused stage whose lanes update the values they finish (fields in registers) enters the
    // first round too, rather than only as a refinement of the three fastest shapes there: on an
    // H200 at N = 1..3 none of those held its fields in registers, so the lanes' update, 0.78 to
    // 0.97 times as long as the choice, went untimed (docs/PERFORMANCE.md, "The autotuner on an
    // H200").
    if (stage)
      for (int warps : {1, 2, 4, 8}) first.push_back(with(1, 1, warps, false, true, true, 0, false, true));
    // The stage as one product (its fields read at each k-step, updated by its lanes), paired or
    // not, its flux gathered ahead into scratch at once or in two halves (gather=halves); refused
    // and skipped where not compiled (N > 5, no tensor cores).
    if (stage)
      for (bool halves : {false, true})
        for (int warps : {1, 2, 4})
          for (bool paired : {false, true})
            first.push_back(with(1, 1, warps, paired, false, true, 0, false, false, true, halves));
    auto best = two_rounds(first, part, name, [&](const NodalTuning& t, std::vector<NodalTuning>& second) {
      const auto& s = t.volume_shape;
      if (s.merged_product) {
        // Groups in sequence, paired or not, uncapped or under the caps of 168 and 128 (teams of
        // up to two warps: twelve or sixteen warps per SM); paired, the volume's k-steps unrolled
        // by 1, 2 or 3 instead of all (refused and skipped where not compiled: N other than 3, 4).
        for (int cap : {0, 168, 128})
          for (int ws : {1, 2})
            for (bool paired : {false, true})
              for (int unroll = 0; unroll <= kernels::nodal_tet::merged_unroll_max; ++unroll)
                if ((cap == 0 || s.warps <= 2) && (unroll == 0 || paired)) {
                  NodalTuning t = with(1, ws, s.warps, paired, false, true, cap, false, false, true, s.gather_halves);
                  t.volume_shape.volume_unroll = unroll;
                  second.push_back(t);
                }
        return;
      }
      for (int wi : {1, 2})
        for (int ws : {1, 2, 4})
          for (bool paired : {false, true}) {
            if (wi == 1 && ws == 1 && !paired) continue;
            second.push_back(with(wi, ws, s.warps, paired, s.register_fields, s.unrolled));
          }
      // The fields in registers under a register cap of 64, for more resident teams (the volume
      // at the low orders), of 168 (twelve warps per SM, teams of one or two warps at w_i = 1,
      // N = 3..5, paired or not), and under launch bounds of one team per SM (255: the compiler
      // keeps more operator loads in flight); refused and skipped where not compiled.
      if (s.register_fields)
        for (int cap : {64, 168, 255})
          for (int wi : {1, 2})
            for (int ws : {1, 2, 4})
              for (bool paired : {false, true})
                if ((cap != 64 || !stage) && (cap != 168 || wi == 1) && (!paired || cap == 168))
                  second.push_back(with(wi, ws, s.warps, paired, true, true, cap));
      // The fused stage with asynchronous copies of res (w_i = 1, fields in registers, uncapped or
      // under the cap of 168, or in scratch unrolled; refused and skipped where not compiled).
      if (stage && (s.register_fields || s.unrolled))
        for (int cap : s.register_fields ? std::vector<int>{0, 168} : std::vector<int>{0})
          for (int ws : {1, 2})
            for (bool paired : {false, true}) second.push_back(with(1, ws, s.warps, paired, s.register_fields, true, cap, true));
      // The fused stage whose lanes update the values they finish in memory (w_i = 1, fields in
      // registers, uncapped or under the cap of 168): no rhs or res in scratch, more L1.
      if (stage && s.register_fields)
        for (int cap : {0, 168})
          for (int ws : {1, 2})
            for (bool paired : {false, true})
              second.push_back(with(1, ws, s.warps, paired, true, true, cap, false, true));
    });
    if (stage) {
      // The fastest stage as one product also with fewer resident teams (a smaller shared-memory
      // carveout, more L1 for the operators' fragments, which its warps read through the L2 at
      // up to 86% of its peak): ten or twelve warps per SM (refused and skipped where the build
      // does not fit carveouts). At N = 3 on an H200 twelve one-warp teams took 0.989 times as
      // long as sixteen, at N = 4 ten 1.036 times as long as twelve (docs/PERFORMANCE.md, "The
      // whole stage as one product").
      std::vector<NodalTuning> fewer;
      for (const auto& b : best)
        if (b.tuning.volume_shape.merged_product) {
          for (int warps_per_sm : {12, 10}) {
            NodalTuning t = b.tuning;
            t.volume_shape.resident_teams = std::max(1, warps_per_sm / t.volume_shape.warps);
            fewer.push_back(t);
          }
          break;
        }
      auto more = time_all(fewer, part, name);
      best.insert(best.end(), more.begin(), more.end());
      fastest_first(best);
      return best;
    }
    // The volume with its fields in registers and D_r, D_s, D_t's fragments in team scratch, one
    // copy for all of a team's groups: one or two row tiles per pass, paired or not, teams of two,
    // four, eight or sixteen warps, two or eight groups in sequence (refused and skipped where the
    // fields do not fit registers or the operator the scratch). Not derived from the shapes above:
    // in one tuning run at N = 5 they held only unpaired passes, and from scratch the paired pass
    // took 0.78 times as long (docs/PERFORMANCE.md, "The operator in team scratch").
    std::vector<NodalTuning> staged;
    for (int wi : {1, 2})
      for (bool paired : {false, true})
        for (int warps : {2, 4, 8, 16})
          for (int ws : {2, 8}) {
            NodalTuning t = with(wi, ws, warps, paired, true, true);
            t.volume_shape.staging = Staging::Operator;
            staged.push_back(t);
          }
    auto more = time_all(staged, part, name);
    best.insert(best.end(), more.begin(), more.end());
    fastest_first(best);
    return best;
  }

  void say(const std::string& what, const TuningTrial& t) {
    if (log) *log << "  " << std::left << std::setw(36) << what << std::right << std::setw(10) << std::fixed
                  << std::setprecision(4) << t.seconds * 1e3 << " ms  " << to_string(t.tuning) << "\n";
  }
};

}  // namespace

TuningResult tune_nodal(NodalTunable& solver, int elements, int reps, std::ostream* log) {
  TuningResult result;
  result.elements = elements;
  Search search{solver, reps, log, result.trials, result.rejected};
  const NodalTuning baseline{};  // thread volume, split thread lift

  // 1. Volume.
  std::vector<NodalTuning> volume = {baseline};
  for (int b : {1, 2, 4, 8}) {
    NodalTuning t = baseline;
    t.volume = StageKernel::Batched;
    t.batch = b;
    volume.push_back(t);
  }
  auto vol = search.time_all(volume, TunedPart::Volume, "volume");
  auto vol_micro = search.micro(baseline, true, TunedPart::Volume, "volume");
  vol.insert(vol.end(), vol_micro.begin(), vol_micro.end());
  auto vol_tensor = search.tensor(baseline, true, TunedPart::Volume, "volume");
  if (!vol_micro.empty() && !vol_tensor.empty()) {
    search.say("volume (best micro)", vol_micro.front());
    search.say("volume (best tensor)", vol_tensor.front());
  }
  auto vol_lanes = search.tensor_lanes(baseline, TunedPart::Volume, "volume");
  if (!vol_tensor.empty() && !vol_lanes.empty()) search.say("volume (best tensor, lanes)", vol_lanes.front());
  vol.insert(vol.end(), vol_tensor.begin(), vol_tensor.end());
  vol.insert(vol.end(), vol_lanes.begin(), vol_lanes.end());
  fastest_first(vol);
  DGK_THROW_IF(vol.empty(), "tune_nodal: no volume kernel can run on this device");
  search.say("volume", vol.front());
  NodalTuning best = baseline;
  best.volume = vol.front().tuning.volume;
  best.volume_shape = vol.front().tuning.volume_shape;
  if (best.volume == StageKernel::Batched) best.batch = vol.front().tuning.batch;

  // 2. Lift, in each mode, with the chosen volume kernel.
  std::vector<NodalTuning> finalists;
  {
    std::vector<NodalTuning> split = {best};
    if (best.volume != StageKernel::Batched)
      for (int b : {1, 2, 4, 8}) {
        NodalTuning t = best;
        t.lift = StageKernel::Batched;
        t.batch = b;
        split.push_back(t);
      }
    else {
      NodalTuning t = best;
      t.lift = StageKernel::Batched;
      split.push_back(t);
    }
    auto lift = search.time_all(split, TunedPart::Lift, "lift split");
    auto lift_micro = search.micro(best, false, TunedPart::Lift, "lift split");
    lift.insert(lift.end(), lift_micro.begin(), lift_micro.end());
    auto lift_tensor = search.tensor(best, false, TunedPart::Lift, "lift split");
    lift.insert(lift.end(), lift_tensor.begin(), lift_tensor.end());
    fastest_first(lift);
    search.say("lift (split)", lift.front());
    finalists.push_back(lift.front().tuning);
  }
  for (LiftMode mode : {LiftMode::FusedLift, LiftMode::FusedUpdate}) {
    NodalTuning t = best;
    t.mode = mode;
    const std::string name = mode == LiftMode::FusedLift ? "lift fused-lift" : "lift fused-update";
    auto fused = search.micro(t, false, TunedPart::Lift, name);
    auto fused_tensor = search.tensor(t, false, TunedPart::Lift, name);
    if (!fused.empty() && !fused_tensor.empty()) {
      search.say(name + " (best micro)", fused.front());
      search.say(name + " (best tensor)", fused_tensor.front());
    }
    fused.insert(fused.end(), fused_tensor.begin(), fused_tensor.end());
    fastest_first(fused);
    if (fused.empty()) continue;
    search.say(mode == LiftMode::FusedLift ? "surface+lift" : "surface+lift+update", fused.front());
    finalists.push_back(fused.front().tuning);
  }

  // 3. The whole stage in one kernel (the lane-finished tensor volume with the gather, lift and
  // update), searched like the volume finished by the lanes but timed as a stage; none where
  // the build has no tensor cores.
  {
    NodalTuning t = baseline;
    t.mode = LiftMode::FusedStage;
    auto whole = search.tensor_lanes(t, TunedPart::Stage, "volume+surface+lift+update");
    if (!whole.empty()) {
      search.say("volume+surface+lift+update", whole.front());
      finalists.push_back(whole.front().tuning);
    }
  }

  // 4. Whole stages: the finalists in turn over three rounds, each its median. A stage of two
  // kernels also with the next_volumes volume kernels of step 1 that follow the fastest,
  // whatever their times alone: the order of volumes alone need not hold in a stage, where the
  // lift follows them (docs/PERFORMANCE.md, "The tuner's volumes in whole stages"). A stage of
  // two kernels or more also with one shared-memory carveout for its kernels (where the build
  // fits carveouts): its kernels' own carveouts can cost more in a stage than each saves alone
  // (dgk/core/shared_carveout.hpp).
  constexpr std::size_t next_volumes = 2;
  for (std::size_t i = 0, n = finalists.size(); i < n; ++i) {
    if (finalists[i].mode == LiftMode::FusedStage || finalists[i].lift == StageKernel::Batched) continue;
    std::size_t taken = 0;
    for (std::size_t v = 1; v < vol.size() && taken < next_volumes; ++v) {
      NodalTuning t = finalists[i];
      t.volume = vol[v].tuning.volume;
      t.volume_shape = vol[v].tuning.volume_shape;
      if (t.volume == StageKernel::Batched) continue;  // its batch is the lift's too
      if (!solver.infeasible(t).empty()) continue;
      finalists.push_back(t);
      ++taken;
    }
  }
  for (std::size_t i = 0, n = finalists.size(); i < n; ++i) {
    NodalTuning shared = finalists[i];
    shared.stage_carveout = true;
    if (solver.infeasible(shared).empty()) finalists.push_back(shared);
  }
  auto stages = search.time_all(finalists, TunedPart::Stage, "stage", 3);
  for (const auto& s : stages) search.say("stage", s);
  auto base_stage = search.time_all({baseline}, TunedPart::Stage, "stage (thread)");
  if (stages.empty()) stages = base_stage;  // every tuned stage refused: the straightforward kernels
  DGK_THROW_IF(stages.empty(), "tune_nodal: no stage could run");
  result.choice = stages.front().tuning;
  result.stage_seconds = stages.front().seconds;
  result.baseline_seconds = base_stage.empty() ? 0 : base_stage.front().seconds;
  solver.set_tuning(result.choice);
  if (log) {
    *log << "  stage: " << std::setprecision(4) << result.stage_seconds * 1e3 << " ms tuned, "
         << result.baseline_seconds * 1e3 << " ms thread kernels ("
         << std::setprecision(2) << result.baseline_seconds / result.stage_seconds << "x), "
         << result.trials.size() << " timings"
         << (result.rejected.empty() ? std::string()
                                     : ", " + std::to_string(result.rejected.size()) + " stages refused (wrong result)")
         << "\n";
    log->unsetf(std::ios::floatfield);
  }
  return result;
}

// --- cache --------------------------------------------------------------------------------------

namespace {

const char* staging_name(Staging s) {
  return s == Staging::Fields ? "fields" : (s == Staging::Operator ? "operator" : "both");
}
const char* kernel_name(StageKernel k) {
  switch (k) {
    case StageKernel::Thread: return "thread";
    case StageKernel::Micro: return "micro";
    case StageKernel::Batched: return "batched";
    case StageKernel::Tensor: return "tensor";
  }
  return "";
}
const char* mode_name(LiftMode m) {
  switch (m) {
    case LiftMode::Split: return "split";
    case LiftMode::FusedLift: return "fused-lift";
    case LiftMode::FusedUpdate: return "fused-update";
    case LiftMode::FusedStage: return "fused-stage";
  }
  return "";
}

nlohmann::json shape_json(const MicroShape& s) {
  return {{"k", s.elements},
          {"wi", s.inline_blocks},
          {"ri", s.rows},
          {"ws", s.sequential},
          {"warps", s.warps},
          {"passes", s.passes},
          {"staged_product", s.staged_product},
          {"paired_tiles", s.paired_tiles},
          {"lane_epilogue", s.lane_epilogue},
          {"register_fields", s.register_fields},
          {"unrolled", s.unrolled},
          {"max_registers", s.max_registers},
          {"batched_loads", s.batched_loads},
          {"async_copies", s.async_copies},
          {"loads_ahead", s.loads_ahead},
          {"lane_update", s.lane_update},
          {"merged_product", s.merged_product},
          {"gather_halves", s.gather_halves},
          {"volume_unroll", s.volume_unroll},
          {"resident_teams", s.resident_teams},
          {"staged", staging_name(s.staging)}};
}

nlohmann::json tuning_json(const NodalTuning& t) {
  return {{"volume", kernel_name(t.volume)}, {"volume_shape", shape_json(t.volume_shape)},
          {"lift", kernel_name(t.lift)},     {"lift_shape", shape_json(t.lift_shape)},
          {"mode", mode_name(t.mode)},       {"batch", t.batch},
          {"stage_carveout", t.stage_carveout}};
}

template <class Enum, std::size_t M>
Enum named(const nlohmann::json& j, const char* key, const char* const (&names)[M], const Enum (&values)[M]) {
  std::string list;
  for (const char* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  DGK_THROW_IF(!j.is_object() || !j.contains(key) || !j.at(key).is_string(),
               "'" << key << "' is " << (j.is_object() && j.contains(key) ? j.at(key).dump() : "missing")
                   << " (expected one of " << list << ")");
  const std::string s = j.at(key).get<std::string>();
  for (std::size_t i = 0; i < M; ++i)
    if (s == names[i]) return values[i];
  DGK_THROW_IF(true, "'" << key << "' is '" << s << "' (expected " << list << ")");
}

// Entry `key` of `j` as a T (`fallback` where it is absent and one is given); a wrong type or a
// missing required key is an error that names the key, under `where` (the object's name).
template <class T>
T field(const nlohmann::json& j, const char* where, const char* key, std::optional<T> fallback = std::nullopt) {
  DGK_THROW_IF(!j.is_object(), "'" << where << "' is " << j.dump() << " (expected an object)");
  if (!j.contains(key)) {
    DGK_THROW_IF(!fallback, "'" << where << "' has no '" << key << "'");
    return *fallback;
  }
  const auto& v = j.at(key);
  const bool fits = std::is_same_v<T, bool> ? v.is_boolean() : v.is_number_integer();
  DGK_THROW_IF(!fits, "'" << where << "." << key << "' is " << v.dump() << " (expected "
                          << (std::is_same_v<T, bool> ? "true or false" : "an integer") << ")");
  return v.get<T>();
}

MicroShape shape_of(const nlohmann::json& j, const char* where) {
  MicroShape s;
  s.elements = field<int>(j, where, "k");
  s.inline_blocks = field<int>(j, where, "wi");
  s.sequential = field<int>(j, where, "ws");
  s.rows = field<int>(j, where, "ri", 1);
  s.warps = field<int>(j, where, "warps", 4);
  s.passes = field<int>(j, where, "passes", 1);
  s.staged_product = field<bool>(j, where, "staged_product", false);
  s.paired_tiles = field<bool>(j, where, "paired_tiles", false);
  s.lane_epilogue = field<bool>(j, where, "lane_epilogue", false);
  s.register_fields = field<bool>(j, where, "register_fields", false);
  s.unrolled = field<bool>(j, where, "unrolled", false);
  s.max_registers = field<int>(j, where, "max_registers", 0);
  s.batched_loads = field<bool>(j, where, "batched_loads", false);
  s.async_copies = field<bool>(j, where, "async_copies", false);
  s.loads_ahead = field<bool>(j, where, "loads_ahead", false);
  s.lane_update = field<bool>(j, where, "lane_update", false);
  s.merged_product = field<bool>(j, where, "merged_product", false);
  s.gather_halves = field<bool>(j, where, "gather_halves", false);
  s.volume_unroll = field<int>(j, where, "volume_unroll", 0);
  s.resident_teams = field<int>(j, where, "resident_teams", 0);
  s.staging = named(j, "staged", {"fields", "operator", "both"}, {Staging::Fields, Staging::Operator, Staging::Both});
  return s;
}

NodalTuning tuning_of(const nlohmann::json& j) {
  NodalTuning t;
  const StageKernel kinds[] = {StageKernel::Thread, StageKernel::Micro, StageKernel::Batched, StageKernel::Tensor};
  t.volume = named(j, "volume", {"thread", "micro", "batched", "tensor"}, kinds);
  DGK_THROW_IF(!j.contains("volume_shape"), "'choice' has no 'volume_shape'");
  t.volume_shape = shape_of(j.at("volume_shape"), "volume_shape");
  t.lift = named(j, "lift", {"thread", "micro", "batched", "tensor"}, kinds);
  DGK_THROW_IF(!j.contains("lift_shape"), "'choice' has no 'lift_shape'");
  t.lift_shape = shape_of(j.at("lift_shape"), "lift_shape");
  t.mode = named(j, "mode", {"split", "fused-lift", "fused-update", "fused-stage"},
                 {LiftMode::Split, LiftMode::FusedLift, LiftMode::FusedUpdate, LiftMode::FusedStage});
  t.batch = field<int>(j, "choice", "batch");
  t.stage_carveout = field<bool>(j, "choice", "stage_carveout", false);
  return t;
}

nlohmann::json key_json(const TuningKey& k) {
  nlohmann::json j = {{"physics", k.physics}, {"order", k.order}, {"precision", k.precision}, {"backend", k.backend},
                      {"device", k.device}};
  if (k.basis != "nodal") j["basis"] = k.basis;  // the caches of the nodal basis stay as they were
  if (!k.codegen.empty()) j["codegen"] = k.codegen;
  return j;
}

nlohmann::json read_cache(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {{"format", "dgk tuning cache"}, {"version", 1}, {"entries", nlohmann::json::array()}};
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    DGK_THROW_IF(true, "tuning cache " << path << " is not valid JSON (" << e.what()
                                       << "); delete it, or point DGK_TUNING_CACHE elsewhere");
  }
  DGK_THROW_IF(!j.is_object() || j.value("format", "") != "dgk tuning cache" || !j.contains("entries") ||
                   !j["entries"].is_array(),
               "tuning cache " << path << " is not a dgk tuning cache (expected an object with \"format\": \"dgk "
                               << "tuning cache\" and an \"entries\" array)");
  return j;
}

}  // namespace

TuningCache::TuningCache(std::string path) : m_path(std::move(path)) {}

std::string TuningCache::default_path() {
  if (const char* p = std::getenv("DGK_TUNING_CACHE"); p && *p) return p;
  std::string base;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    base = x;
  else if (const char* h = std::getenv("HOME"); h && *h)
    base = std::string(h) + "/.cache";
  else
    base = ".";
  return base + "/dgk/tuning.json";
}

std::optional<TuningResult> TuningCache::find(const TuningKey& key) const {
  const auto j = read_cache(m_path);
  const auto want = key_json(key);
  // An entry of the key's own code generator, else one that names none (tuned before dgk
  // recorded it).
  auto unnamed = want;
  unnamed.erase("codegen");
  const nlohmann::json* fallback = nullptr;
  std::size_t index = 0, fallback_index = 0;
  auto result = [&](const nlohmann::json& entry, std::size_t at) {
    TuningResult r;
    try {
      r.choice = tuning_of(entry.at("choice"));
      r.stage_seconds = entry.value("stage_seconds", 0.0);
      r.baseline_seconds = entry.value("baseline_seconds", 0.0);
      r.elements = entry.value("elements", 0);
    } catch (const std::exception& e) {
      DGK_THROW_IF(true, "tuning cache " << m_path << ", entry " << at << ": " << e.what());
    }
    return r;
  };
  for (const auto& entry : j["entries"]) {
    ++index;
    DGK_THROW_IF(!entry.is_object() || !entry.contains("key") || !entry["key"].is_object() || !entry.contains("choice"),
                 "tuning cache " << m_path << ", entry " << index
                                 << ": expected an object with a \"key\" object and a \"choice\"");
    if (entry.at("key") == want) return result(entry, index);
    if (!fallback && want.contains("codegen") && entry.at("key") == unnamed) {
      fallback = &entry;
      fallback_index = index;
    }
  }
  if (fallback) return result(*fallback, fallback_index);
  return std::nullopt;
}

void TuningCache::store(const TuningKey& key, const TuningResult& result) const {
  auto j = read_cache(m_path);
  const auto want = key_json(key);
  auto& entries = j["entries"];
  for (auto it = entries.begin(); it != entries.end();)
    it = (it->is_object() && it->contains("key") && (*it)["key"] == want) ? entries.erase(it) : it + 1;
  entries.push_back({{"key", want},
                     {"choice", tuning_json(result.choice)},
                     {"summary", to_string(result.choice)},
                     {"stage_seconds", result.stage_seconds},
                     {"baseline_seconds", result.baseline_seconds},
                     {"elements", result.elements}});
  const std::filesystem::path path(m_path);
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  const std::string tmp = m_path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    DGK_THROW_IF(!out, "cannot write the tuning cache " << m_path << " (opening " << tmp << " failed)");
    out << j.dump(2) << "\n";
    DGK_THROW_IF(!out, "cannot write the tuning cache " << m_path << " (writing " << tmp << " failed)");
  }
  std::filesystem::rename(tmp, path, ec);
  DGK_THROW_IF(ec, "cannot write the tuning cache " << m_path << ": " << ec.message());
}

}  // namespace dgk::physics
