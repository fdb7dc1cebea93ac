#!/usr/bin/env bash
# Where the stage as one product waits: Nsight Compute's warp-state sampling per SASS instruction
# for the N = 3 and 4 choices of cache_merged.json.
set -uo pipefail
d=$(cd "$(dirname "$0")" && pwd)
out=$OUT/r
mkdir -p "$out"
cd "$d"
xz -dkf dgk_base.xz
chmod +x dgk_base
cp "$d/cache_merged.json" "$out/tuning.json"
for n in 3 4; do
  DGK_TUNING_CACHE="$out/tuning.json" timeout 120 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SourceCounters \
    --section WarpStateStats -o "$out/src_n$n" \
    ./dgk_base bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/src_n$n.log" 2>&1
  echo "ncu $n rc $?"
  ncu -i "$out/src_n$n.ncu-rep" --page source --csv --print-source sass > "$out/sass_n$n.csv" 2> "$out/sass_n$n.err"
  echo "sass $n rc $? $(wc -l < "$out/sass_n$n.csv") lines"
  ncu -i "$out/src_n$n.ncu-rep" --page details --section WarpStateStats --print-details all > "$out/stall_n$n.txt" 2>&1
  ncu -i "$out/src_n$n.ncu-rep" --page raw --csv --metrics regex:smsp__average_warp.*_issue_stalled.*_per_issue_active\.ratio > "$out/stallraw_n$n.csv" 2>&1
done
rm -f "$out/tuning.json" "$out"/*.ncu-rep
tar -cJf "$OUT/r.tar.xz" -C "$OUT" r
head -3 "$out/sass_n4.csv" | cut -c1-600
cat "$out/sass_n4.err" | head -5
