#!/usr/bin/env bash
# On an H100 (double): the stage as one product asking the L1 for its group's res after its second
# gather (l1ahead_res.diff) against the tree's build, both with the tree's H100 cache, Maxwell at
# N = 3 and 4 (l1ahead_h200_run.sh with configs "old new"); then where the tree's fused gather +
# lift + update waits at N = 6 (Nsight Compute's warp-state samples per SASS instruction, summed by
# phase with sass_phases.py --lift).
#
#   l1ahead_res_h100_run.sh DIR
#     run from the source tree's root, DIR laid out as l1ahead_h200_run.sh asks (programs.tar.xz:
#     the new build's dgk and test_tet_tuned; old.tar.xz: the tree's dgk, built with N <= 6;
#     cache_old.json: tree_h100_cache.json); results under $OUT/a and $OUT/p. PARTS (default
#     "ab p") picks the A/B (ab) and/or the profile (p); the profile alone needs only old.tar.xz
#     and cache_old.json.
set -uo pipefail
root=$(pwd)
parts=${PARTS:-"ab p"}
[[ $parts == *ab* ]] && ROUNDS=${ROUNDS:-3} "$root/docs/data/l1ahead_h200_run.sh" "$1" "old new"
[[ $parts == *p* ]] || exit 0
d=$(cd "$1" && pwd)
[ -x "$d/old/dgk" ] || { mkdir -p "$d/old" && tar -xJf "$d/old.tar.xz" -C "$d/old"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
out=$OUT/p
mkdir -p "$out"
cp "$d/cache_old.json" "$out/tuning.json"
DGK_TUNING_CACHE="$out/tuning.json" timeout 200 ncu --clock-control none --kernel-name-base demangled \
  --kernel-name regex:TagTensorLift --launch-skip 2 --launch-count 1 --section WarpStateStats \
  --section SourceCounters --section LaunchStats --section SpeedOfLight --section Occupancy \
  --section MemoryWorkloadAnalysis --import-source no -o "$out/lift_n6" \
  "$d/old/dgk" bench maxwell3d --backend cuda --precision double --orders 6 --elements 196608 --kernel tuned \
  --tune never --reps 2 > "$out/lift_n6.log" 2>&1
echo "ncu rc $?"
ncu -i "$out/lift_n6.ncu-rep" --page source --csv --print-source sass > "$out/sass_lift_n6.csv" 2>&1
ncu -i "$out/lift_n6.ncu-rep" --page details > "$out/details_lift_n6.txt" 2>&1
xz -9 "$out/sass_lift_n6.csv"
rm -f "$out/lift_n6.ncu-rep" "$out/tuning.json"
tar -cJf "$OUT/p.tar.xz" -C "$OUT" p
python3 "$root/docs/data/sass_phases.py" --lift "$out/sass_lift_n6.csv.xz"
grep -E "^ +Duration|Registers Per|Warp Cycles Per Issued|L1/TEX Hit|L2 Hit|DRAM Throughput|Achieved Occupancy" \
  "$out/details_lift_n6.txt"
