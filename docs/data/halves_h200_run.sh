#!/usr/bin/env bash
# The stage as one product with its flux gathered in two halves of LIFT's k-steps (gather=halves)
# on the H200 (double): the kernel tests; a tuning run of Maxwell at N = 1..4 from an empty cache
# (cache_halves.json); the previous cache (cache_old.json, the file merged_h200_cache.json), the
# same shapes with gather=halves (cache_flip.json, written here) and the new tuning run's
# choices, the same program, alternated, two rounds; Nsight Compute on the flipped shapes at
# N = 3 and 4.
#
#   halves_h200_run.sh DIR    run from the source tree's root, DIR holding dgk and test_tet_tuned
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
rm -f "$out/cache_halves.json"
DGK_TUNING_CACHE="$out/cache_halves.json" timeout 240 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 1..4 --elements 196608 --report "$out/tune.json" > "$out/tune.log" 2> "$out/tune_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune.log"
cp "$out/cache_halves.json" "$d/cache_halves.json"
python3 - "$d/cache_old.json" "$out/cache_flip.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["entries"]:
    v = e["choice"]["volume_shape"]
    if v.get("merged_product"):
        v["gather_halves"] = True
        e["summary"] += " gather=halves"
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
cp "$out/cache_flip.json" "$d/cache_flip.json"
for round in 1 2; do
  for c in old flip halves; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 1..4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
cp "$d/cache_flip.json" "$out/tuning.json"
for n in 3 4; do
  DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SpeedOfLight \
    --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
    --section SchedulerStats --section ComputeWorkloadAnalysis \
    --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum \
    ./dgk bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/ncu_n$n.txt" 2>&1
  echo "ncu $n rc $?"
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/r.tar.xz" -C "$OUT" r
for n in 3 4; do
  echo "== ncu N = $n (gather=halves)"
  grep -E "Duration|Registers Per|Achieved Active Warps|L1/TEX Hit|L2 Cache Throughput|DRAM Throughput|No Eligible|Shared Memory Configuration Size|Issued Ipc|sectors|Warp Cycles Per Issued" "$out/ncu_n$n.txt"
done
python3 - "$out/tune.json" <<'PY'
import json, sys
for o in json.load(open(sys.argv[1]))["orders"]:
    t = sorted((x for x in o["trials"] if "product=merged" in x["tuning"]), key=lambda x: x["seconds"])
    h = [x for x in t if "gather=halves" in x["tuning"]]
    r = [x for x in t if "gather=halves" not in x["tuning"]]
    print(f"N = {o['order']}: halves {h[0]['seconds']*1e3:.4f} ms ({len(h)}), at once {r[0]['seconds']*1e3:.4f} ms ({len(r)})" if h and r else o["order"])
PY
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  cache   round  whole ms  % bound  tuning")
for n in range(1, 5):
    for c in ("old", "flip", "halves"):
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
