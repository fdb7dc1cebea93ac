#include "dgk/core/host_memory.hpp"

#include <fstream>
#include <string>

namespace dgk {

double host_available_bytes() {
  double avail = 0;
  std::ifstream mem("/proc/meminfo");
  std::string key, unit;
  double kb = 0;
  while (mem >> key >> kb >> unit) {
    if (key == "MemAvailable:") {
      avail = kb * 1024.0;
      break;
    }
  }
  std::ifstream limit("/sys/fs/cgroup/memory.max"), usage("/sys/fs/cgroup/memory.current");
  std::string lim;
  double cur = 0;
  if (limit >> lim && lim != "max" && usage >> cur) {
    const double room = std::stod(lim) - cur;
    if (avail == 0 || room < avail) avail = room;
  }
  return avail;
}

}  // namespace dgk
