#!/usr/bin/env bash
# The stage as one product with two k-steps per mma (m16n8k8, vunroll=4 in docs/data/merged_k8.diff)
# on the H200 (double): the kernel tests of the build (dgk, test_tet_tuned, DGK_MAX_ORDER=4);
# Maxwell tuned at N = 3 and 4 into a copy of the tree's cache (cache_old.json, the file
# tree_h200_cache.json), every timing in the report; the two caches alternated, three rounds.
#
#   merged_k8_h200_run.sh DIR    run from the source tree's root, DIR holding programs.tar.xz (dgk,
#                                test_tet_tuned) and cache_old.json; results under $OUT/k.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
out=$OUT/k
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz && chmod +x dgk test_tet_tuned
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 150 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"; grep -E "FAILED|PASSED|Failure|ran [0-9]+ times" "$out/test.log" | tail -6
cp "$d/cache_old.json" "$out/cache_new.json"
t0=$(date +%s)
DGK_TUNING_CACHE="$out/cache_new.json" timeout 200 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 3..4 --elements 196608 --report "$out/tune.json" > "$out/tune.log" 2> "$out/tune_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune.log"
cp "$out/cache_new.json" "$d/cache_new.json"
for round in 1 2 3; do
  for c in old new; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 3..4 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
rm -f "$out/tuning.json"
python3 - "$out" > "$out/tune_trials.txt" <<'PY'
import json, sys
for o in json.load(open(f"{sys.argv[1]}/tune.json"))["orders"]:
    t = sorted((x for x in o["trials"] if "product=merged" in x["tuning"]), key=lambda x: x["seconds"])
    for name, keep in (("vunroll=4", lambda s: "vunroll=4" in s), ("others", lambda s: "vunroll=4" not in s)):
        ys = [x for x in t if keep(x["tuning"])]
        print(f"N = {o['order']} {name}: {len(ys)} merged shapes timed")
        for x in ys[:4]:
            print(f"  {x['seconds'] * 1e3:.4f} ms  {x['tuning'].replace('volume+surface+lift+update tensor ', '')}")
PY
tar -cJf "$OUT/k.tar.xz" -C "$OUT" k
cat "$out/tune_trials.txt"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("N  cache  round  whole ms  % bound  copy GB/s  tuning")
for n in (3, 4):
    for c in ("old", "new"):
        for r in (1, 2, 3):
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
            for k in d["kernels"]:
                if k["order"] == n and k["kernel"] == "whole stage":
                    t = k.get("tuning", "").replace("volume+surface+lift+update tensor ", "")
                    print(f"{n}  {c:5}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  "
                          f"{d['copy_gbytes_per_s']:.0f}  {t}")
PY
