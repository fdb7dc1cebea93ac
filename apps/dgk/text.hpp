// Number formatting for the program's tables and summaries.
#pragma once

#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

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

/// Splits a command line into the program's own arguments and Kokkos's (--kokkos-*); both keep
/// argv[0] first.
inline void split_kokkos_args(int argc, char* argv[], std::vector<char*>& ours, std::vector<char*>& kokkos) {
  ours.assign(1, argv[0]);
  kokkos.assign(1, argv[0]);
  for (int i = 1; i < argc; ++i) (std::string(argv[i]).rfind("--kokkos-", 0) == 0 ? kokkos : ours).push_back(argv[i]);
}

}  // namespace dgk::app
