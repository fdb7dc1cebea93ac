#!/usr/bin/env bash
# The fused stage as one product on the H200 (double): the kernel tests, the Maxwell stages of the
# earlier cache against the cache tuned with the new kernel (cache_merged.json), alternated, two
# rounds, and Nsight Compute on the new choice at N = 3 and 4.
#
#   merged_h200_ab.sh        run from the source tree's root, with DIR (this script's folder)
#                            holding dgk.xz and test_tet_tuned.xz of the build, cache_old.json
#                            (codegen13_h200_cache.json) and cache_merged.json
#                            (merged_h200_cache.json); results under $OUT/r.
set -uo pipefail
root=$(pwd)
d=$(cd "$(dirname "$0")" && pwd)
out=$OUT/r
mkdir -p "$out"
cd "$d"
xz -dkf dgk.xz test_tet_tuned.xz
chmod +x dgk test_tet_tuned
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 150 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"; tail -3 "$out/test.log"
for round in 1 2; do
  for c in old merged; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 1..5 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
cp "$d/cache_merged.json" "$out/tuning.json"
for n in 3 4; do
  DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SpeedOfLight \
    --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
    --section SchedulerStats --section ComputeWorkloadAnalysis \
    ./dgk bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/ncu_n$n.txt" 2>&1
  echo "ncu $n rc $?"
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/r.tar.xz" -C "$OUT" r
for c in old merged; do for round in 1 2; do
  echo "== $c $round"; grep -E "nodal tuned +stage|plain CUDA" "$out/ab_${c}_$round.log"
done; done
