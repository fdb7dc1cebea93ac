# Sourced by the other scripts: dgk_cpus prints how many CPUs this process may really use.
#
# nproc counts the CPUs the process may be scheduled on, but a container's CPU quota (cgroup v2
# cpu.max, v1 cpu.cfs_quota_us) can be far smaller: a machine that shows 64 CPUs may grant two.
# Builds and test runs sized by nproc alone then oversubscribe the granted cores many times over,
# and OpenMP regions that wait on descheduled threads run orders of magnitude slower.
dgk_cpus() {
  local n quota period q
  n=$(nproc 2>/dev/null || echo 1)
  if [ -r /sys/fs/cgroup/cpu.max ]; then
    read -r quota period </sys/fs/cgroup/cpu.max || true
  elif [ -r /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    quota=$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us)
    period=$(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us 2>/dev/null || echo 100000)
  fi
  if [ -n "${quota:-}" ] && [ "$quota" != max ] && [ "$quota" -gt 0 ] 2>/dev/null && [ "${period:-0}" -gt 0 ]; then
    q=$(((quota + period - 1) / period))
    [ "$q" -lt "$n" ] && n=$q
  fi
  [ "$n" -ge 1 ] || n=1
  echo "$n"
}
