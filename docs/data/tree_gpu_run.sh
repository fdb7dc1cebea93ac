#!/usr/bin/env bash
# The tree's tuned kernels on one GPU, N = 1..9, from an empty cache (lean CUDA build,
# DGK_MAX_ORDER=9): scripts/gpu-tune.sh in double (tune; then bench) and in float (tune and
# bench), into one cache.
#
#   tree_gpu_run.sh DIR STEP [GPU]
#       run from the source tree's root, DIR holding dgk or programs.tar.xz (dgk); STEP:
#       "double-tune" or "rest"; GPU names the cache (default h200); results under $OUT/t, the
#       cache carried over in DIR/tuning_GPU.json.
set -uo pipefail
root=$(pwd)
d=$(cd "$1" && pwd)
gpu=${3:-h200}
out=$OUT/t
mkdir -p "$out"
cd "$d"
[ -x dgk ] || { tar -xJf programs.tar.xz dgk && chmod +x dgk; }
export DGK_TUNING_CACHE="$d/tuning_$gpu.json"
t0=$(date +%s)
if [ "$2" = double-tune ]; then
  rm -f "$DGK_TUNING_CACHE"
  timeout 570 bash "$root/scripts/gpu-tune.sh" "$d/dgk" "$out" double 1..9 196608 tune > "$out/run_double_tune.log" 2>&1
  echo "double tune rc $? in $(( $(date +%s) - t0 )) s"
else
  timeout 200 bash "$root/scripts/gpu-tune.sh" "$d/dgk" "$out" double 1..9 196608 bench > "$out/run_double_bench.log" 2>&1
  echo "double bench rc $? in $(( $(date +%s) - t0 )) s"
  t0=$(date +%s)
  timeout 360 bash "$root/scripts/gpu-tune.sh" "$d/dgk" "$out" float 1..9 196608 > "$out/run_float.log" 2>&1
  echo "float rc $? in $(( $(date +%s) - t0 )) s"
fi
cp "$DGK_TUNING_CACHE" "$out/tuning_$gpu.json"
tar -cJf "$OUT/t_$2.tar.xz" -C "$OUT" t
tail -12 "$out"/tune_*.log 2>/dev/null
grep -h "whole stage" "$out"/bench_tuned_*.log 2>/dev/null | tail -20
