#!/usr/bin/env bash
# On an H100 (double): a build whose tensor-core lift with loads ahead (loads=ahead, the tree's H100
# choice of the fused gather + lift + update at N = 6) updates several values per thread at a
# time, all their loads before their stores (four values a team's width apart, or two
# consecutive values as 16-byte pairs), against the tree's build, which updates value by value;
# both with the tree's H100 cache, Maxwell at N = 6, alternated, by l1ahead_h200_run.sh with
# configs "old new" (its kernel tests first); then Nsight Compute's warp-state samples per SASS
# instruction of both builds' lift at N = 6, summed by phase with sass_phases.py --lift.
#
#   epilogue_batch_h100_run.sh DIR
#     run from the source tree's root; DIR holding programs.tar.xz (dgk and test_tet_tuned of the
#     new build, old/dgk of the tree's, or that already in DIR/old; both built with N <= 6) and cache_old.json
#     (tree_h100_cache.json); results under $OUT/a and $OUT/p.
set -uo pipefail
root=$(pwd)
ORDERS=${ORDERS:-6} ROUNDS=${ROUNDS:-3} "$root/docs/data/l1ahead_h200_run.sh" "$1" "old new"
d=$(cd "$1" && pwd)
out=$OUT/p
mkdir -p "$out"
cp "$d/cache_old.json" "$out/tuning.json"
for c in old new; do
  exe=$d/dgk
  [ $c = old ] && exe=$d/old/dgk
  DGK_TUNING_CACHE="$out/tuning.json" timeout 200 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorLift --launch-skip 2 --launch-count 1 --section WarpStateStats \
    --section SourceCounters --section LaunchStats --section SpeedOfLight --section Occupancy \
    --section MemoryWorkloadAnalysis --import-source no -o "$out/lift_n6_$c" \
    "$exe" bench maxwell3d --backend cuda --precision double --orders 6 --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/lift_n6_$c.log" 2>&1
  echo "ncu $c rc $?"
  ncu -i "$out/lift_n6_$c.ncu-rep" --page source --csv --print-source sass > "$out/sass_lift_n6_$c.csv" 2>&1
  ncu -i "$out/lift_n6_$c.ncu-rep" --page details > "$out/details_lift_n6_$c.txt" 2>&1
  xz -9 "$out/sass_lift_n6_$c.csv"
  rm -f "$out/lift_n6_$c.ncu-rep"
  python3 "$root/docs/data/sass_phases.py" --lift "$out/sass_lift_n6_$c.csv.xz" > "$out/phases_$c.txt"
  head -4 "$out/phases_$c.txt"
  grep -E "^ +Duration|Registers Per|Warp Cycles Per Issued|Achieved Occupancy|DRAM Throughput|Block Limit Registers" \
    "$out/details_lift_n6_$c.txt"
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/p.tar.xz" -C "$OUT" p
