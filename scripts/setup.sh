#!/usr/bin/env bash
# Installs everything dgk needs (Debian packages, Kokkos + KokkosKernels into a cache outside
# the clone), builds dgk, and runs its main job on the built-in default case.
#
#   scripts/setup.sh            host build (OpenMP + Serial), then `dgk run`
#   scripts/setup.sh --cuda     CUDA build for sm_90 (H100/H200) into build/cuda; it is run on
#                               the GPU machine (see docs/GPU.md)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=host
for arg in "$@"; do
  case "$arg" in
    --cuda) preset=cuda ;;
    --debug) preset=host-debug ;;
    -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (expected --cuda or --debug)" >&2; exit 2 ;;
  esac
done
deps_config=$preset
DGK_KOKKOS_ROOT=$(scripts/deps.sh "$deps_config" | tail -n 1)
export DGK_KOKKOS_ROOT
# shellcheck source=cpus.sh
source "$(dirname "${BASH_SOURCE[0]}")/cpus.sh"
jobs="${DGK_JOBS:-$(dgk_cpus)}"
cmake --preset "$preset" >/dev/null
if [ "$preset" = cuda ]; then
  cmake --build --preset "$preset" -j "$jobs"   # the tests too: they are run on the GPU machine
else
  cmake --build --preset "$preset" -j "$jobs" --target dgk_app
fi
if [ "$preset" = cuda ]; then
  echo "CUDA build ready in build/cuda (bin/dgk and the tests); see docs/GPU.md to run it on the GPU."
  exit 0
fi
# One OpenMP thread per CPU this process may use (nproc can count CPUs beyond the quota).
OMP_NUM_THREADS="${OMP_NUM_THREADS:-$jobs}" "build/$preset/bin/dgk" run
