#!/usr/bin/env bash
# The plot scripts on the program's own outputs: a convergence report, a benchmark report and
# a visualization output file become PNG pictures.
#   plots_from_program.sh DGK_PROGRAM WORKDIR
set -euo pipefail
dgk="$1"
work="$2"
plots="$(cd "$(dirname "$0")/../../scripts/plots" && pwd)"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export OMP_NUM_THREADS=2 OMP_PROC_BIND=false
"$dgk" convergence maxwell3d --orders 1..2 --meshes 2 --start 1 --backend serial --report conv.json >/dev/null
"$dgk" bench maxwell3d --orders 1..2 --elements 48 --reps 3 --backend serial --report bench.json >/dev/null
"$dgk" run --mesh box:2 --order 2 --initial pulse:0.5,0.5,0.5,0.2 --final-time 0.1 --output out.h5 --quiet \
  --backend serial >/dev/null
/usr/bin/python3 "$plots/convergence.py" conv.json -o conv.png
/usr/bin/python3 "$plots/roofline.py" bench.json -o roofline.png
/usr/bin/python3 "$plots/field.py" out.h5 --field Ez --slice z=0.5 -o slice.png
for f in conv.png roofline.png slice.png; do
  size=$(stat -c %s "$f")
  if [ "$size" -lt 20000 ]; then
    echo "plots_from_program: $f is only $size bytes" >&2
    exit 1
  fi
done
echo "pictures: conv.png roofline.png slice.png"
