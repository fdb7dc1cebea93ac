#!/usr/bin/env bash
# Collects the CUDA build's programs (dgk and the test executables, stripped) into
# build/cuda-pack for a GPU machine that has no Kokkos.
#
#   scripts/pack-cuda.sh [--archives [MIB]]
#
# With --archives it also writes build/cuda-pack-xz/part-K.tar.xz: the programs in parts of at
# most MIB MiB (default 500) before compression, each compressed with a dictionary as large as
# the part. Every solver program links the same physics instantiations, so a part of several
# such programs compresses to little more than one of them; the parts can then travel one by
# one where a transfer is limited in size. scripts/gpu-unpack.sh unpacks them on the GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."
src=build/cuda
dst=build/cuda-pack
archives=0
part_mib=500
if [ "${1:-}" = --archives ]; then
  archives=1
  part_mib="${2:-500}"
  [[ "$part_mib" =~ ^[1-9][0-9]*$ ]] || { echo "pack-cuda.sh: --archives takes a size in MiB, not '$part_mib'" >&2; exit 2; }
elif [ $# -gt 0 ]; then
  echo "pack-cuda.sh: unknown argument '$1' (usage: scripts/pack-cuda.sh [--archives [MIB]])" >&2; exit 2
fi
[ -x "$src/bin/dgk" ] || { echo "pack-cuda.sh: no CUDA build in $src (run scripts/setup.sh --cuda)" >&2; exit 2; }
rm -rf "$dst" && mkdir -p "$dst"
cp "$src/bin/dgk" "$dst/"
find "$src/tests" -maxdepth 2 -type f -name 'test_*' -perm -u+x -exec cp {} "$dst/" \;
strip "$dst"/* 2>/dev/null || true
cp scripts/gpu-check.sh scripts/gpu-sanitize.sh scripts/gpu-test-env.sh "$dst/"
du -sh "$dst"
[ "$archives" = 1 ] || exit 0

# First fit, largest first: each part holds at most part_mib MiB of programs.
xzdir=build/cuda-pack-xz
rm -rf "$xzdir" && mkdir -p "$xzdir"
limit=$((part_mib * 1024 * 1024))
declare -a used=() members=()
while read -r size name; do
  [ "$size" -le "$limit" ] || { echo "pack-cuda.sh: $name ($size bytes) is larger than a part of $part_mib MiB" >&2; exit 2; }
  k=0
  while [ $k -lt ${#used[@]} ] && [ $((used[k] + size)) -gt "$limit" ]; do k=$((k + 1)); done
  used[k]=$(( ${used[k]:-0} + size ))
  members[k]="${members[k]:-} cuda-pack/$name"
done < <(cd "$dst" && find . -maxdepth 1 -type f -printf '%s %f\n' | sort -rn)
# One xz process per part, side by side (xz's own threads would split a part into blocks that
# cannot refer to each other); each needs about ten times its dictionary in memory.
pids=()
for k in "${!members[@]}"; do
  # shellcheck disable=SC2086  # the member list is split on purpose
  tar -C build -cf - ${members[k]} | xz -T1 --lzma2=preset=9,dict=${part_mib}MiB > "$xzdir/part-$((k + 1)).tar.xz" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
for k in "${!members[@]}"; do
  file="$xzdir/part-$((k + 1)).tar.xz"
  echo "$file: $(du -m "$file" | cut -f1) MiB from $((used[k] / 1048576)) MiB:${members[k]//cuda-pack\//}"
done
