#!/usr/bin/env bash
# After vunroll_h200_run.sh, same build: Maxwell at N = 4 under the cap of 128 with its flux
# gathered at once and its volume's k-steps unrolled by 2 (volume in halves; 128 registers, no
# spills: sixteen warps per SM), a shape the tuning run did not time. Caches: cache_a.json (the
# file vunroll_h200_cache.json), cache_b.json and cache_c.json (the same with that shape at N = 4,
# one and two warps per team), alternated, three rounds.
#
#   vunroll_h200_n4_cap128.sh DIR    run from the source tree's root, DIR holding programs.tar.xz
#                                    (dgk) and the three caches; results under $OUT/c.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/c
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz dgk && chmod +x dgk
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
for round in 1 2 3; do
  for c in a b c; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/c.tar.xz" -C "$OUT" c
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("cache  round  whole ms  % bound  copy GB/s  FMA GFLOP/s  tuning")
for c in "abc":
    for r in (1, 2, 3):
        try:
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
        except Exception as e:
            print(c, r, "no report", e, open(f"{out}/ab_{c}_{r}.log").read()[-300:])
            continue
        for k in d["kernels"]:
            if k["kernel"] == "whole stage":
                t = k.get('tuning', '').replace('volume+surface+lift+update tensor ', '')
                print(f"{c}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  "
                      f"{d['copy_gbytes_per_s']:.0f}  {d['fma_gflops']:.0f}  {t}")
PY
