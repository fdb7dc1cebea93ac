#!/usr/bin/env bash
# The stage as one product with its operators in team scratch and its flux gathered in two halves
# (staged=operator gather=halves) on the H200 (double), Maxwell at N = 3 and 4: the kernel tests
# of the new build, a tuning run into a copy of the tree's cache (cache_old.json:
# tree_h200_cache.json), then the tree's build with that cache against the new build with the
# tuned cache and with the fastest staged=operator shape, alternated, two rounds; then Nsight
# Compute on the fastest staged=operator shape at N = 4 and on the tree's choice there.
#
#   opshalves_h200_run.sh DIR [OLD [all|ab|ncu]]
#     run from the source tree's root, DIR holding programs.tar.xz (dgk, test_tet_tuned) and
#     cache_old.json; OLD a folder holding the tree's dgk, or old.tar.xz with it (default: DIR,
#     the new build, whose kernels of the tree's choices are the tree's); results under $OUT/o
#     and in $OUT/o.tar.xz. With ab, all but Nsight Compute; with ncu, only it, DIR then holding the
#     cache_ops.json of an earlier run.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
old=$(cd "${2:-$1}" && pwd)
part=${3:-all}
out=$OUT/o
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz
[ -x "$old/dgk" ] || tar -xJf "$old/old.tar.xz" -C "$old"
if [ "$part" = ncu ]; then cp cache_ops.json "$out/"; else
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 300 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"
grep -E "FAILED|PASSED|Failure" "$out/test.log" | tail -6
cp cache_old.json "$out/cache_tuned.json"
t0=$(date +%s)
DGK_TUNING_CACHE="$out/cache_tuned.json" timeout 420 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 3..4 --elements 196608 --report "$out/tune.json" > "$out/tune.log" 2> "$out/tune_search.log"
echo "tune rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune.log"
# The fastest staged=operator trial of each order as a cache of its own (the tree's entries
# otherwise): its warps, groups in sequence and cap read from the trial's words.
python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
rep = json.load(open(f"{out}/tune.json"))
cache = json.load(open("cache_old.json"))
for o in rep["orders"]:
    ops = [t for t in o["trials"] if "staged=operator" in t["tuning"] and "product=merged" in t["tuning"]]
    if not ops:
        continue
    best = min(ops, key=lambda t: t["seconds"])
    print(f"N = {o['order']}: fastest staged=operator {best['seconds'] * 1e3:.4f} ms: {best['tuning']}")
    w = best["tuning"]
    for e in cache["entries"]:
        k = e["key"]
        if k["order"] == o["order"] and k["physics"] == "maxwell3d" and k["precision"] == "double":
            v = e["choice"]["volume_shape"]
            v["staged"] = "operator"
            v["warps"] = int(re.search(r"warps=(\d+)", w).group(1))
            v["ws"] = int(re.search(r"ws=(\d+)", w).group(1))
            m = re.search(r"regs<=(\d+)", w)
            v["max_registers"] = int(m.group(1)) if m else 0
            v["paired_tiles"] = v["gather_halves"] = v["merged_product"] = True
            v["volume_unroll"] = 0
            v["resident_teams"] = 0
            e["summary"] = w
json.dump(cache, open(f"{out}/cache_ops.json", "w"), indent=1)
PY
for round in 1 2; do
  for c in old tuned ops; do
    exe=./dgk; src=$out/cache_$c.json
    [ $c = old ] && { exe=$old/dgk; src=cache_old.json; }
    cp "$src" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 $exe bench maxwell3d --backend cuda --precision double \
      --orders 3..4 --elements 196608 --kernel tuned --tune never --report "$out/ab_${c}_$round.json" \
      > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
fi
if [ "$part" != ab ]; then
m=l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m=$m,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
for c in old ops; do
  exe=./dgk; src=$out/cache_ops.json
  [ $c = old ] && { exe=$old/dgk; src=cache_old.json; }
  cp "$src" "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 120 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorStageMerged --launch-skip 2 --launch-count 1 --metrics "$m" --section SpeedOfLight \
    --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
    $exe bench maxwell3d --backend cuda --precision double --orders 4 --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/ncu_${c}_n4.txt" 2>&1
  echo "ncu $c rc $?"
done
fi
rm -f "$out/tuning.json"
tar -cJf "$OUT/o.tar.xz" -C "$OUT" o
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for c in ("old", "ops"):
    try:
        txt = open(f"{out}/ncu_{c}_n4.txt").read()
    except Exception:
        continue
    vals = []
    for key in ("Duration", "Registers Per Thread", "Theoretical Active Warps per SM", "Shared Memory Configuration Size",
                "l1tex__t_sector_hit_rate.pct", "lts__t_sectors_srcunit_tex_op_read.sum",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "smsp__inst_executed.sum", "L2 Cache Throughput",
                "Warp Cycles Per Issued Instruction"):
        v = [l.split()[-1] for l in txt.splitlines() if l.strip().startswith(key + " ")]
        vals.append(f"{key.split('.')[0]}={v[-1] if v else '-'}")
    print(f"ncu N=4 {c}: " + " ".join(vals))
rows = {}
for c in ("old", "tuned", "ops"):
    for r in (1, 2):
        try:
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
        except Exception as e:
            print(c, r, "no report", e)
            continue
        for k in d["kernels"]:
            if k["kernel"] == "whole stage":
                rows.setdefault(k["order"], {}).setdefault(c, []).append(
                    f"{k['seconds'] * 1e3:.4f}/{100 * k['roofline_fraction']:.1f}")
print("N  " + "  ".join(f"{c:>27}" for c in ("old", "tuned", "ops")))
for n, v in sorted(rows.items()):
    print(f"{n}  " + "  ".join(" ".join(v.get(c, [])).rjust(27) for c in ("old", "tuned", "ops")))
PY
