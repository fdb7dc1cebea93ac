// Number formatting for the program's tables and summaries.
#pragma once

#include <iomanip>
#include <sstream>
#include <string>

namespace dgk::app {

inline std::string fmt(double v, int prec = 3, bool sci = false) {
  std::ostringstream o;
  if (sci)
    o << std::scientific;
  else
    o << std::fixed;
  o << std::setprecision(prec) << v;
  return o.str();
}

/// Shortest text that reads back to the same double.
inline std::string exact(double v) {
  std::ostringstream o;
  o << std::setprecision(17) << v;
  return o.str();
}

}  // namespace dgk::app
