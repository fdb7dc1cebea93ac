#!/usr/bin/env bash
# Unpacks parts written by `scripts/pack-cuda.sh --archives` into build/cuda-pack, on the GPU
# machine, from the source tree's root. Uses xz where it is installed, else Python's lzma.
#
#   scripts/gpu-unpack.sh build/cuda-pack-xz/part-1.tar.xz [more parts ...]
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: scripts/gpu-unpack.sh PART.tar.xz ..." >&2; exit 2; }
mkdir -p build
for part in "$@"; do
  [ -f "$part" ] || { echo "gpu-unpack.sh: no such part: $part" >&2; exit 2; }
  if command -v xz >/dev/null; then
    xz -dc "$part" | tar -C build -xf -
  else
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1], "r:xz").extractall(sys.argv[2])' "$part" build
  fi
  echo "unpacked $part"
done
ls -l build/cuda-pack
