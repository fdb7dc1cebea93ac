#!/usr/bin/env bash
# After halves_h200_run3.sh, the same program: acoustics tuned at N = 5 into a copy of
# halves_h200_cache.json (cache_final.json here), both caches alternated on acoustics at N = 5,
# two rounds; then Maxwell at N = 1..5 with halves_h200_cache.json, two rounds.
#
#   halves_h200_run4.sh DIR    DIR as for halves_h200_run.sh, with cache_final.json; results under $OUT/u.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/u
mkdir -p "$out"
cd "$d"
for f in dgk; do [ -f $f.xz ] && xz -dkf $f.xz; chmod +x $f; done
cp "$d/cache_final.json" "$out/cache_a5.json"
DGK_TUNING_CACHE="$out/cache_a5.json" timeout 200 ./dgk tune acoustic3d --backend cuda --precision double \
  --orders 5 --elements 196608 > "$out/tune_acoustic3d_n5.log" 2> "$out/tune_acoustic3d_n5_search.log"
echo "tune rc $?"; cat "$out/tune_acoustic3d_n5.log"
cp "$out/cache_a5.json" "$d/cache_a5.json"
for round in 1 2; do
  for c in final a5; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench acoustic3d --backend cuda --precision double \
      --orders 5 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_acoustic3d_n5_${c}_$round.json" > "$out/ab_acoustic3d_n5_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
cp "$d/cache_final.json" "$out/tuning.json"
for round in 1 2; do
  DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
    --orders 1..5 --elements 196608 --kernel tuned --tune never \
    --report "$out/maxwell3d_final_$round.json" > "$out/maxwell3d_final_$round.log" 2>&1
  echo "maxwell $round rc $?"
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/u.tar.xz" -C "$OUT" u
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
rows = [(f"ab_acoustic3d_n5_{c}_{r}", c) for c in ("final", "a5") for r in (1, 2)]
rows += [(f"maxwell3d_final_{r}", "maxwell") for r in (1, 2)]
for name, c in rows:
    d = json.load(open(f"{out}/{name}.json"))
    for k in d["kernels"]:
        if k["kernel"] == "whole stage":
            t = k.get('tuning', '').replace('volume+surface+lift+update tensor ', '')
            print(f"{name:28} N={k['order']}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  {t}")
PY
