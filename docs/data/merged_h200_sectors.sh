#!/usr/bin/env bash
# Where the stage as one product's memory requests come from: Nsight Compute's source counters per
# SASS instruction (warp-state samples and the sectors each global load or store asks of the L2)
# for the N = 3 and 4 choices of cache_old.json (merged_h200_cache.json).
#
#   merged_h200_sectors.sh DIR   DIR holding dgk (dgk.xz) and cache_old.json; results under $OUT/r3
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/r3
mkdir -p "$out"
cd "$d"
[ -f dgk.xz ] && xz -dkf dgk.xz
chmod +x dgk
cp "$d/cache_old.json" "$out/tuning.json"
for n in 3 4; do
  DGK_TUNING_CACHE="$out/tuning.json" timeout 150 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --metrics \
    lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    -o "$out/src_n$n" ./dgk bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 \
    --kernel tuned --tune never --reps 2 > "$out/src_n$n.log" 2>&1
  echo "ncu $n rc $?"
  ncu -i "$out/src_n$n.ncu-rep" --page source --csv --print-source sass > "$out/sass_n$n.csv" 2> "$out/sass_n$n.err"
  echo "sass $n rc $? $(wc -l < "$out/sass_n$n.csv") lines"
  ncu -i "$out/src_n$n.ncu-rep" --page raw --csv > "$out/raw_n$n.csv" 2>&1
  ncu -i "$out/src_n$n.ncu-rep" --page details --print-details all > "$out/details_n$n.txt" 2>&1
done
rm -f "$out/tuning.json" "$out"/*.ncu-rep
xz -9 "$out"/*.csv
tar -cf "$OUT/r3.tar" -C "$OUT" r3
head -2 "$out/../r3/sass_n4.csv.xz" > /dev/null
xz -dc "$out/sass_n4.csv.xz" | sed -n 2p | tr ',' '\n' | head -60
