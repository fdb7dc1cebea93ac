#!/usr/bin/env bash
# Runs on the GPU machine from the folder made by scripts/pack-cuda.sh, in the source tree's root
# (some tests read its examples and fuzz regressions): every test executable (Serial, OpenMP and
# Cuda) in the environment ctest gives them, then the default run and the Maxwell benchmark on
# Cuda. Writes logs and JSON reports to $1 (default: ./gpu-results). ORDERS "none" skips the
# benchmark, which tunes each order on first use unless DGK_TUNING_CACHE names a cache; TESTS
# (a pattern, default test_*) picks the test programs.
#
#   build/cuda-pack/gpu-check.sh [OUTDIR] [ORDERS] [ELEMENTS] [TESTS]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-gpu-results}"
orders="${2:-1..7}"
elements="${3:-196608}"
tests="${4:-test_*}"
mkdir -p "$out"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-8}" OMP_PROC_BIND=false
# shellcheck source=gpu-test-env.sh
source "$here/gpu-test-env.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
status=0
for t in "$here"/$tests; do
  name=$(basename "$t")
  start=$SECONDS
  if "${test_env[@]}" "$t" >"$out/$name.log" 2>&1; then
    echo "PASS $name: $(grep -E '^\[  PASSED' "$out/$name.log"), $(grep -c 'Cuda' "$out/$name.log" | tr -d ' ') lines naming Cuda, $((SECONDS - start)) s"
  else
    echo "FAIL $name"; tail -n 30 "$out/$name.log"; status=1
  fi
done
"$here/dgk" run --backend cuda --report "$out/run_cuda.json" | tee "$out/run_cuda.log"
[ "$orders" = none ] && exit $status
for precision in double float; do
  "$here/dgk" bench maxwell3d --backend cuda --precision $precision --orders "$orders" --elements "$elements" \
    --report "$out/bench_cuda_$precision.json" | tee "$out/bench_cuda_$precision.log"
done
exit $status
