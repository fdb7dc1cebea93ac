#!/usr/bin/env bash
# After groups_h200_run.sh, the same build: the tuned cache (cache_new.json, the file
# groups_h200_cache.json, k = 4 at N = 1..4) against a copy whose stages at N = 3 and 4 have two
# groups per warp (cache_k8.json, the file groups_h200_cache_k8.json: k = 8, paired, uncapped,
# one warp per team), alternated, two rounds, N = 3, 4; Nsight Compute on both at N = 3 and 4.
#
#   groups_h200_ncu.sh DIR    run from the source tree's root, DIR holding programs.tar.xz (dgk),
#                             cache_new.json and cache_k8.json; results under $OUT/n.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/n
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz dgk && chmod +x dgk
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
for round in 1 2; do
  for c in new k8; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 3..4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
for c in new k8; do
  cp "$d/cache_$c.json" "$out/tuning.json"
  for n in 3 4; do
    DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ncu --clock-control none --kernel-name-base demangled \
      --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SpeedOfLight \
      --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
      --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats \
      --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio \
      ./dgk bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
      --tune never --reps 2 > "$out/ncu_${c}_n$n.txt" 2>&1
    echo "ncu $c $n rc $?"
  done
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/n.tar.xz" -C "$OUT" n
python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
for n in (3, 4):
    for c in ("new", "k8"):
        ts = []
        for r in (1, 2):
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
            ts += [k["seconds"] * 1e3 for k in d["kernels"] if k["order"] == n and k["kernel"] == "whole stage"]
        t = open(f"{out}/ncu_{c}_n{n}.txt").read()
        def m(name):
            x = re.search(r"\n\s+" + re.escape(name) + r"\s+\S+\s+([\d,.]+)", t)
            return x.group(1) if x else "?"
        keys = ["Duration", "Registers Per Thread", "Achieved Active Warps Per SM", "L1/TEX Hit Rate",
                "L2 Cache Throughput", "DRAM Throughput", "Issue Slots Busy", "Warp Cycles Per Issued Instruction",
                "smsp__inst_executed.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                "lts__t_sectors_srcunit_tex_op_read.sum", "Dynamic Shared Memory Per Block",
                "Shared Memory Configuration Size"]
        print(n, c, " / ".join(f"{x:.4f}" for x in ts), "; ".join(f"{k}={m(k)}" for k in keys))
        for s in re.findall(r"(smsp__average_warps_issue_stalled_\w+?)_per_issue_active.ratio\s+\S*\s+([\d.]+)", t):
            print("   ", s[0].replace("smsp__average_warps_issue_stalled_", ""), s[1])
PY
