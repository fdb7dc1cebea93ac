#!/usr/bin/env bash
# Runs on the GPU machine from the folder made by scripts/pack-cuda.sh: the test programs (all
# their tests, every backend; the long studies excluded) and a short Cuda run under
# compute-sanitizer's memcheck and racecheck. Logs go to $1.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-gpu-sanitize}"
mkdir -p "$out"
# shellcheck source=gpu-test-env.sh
source "$here/gpu-test-env.sh"
status=0
for tool in memcheck racecheck; do
  for path in "$here"/test_*; do
    t=$(basename "$path")
    case "$t" in *_long) continue ;; esac
    "${test_env[@]}" compute-sanitizer --tool $tool --error-exitcode 1 "$path" >"$out/$tool-$t.log" 2>&1 || status=1
    echo "$tool $t: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool-$t.log" | tail -n 1) $(grep -E '^\[  (PASSED|FAILED)' "$out/$tool-$t.log" | tr '\n' ' ')"
  done
  compute-sanitizer --tool $tool --error-exitcode 1 "$here/dgk" run --backend cuda --mesh box:3 --order 4 --final-time 0.05 \
    >"$out/$tool-run.log" 2>&1 || status=1
  echo "$tool dgk run: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool-run.log" | tail -n 1)"
done
exit $status
