// Run-time interface of a discretized problem: whatever the physics, order, precision and
// execution space, a program drives it through this class. Implementations are explicit
// instantiations of templates over (physics, precision, execution space) with the order
// dispatched inside.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dgk {

/// f(x, y, z, t, out): writes the physics' fields at one point.
using PointFunction = std::function<void(double x, double y, double z, double t, double* out)>;

/// Work of one application of a stage: counted flops and the fewest bytes it must move.
struct StageCost {
  std::string name;
  double flops = 0;
  double bytes = 0;
};

/// Where a field first holds a value that is not finite (NaN or Inf).
struct NonFinite {
  long long element = 0;
  int field = 0;
  int node = 0;
  double value = 0;
};

/// One array of a solver's state in the run's own precision, as raw bytes, so that a checkpoint
/// restarts bitwise: the fields and the integrator's registers.
struct StateArray {
  std::string name;             ///< e.g. "q", "rk_residual"
  std::vector<long long> dims;  ///< row-major dimensions
  int value_bytes = 8;          ///< 4 (float) or 8 (double)
  std::vector<unsigned char> bytes;
};

/// Median seconds of each stage, in the order of costs().
struct StageTimes {
  std::vector<double> seconds;
};

class Simulation {
 public:
  virtual ~Simulation() = default;

  virtual std::string backend() const = 0;
  virtual std::string precision() const = 0;
  virtual int order() const = 0;
  virtual int num_elements() const = 0;
  virtual int num_fields() const = 0;
  /// Name of a field ("Ex", ...).
  virtual std::string field_name(int field) const = 0;
  /// Names of the two material coefficients per element ("epsilon", "mu"; "rho", "kappa").
  virtual std::vector<std::string> material_names() const { return {"material_0", "material_1"}; }
  /// Degrees of freedom: elements x nodes x fields.
  virtual long long num_dofs() const = 0;

  /// Sets the fields to f(., t) at the nodes (evaluated in double, rounded once) and the time.
  virtual void set_fields(const PointFunction& f, double t) = 0;
  /// Largest stable time step estimate for the given CFL number.
  virtual double max_dt(double cfl) const = 0;
  /// One full time step (all stages of the integrator).
  virtual void step(double dt) = 0;
  virtual double time() const = 0;
  /// Waits for the work queued on the execution space.
  virtual void fence() const = 0;

  /// L2 norm of the error against `exact` at the current time (all fields together).
  virtual double l2_error(const PointFunction& exact) const = 0;
  /// L2 norm of the error of each field separately, where the solver offers it (empty if not).
  virtual std::vector<double> l2_error_fields(const PointFunction& exact) const {
    (void)exact;
    return {};
  }
  /// Energy, sum over fields of the weighted L2 norm squared (e.g. eps|E|^2 + mu|H|^2).
  virtual double energy() const = 0;
  /// The first non-finite value of the fields (lowest element, field, node), if any; one
  /// reduction on the execution space.
  virtual std::optional<NonFinite> find_non_finite() const = 0;
  /// Copy of the fields on the host, in double: [element][field][node]; in a distributed run
  /// all elements in global order, gathered on every rank (collective).
  virtual std::vector<double> host_fields() const = 0;
  /// The same for this rank's own elements only, in its local order (no communication).
  virtual std::vector<double> owned_host_fields() const { return host_fields(); }

  /// The complete time-stepping state (fields and integrator registers) in the run's precision.
  virtual std::vector<StateArray> save_state() const = 0;
  /// This rank's share of save_state(), without communication: the rows of its own elements
  /// and, in `elements`, their global numbers (on one rank: every element, in order).
  virtual std::vector<StateArray> save_owned_state(std::vector<long long>& elements) const {
    auto state = save_state();
    elements.clear();
    if (!state.empty() && !state[0].dims.empty())
      for (long long e = 0; e < state[0].dims[0]; ++e) elements.push_back(e);
    return state;
  }
  /// Restores a state written by save_state() of a solver of the same kind, order, mesh size
  /// and precision, and sets the time; throws dgk::Error naming the array that does not fit.
  virtual void load_state(const std::vector<StateArray>& state, double time) = 0;

  /// Per-stage cost of one right-hand-side evaluation plus one update.
  virtual std::vector<StageCost> costs() const = 0;
  /// Times each stage separately `reps` times after a warm-up; medians.
  virtual StageTimes time_stages(int reps) = 0;
  /// Stages per time step (5 for LSERK4).
  virtual int stages_per_step() const = 0;
  /// Median seconds of one whole RK stage (right-hand side and update) as a run does it (in a
  /// distributed run: with the trace exchange overlapped), of its computation alone (no
  /// exchange), and of the exchange alone (0 on one rank); the slowest rank's, collective in a
  /// distributed run. Empty where a solver does not offer it.
  virtual std::vector<double> time_stage_parts(int reps) {
    (void)reps;
    return {};
  }
};

}  // namespace dgk
