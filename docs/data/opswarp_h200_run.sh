#!/usr/bin/env bash
# The stage as one product with its operators in team scratch and its warps on their own
# (staged=operator, warp barriers) on the H200 (double): the kernel tests; a tuning run of Maxwell
# at N = 3, 4 from an empty cache (cache_opswarp.json); the previous cache (cache_old.json, the
# file merged_h200_cache.json) against this run's, the same program, alternated, two rounds;
# Nsight Compute on this run's choices at N = 3 and 4.
#
#   opswarp_h200_run.sh DIR    run from the source tree's root, DIR holding dgk and
#                              test_tet_tuned of the build and cache_old.json; results under $OUT/r.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
out=$OUT/r
mkdir -p "$out"
cd "$d"
for f in dgk test_tet_tuned; do [ -f $f.xz ] && xz -dkf $f.xz; chmod +x $f; done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 170 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"; grep -E "FAILED|PASSED|Failure|ran [0-9]+ times" "$out/test.log" | tail -8
t0=$(date +%s)
rm -f "$out/cache_opswarp.json"
DGK_TUNING_CACHE="$out/cache_opswarp.json" timeout 240 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 3..4 --elements 196608 --report "$out/tune.json" > "$out/tune.log" 2> "$out/tune_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune.log"
cp "$out/cache_opswarp.json" "$d/cache_opswarp.json"
for round in 1 2; do
  for c in old opswarp; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 3..4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
cp "$d/cache_opswarp.json" "$out/tuning.json"
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
# The fastest staged=operator trials of the stage as one product, per order.
python3 - "$out/tune.json" <<'PY'
import json, sys
for o in json.load(open(sys.argv[1]))["orders"]:
    t = sorted((x for x in o["trials"] if "product=merged" in x["tuning"]), key=lambda x: x["seconds"])
    ops = [x for x in t if "staged=operator" in x["tuning"]]
    print(f"N = {o['order']}: {len(ops)} staged=operator trials; fastest merged {t[0]['seconds']*1e3:.4f} ms")
    for x in ops[:3]:
        print(f"  {x['seconds']*1e3:.4f} ms  {x['tuning']}")
PY
# Whole stages (ms) and % of their bound, per cache and round.
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  cache    round  whole ms  % bound  tuning")
for n in (3, 4):
    for c in ("old", "opswarp"):
        for r in (1, 2):
            try:
                d = json.load(open(f"{out}/ab_{c}_{r}.json"))
            except Exception as e:
                print(n, c, r, "no report", e); continue
            for k in d["kernels"]:
                if k["order"] == n and k["kernel"] == "whole stage":
                    print(f"{n}  {c:7}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  {k.get('tuning','')}")
PY
