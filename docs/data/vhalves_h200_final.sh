#!/usr/bin/env bash
# After vhalves_h200_run.sh: the tree's build, Maxwell's volume term in halves at N = 3 and 5
# only (dgk, test_tet_tuned). The kernel tests; the previous cache (cache_old.json, the file
# halves_h200_cache.json) against it with vhalves_h200_run.sh's choices at N = 3 and 5
# (cache_final.json, the file vhalves_h200_cache.json), alternated, two rounds, N = 1..5.
#
#   vhalves_h200_final.sh DIR    run from the source tree's root, DIR holding programs.tar.xz (dgk,
#                                test_tet_tuned), cache_old.json and cache_final.json; results under $OUT/w.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
out=$OUT/w
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz && chmod +x dgk test_tet_tuned
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 170 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"; grep -E "FAILED|PASSED|Failure|ran [0-9]+ times" "$out/test.log" | tail -8
for round in 1 2; do
  for c in old final; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 1..5 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/w.tar.xz" -C "$OUT" w
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  cache  round  whole ms  % bound  copy GB/s  FMA GFLOP/s  tuning")
for n in range(1, 6):
    for c in ("old", "final"):
        for r in (1, 2):
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
            for k in d["kernels"]:
                if k["order"] == n and k["kernel"] == "whole stage":
                    t = k.get('tuning', '').replace('volume+surface+lift+update tensor ', '')
                    print(f"{n}  {c:5}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  "
                          f"{d['copy_gbytes_per_s']:.0f}  {d['fma_gflops']:.0f}  {t}")
PY
