#!/usr/bin/env bash
# The fused updates' stores of res and q_out as streaming stores (st.global.cs, evict-first in
# the L2) against plain stores, in one experimental build whose kernels read the choice from
# DGK_STREAMING_STORES (0: plain stores, "old"; 1: streaming stores, "new"): the kernel tests with
# streaming stores, then the benches of both in both element orders, alternated, then Nsight
# Compute's DRAM bytes of the fused gather + lift + update at N = 6 for each.
#
#   streaming_store_run.sh DIR
#     run from the source tree's root; DIR holds programs.tar.xz (dgk and test_tet_tuned) and the
#     tuning cache CACHE.json (default tuned). ROUNDS (default 2) alternated rounds; ORDERS
#     (default 4..6); NCU=0 skips Nsight Compute, NCU_ORDERS (default "none sfc") names its
#     element orders. Results under $OUT/ss and in $OUT/ss.tar.xz.
set -uo pipefail
root=$(pwd)
new=$(cd "$1" && pwd)
out=$OUT/ss
mkdir -p "$out"
(cd "$new" && tar -xJf programs.tar.xz)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && DGK_STREAMING_STORES=1 timeout ${TEST_TIMEOUT:-200} "$new/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "tests rc $? in $(( $(date +%s) - t0 )) s"; grep -E "FAILED|PASSED|Failure" "$out/test.log" | tail -4
cache=$new/${CACHE:-tuned}.json
for round in $(seq 1 "${ROUNDS:-2}"); do
  for o in none sfc; do
    for b in old new; do
      [ $b = old ] && ss=0 || ss=1
      cp "$cache" "$out/tuning.json"
      t0=$(date +%s)
      DGK_STREAMING_STORES=$ss DGK_TUNING_CACHE="$out/tuning.json" timeout 120 "$new/dgk" bench maxwell3d --backend cuda --precision double \
        --orders "${ORDERS:-4..6}" --elements 196608 --kernel tuned --tune never --reorder $o \
        --report "$out/${b}_${o}_$round.json" > "$out/${b}_${o}_$round.log" 2>&1
      echo "$round $o $b rc $? in $(( $(date +%s) - t0 )) s"
      grep -E "tuned +whole|tunedsurface" "$out/${b}_${o}_$round.log" | cut -c1-80
    done
  done
done
if [ "${NCU:-1}" != 0 ]; then
  m=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,gpu__time_duration.sum
  for o in ${NCU_ORDERS:-none sfc}; do
    for b in old new; do
      [ $b = old ] && ss=0 || ss=1
      cp "$cache" "$out/tuning.json"
      DGK_STREAMING_STORES=$ss DGK_TUNING_CACHE="$out/tuning.json" timeout 100 ncu --clock-control none --kernel-name-base demangled \
        --kernel-name regex:TagTensorLift --launch-skip 2 --launch-count 1 --metrics $m --csv \
        "$new/dgk" bench maxwell3d --backend cuda --precision double --orders 6 --elements 196608 --kernel tuned \
        --tune never --reps 2 --reorder $o > "$out/ncu_lift6_${b}_$o.csv" 2> "$out/ncu_lift6_${b}_$o.err"
      echo "ncu lift N=6 $b $o rc $?"
    done
  done
fi
rm -f "$out/tuning.json"
tar -cJf "$OUT/ss.tar.xz" -C "$OUT" ss
python3 "$(dirname "$0")/bench_rounds_summary.py" "$out" "${ROUNDS:-2}" old_none old_sfc new_none new_sfc
