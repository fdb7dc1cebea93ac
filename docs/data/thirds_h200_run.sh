#!/usr/bin/env bash
# The stage as one product with its flux gathered in three parts of LIFT's k-steps (gather=thirds)
# on the H200 (double): the kernel tests; Maxwell tuned at N = 4 and 5 into a copy of the previous
# cache (cache_old.json, the file halves_h200_cache.json; the result cache_thirds.json); the
# previous cache, its shapes at N = 4 and 5 with gather=thirds (cache_flip.json, written here) and
# the tuning run's cache, the same program, alternated, two rounds at N = 1..5; Nsight Compute on
# the N = 4 and 5 stages of the flipped and the previous cache.
#
#   thirds_h200_run.sh DIR    run from the source tree's root, DIR holding dgk and test_tet_tuned
#                             of the build and cache_old.json; results under $OUT/r.
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
cp "$d/cache_old.json" "$out/cache_thirds.json"
DGK_TUNING_CACHE="$out/cache_thirds.json" timeout 200 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 4..5 --elements 196608 --report "$out/tune.json" > "$out/tune.log" 2> "$out/tune_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune.log"
cp "$out/cache_thirds.json" "$d/cache_thirds.json"
python3 - "$d/cache_old.json" "$out/cache_flip.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["entries"]:
    v = e["choice"]["volume_shape"]
    if v.get("merged_product") and e["key"]["order"] in (4, 5) and e["key"]["physics"] == "maxwell3d":
        v.pop("gather_halves", None)
        v["gather_parts"] = 3
        e["summary"] = e["summary"].replace(" gather=halves", "") + " gather=thirds"
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
cp "$out/cache_flip.json" "$d/cache_flip.json"
for round in 1 2; do
  for c in old flip thirds; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 1..5 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
for c in flip old; do
  cp "$d/cache_$c.json" "$out/tuning.json"
  for n in 4 5; do
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ncu --clock-control none --kernel-name-base demangled \
      --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SpeedOfLight \
      --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
      --section SchedulerStats --section ComputeWorkloadAnalysis \
      --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum \
      ./dgk bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
      --tune never --reps 2 > "$out/ncu_${c}_n$n.txt" 2>&1
    echo "ncu $c $n rc $?"
  done
done
rm -f "$out/tuning.json"
python3 - "$out/tune.json" > "$out/tune_trials.txt" <<'PY'
import json, sys
names = {1: "at once", 2: "halves", 3: "thirds"}
for o in json.load(open(sys.argv[1]))["orders"]:
    t = sorted((x for x in o["trials"] if "product=merged" in x["tuning"]), key=lambda x: x["seconds"])
    for p, label in names.items():
        sel = [x for x in t if ("gather=" + label in x["tuning"]) == (p > 1) and
               (p > 1 or "gather=" not in x["tuning"])]
        print(f"maxwell3d N = {o['order']}, stage as one product, {label}: {len(sel)} trials")
        for x in sel[:5]:
            print(f"  {x['seconds']*1e3:.4f}  {x['tuning'].replace('volume+surface+lift+update tensor ', '')}")
PY
rm -f "$out/tune.json"
tar -cJf "$OUT/r.tar.xz" -C "$OUT" r
cat "$out/tune_trials.txt"
for c in flip old; do
  for n in 4 5; do
    echo "== ncu $c N = $n"
    grep -E "Duration|Registers Per|Achieved Active Warps|L1/TEX Hit|L2 Cache Throughput|DRAM Throughput|No Eligible|Shared Memory Configuration Size|Issued Ipc|sectors|Warp Cycles Per Issued" "$out/ncu_${c}_n$n.txt"
  done
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  cache   round  whole ms  % bound  tuning")
for n in range(1, 6):
    for c in ("old", "flip", "thirds"):
        for r in (1, 2):
            try:
                d = json.load(open(f"{out}/ab_{c}_{r}.json"))
            except Exception as e:
                print(n, c, r, "no report", e); continue
            for k in d["kernels"]:
                if k["order"] == n and k["kernel"] == "whole stage":
                    t = k.get('tuning', '').replace('volume+surface+lift+update tensor ', '')
                    print(f"{n}  {c:6}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  {t}")
PY
