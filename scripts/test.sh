#!/usr/bin/env bash
# Installs what is missing (same as setup.sh), builds dgk and its tests, and runs them all.
#
#   scripts/test.sh             host build: every test on Serial and OpenMP
#   scripts/test.sh --debug     the same under AddressSanitizer/UBSan with Kokkos bounds checks
set -euo pipefail
cd "$(dirname "$0")/.."
preset=host
for arg in "$@"; do
  case "$arg" in
    --debug) preset=host-debug ;;
    -h | --help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown option '$arg' (expected --debug)" >&2; exit 2 ;;
  esac
done
DGK_KOKKOS_ROOT=$(scripts/deps.sh "$preset" | tail -n 1)
export DGK_KOKKOS_ROOT
# shellcheck source=cpus.sh
source "$(dirname "${BASH_SOURCE[0]}")/cpus.sh"
jobs="${DGK_JOBS:-$(dgk_cpus)}"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$jobs"
if [ "$preset" = host-debug ]; then
  # Under the sanitizers the long convergence studies are left to the optimized build.
  ctest --preset "$preset" -j "$jobs" -LE long
else
  ctest --preset "$preset" -j "$jobs"
fi
