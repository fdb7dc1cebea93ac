#!/usr/bin/env bash
# The stage as one product and the fused tensor-core lift asking the L2 for the values of the
# group D elements ahead (l2ahead=D) on the H200 (double): the kernel tests of the build (dgk,
# test_tet_tuned, DGK_MAX_ORDER=6); the cache of the tree (cache_old.json: tree_h200_cache.json)
# against copies of it with l2ahead=D set in the stage as one product's entries (N = 1..5) and
# the fused lift's (N = 6), alternated, two rounds, N = 1..6; then Maxwell tuned at N = 3, 4 and
# 6 into a copy of the tree's cache (the orders in TUNE_ORDERS, none where it is unset; with
# SKIP_AB=1 the alternated benches are skipped).
#
#   l2ahead_h200_run.sh DIR D...  run from the source tree's root, DIR holding programs.tar.xz (dgk,
#                                 test_tet_tuned) and cache_old.json; results under $OUT/c.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
shift
out=$OUT/c
mkdir -p "$out"
cd "$d"
tar -xJf programs.tar.xz && chmod +x dgk
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
[ -f test_tet_tuned ] && (cd "$root" && chmod +x "$d/test_tet_tuned" && timeout 240 "$d/test_tet_tuned" --gtest_filter='TunedKernels/Cuda.*' > "$out/test.log" 2>&1)
[ -f test_tet_tuned ] && echo "test rc $? in $(( $(date +%s) - t0 )) s"; grep -E "FAILED|PASSED|Failure|did not run" "$out/test.log" | tail -8
caches=(old)
for a in "$@"; do
  python3 - "$d/cache_old.json" "$d/cache_$a.json" "$a" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
for e in c["entries"]:
    ch = e["choice"]
    if e["key"]["precision"] != "double" or e["key"]["order"] > 6:
        continue
    if ch["volume_shape"].get("merged_product"):
        ch["volume_shape"]["l2_ahead"] = int(sys.argv[3])
    elif ch["lift"] == "tensor" and ch["mode"] in ("fused-lift", "fused-update"):
        ch["lift_shape"]["l2_ahead"] = int(sys.argv[3])
    else:
        continue
    e["summary"] += f" l2ahead={sys.argv[3]}"
json.dump(c, open(sys.argv[2], "w"), indent=1)
PY
  caches+=("$a")
done
for round in 1 2; do
  [ -n "${SKIP_AB:-}" ] && break
  for c in "${caches[@]}"; do
    cp "$d/cache_$c.json" "$out/tuning.json"
    DGK_TUNING_CACHE="$out/tuning.json" timeout 90 ./dgk bench maxwell3d --backend cuda --precision double \
      --orders 1..6 --elements 196608 --kernel tuned --tune never \
      --report "$out/ab_${c}_$round.json" > "$out/ab_${c}_$round.log" 2>&1
    echo "$round $c rc $?"
  done
done
rm -f "$out/tuning.json"
cp "$d/cache_old.json" "$out/cache_tuned.json"
t0=$(date +%s)
for n in ${TUNE_ORDERS:-}; do
  DGK_TUNING_CACHE="$out/cache_tuned.json" timeout 150 ./dgk tune maxwell3d --backend cuda --precision double \
    --orders $n --elements 196608 --report "$out/tune_$n.json" > "$out/tune_$n.log" 2> "$out/tune_search_$n.log"
  echo "tune N = $n rc $? at $(( $(date +%s) - t0 )) s"; cat "$out/tune_$n.log"
done
python3 - "$out" > "$out/tune_trials.txt" <<'PY'
import json, sys
for n in (3, 4, 6):
    try:
        o = json.load(open(f"{sys.argv[1]}/tune_{n}.json"))["orders"][0]
    except Exception as e:
        print(n, "no report", e)
        continue
    xs = sorted(o["trials"], key=lambda x: x["seconds"])
    for p in sorted({x["part"] for x in xs}):
        ys = [x for x in xs if x["part"] == p]
        ahead = [x for x in ys if "l2ahead" in x["tuning"]]
        print(f"N = {n} {p}: {len(ys)} timed, {len(ahead)} with l2ahead")
        for name, zs in (("l2", ahead), ("all", ys)):
            for x in zs[:4]:
                print(f"  {name:3} {x['seconds'] * 1e3:.4f} ms  {x['tuning'].split('; ')[-1]}")
PY
cat "$out/tune_trials.txt"
tar -cJf "$OUT/c.tar.xz" -C "$OUT" c
python3 - "$out" "${caches[@]}" <<'PY'
import json, sys
out, caches = sys.argv[1], sys.argv[2:]
t = {}
for c in caches:
    for r in (1, 2):
        try:
            d = json.load(open(f"{out}/ab_{c}_{r}.json"))
        except Exception as e:
            print(c, r, "no report", e)
            continue
        for k in d["kernels"]:
            if k["kernel"] == "whole stage":
                t.setdefault(k["order"], {}).setdefault(c, []).append((k["seconds"] * 1e3, 100 * k["roofline_fraction"]))
print("N  " + "  ".join(f"{c:>22}" for c in caches))
for n in sorted(t):
    print(f"{n}  " + "  ".join(" ".join(f"{ms:.4f}/{p:.1f}" for ms, p in t[n].get(c, [])).rjust(22) for c in caches))
PY
