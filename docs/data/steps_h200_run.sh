#!/usr/bin/env bash
# The stage as one product with its flux gathered in the lift's k-steps (gather=steps) on the H200
# (double): the kernel tests; a tuning run of Maxwell at N = 1..4 from an empty cache
# (cache_steps.json); the Maxwell stages of the previous cache (cache_old.json, the file
# merged_h200_cache.json), of the same shapes with gather=steps (cache_flip.json, the file
# steps_h200_cache_flip.json) and of the new
# tuning run's choices, alternated, two rounds; Nsight Compute on the new choices at N = 3 and 4;
# a tuning run of acoustics at N = 1..4 into the same cache.
#
#   steps_h200_run.sh DIR    run from the source tree's root, DIR holding dgk and test_tet_tuned
#                            of the build and the two caches; results under $OUT/r.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
out=$OUT/r
mkdir -p "$out"
cd "$d"
for f in dgk test_tet_tuned; do [ -f $f.xz ] && xz -dkf $f.xz; chmod +x $f; done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 150 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"; tail -3 "$out/test.log"
tune() {  # physics, time limit (s)
  t0=$(date +%s)
  DGK_TUNING_CACHE="$out/cache_steps.json" timeout $2 ./dgk tune $1 --backend cuda --precision double \
    --orders 1..4 --elements 196608 --report "$out/tune_$1.json" > "$out/tune_$1.log" 2> "$out/tune_${1}_search.log"
  echo "tune $1 rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune_$1.log"
}
rm -f "$out/cache_steps.json"
tune maxwell3d 240
cp "$out/cache_steps.json" "$d/cache_steps.json"
for round in 1 2; do
  for c in old flip steps; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 1..4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
cp "$d/cache_steps.json" "$out/tuning.json"
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
tune acoustic3d $(( 540 - SECONDS > 30 ? 540 - SECONDS : 30 ))
tar -cJf "$OUT/r.tar.xz" -C "$OUT" r
# Whole stages (ms) and % of their bound, per cache and round.
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  cache  round  whole ms  % bound  tuning")
for n in range(1, 5):
    for c in ("old", "flip", "steps"):
        for r in (1, 2):
            try:
                d = json.load(open(f"{out}/ab_{c}_{r}.json"))
            except Exception as e:
                print(n, c, r, "no report", e); continue
            for k in d["kernels"]:
                if k["order"] == n and k["kernel"] == "whole stage":
                    print(f"{n}  {c:5}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  {k.get('tuning','')}")
PY
