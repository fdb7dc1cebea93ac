#!/usr/bin/env bash
# The L1's work per global load of the fused lift at N = 6 on the H200 (double): requests,
# sectors and wavefronts of its global loads, Nsight Compute on the third launch, with the tree's
# cache (cache_old.json: tree_h200_cache.json) and with lift=face in the fused lift's entry, in
# the build of facelift_h200_run.sh with facelift_ahead.diff (the second form).
#
#   facelift_h200_wavefronts.sh DIR   DIR as for facelift_h200_run.sh; results under $OUT/w.
set -uo pipefail
d=$(cd "$1" && pwd)
out=$OUT/w
mkdir -p "$out"
cd "$d"
[ -x dgk ] || tar -xJf programs.tar.xz
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
m=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum,l1tex__data_pipe_lsu_wavefronts.sum
m=$m,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_elapsed
for c in old face; do
  cp "$d/cache_$c.json" "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 120 ncu --clock-control none --kernel-name-base demangled \
    --kernel-name regex:TagTensorLift --launch-skip 2 --launch-count 1 --metrics "$m" \
    --section MemoryWorkloadAnalysis_Tables --print-details all \
    ./dgk bench maxwell3d --backend cuda --precision double --orders 6 --elements 196608 --kernel tuned \
    --tune never --reps 2 > "$out/ncu_$c.txt" 2>&1
  echo "ncu $c rc $?"
  grep -E "l1tex__|Global Load|Wavefronts|Sectors/Req" "$out/ncu_$c.txt" | head -20
done
rm -f "$out/tuning.json"
