// `dgk run`: one case from its options to its report, with progress, checkpoints, restart and
// visualization output.
#pragma once

#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "dgk/core/simulation.hpp"
#include "dgk/io/report.hpp"
#include "dgk/physics/case.hpp"
#include "progress.hpp"

namespace dgk::app {

struct RunSettings {
  physics::CaseOptions case_options;
  /// Long names of the options set explicitly (command line or configuration file): on a
  /// restart, these must agree with the checkpoint.
  std::set<std::string> given;
  std::string report;  ///< JSON report path, or empty
  int check_every = 10;
  Progress::Mode progress = Progress::Mode::Lines;
  std::string checkpoint;          ///< checkpoint file (written every checkpoint_every steps and at the end)
  long long checkpoint_every = 0;  ///< 0: only at the end
  std::string restart;             ///< checkpoint to continue from, or empty
  std::string output;              ///< visualization output (.h5, with a .xdmf beside it), or empty
  long long output_every = 0;      ///< 0: first and last step only
  /// Stop after this step as an interrupted job would (the checkpoint is written there); 0 runs
  /// to the end.
  long long stop_at_step = 0;
};

struct RunResult {
  io::Report report;
  std::vector<StateArray> final_state;  ///< for bitwise comparisons
  long long steps = 0;                  ///< last step number
};

/// Runs a case (settings.case_options.name); progress and the summary go to `out`. Throws
/// dgk::Error.
RunResult run_case(const RunSettings& settings, std::ostream& out);

}  // namespace dgk::app
