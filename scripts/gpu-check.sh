#!/usr/bin/env bash
# Runs on the GPU machine from the folder made by scripts/pack-cuda.sh: every test executable
# (Serial, OpenMP and Cuda), then the Maxwell benchmark on Cuda. Writes logs and JSON reports to
# $1 (default: ./gpu-results).
#
#   build/cuda-pack/gpu-check.sh [OUTDIR] [ORDERS] [ELEMENTS]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-gpu-results}"
orders="${2:-1..7}"
elements="${3:-196608}"
mkdir -p "$out"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-8}" OMP_PROC_BIND=false
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
status=0
for t in "$here"/test_*; do
  name=$(basename "$t")
  if "$t" >"$out/$name.log" 2>&1; then
    echo "PASS $name: $(grep -E '^\[  PASSED' "$out/$name.log"), $(grep -c 'Cuda' "$out/$name.log" | tr -d ' ') lines naming Cuda"
  else
    echo "FAIL $name"; tail -n 30 "$out/$name.log"; status=1
  fi
done
"$here/dgk" run --backend cuda --report "$out/run_cuda.json" | tee "$out/run_cuda.log"
for precision in double float; do
  "$here/dgk" bench maxwell3d --backend cuda --precision $precision --orders "$orders" --elements "$elements" \
    --report "$out/bench_cuda_$precision.json" | tee "$out/bench_cuda_$precision.log"
done
exit $status
