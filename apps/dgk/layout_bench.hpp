// Field layouts against each other, in the benchmark program only: the straightforward volume and
// surface (flux gather) kernels of the nodal Maxwell solver timed on the solver's fields as they
// are, (element, field, node), and on a copy arranged (element, node, field), where the nf values
// of one node lie together (what a gather of one face node's trace reads). Same kernels, same
// launch shapes; the outputs are compared.
#pragma once

#include <string>

#include "dgk/core/simulation.hpp"

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

}  // namespace dgk::app
