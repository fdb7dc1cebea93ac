#!/usr/bin/env bash
# Nsight Compute's warp-state samples per SASS instruction of one build's fused gather + lift +
# update (the TagTensorLift kernel, its third launch) at N = 6, Maxwell, double, summed by phase
# with sass_phases.py --lift, and the kernel's details page.
#
#   lift_profile_n6.sh DGK CACHE OUTDIR [TAG]
#     DGK the program, CACHE its tuning cache; writes OUTDIR/sass_lift_n6TAG.csv.xz,
#     details_lift_n6TAG.txt, phases_lift_n6TAG.txt and lift_n6TAG.log; prints the phases and the
#     kernel's duration, registers, occupancy and memory figures.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exe=$1 out=$3 tag=${4:-}
mkdir -p "$out"
cp "$2" "$out/tuning$tag.json"
DGK_TUNING_CACHE="$out/tuning$tag.json" timeout 200 ncu --clock-control none --kernel-name-base demangled \
  --kernel-name regex:TagTensorLift --launch-skip 2 --launch-count 1 --section WarpStateStats \
  --section SourceCounters --section LaunchStats --section SpeedOfLight --section Occupancy \
  --section MemoryWorkloadAnalysis --import-source no -o "$out/lift_n6$tag" \
  "$exe" bench maxwell3d --backend cuda --precision double --orders 6 --elements 196608 --kernel tuned \
  --tune never --reps 2 > "$out/lift_n6$tag.log" 2>&1
echo "ncu$tag rc $?"
ncu -i "$out/lift_n6$tag.ncu-rep" --page source --csv --print-source sass > "$out/sass_lift_n6$tag.csv" 2>&1
ncu -i "$out/lift_n6$tag.ncu-rep" --page details > "$out/details_lift_n6$tag.txt" 2>&1
xz -9 "$out/sass_lift_n6$tag.csv"
rm -f "$out/lift_n6$tag.ncu-rep" "$out/tuning$tag.json"
python3 "$here/sass_phases.py" --lift "$out/sass_lift_n6$tag.csv.xz" > "$out/phases_lift_n6$tag.txt"
cat "$out/phases_lift_n6$tag.txt"
grep -E "^ +Duration|Registers Per|Warp Cycles Per Issued|L1/TEX Hit|L2 Hit|DRAM Throughput|Achieved Occupancy|Block Limit Registers" \
  "$out/details_lift_n6$tag.txt"
