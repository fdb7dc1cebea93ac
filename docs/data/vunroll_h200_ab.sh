#!/usr/bin/env bash
# After vunroll_h200_run.sh, same build: the previous cache (cache_old.json, the file
# groups_h200_cache.json) against the tuned one (cache_new.json, the file vunroll_h200_cache.json),
# alternated, three rounds, Maxwell and acoustics at N = 3 and 4.
#
#   vunroll_h200_ab.sh DIR    run from the source tree's root, DIR holding programs.tar.xz (dgk,
#                             test_tet_tuned), cache_old.json and cache_new.json; results under $OUT/v.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/v
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz && chmod +x dgk
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
for round in 1 2 3; do
  for p in maxwell3d acoustic3d; do
    for c in old new; do
      cp "$d/cache_$c.json" "$out/tuning.json"
      DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./dgk bench $p --backend cuda --precision double \
        --orders 3..4 --elements 196608 --kernel tuned --tune never \
        --report "$out/ab_${p}_${c}_$round.json" > "$out/ab_${p}_${c}_$round.log" 2>&1
      echo "$round $p $c rc $?"
    done
  done
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/v.tar.xz" -C "$OUT" v
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("physics  N  cache  round  whole ms  % bound  copy GB/s  FMA GFLOP/s  tuning")
for p in ("maxwell3d", "acoustic3d"):
    for n in (3, 4):
        for c in ("old", "new"):
            for r in (1, 2, 3):
                d = json.load(open(f"{out}/ab_{p}_{c}_{r}.json"))
                for k in d["kernels"]:
                    if k["order"] == n and k["kernel"] == "whole stage":
                        t = k.get('tuning', '').replace('volume+surface+lift+update tensor ', '')
                        print(f"{p}  {n}  {c:5}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  "
                              f"{d['copy_gbytes_per_s']:.0f}  {d['fma_gflops']:.0f}  {t}")
PY
