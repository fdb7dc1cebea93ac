#!/usr/bin/env bash
# The tensor-core lift with six or twelve column tiles per warp item (cols=6, cols=12; k = 8 or
# 16 elements per group) on the H200 (double): the kernel tests of the build (dgk,
# test_tet_tuned, DGK_MAX_ORDER=6); Maxwell tuned at N = 5 and 6 into a copy of the previous cache
# (cache_old.json: vunroll_h200_cache.json with the N = 6 entry of codegen13_h200_cache.json),
# every timing in the report; the previous cache against the tuned one, alternated, two rounds,
# N = 6.
#
#   coltiles_h200_run.sh DIR    run from the source tree's root, DIR holding programs.tar.xz (dgk,
#                               test_tet_tuned) and cache_old.json; results under $OUT/c.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
out=$OUT/c
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz && chmod +x dgk test_tet_tuned
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 240 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"; grep -E "FAILED|PASSED|Failure|did not run" "$out/test.log" | tail -8
cp "$d/cache_old.json" "$out/cache_new.json"
t0=$(date +%s)
DGK_TUNING_CACHE="$out/cache_new.json" timeout 200 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 5..6 --elements 196608 --report "$out/tune.json" > "$out/tune.log" 2> "$out/tune_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune.log"
cp "$out/cache_new.json" "$d/cache_new.json"
for round in 1 2; do
  for c in old new; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 6 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
rm -f "$out/tuning.json"
python3 - "$out" > "$out/tune_trials.txt" <<'PY'
import json, sys
orders = json.load(open(f"{sys.argv[1]}/tune.json"))["orders"]
for o in orders:
    t = [x for x in o["trials"] if x["part"].startswith("lift") or x["part"].startswith("surface")]
    parts = sorted({x["part"] for x in t})
    for p in parts:
        xs = sorted((x for x in t if x["part"] == p), key=lambda x: x["seconds"])
        cols = [x for x in xs if "cols=" in x["tuning"]]
        plain = [x for x in xs if "cols=" not in x["tuning"] and "tensor" in x["tuning"].split(";")[-1]]
        print(f"N = {o['order']} {p}: {len(xs)} timed, {len(cols)} with cols")
        for name, ys in (("cols", cols), ("three", plain)):
            for x in ys[:3]:
                print(f"  {name:5} {x['seconds'] * 1e3:.4f} ms  {x['tuning'].split('; ')[-1]}")
PY
tar -cJf "$OUT/c.tar.xz" -C "$OUT" c
cat "$out/tune_trials.txt"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  cache  round  kernel  ms  % bound  copy GB/s  tuning")
for c in ("old", "new"):
    for r in (1, 2):
        try:
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
        except Exception as e:
            print(c, r, "no report", e)
            continue
        for k in d["kernels"]:
            if k["kernel"] in ("volume", "surface+lift+update", "surface+lift", "lift", "whole stage"):
                print(f"{k['order']}  {c:5}  {r}  {k['kernel']:20} {k['seconds']*1e3:8.4f}  "
                      f"{100*k['roofline_fraction']:6.1f}  {d['copy_gbytes_per_s']:.0f}  "
                      f"{k.get('tuning', '').split('; ')[-1] if k['kernel'] != 'volume' else ''}")
PY
