#include "dgk/core/time_loop.hpp"

#include "dgk/core/error.hpp"

namespace dgk {

void advance(Simulation& sim, int steps, double dt, const TimeLoopOptions& options) {
  DGK_THROW_IF(steps < 0, "number of steps must be non-negative (got " << steps << ")");
  DGK_THROW_IF(steps > 0 && !(dt > 0), "time step must be positive (got " << dt << ")");
  int last_good = 0;
  for (int s = 1; s <= steps; ++s) {
    sim.step(dt);
    if (options.check_every > 0 && (s % options.check_every == 0 || s == steps)) {
      if (const auto bad = sim.find_non_finite()) {
        DGK_THROW_IF(true, "the solution is not finite after step " << s << " (t = " << sim.time() << "; last check passed at step "
                                                                     << last_good << "): element " << bad->element << ", field "
                                                                     << sim.field_name(bad->field) << ", node " << bad->node
                                                                     << ", value " << bad->value
                                                                     << ". The time step may be unstable (lower --cfl).");
      }
      last_good = s;
    }
    if (options.on_step) options.on_step(s);
  }
}

}  // namespace dgk
