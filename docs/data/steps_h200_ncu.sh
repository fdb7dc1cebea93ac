#!/usr/bin/env bash
# Nsight Compute on the stage as one product with gather=steps at N = 3 and 4: the previous cache's
# shapes (cache_flip.json: paired, under the caps of 128 and 168) and the same uncapped
# (cache_flip0.json; the files steps_h200_cache_flip*.json), with their whole stages after those of
# cache_old.json (merged_h200_cache.json), one round. DIR holds dgk and the caches; results under
# $OUT/r2.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/r2
mkdir -p "$out"
cd "$d"
for f in dgk; do [ -f $f.xz ] && xz -dkf $f.xz; chmod +x $f; done
for c in old flip flip0; do
  cp "$d/cache_$c.json" "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
    --orders 3..4 --elements 196608 --kernel tuned --tune never --report "$out/ab_$c.json" > "$out/ab_$c.log" 2>&1
  echo "bench $c rc $?"
  [ $c = old ] && continue
  for n in 3 4; do
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ncu --clock-control none --kernel-name-base demangled \
      --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section SpeedOfLight \
      --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
      --section SchedulerStats --section ComputeWorkloadAnalysis \
      ./dgk bench maxwell3d --backend cuda --precision double --orders $n --elements 196608 --kernel tuned \
      --tune never --reps 2 > "$out/ncu_${c}_n$n.txt" 2>&1
    echo "ncu $c $n rc $?"
  done
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/r2.tar.xz" -C "$OUT" r2
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for c in ("old", "flip", "flip0"):
    d = json.load(open(f"{out}/ab_{c}.json"))
    for k in d["kernels"]:
        if k["kernel"] == "whole stage":
            print(f"{k['order']}  {c:6} {k['seconds']*1e3:8.4f} ms  {100*k['roofline_fraction']:5.1f}%  {k.get('tuning','')}")
PY
