#!/usr/bin/env bash
# The tensor-core lift reading LIFT by face symmetry (lift=face) on the H200 (double), in a build
# of dgk with DGK_MAX_ORDER=6 and facelift.diff applied (facelift_h200_* outputs), then with
# facelift_ahead.diff on top (facelift_ahead_h200_*): the cache of the tree (cache_old.json:
# tree_h200_cache.json) against a copy with lift=face in the fused lift's entry (N = 6),
# alternated, two rounds; Nsight Compute on that lift in both; then Maxwell tuned at N = 6 into a
# copy of the tree's cache. With TEST=1 instead: the kernel tests of test_tet_tuned (same build)
# on the GPU, nothing else.
#
#   facelift_h200_run.sh DIR   run from the source tree's root, DIR holding programs.tar.xz (dgk
#                              or test_tet_tuned) and cache_old.json; results under $OUT/f.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
out=$OUT/f
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
if [ -n "${TEST:-}" ]; then
  t0=$(date +%s)
  chmod +x test_tet_tuned
  (cd "$root" && timeout 400 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*' > "$out/test.log" 2>&1)
  echo "test rc $? in $(( $(date +%s) - t0 )) s"
  grep -E "FAILED|PASSED|Failure|did not run|ran [0-9]+ times|face" "$out/test.log" | tail -12
  exit 0
fi
chmod +x dgk
python3 - "$d/cache_old.json" "$d/cache_face.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
for e in c["entries"]:
    ch = e["choice"]
    if e["key"]["precision"] == "double" and e["key"]["order"] == 6 and ch["lift"] == "tensor":
        ch["lift_shape"]["face_lift"] = True
        e["summary"] += " lift=face"
json.dump(c, open(sys.argv[2], "w"), indent=1)
PY
for round in 1 2; do
  for c in old face; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 6 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
for c in old face; do
  cp "$d/cache_$c.json" "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorLift --launch-skip 2 --launch-count 1 --section SpeedOfLight \
    --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
    --section SchedulerStats \
    --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
    ./dgk bench maxwell3d --backend cuda --precision double --orders 6 --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/ncu_$c.txt" 2>&1
  echo "ncu $c rc $?"
done
rm -f "$out/tuning.json"
cp "$d/cache_old.json" "$out/cache_tuned.json"
t0=$(date +%s)
DGK_TUNING_CACHE="$out/cache_tuned.json" timeout 240 ./dgk tune maxwell3d --backend cuda --precision double \
  --orders 6 --elements 196608 --report "$out/tune_6.json" > "$out/tune_6.log" 2> "$out/tune_search_6.log"
echo "tune N = 6 rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/tune_6.log"
tar -cJf "$OUT/f.tar.xz" -C "$OUT" f
python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
try:
    o = json.load(open(f"{out}/tune_6.json"))["orders"][0]
    xs = sorted([x for x in o["trials"] if x["part"] != "volume"], key=lambda x: x["seconds"])
    face = [x for x in xs if "lift=face" in x["tuning"]]
    print(f"tune: {len(xs)} lift or stage trials, {len(face)} with lift=face")
    for name, zs in (("face", face), ("all", xs)):
        for x in zs[:5]:
            print(f"  {name:4} {x['part']:8} {x['seconds'] * 1e3:.4f} ms  {x['tuning'].split('; ')[-1]}")
except Exception as e:
    print("tune: no report", e)
for c in ("old", "face"):
    try:
        txt = open(f"{out}/ncu_{c}.txt").read()
    except Exception:
        continue
    for m in ("Duration", "l1tex__t_sector_hit_rate.pct", "lts__t_sectors_srcunit_tex_op_read.sum", "L2 Hit Rate",
              "Memory Throughput", "dram__bytes_read.sum", "Registers Per Thread", "Achieved Occupancy",
              "smsp__inst_executed.sum"):
        v = re.findall(rf"{re.escape(m)}\s+(\S+)\s+(\S+)", txt)
        print(f"ncu {c:4} {m}: {v[-1] if v else '-'}")
print("kernel                     " + "  ".join(f"{c:>17}" for c in ("old", "face")))
rows = {}
for c in ("old", "face"):
    for r in (1, 2):
        try:
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
        except Exception as e:
            print(c, r, "no report", e)
            continue
        for k in d["kernels"]:
            rows.setdefault(k["kernel"], {}).setdefault(c, []).append(f"{k['seconds'] * 1e3:.4f}/{100 * k['roofline_fraction']:.1f}")
for k, v in rows.items():
    print(f"{k:26} " + "  ".join(" ".join(v.get(c, [])).rjust(17) for c in ("old", "face")))
PY
