#include "dgk/core/time_loop.hpp"

#include "dgk/core/error.hpp"

namespace dgk {

void advance(Simulation& sim, int steps, double dt, const TimeLoopOptions& options) {
  DGK_THROW_IF(steps < 0, "number of steps must be non-negative (got " << steps << ")");
  DGK_THROW_IF(steps > 0 && !(dt > 0), "time step must be positive (got " << dt << ")");
  long long last_good = options.first_step;
  const long long last = options.first_step + steps;
  for (long long s = options.first_step + 1; s <= last; ++s) {
    sim.step(dt);
    if (options.check_every > 0 && (s % options.check_every == 0 || s == last)) {
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
