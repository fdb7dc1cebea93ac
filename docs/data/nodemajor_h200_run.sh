#!/usr/bin/env bash
# The stage as one product on fields stored (element, node, field) on the H200 (double): the
# kernel tests of the build (dgk, test_tet_tuned), then `dgk bench --layouts` twice with the
# tuned cache (cache.json, the file groups_h200_cache.json), N = 1..4: the cache's shape and
# every fused-stage shape compiled in both arrangements, each timed on both.
#
#   nodemajor_h200_run.sh DIR    run from the source tree's root, DIR holding programs.tar.xz
#                                (dgk, test_tet_tuned) and cache.json; results under $OUT/m.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
out=$OUT/m
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz && chmod +x dgk test_tet_tuned
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
(cd "$root" && timeout 200 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*:LaneFragments*' > "$out/test.log" 2>&1)
echo "test rc $? in $(( $(date +%s) - t0 )) s"; grep -E "FAILED|PASSED|Failure" "$out/test.log" | tail -8
for round in 1 2; do
  t0=$(date +%s)
  cp "$d/cache.json" "$out/tuning.json"
  DGK_TUNING_CACHE="$out/tuning.json" timeout 200 ./dgk bench maxwell3d --backend cuda --precision double \
    --orders 1..4 --elements 196608 --kernel tuned --tune never --layouts \
    --report "$out/layouts_$round.json" > "$out/layouts_$round.log" 2>&1
  echo "layouts $round rc $? in $(( $(date +%s) - t0 )) s"
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/m.tar.xz" -C "$OUT" m
grep -h "field layouts" "$out"/layouts_*.log
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
rows = {}
for r in (1, 2):
    d = json.load(open(f"{out}/layouts_{r}.json"))
    for x in d.get("stage_layouts", []):
        rows.setdefault((x["order"], x["shape"]), []).append((x["stage_field_major"], x["stage_node_major"],
                                                              x["max_difference"]))
print("N  field-major ms (r1 / r2)  node-major ms  ratio  max diff  shape (stage as one product and the cache's)")
for (n, shape), v in sorted(rows.items()):
    if "product=merged" not in shape and shape != "cache":
        continue
    fm = " / ".join(f"{a * 1e3:.4f}" for a, _, _ in v)
    nm = " / ".join(f"{b * 1e3:.4f}" for _, b, _ in v)
    ratio = min(b for _, b, _ in v) / min(a for a, _, _ in v)
    print(f"{n}  {fm}  {nm}  {ratio:.3f}  {max(c for _, _, c in v):.1e}  {shape}")
for n in range(1, 5):
    for kind in ("merged", "all"):
        sel = [(k, v) for k, v in rows.items() if k[0] == n and (kind == "all" or "product=merged" in k[1])]
        if not sel:
            continue
        fm = min((min(a for a, _, _ in v), k[1]) for k, v in sel)
        nm = min((min(b for _, b, _ in v), k[1]) for k, v in sel)
        print(f"N = {n} fastest ({kind}): field-major {fm[0] * 1e3:.4f} ms ({fm[1]}); node-major {nm[0] * 1e3:.4f} ms "
              f"({nm[1]}); ratio {nm[0] / fm[0]:.3f}")
PY
