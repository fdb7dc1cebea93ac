#!/usr/bin/env bash
# The tuned stage against the straightforward one at N = 4 (Maxwell, double), alternated in one
# run: DIR's programs.tar.xz holds the dgk to time and DIR/cache_old.json its tuning cache
# (tree_h100_cache.json); ROUNDS (default 3) rounds of `dgk bench --kernel thread` then
# `--kernel tuned`; reports under $OUT/s (and $OUT/s.tar.xz), the whole stage of each printed last.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/s
mkdir -p "$out"
cd "$d" && tar -xJf programs.tar.xz dgk
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
cp cache_old.json "$out/tuning.json"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for kernel in thread tuned; do
    DGK_TUNING_CACHE="$out/tuning.json" timeout 120 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 4 --elements 196608 --kernel $kernel --tune never --report "$out/${kernel}_$round.json" \
      > "$out/${kernel}_$round.log" 2>&1
    echo "$round $kernel rc $?"
  done
done
rm -f "$out/tuning.json"
sed -i "s#$OUT/##g; s#$d/##g" "$out"/*.log
tar -cJf "$OUT/s.tar.xz" -C "$OUT" s
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
t, f = {}, {}
for k in ("thread", "tuned"):
    for r in range(1, 10):
        try:
            d = json.load(open(f"{out}/{k}_{r}.json"))
        except Exception:
            continue
        for e in d["kernels"]:
            if e["kernel"] == "whole stage":
                t.setdefault(k, []).append(e["seconds"] * 1e3)
                f.setdefault(k, []).append(100 * e["roofline_fraction"])
for k, v in t.items():
    print(f"{k:>6}: " + "  ".join(f"{x:.4f}" for x in v) + " ms, " + "  ".join(f"{x:.1f}" for x in f[k]) + "% of the bound")
if len(t) == 2:
    print("speedup per round: " + "  ".join(f"{a / b:.2f}" for a, b in zip(t["thread"], t["tuned"])))
PY
