#!/usr/bin/env bash
# Density L2 errors and orders of the supersonic vortex (paper 004, section 4.1 and table 2):
# orders 1..4 on four nested meshes, A = the quarter annulus meshed by Gmsh with edge length 0.1
# (188 triangles), B..D = A split into four 1..3 times (midpoints on the curved walls). Each run
# starts from the projected exact solution and goes to t = 1, when the error has settled to
# 0.1%. Prints a Markdown table; writes the JSON reports under the given folder, and reuses those
# already there (a run can be resumed, or extended by more orders and levels).
#   scripts/euler2d_supersonic_table.sh BUILD_DIR OUT_DIR [orders] [levels] [mesh]
# mesh: mesh A's --mesh spec (default gmsh:0.1); rect:5,18 is the built-in annulus with the
# paper's element counts (180 .. 11,520), for builds without Gmsh. The runs use BUILD_DIR/bin/dgk,
# or the lean BUILD_DIR/bin/dgk-euler2d where that is the only program (the CUDA build).
# With DGK_TABLE_ONLY set, nothing runs: the table of the reports already there.
set -euo pipefail
build=${1:?build folder}
out=${2:?output folder}
orders=${3:-"1 2 3 4"}
levels=${4:-"0 1 2 3"}
mesh=${5:-gmsh:0.1}
mkdir -p "$out"
if [[ -x "$build/bin/dgk" ]]; then
  program=("$build/bin/dgk" run euler2d --quiet)
else
  program=("$build/bin/dgk-euler2d" run)
fi
for p in $orders; do
  for r in $levels; do
    [[ -s "$out/supersonic_p${p}_r${r}.json" || -n "${DGK_TABLE_ONLY:-}" ]] && continue
    "${program[@]}" --problem supersonic-vortex --mesh "$mesh" --refine "$r" --order "$p" \
      --final-time 1 --report "$out/supersonic_p${p}_r${r}.json" > /dev/null
  done
done
python3 - "$out" "$orders" "$levels" <<'PY'
import json, math, sys
out, orders, levels = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
print("| mesh | elements | " + " | ".join(f"p = {p} error | r" for p in orders) + " |")
print("| --- | --- | " + " | ".join("--- | ---" for _ in orders) + " |")
prev = {}
for r in levels:
    row, elements = [], None
    for p in orders:
        try:
            d = json.load(open(f"{out}/supersonic_p{p}_r{r}.json"))
        except FileNotFoundError:
            row.append("not run | -")
            continue
        e, elements = d["l2_error_rho"], d["elements"]
        rate = "-" if p not in prev else f"{math.log2(prev[p] / e):.3f}"
        prev[p] = e
        row.append(f"{e:.3e} | {rate}")
    print(f"| {'ABCD'[int(r)]} | {elements} | " + " | ".join(row) + " |")
PY
