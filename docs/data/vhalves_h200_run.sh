#!/usr/bin/env bash
# The stage as one product with Maxwell's volume term formed in two halves (each lane its own
# column's three fields, from the other three, Maxwell3D::volume_half) on the H200 (double): the
# kernel tests of the new build (dgk, test_tet_tuned); the previous cache (cache_old.json, the
# file halves_h200_cache.json) with the build of thirds_h200_run.sh (dgk_base: its kernels at
# N <= 4 are the tree's before this change, register for register) against the new build,
# alternated, two rounds, N = 1..5; Maxwell tuned at N = 1..5 with the new build into a copy of
# the previous cache (cache_vh.json), benched twice; Nsight Compute on the previous cache's
# stages at N = 3 and 4 with both builds.
#
#   vhalves_h200_run.sh DIR    run from the source tree's root, DIR holding programs.tar.xz (dgk,
#                              dgk_base, test_tet_tuned) and cache_old.json; results under $OUT/v.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
out=$OUT/v
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz && chmod +x dgk dgk_base test_tet_tuned
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 170 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"; grep -E "FAILED|PASSED|Failure|ran [0-9]+ times" "$out/test.log" | tail -8
bench() {  # program cache report
  cp "$d/$2" "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 90 "./$1" bench maxwell3d --backend cuda --precision double \
    --orders 1..5 --elements 196608 --kernel tuned --tune never --report "$out/$3.json" > "$out/$3.log" 2>&1
  echo "$3 rc $?"
}
for round in 1 2; do
  bench dgk_base cache_old.json ab_base_$round
  bench dgk cache_old.json ab_new_$round
done
t0=$(date +%s)
cp "$d/cache_old.json" "$out/cache_vh.json"
DGK_TUNING_CACHE="$out/cache_vh.json" timeout 240 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 1..5 --elements 196608 --report "$out/tune.json" > "$out/tune.log" 2> "$out/tune_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune.log"
cp "$out/cache_vh.json" "$d/cache_vh.json"
for round in 1 2; do bench dgk cache_vh.json ab_tuned_$round; done
cp "$d/cache_old.json" "$out/tuning.json"
for p in dgk_base dgk; do
  for n in 3 4; do
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ncu --clock-control none --kernel-name-base demangled \
      --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SpeedOfLight \
      --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
      --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats \
      --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,smsp__inst_executed.sum \
      "./$p" bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
      --tune never --reps 2 > "$out/ncu_${p}_n$n.txt" 2>&1
    echo "ncu $p $n rc $?"
  done
done
rm -f "$out/tuning.json"
python3 - "$out/tune.json" > "$out/tune_trials.txt" <<'PY'
import json, sys
for o in json.load(open(sys.argv[1]))["orders"]:
    t = sorted((x for x in o["trials"] if "product=merged" in x["tuning"]), key=lambda x: x["seconds"])
    for label, sel in (("at once", [x for x in t if "gather=halves" not in x["tuning"]]),
                       ("halves", [x for x in t if "gather=halves" in x["tuning"]])):
        print(f"maxwell3d N = {o['order']}, stage as one product, gathered {label}: {len(sel)} trials")
        for x in sel[:5]:
            print(f"  {x['seconds']*1e3:.4f}  {x['tuning'].replace('volume+surface+lift+update tensor ', '')}")
    r = sorted(o["trials"], key=lambda x: x["seconds"])
    print("fastest trials of any kind:")
    for x in r[:3]:
        print(f"  {x['seconds']*1e3:.4f}  {x['part']}  {x['tuning']}")
PY
rm -f "$out/tune.json"
tar -cJf "$OUT/v.tar.xz" -C "$OUT" v
cat "$out/tune_trials.txt"
for p in dgk_base dgk; do
  for n in 3 4; do
    echo "== ncu $p N = $n"
    grep -E "Duration|Registers Per|Achieved Active Warps|L1/TEX Hit|L2 Cache Throughput|No Eligible|Shared Memory Configuration Size|Executed Ipc Elapsed|Elapsed Cycles|inst_executed|Warp Cycles Per Issued|highest-utilized" "$out/ncu_${p}_n$n.txt"
  done
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  run       whole ms  % bound  tuning")
for n in range(1, 6):
    for c in ("base", "new", "tuned"):
        for r in (1, 2):
            try:
                d = json.load(open(f"{out}/ab_{c}_{r}.json"))
            except Exception as e:
                print(n, c, r, "no report", e); continue
            for k in d["kernels"]:
                if k["order"] == n and k["kernel"] == "whole stage":
                    t = k.get('tuning', '').replace('volume+surface+lift+update tensor ', '')
                    print(f"{n}  {c:6} {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  {t}")
PY
