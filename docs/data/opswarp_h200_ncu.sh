#!/usr/bin/env bash
# The fastest staged=operator shapes of the tuning run of opswarp_h200_run.sh (cache_ops.json: at
# N = 3 ws=2 warps=4, at N = 4 ws=16 warps=12, paired, under the cap of 168) against the previous
# cache (cache_old.json), the same program, alternated, two rounds; Nsight Compute on those shapes.
#
#   opswarp_h200_ncu.sh DIR    as opswarp_h200_run.sh; results under $OUT/n.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/n
mkdir -p "$out"
cd "$d"
for f in dgk; do [ -f $f.xz ] && xz -dkf $f.xz; chmod +x $f; done
for round in 1 2; do
  for c in old ops; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 3..4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
cp "$d/cache_ops.json" "$out/tuning.json"
for n in 3 4; do
  DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SpeedOfLight \
    --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
    --section SchedulerStats --section ComputeWorkloadAnalysis \
    --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
    ./dgk bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/ncu_n$n.txt" 2>&1
  echo "ncu $n rc $?"
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/n.tar.xz" -C "$OUT" n
for n in 3 4; do
  echo "== ncu N = $n"
  grep -E "Duration|Registers Per|Achieved Active Warps|L1/TEX Hit|L2 Hit|L2 Cache Throughput|DRAM Throughput|No Eligible|Shared Memory Configuration Size|Dynamic Shared|Issued Ipc|sectors|bytes_read|shared_ld|bank_conflicts|Stall|Warp Cycles Per Issued" "$out/ncu_n$n.txt"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  cache  round  whole ms  % bound  tuning")
for n in (3, 4):
    for c in ("old", "ops"):
        for r in (1, 2):
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
            for k in d["kernels"]:
                if k["order"] == n and k["kernel"] == "whole stage":
                    print(f"{n}  {c:5}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  {k.get('tuning','')}")
PY
