// Field layouts against each other, in the benchmark program only: the straightforward volume and
// surface (flux gather) kernels of the nodal Maxwell solver timed on the solver's fields as they
// are, (element, field, node), and on a copy arranged (element, node, field), where the nf values
// of one node lie together (what a gather of one face node's trace reads). Same kernels, same
// launch shapes; the outputs are compared. Where the tuned kernels run the whole stage in one
// kernel (the fused stage), that kernel is timed on both arrangements too.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dgk/core/simulation.hpp"
#include "dgk/physics/tet_tuning.hpp"

namespace dgk::app {

struct LayoutTiming {
  bool available = false;  ///< false: not the nodal maxwell3d solver in double
  std::string why;         ///< when not available
  /// Median seconds of the volume and the surface kernel, [0]: (element, field, node),
  /// [1]: (element, node, field).
  double volume[2] = {0, 0}, surface[2] = {0, 0};
  double max_difference = 0;  ///< largest difference of rhs and flux between the layouts
};

/// Times both kernels on both layouts on `sim`'s data and backend (median of `reps` after a
/// warm-up, fenced).
LayoutTiming time_field_layouts(Simulation& sim, int reps);

/// The tuned fused stage of `sim` on both arrangements of its fields (copies; the solver's state
/// is untouched), where its current kernels are that stage in a shape compiled for both
/// (physics::NodalTunable::compare_stage_layouts).
physics::StageLayoutComparison time_stage_layouts(Simulation& sim, int reps);

/// The same for every fused-stage shape compiled for both arrangements (w_i = 1, fields in
/// registers; one or two sequential groups and warps, paired or not, with asynchronous copies or
/// not, uncapped or under the cap of 168) that the solver can run, as (shape, comparison). Leaves
/// the solver on the last shape compared.
std::vector<std::pair<std::string, physics::StageLayoutComparison>> sweep_stage_layouts(Simulation& sim, int reps);

}  // namespace dgk::app
