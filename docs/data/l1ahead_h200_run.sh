#!/usr/bin/env bash
# The stage as one product asking the L1 for its group's res ahead of its update (resahead=P) and
# for its q at the group's start (qahead) on the H200 (double), Maxwell at N = 3 and 4: the kernel
# tests of the new build, then the tree's build (old.tar.xz) with the tree's cache (cache_old.json:
# tree_h200_cache.json) against the new build with that cache and with copies of it whose entries
# of N = 3 and 4 ask for res P phases ahead and/or for q, alternated, two rounds.
#
#   l1ahead_h200_run.sh DIR [CONFIGS]
#     run from the source tree's root, DIR holding programs.tar.xz (dgk, and test_tet_tuned for the
#     tests), old.tar.xz (the tree's dgk; for config old only) and cache_old.json; CONFIGS (default
#     all) among old new r1 r2 r3 q r1q r2q, ROUNDS (default 2) rounds of them at ORDERS (default
#     3..4); with NCU="C ..."
#     also Nsight Compute's warp-state samples per SASS instruction of the stage at N = 4 for those
#     configs (source page as CSV, sass_phases.py sums them by phase); results under $OUT/a and in
#     $OUT/a.tar.xz.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
configs=${2:-"old new r1 r2 r3 q r1q r2q"}
out=$OUT/a
mkdir -p "$out" "$d/old"
cd "$d"
tar -xJf programs.tar.xz
[ -f old.tar.xz ] && tar -xJf old.tar.xz -C old
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
if [ -f test_tet_tuned ]; then
  t0=$(date +%s)
  (cd "$root" && timeout 300 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
  echo "test rc $? in $(( $(date +%s) - t0 )) s"
  grep -E "FAILED|PASSED|Failure" "$out/test.log" | tail -6
fi
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for name, ahead, q in (("r1", 1, False), ("r2", 2, False), ("r3", 3, False), ("q", 0, True), ("r1q", 1, True),
                       ("r2q", 2, True)):
    cache = json.load(open("cache_old.json"))
    for e in cache["entries"]:
        k = e["key"]
        if k["order"] in (3, 4) and k["physics"] == "maxwell3d" and k["precision"] == "double":
            e["choice"]["volume_shape"]["res_ahead"] = ahead
            e["choice"]["volume_shape"]["q_ahead"] = q
    json.dump(cache, open(f"{out}/cache_{name}.json", "w"), indent=1)
PY
for round in $(seq 1 "${ROUNDS:-2}"); do
  for c in $configs; do
    exe=./dgk; src=$out/cache_$c.json
    [ $c = old ] && exe=./old/dgk
    { [ $c = old ] || [ $c = new ]; } && src=cache_old.json
    cp "$src" "$out/tuning.json"
    t0=$(date +%s)
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 $exe bench maxwell3d --backend cuda --precision double \
      --orders "${ORDERS:-3..4}" --elements 196608 --kernel tuned --tune never --report "$out/ab_${c}_$round.json" \
      > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $? in $(( $(date +%s) - t0 )) s"
  done
done
for c in ${NCU:-}; do
  exe=./dgk; src=$out/cache_$c.json
  [ $c = old ] && exe=./old/dgk
  { [ $c = old ] || [ $c = new ]; } && src=cache_old.json
  cp "$src" "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 200 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --section WarpStateStats \
    --section SourceCounters --section LaunchStats --section SpeedOfLight --import-source no -o "$out/ncu_$c" \
    $exe bench maxwell3d --backend cuda --precision double --orders 4 --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/ncu_$c.log" 2>&1
  echo "ncu $c rc $?"
  ncu -i "$out/ncu_$c.ncu-rep" --page source --csv --print-source sass > "$out/sass_$c.csv" 2>&1
  ncu -i "$out/ncu_$c.ncu-rep" --page details > "$out/details_$c.txt" 2>&1
  xz -9 "$out/sass_$c.csv"
  python3 "$root/docs/data/sass_phases.py" "$out/sass_$c.csv.xz"
  grep -E "Duration|Registers Per|Warp Cycles Per Issued" "$out/details_$c.txt"
  rm -f "$out/ncu_$c.ncu-rep"
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/a.tar.xz" -C "$OUT" a
grep -h "tuned kernels" "$out"/ab_*_1.log | sort -u | cut -c1-220
python3 - "$out" "$configs" <<'PY'
import json, sys
out, configs = sys.argv[1], sys.argv[2].split()
rows = {}
for c in configs:
    for r in range(1, 9):
        try:
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
        except Exception:
            continue
        for k in d["kernels"]:
            if k["kernel"] in ("whole stage", "surface+lift+update"):
                rows.setdefault((k["order"], k["kernel"]), {}).setdefault(c, []).append(
                    f"{k['seconds'] * 1e3:.4f}/{100 * k['roofline_fraction']:.1f}")
for (n, kernel), v in sorted(rows.items()):
    for c in configs:
        print(f"N = {n} {kernel} {c:>4}: " + "  ".join(v.get(c, [])))
PY
