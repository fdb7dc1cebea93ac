#!/usr/bin/env bash
# The tuned stages on box:32 in the generator's order and along the Morton curve (--reorder sfc)
# on the H200 (double), with the build of section "Six or twelve column tiles per warp in the
# tensor-core lift": the previous cache (cache_old.json, the file coltiles_h200_cache_old.json)
# in both orders, alternated, two rounds, N = 3..6; then Maxwell tuned at N = 3 and 4 on the
# reordered mesh into a copy of it (cache_sfc.json), and that cache on the reordered mesh, two
# rounds.
#
#   sfc_h200_run.sh DIR    run from the source tree's root, DIR holding programs.tar.xz (dgk) and
#                          cache_old.json; results under $OUT/s.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/s
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz dgk && chmod +x dgk
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
bench() {  # cache order name
  cp "$d/$1" "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
    --orders 3..6 --elements 196608 --kernel tuned --tune never --reorder "$2" \
    --report "$out/$3.json" > "$out/$3.log" 2>&1
  echo "$3 rc $?"
}
for round in 1 2; do
  bench cache_old.json none "old_none_$round"
  bench cache_old.json sfc "old_sfc_$round"
done
cp "$d/cache_old.json" "$out/cache_sfc.json"
t0=$(date +%s)
DGK_TUNING_CACHE="$out/cache_sfc.json" timeout 240 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 3..4 --elements 196608 --reorder sfc --report "$out/tune_sfc.json" > "$out/tune_sfc.log" \
  2> "$out/tune_sfc_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune_sfc.log"
cp "$out/cache_sfc.json" "$d/cache_sfc.json"
for round in 1 2; do
  bench cache_sfc.json sfc "tuned_sfc_$round"
  bench cache_old.json none "again_none_$round"
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/s.tar.xz" -C "$OUT" s
python3 - "$out" <<'PY'
import json, sys, glob, os
out = sys.argv[1]
print("run  N  whole ms  % bound  copy GB/s  neighbours  tuning")
for f in sorted(glob.glob(f"{out}/*_[12].json")):
    d = json.load(open(f))
    for k in d["kernels"]:
        if k["kernel"] == "whole stage":
            t = k.get("tuning", "").replace("volume+surface+lift+update tensor ", "")[:60]
            print(f"{os.path.basename(f)[:-5]:14} {k['order']}  {k['seconds']*1e3:8.4f}  "
                  f"{100*k['roofline_fraction']:6.1f}  {d['copy_gbytes_per_s']:.0f}  "
                  f"{d['mean_neighbour_distance']:.0f}  {t}")
PY
