#!/usr/bin/env bash
# After halves_h200_run.sh, the same program: Maxwell tuned at N = 5 into a copy of
# halves_h200_cache.json (cache_final.json here), the stage as one product's trials there with
# and without gather=halves, then the two caches alternated at N = 5, two rounds.
#
#   halves_h200_run3.sh DIR    DIR as for halves_h200_run.sh, with cache_final.json; results under $OUT/t.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/t
mkdir -p "$out"
cd "$d"
for f in dgk; do [ -f $f.xz ] && xz -dkf $f.xz; chmod +x $f; done
cp "$d/cache_final.json" "$out/cache_n5.json"
t0=$(date +%s)
DGK_TUNING_CACHE="$out/cache_n5.json" timeout 200 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 5 --elements 196608 --report "$out/tune_n5.json" > "$out/tune_n5.log" 2> "$out/tune_n5_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune_n5.log"
cp "$out/cache_n5.json" "$d/cache_n5.json"
for round in 1 2; do
  for c in final n5; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 5 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
rm -f "$out/tuning.json"
python3 - "$out/tune_n5.json" > "$out/tune_n5_trials.txt" <<'PY'
import json, sys
for o in json.load(open(sys.argv[1]))["orders"]:
    t = sorted((x for x in o["trials"] if "product=merged" in x["tuning"]), key=lambda x: x["seconds"])
    for label, sel in (("at once", [x for x in t if "gather=halves" not in x["tuning"]]),
                       ("halves", [x for x in t if "gather=halves" in x["tuning"]])):
        print(f"maxwell3d N = {o['order']}, stage as one product, {label}: {len(sel)} trials")
        for x in sel[:5]:
            print(f"  {x['seconds']*1e3:.4f}  {x['tuning'].replace('volume+surface+lift+update tensor ', '')}")
    r = sorted(o["trials"], key=lambda x: x["seconds"])
    print("fastest trials of any kind:")
    for x in r[:3]:
        print(f"  {x['seconds']*1e3:.4f}  {x['part']}  {x['tuning']}")
PY
rm -f "$out/tune_n5.json"
tar -cJf "$OUT/t.tar.xz" -C "$OUT" t
cat "$out/tune_n5_trials.txt"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for c in ("final", "n5"):
    for r in (1, 2):
        d = json.load(open(f"{out}/ab_{c}_{r}.json"))
        for k in d["kernels"]:
            if k["kernel"] == "whole stage":
                print(f"5  {c:5}  {r}  {k['seconds']*1e3:8.4f}  {100*k['roofline_fraction']:6.1f}  {k.get('tuning','')}")
PY
