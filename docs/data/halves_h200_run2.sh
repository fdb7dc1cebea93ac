#!/usr/bin/env bash
# After halves_h200_run.sh, the same program: acoustics tuned at N = 1..4 into cache_new.json (the
# previous cache, merged_h200_cache.json, with that run's Maxwell entries), giving cache_final.json;
# the acoustic stages of the previous cache and of cache_final.json alternated, two rounds; the
# default case at N = 4 with cache_final.json; Nsight Compute on its Maxwell choice at N = 4.
#
#   halves_h200_run2.sh DIR    DIR as for halves_h200_run.sh, with cache_new.json; results under $OUT/s.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/s
mkdir -p "$out"
cd "$d"
for f in dgk; do [ -f $f.xz ] && xz -dkf $f.xz; chmod +x $f; done
cp "$d/cache_new.json" "$out/cache_final.json"
t0=$(date +%s)
DGK_TUNING_CACHE="$out/cache_final.json" timeout 200 ./dgk tune acoustic3d --backend cuda --precision double \
  --orders 1..4 --elements 196608 --report "$out/tune_acoustic3d.json" > "$out/tune_acoustic3d.log" \
  2> "$out/tune_acoustic3d_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune_acoustic3d.log"
cp "$out/cache_final.json" "$d/cache_final.json"
for round in 1 2; do
  for c in old final; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench acoustic3d --backend cuda --precision double \
      --orders 1..4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_acoustic3d_${c}_$round.json" > "$out/ab_acoustic3d_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
cp "$d/cache_final.json" "$out/tuning.json"
DGK_TUNING_CACHE="$out/tuning.json" timeout 120 ./dgk run --backend cuda --order 4 > "$out/run_cuda_n4.log" 2>&1
echo "run rc $?"; cat "$out/run_cuda_n4.log"
DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ncu --clock-control none --kernel-name-base demangled \
  --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SpeedOfLight \
  --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
  --section SchedulerStats --section ComputeWorkloadAnalysis \
  --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum \
  ./dgk bench maxwell3d --backend cuda --precision double --orders 4 --elements 196608 --kernel tuned \
  --tune never --reps 2 > "$out/ncu_choice_n4.txt" 2>&1
echo "ncu rc $?"
rm -f "$out/tuning.json"
tar -cJf "$OUT/s.tar.xz" -C "$OUT" s
grep -E "Duration|Registers Per|Achieved Active Warps|L1/TEX Hit|L2 Cache Throughput|DRAM Throughput|No Eligible|Shared Memory Configuration Size|Issued Ipc|sectors|Warp Cycles Per Issued" "$out/ncu_choice_n4.txt"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  cache  round  whole ms  % bound  tuning")
for n in range(1, 5):
    for c in ("old", "final"):
        for r in (1, 2):
            d = json.load(open(f"{out}/ab_acoustic3d_{c}_{r}.json"))
            for k in d["kernels"]:
                if k["order"] == n and k["kernel"] == "whole stage":
                    t = k.get('tuning', '').replace('volume+surface+lift+update tensor ', '')
                    print(f"{n}  {c:5}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  {t}")
PY
