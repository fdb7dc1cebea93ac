#!/usr/bin/env bash
# The flux fragments with flux_pad values after each k-step (the gathers' shared-memory stores on
# different banks) on the H200 (double): two CUDA builds of dgk with DGK_MAX_ORDER=6, one without
# the padding (old.tar.xz: the build of facelift_h200_run.sh's second form, whose kernels are the
# tree's where the cache asks for no lift=face), one with it in the lanes' flux fragments and, by
# fluxpad_lift.diff, in the tensor-core lift's (programs.tar.xz). Both with the tree's cache
# (cache_old.json: tree_h200_cache.json), alternated, two rounds, N = 1..6; then Nsight Compute on
# the stage as one product at N = 4 and the fused lift at N = 6 in both.
# With TEST=1 instead: the kernel tests of test_tet_tuned (programs.tar.xz holding it) on the GPU.
#
#   fluxpad_h200_run.sh DIR [OLD]   run from the source tree's root, DIR holding programs.tar.xz
#                             (dgk or test_tet_tuned) and cache_old.json, OLD (default DIR) a
#                             folder holding old/dgk or old.tar.xz; results under $OUT/p.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
old=$(cd "${2:-$1}" && pwd)
out=$OUT/p
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
if [ -n "${TEST:-}" ]; then
  t0=$(date +%s)
  chmod +x test_tet_tuned
  (cd "$root" && timeout 400 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
  echo "test rc $? in $(( $(date +%s) - t0 )) s"
  grep -E "FAILED|PASSED|Failure|did not run" "$out/test.log" | tail -12
  exit 0
fi
[ -x "$old/old/dgk" ] || { mkdir -p "$old/old" && tar -xJf "$old/old.tar.xz" -C "$old/old"; }
for round in 1 2; do
  for b in old pad; do
    exe=./dgk; [ $b = old ] && exe=$old/old/dgk
    cp "$d/cache_old.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 150 $exe bench maxwell3d --backend cuda --precision double \
      --orders 1..6 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${b}_$round.json" > "$out/ab_${b}_$round.log" 2>&1
    echo "$round $b rc $?"
  done
done
m=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum,smsp__inst_executed.sum
for b in old pad; do
  exe=./dgk; [ $b = old ] && exe=$old/old/dgk
  for k in "TagTensorStageMerged 4" "TagTensorLift 6"; do
    set -- $k
    cp "$d/cache_old.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 120 ncu --clock-control none --kernel-name-base demangled \
      --kernel-name regex:$1 --launch-skip 2 --launch-count 1 --metrics "$m" --section SpeedOfLight \
      --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
      $exe bench maxwell3d --backend cuda --precision double --orders $2 --elements 196608 --kernel tuned \
      --tune never --reps 2 > "$out/ncu_${b}_n$2.txt" 2>&1
    echo "ncu $b N = $2 rc $?"
  done
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/p.tar.xz" -C "$OUT" p
python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
for n in (4, 6):
    for b in ("old", "pad"):
        try:
            txt = open(f"{out}/ncu_{b}_n{n}.txt").read()
        except Exception:
            continue
        vals = []
        for key in ("Duration", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
                    "l1tex__data_pipe_lsu_wavefronts.sum", "smsp__inst_executed.sum", "Registers Per Thread",
                    "Warp Cycles Per Issued Instruction"):
            v = [l.split()[-1] for l in txt.splitlines() if l.strip().startswith(key + " ")]
            vals.append(f"{key.split('.')[0].replace('l1tex__data_', '')}={v[-1] if v else '-'}")
        print(f"ncu N={n} {b}: " + " ".join(vals))
rows = {}
for b in ("old", "pad"):
    for r in (1, 2):
        try:
            d = json.load(open(f"{out}/ab_{b}_{r}.json"))
        except Exception as e:
            print(b, r, "no report", e)
            continue
        for k in d["kernels"]:
            key = (k.get("order"), k["kernel"])
            rows.setdefault(key, {}).setdefault(b, []).append(f"{k['seconds'] * 1e3:.4f}/{100 * k['roofline_fraction']:.1f}")
print("N kernel                     " + "  ".join(f"{c:>17}" for c in ("old", "pad")))
for (n, k), v in sorted(rows.items(), key=lambda x: (x[0][0] or 0, x[0][1])):
    print(f"{n} {k:26} " + "  ".join(" ".join(v.get(c, [])).rjust(17) for c in ("old", "pad")))
PY
