#!/usr/bin/env bash
# Runs on the GPU machine: tunes the nodal Maxwell kernels for every order in one precision
# (dgk tune), then times the straightforward and the tuned kernels side by side with the
# measured ceilings (dgk bench; the tuned run also times the plain CUDA reference of its volume
# kernel, in double). The tuning cache is $DGK_TUNING_CACHE (default: OUTDIR/tuning.json); logs
# and JSON reports go to OUTDIR.
#
#   gpu-tune.sh DGK OUTDIR PRECISION [ORDERS] [ELEMENTS] [STEPS]
#   STEPS: tune,bench (default both)
set -euo pipefail
dgk=$1 out=$2 precision=$3
orders="${4:-1..9}"
elements="${5:-196608}"
steps="${6:-tune,bench}"
mkdir -p "$out"
export DGK_TUNING_CACHE="${DGK_TUNING_CACHE:-$out/tuning.json}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
if [[ $steps == *tune* ]]; then
  "$dgk" tune maxwell3d --backend cuda --precision "$precision" --orders "$orders" --elements "$elements" \
    --report "$out/tune_$precision.json" 2>"$out/tune_$precision.err" | tee "$out/tune_$precision.log"
fi
if [[ $steps == *bench* ]]; then
  for kernel in thread tuned; do
    "$dgk" bench maxwell3d --backend cuda --precision "$precision" --orders "$orders" --elements "$elements" \
      --kernel "$kernel" --tune never --report "$out/bench_${kernel}_$precision.json" | tee "$out/bench_${kernel}_$precision.log"
  done
fi
