// The time loop every `dgk run` case shares: steps, a periodic check that the solution is still
// finite, and a progress callback.
#pragma once

#include <functional>

#include "dgk/core/simulation.hpp"

namespace dgk {

struct TimeLoopOptions {
  /// Check for NaN/Inf every this many steps (and after the last step); 0 disables.
  int check_every = 10;
  /// Steps already done before this call (a restarted run): step numbers in messages and
  /// callbacks continue from here.
  long long first_step = 0;
  /// Called after each step with the step number (first_step + 1, ...).
  std::function<void(long long step)> on_step;
};

/// Advances `steps` steps of size dt. Throws dgk::Error naming the step, time, element, field,
/// node and value when the solution stops being finite.
void advance(Simulation& sim, int steps, double dt, const TimeLoopOptions& options = {});

}  // namespace dgk
