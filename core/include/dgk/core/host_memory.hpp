// Memory the host can still give this process, for checks made before large allocations.
#pragma once

namespace dgk {

/// Bytes available: /proc/meminfo's MemAvailable, lowered to the room left under a cgroup v2
/// memory limit when there is one; 0 when unknown.
double host_available_bytes();

}  // namespace dgk
