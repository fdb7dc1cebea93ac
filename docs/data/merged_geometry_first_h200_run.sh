#!/usr/bin/env bash
# The stage as one product with the element's geometry and its first k-step's fields loaded before
# the flux gather (dgk) against the kernel that loads them after it (dgk_final): the choices of
# cache_merged.json, Maxwell and acoustics at N = 1..4, alternated, two rounds.
set -uo pipefail
d=$(cd "$(dirname "$0")" && pwd)
out=$OUT/r
mkdir -p "$out"
cd "$d"
xz -dkf dgk.xz dgk_final.xz
chmod +x dgk dgk_final
for round in 1 2; do
  for b in dgk_final dgk; do
    for p in maxwell3d acoustic3d; do
      cp "$d/cache_merged.json" "$out/tuning.json"
      DGK_TUNING_CACHE="$out/tuning.json" timeout 60 ./$b bench $p --backend cuda --precision double \
        --orders 1..4 --elements 196608 --kernel tuned --tune never \
        --report "$out/ge_${p}_${b}_$round.json" > "$out/ge_${p}_${b}_$round.log" 2>&1
      echo "$round $p $b rc $?"
    done
  done
done
rm -f "$out/tuning.json"
tar -cJf "$OUT/r.tar.xz" -C "$OUT" r
for p in maxwell3d acoustic3d; do for b in dgk_final dgk; do for round in 1 2; do
  echo "== $p $b $round $(grep -E "nodal tuned +stage" "$out/ge_${p}_${b}_$round.log" | awk '{print $1, $5, $8}' | tr '\n' ' ')"
done; done; done
