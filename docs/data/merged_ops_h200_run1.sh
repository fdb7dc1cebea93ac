#!/usr/bin/env bash
# The stage as one product with its operators in team scratch (staged=operator) on the H200
# (double): the kernel tests; a tuning run of Maxwell at N = 3, 4 from an empty cache; then the
# earlier choices (cache_merged.json) against this run's, the same program, alternated, two rounds.
set -uo pipefail
root=$(pwd)
d=$(cd "$(dirname "$0")" && pwd)
out=$OUT/r
mkdir -p "$out"
cd "$d"
xz -dkf dgk.xz test_tet_tuned.xz
chmod +x dgk test_tet_tuned
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 150 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"; grep -E "FAILED|PASSED" "$out/test.log" | tail -6
t0=$(date +%s)
DGK_TUNING_CACHE="$out/cache_ops.json" timeout 220 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 3..4 --elements 196608 --report "$out/tune_ops.json" > "$out/tune_ops.log" 2> "$out/tune_ops_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"
cat "$out/tune_ops.log"
for round in 1 2; do
  for c in merged ops; do
    if [ $c = merged ]; then cp "$d/cache_merged.json" "$out/tuning.json"; else cp "$out/cache_ops.json" "$out/tuning.json"; fi
    DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 3..4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/r.tar.xz" -C "$OUT" r
for c in merged ops; do for round in 1 2; do
  echo "== $c $round"; grep -E "tuned kernels|nodal tuned +stage" "$out/ab_${c}_$round.log"
done; done
grep -E "staged=operator" "$out/tune_ops_search.log" | sort -t' ' -k2 | head -3
