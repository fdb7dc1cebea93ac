#!/usr/bin/env bash
# Where the stage as one product waits, instruction by instruction, on the H200 (double): Nsight
# Compute's warp-state sampling of the tree's choice (the tree's cache) at N = 3 and 4, printed
# per SASS instruction.
#
#   sass_h200_run.sh DIR
#     run from the source tree's root, DIR holding old.tar.xz (the tree's dgk) and cache_old.json;
#     results under $OUT/o.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/o
mkdir -p "$out"
cd "$d"
tar -xJf old.tar.xz
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
ncu --version | tail -1 | tee -a "$out/gpu.txt"
for n in 4 3; do
  cp cache_old.json "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 200 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section WarpStateStats \
    --section SourceCounters --section LaunchStats --import-source no -o "$out/merged_n$n" \
    ./dgk bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/ncu_n$n.log" 2>&1
  echo "ncu N=$n rc $?"
  ncu -i "$out/merged_n$n.ncu-rep" --page source --csv --print-source sass > "$out/sass_n$n.csv" 2> "$out/sass_n$n.err"
  echo "source page rc $? $(wc -l < "$out/sass_n$n.csv") lines"
  ncu -i "$out/merged_n$n.ncu-rep" --page details --print-details all > "$out/details_n$n.txt" 2>&1
done
rm -f "$out/tuning.json"
head -3 "$out/sass_n4.csv" | cut -c1-600
