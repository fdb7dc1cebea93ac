#!/usr/bin/env bash
# Collects the CUDA build's programs (dgk and the test executables, stripped) into
# build/cuda-pack, a folder small enough to carry to a GPU machine that has no Kokkos.
set -euo pipefail
cd "$(dirname "$0")/.."
src=build/cuda
dst=build/cuda-pack
[ -x "$src/bin/dgk" ] || { echo "pack-cuda.sh: no CUDA build in $src (run scripts/setup.sh --cuda)" >&2; exit 2; }
rm -rf "$dst" && mkdir -p "$dst"
cp "$src/bin/dgk" "$dst/"
find "$src/tests" -maxdepth 2 -type f -name 'test_*' -perm -u+x -exec cp {} "$dst/" \;
strip "$dst"/* 2>/dev/null || true
cp scripts/gpu-check.sh scripts/gpu-sanitize.sh "$dst/"
du -sh "$dst"
