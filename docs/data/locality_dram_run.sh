#!/usr/bin/env bash
# The tuned stages in the generator's element order and along the Morton curve: the benches
# alternated, then Nsight Compute's DRAM and L2 traffic of the fused gather + lift + update at
# N = 6 and of the stage as one product at N = 4, in both orders, against the bytes `dgk bench`
# counts for them (the fewest they must move).
#
#   locality_dram_run.sh DIR
#     run from the source tree's root; DIR holds programs.tar.xz (dgk) and the tuning cache
#     tuned.json (N = 4..6; CACHE=NAME for DIR/NAME.json); ROUNDS (default 2) alternated rounds
#     of the benches; ORDERS (default 4..6). Results under $OUT/loc and in $OUT/loc.tar.xz.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/loc
mkdir -p "$out"
(cd "$d" && tar -xJf programs.tar.xz dgk)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for o in none sfc; do
    cp "$d/${CACHE:-tuned}.json" "$out/tuning.json"
    t0=$(date +%s)
    DGK_TUNING_CACHE="$out/tuning.json" timeout 120 "$d/dgk" bench maxwell3d --backend cuda --precision double \
      --orders "${ORDERS:-4..6}" --elements 196608 --kernel tuned --tune never --reorder $o \
      --report "$out/${o}_$round.json" > "$out/${o}_$round.log" 2>&1
    echo "$round $o rc $? in $(( $(date +%s) - t0 )) s"
  done
done
m=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,gpu__time_duration.sum
for k in "TagTensorLift 6" "TagTensorStageMerged 4"; do
  set -- $k
  for o in none sfc; do
    cp "$d/${CACHE:-tuned}.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 150 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:$1 \
      --launch-skip 2 --launch-count 1 --metrics $m --csv \
      "$d/dgk" bench maxwell3d --backend cuda --precision double --orders $2 --elements 196608 --kernel tuned \
      --tune never --reps 2 --reorder $o > "$out/ncu_${1}_n$2_$o.csv" 2> "$out/ncu_${1}_n$2_$o.err"
    echo "ncu $1 N=$2 $o rc $?"
  done
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/loc.tar.xz" -C "$OUT" loc
python3 "$(dirname "$0")/bench_rounds_summary.py" "$out" "${ROUNDS:-2}" none sfc
