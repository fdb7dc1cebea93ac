#!/usr/bin/env bash
# Runs on the GPU machine from the folder made by scripts/pack-cuda.sh: the Cuda tests and a
# short Cuda run under compute-sanitizer's memcheck and racecheck. Logs go to $1.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-gpu-sanitize}"
mkdir -p "$out"
status=0
for tool in memcheck racecheck; do
  for t in test_core test_maxwell3d; do
    compute-sanitizer --tool $tool --error-exitcode 1 "$here/$t" --gtest_filter='*Cuda*' >"$out/$tool-$t.log" 2>&1 || status=1
    echo "$tool $t: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool-$t.log" | tail -n 1) $(grep -E '^\[  (PASSED|FAILED)' "$out/$tool-$t.log" | tr '\n' ' ')"
  done
  compute-sanitizer --tool $tool --error-exitcode 1 "$here/dgk" run --backend cuda --mesh box:3 --order 4 --final-time 0.05 \
    >"$out/$tool-run.log" 2>&1 || status=1
  echo "$tool dgk run: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool-run.log" | tail -n 1)"
done
exit $status
