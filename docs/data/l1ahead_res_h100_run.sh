#!/usr/bin/env bash
# On an H100 (double): the stage as one product asking the L1 for its group's res after its second
# gather (l1ahead_res.diff) against the tree's build, both with the tree's H100 cache, Maxwell at
# N = 3 and 4; then where the tree's fused gather + lift + update waits at N = 6 (Nsight Compute's
# warp-state samples per SASS instruction, summed by phase).
#
#   l1ahead_res_h100_run.sh DIR
#     run from the source tree's root, DIR holding programs.tar.xz (the new build's dgk and
#     test_tet_tuned; old/dgk, the tree's build with N <= 6) and cache.json
#     (tree_h100_cache.json); ROUNDS (default 3) alternated rounds; results under $OUT/r and in
#     $OUT/r.tar.xz.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
out=$OUT/r
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
ncu --version | tail -1 | tee -a "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 300 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"
grep -E "FAILED|PASSED|Failure" "$out/test.log" | tail -6
bench() {  # EXE ORDERS REPORT
  cp cache.json "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 120 "$1" bench maxwell3d --backend cuda --precision double \
    --orders "$2" --elements 196608 --kernel tuned --tune never --report "$3.json" > "$3.log" 2>&1
}
for round in $(seq 1 "${ROUNDS:-3}"); do
  for c in old new; do
    exe=./dgk
    [ $c = old ] && exe=./old/dgk
    t0=$(date +%s)
    bench $exe 3..4 "$out/ab_${c}_$round"
    echo "$round $c rc $? in $(( $(date +%s) - t0 )) s"
  done
done
profile() {  # NAME EXE ORDER KERNEL-REGEX
  cp cache.json "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 200 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name "regex:$4" --launch-skip 2 --launch-count 1 --section WarpStateStats \
    --section SourceCounters --section LaunchStats --section SpeedOfLight --section Occupancy \
    --section MemoryWorkloadAnalysis --import-source no -o "$out/ncu_$1" \
    "$2" bench maxwell3d --backend cuda --precision double --orders "$3" --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/ncu_$1.log" 2>&1
  echo "ncu $1 rc $?"
  ncu -i "$out/ncu_$1.ncu-rep" --page source --csv --print-source sass > "$out/sass_$1.csv" 2>&1
  ncu -i "$out/ncu_$1.ncu-rep" --page details > "$out/details_$1.txt" 2>&1
  xz -9 "$out/sass_$1.csv"
  rm -f "$out/ncu_$1.ncu-rep"
}
profile merged_n4_old ./old/dgk 4 TagTensorStageMerged
profile merged_n4_new ./dgk 4 TagTensorStageMerged
profile lift_n6 ./old/dgk 6 TagTensorLift
rm -f "$out/tuning.json"
tar -cJf "$OUT/r.tar.xz" -C "$OUT" r
for c in merged_n4_old merged_n4_new; do
  python3 "$root/docs/data/sass_phases.py" "$out/sass_$c.csv.xz"
  grep -E "^ +Duration|Registers Per|Warp Cycles Per Issued|L1/TEX Hit|L2 Hit|DRAM Throughput" "$out/details_$c.txt"
done
python3 "$root/docs/data/sass_phases.py" --lift "$out/sass_lift_n6.csv.xz"
grep -E "^ +Duration|Registers Per|Warp Cycles Per Issued|L1/TEX Hit|L2 Hit|DRAM Throughput|Achieved Occupancy" \
  "$out/details_lift_n6.txt"
grep -h "tuned kernels" "$out"/ab_*_1.log | sort -u | cut -c1-220
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
rows = {}
for c in ("old", "new"):
    for r in range(1, 9):
        try:
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
        except Exception:
            continue
        for k in d["kernels"]:
            if k["kernel"] == "whole stage":
                rows.setdefault(k["order"], {}).setdefault(c, []).append(
                    f"{k['seconds'] * 1e3:.4f}/{100 * k['roofline_fraction']:.1f}")
for n, v in sorted(rows.items()):
    for c in ("old", "new"):
        print(f"N = {n} {c:>4}: " + "  ".join(v.get(c, [])))
PY
