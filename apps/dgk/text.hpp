// Number formatting for the program's tables and summaries.
#pragma once

#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "dgk/core/comm.hpp"

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

/// In a distributed run on GPUs, each rank takes the device of its node-local rank (Kokkos maps
/// local rank modulo --kokkos-num-devices), unless the command line chooses a device itself.
inline void add_device_by_local_rank(std::vector<char*>& kokkos) {
#ifdef KOKKOS_ENABLE_CUDA
  if (!Comm::world().distributed()) return;
  for (const char* a : kokkos)
    if (std::string(a).rfind("--kokkos-device", 0) == 0 || std::string(a).rfind("--kokkos-num-devices", 0) == 0) return;
  static std::string arg = "--kokkos-num-devices=" + std::to_string(Kokkos::Cuda::detect_device_count());
  kokkos.push_back(arg.data());
#else
  (void)kokkos;
#endif
}

}  // namespace dgk::app
