#!/usr/bin/env bash
# The N = 6 fused lift (gather + lift + RK update, double) asking the cache for the update's
# operands while the lift's products run: an experimental build whose fused lift reads a mask
# from DGK_LIFT_PREFETCH (bits 1 rhs, 2 res, 4 q; 8: ask at the group's start, before the gather,
# else after the gather's barrier; 16: the L2 instead of the L1; 0: as the tree). Kernel tests of
# the build with masks 7 and 31, then the bench at N = 6 for each (cache, mask) of CACHES x MASKS,
# alternated, ROUNDS rounds. With OLD set, instead the dgk of the directory OLD (the build to
# compare with: the experimental build, or the tree before a change) at each mask of OLD_MASKS,
# and DIR's build once per cache and round, named "new". ORDERS (default 6): the
# orders benched, comma-separated (e.g. 4,5,6).
#
#   lift_prefetch_run.sh DIR
#     run from the source tree's root, DIR holding programs.tar.xz (dgk and test_tet_tuned) and the
#     tuning caches named by CACHES (default: cache), as DIR/NAME.json; results under $OUT/a and in
#     $OUT/a.tar.xz.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
masks=${MASKS:-"0 2 6 7 15 23 31"}
caches=${CACHES:-cache}
out=$OUT/a
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
configs=""
for m in $masks; do configs="$configs ./dgk:$m:m$m"; done
if [ -n "${OLD:-}" ]; then
  configs=""
  for m in ${OLD_MASKS:-0 7}; do configs="$configs $OLD/dgk:$m:m$m"; done
  configs="$configs ./dgk:0:new"
  masks="${OLD_MASKS:-0 7} new"
fi
for m in ${TEST_MASKS:-7 31}; do
  t0=$(date +%s)
  (cd "$root" && DGK_LIFT_PREFETCH=$m timeout 200 "$d/test_tet_tuned" \
    --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test_m$m.log" 2>&1)
  echo "test mask $m rc $? in $(( $(date +%s) - t0 )) s"
  grep -E "FAILED|PASSED|Failure" "$out/test_m$m.log" | tail -4
done
for round in $(seq 1 "${ROUNDS:-3}"); do
  for c in $caches; do
    for x in $configs; do
      exe=${x%%:*}; m=${x#*:}; m=${m%%:*}; label=${x##*:}
      cp "$c.json" "$out/tuning.json"
      t0=$(date +%s)
      DGK_LIFT_PREFETCH=$m DGK_TUNING_CACHE="$out/tuning.json" timeout 90 $exe bench maxwell3d --backend cuda \
        --precision double --orders "${ORDERS:-6}" --elements 196608 --kernel tuned --tune never \
        --report "$out/${c}_${label}_$round.json" > "$out/${c}_${label}_$round.log" 2>&1
      echo "$round $c $label rc $? in $(( $(date +%s) - t0 )) s"
    done
  done
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/a.tar.xz" -C "$OUT" a
for c in $caches; do grep -h "tuned kernels" "$out/${c}_"*_1.log | sort -u | cut -c1-220; done
python3 - "$out" "$caches" "$masks" "${ORDERS:-6}" <<'PY'
import json, statistics, sys
out, caches, masks = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
orders = [int(o) for o in sys.argv[4].split(",")]
for c in caches:
  for n in orders:
    for kernel in ("surface+lift+update", "whole stage"):
        for m in masks:
            t = []
            for r in range(1, 9):
                try:
                    d = json.load(open(f"{out}/{c}_{m if m == 'new' else 'm' + m}_{r}.json"))
                except Exception:
                    continue
                t += [(k["seconds"] * 1e3, 100 * k["roofline_fraction"]) for k in d["kernels"]
                      if k["kernel"] == kernel and k["order"] == n]
            if t:
                print(f"{c} N={n} {kernel:>20} {m:>3}: " + "  ".join(f"{a:.4f}/{b:.1f}" for a, b in t) +
                      f"   median {statistics.median(a for a, _ in t):.4f}")
PY
