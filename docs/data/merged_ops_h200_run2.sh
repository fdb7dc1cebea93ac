#!/usr/bin/env bash
# The same choices (cache_merged.json) with the earlier build (dgk_base) and this one (dgk),
# alternated, two rounds; Nsight Compute on the fastest stage as one product with its operators in
# team scratch at N = 3 and 4 (cache_staged.json).
set -uo pipefail
d=$(cd "$(dirname "$0")" && pwd)
out=$OUT/r
mkdir -p "$out"
cd "$d"
xz -dkf dgk.xz dgk_base.xz
chmod +x dgk dgk_base
for round in 1 2; do
  for b in dgk_base dgk; do
    cp "$d/cache_merged.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./$b bench maxwell3d --backend cuda --precision double \
      --orders 1..4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${b}_$round.json" > "$out/ab_${b}_$round.log" 2>&1
    echo "$round $b rc $?"
  done
done
cp "$d/cache_staged.json" "$out/tuning.json"
for n in 3 4; do
  DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SpeedOfLight \
    --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
    --section SchedulerStats --section ComputeWorkloadAnalysis \
    ./dgk bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/ncu_staged_n$n.txt" 2>&1
  echo "ncu $n rc $?"
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/r.tar.xz" -C "$OUT" r
for b in dgk_base dgk; do for round in 1 2; do
  echo "== $b $round"; grep -E "nodal tuned +stage" "$out/ab_${b}_$round.log"
done; done
grep -E "Duration|L1/TEX Hit|L2 Hit|L2 Cache Throughput|DRAM Throughput|No Eligible|Achieved Active Warps|Registers Per|Shared Memory Configuration Size" "$out"/ncu_staged_n*.txt
