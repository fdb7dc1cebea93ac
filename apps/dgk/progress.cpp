#include "progress.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace dgk::app {

namespace {

std::string duration(double s) {
  std::ostringstream o;
  if (!(s >= 0) || s > 1e7) return "--";
  if (s < 60)
    o << std::fixed << std::setprecision(1) << s << " s";
  else if (s < 3600)
    o << static_cast<int>(s / 60) << " min " << static_cast<int>(s) % 60 << " s";
  else
    o << static_cast<int>(s / 3600) << " h " << static_cast<int>(s / 60) % 60 << " min";
  return o.str();
}

}  // namespace

Progress::Progress(std::ostream& out, Mode mode, long long first_step, long long last_step, double final_time,
                   long long dofs)
    : m_out(out), m_mode(mode), m_first(first_step), m_last(last_step), m_final_time(final_time), m_dofs(dofs) {}

bool Progress::wants(long long step) const {
  if (m_mode == Mode::Quiet) return false;
  if (step >= m_last) return true;
  const long long n = m_last - m_first, done = step - m_first;
  const long long every = std::max<long long>(1, n / (m_mode == Mode::Bar ? 100 : 10));
  return done % every == 0;
}

std::string Progress::render(long long step, double time, double elapsed_s) const {
  const long long n = std::max<long long>(1, m_last - m_first), done = step - m_first;
  const double frac = std::clamp(static_cast<double>(done) / n, 0.0, 1.0);
  const double eta = done > 0 ? elapsed_s / done * (m_last - step) : -1;
  const double rate = elapsed_s > 0 ? m_dofs * static_cast<double>(done) / elapsed_s / 1e6 : 0.0;
  std::ostringstream o;
  if (m_mode == Mode::Bar) {
    constexpr int width = 30;
    const int fill = static_cast<int>(frac * width);
    o << "  [" << std::string(static_cast<std::size_t>(fill), '#')
      << std::string(static_cast<std::size_t>(width - fill), '.') << "] " << std::setw(3)
      << static_cast<int>(frac * 100) << "%";
  } else {
    o << "  " << std::setw(3) << static_cast<int>(frac * 100) << "%";
  }
  o << "  step " << step << "/" << m_last << "  t = " << std::setprecision(5) << time << "/" << m_final_time
    << "  elapsed " << duration(elapsed_s) << "  ETA " << duration(eta) << "  " << std::fixed << std::setprecision(1)
    << rate << " MDOF/s";
  return o.str();
}

void Progress::update(long long step, double time, double elapsed_s) {
  if (m_mode == Mode::Quiet) return;
  const std::string text = render(step, time, elapsed_s);
  if (m_mode == Mode::Bar) {
    // \033[K clears what a longer previous line left behind.
    m_out << "\r" << text << "\033[K" << std::flush;
    m_open = true;
  } else {
    m_out << text << "\n" << std::flush;
  }
}

void Progress::finish() {
  if (m_open) m_out << "\n" << std::flush;
  m_open = false;
}

}  // namespace dgk::app
