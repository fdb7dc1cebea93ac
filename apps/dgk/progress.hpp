// Progress of a time loop for people: a bar redrawn in place on a terminal (step, simulated
// time, ETA, throughput), plain lines at every tenth of the run otherwise, nothing when quiet.
#pragma once

#include <iosfwd>
#include <string>

namespace dgk::app {

class Progress {
 public:
  enum class Mode { Bar, Lines, Quiet };
  /// Steps first_step+1 .. last_step will be reported; dofs per step sets the throughput.
  Progress(std::ostream& out, Mode mode, long long first_step, long long last_step, double final_time, long long dofs);
  /// Whether update() wants to be called after this step (the caller fences the device first,
  /// so that the elapsed time is real): every 1% on a bar, every 10% as lines, and the last.
  bool wants(long long step) const;
  void update(long long step, double time, double elapsed_s);
  /// Ends the bar's line.
  void finish();
  /// The text of one report, for tests: bar or line.
  std::string render(long long step, double time, double elapsed_s) const;

 private:
  std::ostream& m_out;
  Mode m_mode;
  long long m_first, m_last;
  double m_final_time;
  long long m_dofs;
  bool m_open = false;
};

}  // namespace dgk::app
