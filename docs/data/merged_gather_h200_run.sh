#!/usr/bin/env bash
# The stage as one product with 2, 3, 4 or 8 face nodes per lane at a time in its flux gather on
# the H200 (double): the kernel tests; the choices of cache_merged.json at N = 3 and 4 (cache_g2)
# and the same with gather=3, 4, 8 (cache_g3, g4, g8), Maxwell and acoustics, alternated, two
# rounds; a tuning run of Maxwell at N = 1..4 from an empty cache.
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
for round in 1 2; do
  for g in 2 3 4 8; do
    for p in maxwell3d acoustic3d; do
      cp "$d/cache_g$g.json" "$out/tuning.json"
      DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./dgk bench $p --backend cuda --precision double \
        --orders 3..4 --elements 196608 --kernel tuned --tune never \
        --report "$out/gb_${p}_g${g}_$round.json" > "$out/gb_${p}_g${g}_$round.log" 2>&1
      echo "$round $p g$g rc $?"
    done
  done
done
rm -f "$out/tuning.json"
t0=$(date +%s)
DGK_TUNING_CACHE="$out/cache_tune.json" timeout 200 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 1..4 --elements 196608 --report "$out/tune.json" > "$out/tune.log" 2> "$out/tune_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"
cat "$out/tune.log"
tar -cJf "$OUT/r.tar.xz" -C "$OUT" r
for p in maxwell3d acoustic3d; do for g in 2 3 4 8; do for round in 1 2; do
  echo "== $p g$g $round $(grep -E "nodal tuned +stage" "$out/gb_${p}_g${g}_$round.log" | awk '{print $1, $5, $8}' | tr '\n' ' ')"
done; done; done
