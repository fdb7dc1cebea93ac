#!/usr/bin/env bash
# The stage as one product with its volume's k-steps unrolled by 1, 2 or 3 (vunroll; at N = 4
# with Maxwell's volume term in halves) on the H200 (double): the kernel tests of the build (dgk,
# test_tet_tuned); Maxwell and acoustics tuned at N = 3 and 4 into a copy of the previous cache
# (cache_old.json, the file groups_h200_cache.json), with every timing in the report; the previous
# cache against the tuned one, alternated, two rounds, N = 3 and 4; Nsight Compute on both
# caches' Maxwell stages at N = 3 and 4.
#
#   vunroll_h200_run.sh DIR    run from the source tree's root, DIR holding programs.tar.xz (dgk,
#                              test_tet_tuned) and cache_old.json; results under $OUT/u.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
out=$OUT/u
mkdir -p "$out"
cd "$d"
start=$(date +%s)
tar -xJf programs.tar.xz && chmod +x dgk test_tet_tuned
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 170 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"; grep -E "FAILED|PASSED|Failure|ran [0-9]+ times" "$out/test.log" | tail -8
cp "$d/cache_old.json" "$out/cache_new.json"
for p in maxwell3d acoustic3d; do
  t0=$(date +%s)
  DGK_TUNING_CACHE="$out/cache_new.json" timeout 200 ./dgk tune $p --backend cuda --precision double \
    --orders 3..4 --elements 196608 --report "$out/tune_$p.json" > "$out/tune_$p.log" 2> "$out/tune_${p}_search.log"
  echo "tune $p rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune_$p.log"
done
cp "$out/cache_new.json" "$d/cache_new.json"
for round in 1 2; do
  for c in old new; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 3..4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
for c in new old; do
  cp "$d/cache_$c.json" "$out/tuning.json"
  for n in 3 4; do
    [ $(( $(date +%s) - start )) -gt 500 ] && { echo "ncu $c $n skipped (time)"; continue; }
    DGK_TUNING_CACHE="$out/tuning.json" timeout 50 ncu --clock-control none --kernel-name-base demangled \
      --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SpeedOfLight \
      --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
      --section SchedulerStats --section InstructionStats \
      --metrics lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,smsp__inst_executed.sum \
      ./dgk bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
      --tune never --reps 2 > "$out/ncu_${c}_n$n.txt" 2>&1
    echo "ncu $c $n rc $?"
  done
done
rm -f "$out/tuning.json"
python3 - "$out" > "$out/tune_trials.txt" <<'PY'
import json, sys
for p in ("maxwell3d", "acoustic3d"):
    try:
        orders = json.load(open(f"{sys.argv[1]}/tune_{p}.json"))["orders"]
    except Exception as e:
        print(p, "no report", e)
        continue
    for o in orders:
        t = sorted((x for x in o["trials"] if "product=merged" in x["tuning"]), key=lambda x: x["seconds"])
        print(f"{p} N = {o['order']}: {len(t)} merged shapes timed")
        for x in t[:6]:
            print(f"  {x['seconds'] * 1e3:.4f} ms  {x['tuning']}")
PY
tar -cJf "$OUT/u.tar.xz" -C "$OUT" u
cat "$out/tune_trials.txt"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  cache  round  whole ms  % bound  copy GB/s  FMA GFLOP/s  tuning")
for n in (3, 4):
    for c in ("old", "new"):
        for r in (1, 2):
            try:
                d = json.load(open(f"{out}/ab_{c}_{r}.json"))
            except Exception as e:
                print(n, c, r, "no report", e)
                continue
            for k in d["kernels"]:
                if k["order"] == n and k["kernel"] == "whole stage":
                    t = k.get('tuning', '').replace('volume+surface+lift+update tensor ', '')
                    print(f"{n}  {c:5}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  "
                          f"{d['copy_gbytes_per_s']:.0f}  {d['fma_gflops']:.0f}  {t}")
PY
