#!/usr/bin/env bash
# Maxwell at N = 3 and 4 tuned again (double) on the H200 with the lanes' flux fragments padded:
# dgk tune into a copy of the tree's cache (cache_old.json: tree_h200_cache.json), then the
# tree's cache and the tuned copy alternated, two rounds, and the straightforward kernels once.
# Program: the padded build of fluxpad_h200_run.sh (its stages at N = 3 and 4 are the tree's).
#
#   fluxpad_h200_tune.sh DIR   run from the source tree's root, DIR holding programs.tar.xz (dgk)
#                              and cache_old.json; results under $OUT/t.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/t
mkdir -p "$out"
cd "$d"
[ -x dgk ] || tar -xJf programs.tar.xz
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
cp cache_old.json "$out/cache_tuned.json"
t0=$(date +%s)
DGK_TUNING_CACHE="$out/cache_tuned.json" timeout 400 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 3..4 --elements 196608 --report "$out/tune.json" > "$out/tune.log" 2> "$out/tune_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune.log"
for round in 1 2; do
  for c in old tuned; do
    src=cache_old.json; [ $c = tuned ] && src=$out/cache_tuned.json
    cp "$src" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 3..4 --elements 196608 --kernel tuned --tune never --report "$out/ab_${c}_$round.json" \
      > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
timeout 120 ./dgk bench maxwell3d --backend cuda --precision double --orders 3..4 --elements 196608 \
  --kernel thread --report "$out/thread.json" > "$out/thread.log" 2>&1
echo "thread rc $?"
rm -f "$out/tuning.json"
tar -cJf "$OUT/t.tar.xz" -C "$OUT" t
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
rows = {}
for name in ("ab_old_1", "ab_tuned_1", "ab_old_2", "ab_tuned_2", "thread"):
    try:
        d = json.load(open(f"{out}/{name}.json"))
    except Exception as e:
        print(name, "no report", e)
        continue
    for k in d["kernels"]:
        if k["kernel"] == "whole stage":
            rows.setdefault(k["order"], []).append(f"{name} {k['seconds'] * 1e3:.4f}/{100 * k['roofline_fraction']:.1f}")
for n, v in sorted(rows.items()):
    print(n, "  ".join(v))
PY
