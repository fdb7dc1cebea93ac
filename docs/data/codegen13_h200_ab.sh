#!/usr/bin/env bash
# Alternates two builds of one tree, device code by nvcc 11.8's ptxas (dgk_nvcc118) and by the
# ptxas of CUDA 13.0 (dgk_cuda13), over two tuning caches (tuned with each: cache118.json is
# retune_h200_cache.json, cache13.json is codegen13_h200_cache.json): whole Maxwell stages in
# double, N = 1..9, two rounds.
#
#   codegen13_h200_ab.sh DIR OUTDIR     (DIR holds the two programs and the two caches)
set -euo pipefail
dir=$1 out=$2
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
for round in 1 2; do
  for b in nvcc118 cuda13; do
    for c in cache118 cache13; do
      cp "$dir/$c.json" "$out/tuning.json"
      DGK_TUNING_CACHE="$out/tuning.json" "$dir/dgk_$b" bench maxwell3d --backend cuda --precision double \
        --orders 1..9 --elements 196608 --kernel tuned --tune never \
        --report "$out/codegen13_h200_ab_${b}_${c}_$round.json" > "$out/codegen13_h200_ab_${b}_${c}_$round.log" 2>&1
      echo "$round $b $c done"
    done
  done
done
