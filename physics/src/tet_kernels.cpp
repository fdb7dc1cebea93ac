#include "dgk/physics/tet_kernels.hpp"

#include "dgk/core/error.hpp"
#include "dgk/core/parse.hpp"

namespace dgk::physics {

TetKernels parse_tet_kernels(const std::string& basis, const std::string& kernel) {
  TetKernels k;
  if (basis == "nodal")
    k.basis = TetBasis::Nodal;
  else if (basis == "bernstein")
    k.basis = TetBasis::Bernstein;
  else
    DGK_THROW_IF(true, "--basis '" << basis << "': expected nodal or bernstein");
  const auto colon = kernel.find(':');
  const std::string family = kernel.substr(0, colon);
  if (family == "auto")
    k.family = k.basis == TetBasis::Nodal ? TetKernelFamily::Tuned : TetKernelFamily::Optimal;
  else if (family == "thread")
    k.family = TetKernelFamily::Thread;
  else if (family == "blocked")
    k.family = TetKernelFamily::Blocked;
  else if (family == "tuned")
    k.family = TetKernelFamily::Tuned;
  else if (family == "sparse")
    k.family = TetKernelFamily::Sparse;
  else if (family == "optimal")
    k.family = TetKernelFamily::Optimal;
  else
    DGK_THROW_IF(true, "--kernel '" << kernel << "': expected auto, thread, blocked[:E], tuned, sparse or optimal");
  // The tuned kernels run on either basis (on Bernstein coefficients with the dense forms of
  // its operators); the others belong to one.
  const bool nodal_family = k.family == TetKernelFamily::Thread || k.family == TetKernelFamily::Blocked;
  const bool bernstein_family = k.family == TetKernelFamily::Sparse || k.family == TetKernelFamily::Optimal;
  DGK_THROW_IF((nodal_family && k.basis != TetBasis::Nodal) || (bernstein_family && k.basis != TetBasis::Bernstein),
               "--kernel " << family << " belongs to the " << (nodal_family ? "nodal" : "bernstein")
                           << " basis, not to --basis " << basis
                           << " (nodal: thread, blocked, tuned; bernstein: sparse, optimal, tuned)");
  if (colon != std::string::npos) {
    DGK_THROW_IF(k.family != TetKernelFamily::Blocked,
                 "--kernel '" << kernel << "': only blocked takes :E (elements per team)");
    const double e = parse_number(kernel.substr(colon + 1), "--kernel " + kernel);
    DGK_THROW_IF(e < 1 || e > 64 || e != static_cast<int>(e),
                 "--kernel '" << kernel << "': elements per team must be an integer in 1..64");
    k.elements_per_team = static_cast<int>(e);
  }
  return k;
}

std::string to_string(const TetKernels& k) {
  std::string s = k.basis == TetBasis::Nodal ? "nodal " : "bernstein ";
  switch (k.family) {
    case TetKernelFamily::Thread:
      s += "thread";
      break;
    case TetKernelFamily::Blocked:
      s += "blocked";
      break;
    case TetKernelFamily::Tuned:
      s += "tuned";
      if (k.tuned) s += " (" + to_string(k.tuning) + ")";
      break;
    case TetKernelFamily::Sparse:
      s += "sparse";
      break;
    case TetKernelFamily::Optimal:
      s += "optimal";
      break;
  }
  if (k.elements_per_team > 0) s += ":" + std::to_string(k.elements_per_team);
  return s;
}

std::string to_string(const kernels::nodal_tet::NodalTuning& t) {
  using namespace kernels::nodal_tet;
  auto teams = [](const MicroShape& m) {
    return m.resident_teams > 0 ? " teams=" + std::to_string(m.resident_teams) : std::string();
  };
  auto staged = [](const MicroShape& m) {
    return m.staging == Staging::Fields ? "fields" : (m.staging == Staging::Operator ? "operator" : "both");
  };
  auto shape = [&](const MicroShape& m) {
    return " k=" + std::to_string(m.elements) + " wi=" + std::to_string(m.inline_blocks) +
           (m.rows > 1 ? " ri=" + std::to_string(m.rows) : std::string()) + " ws=" + std::to_string(m.sequential) +
           " staged=" + staged(m) + (m.max_registers > 0 ? " regs<=" + std::to_string(m.max_registers) : std::string()) +
           teams(m);
  };
  auto stage = [&](StageKernel k, const MicroShape& m) {
    switch (k) {
      case StageKernel::Thread: return std::string("thread");
      case StageKernel::Micro: return "micro" + shape(m);
      case StageKernel::Batched: return "batched k=" + std::to_string(t.batch);
      case StageKernel::Tensor:
        return "tensor k=" + std::to_string(m.elements) + " wi=" + std::to_string(m.inline_blocks) +
               " ws=" + std::to_string(m.sequential) + " warps=" + std::to_string(m.warps) +
               (m.passes > 1 ? " passes=" + std::to_string(m.passes) : std::string()) +
               (m.staged_product ? " product=scratch" : std::string()) +
               (m.paired_tiles ? " mma=m16n8k4" : std::string()) +
               (m.max_registers > 0 ? " regs<=" + std::to_string(m.max_registers) : std::string()) +
               (m.lane_epilogue ? " epilogue=lane" : std::string()) +
               (m.register_fields ? " fields=registers" : (m.unrolled ? " unrolled" : std::string())) +
               (m.batched_loads ? " loads=batched" : std::string()) +
               (m.async_copies ? " loads=async" : std::string()) +
               (m.loads_ahead ? " loads=ahead" : std::string()) +
               (m.lane_update ? " update=lanes" : std::string()) +
               (m.merged_product ? " product=merged" : std::string()) +
               (m.gather_halves ? " gather=halves" : std::string()) +
               (m.volume_unroll != 0 ? " vunroll=" + std::to_string(m.volume_unroll) : std::string()) +
               (m.staging != Staging::Fields ? std::string(" staged=") + staged(m) : std::string()) + teams(m);
    }
    return std::string();
  };
  if (t.mode == LiftMode::FusedStage) return "volume+surface+lift+update " + stage(t.volume, t.volume_shape);
  std::string s = "volume " + stage(t.volume, t.volume_shape) + "; ";
  switch (t.mode) {
    case LiftMode::Split: s += "lift " + stage(t.lift, t.lift_shape); break;
    case LiftMode::FusedLift: s += "surface+lift " + stage(t.lift, t.lift_shape); break;
    case LiftMode::FusedUpdate: s += "surface+lift+update " + stage(t.lift, t.lift_shape); break;
    case LiftMode::FusedStage: break;
  }
  if (t.stage_carveout) s += "; carveout=stage";
  return s;
}

std::vector<TetKernels> all_tet_kernels() {
  std::vector<TetKernels> all(6);
  all[0].family = TetKernelFamily::Thread;
  all[1].family = TetKernelFamily::Blocked;
  all[2].family = TetKernelFamily::Tuned;
  all[3].basis = all[4].basis = all[5].basis = TetBasis::Bernstein;
  all[3].family = TetKernelFamily::Sparse;
  all[4].family = TetKernelFamily::Optimal;
  all[5].family = TetKernelFamily::Tuned;
  return all;
}

}  // namespace dgk::physics
