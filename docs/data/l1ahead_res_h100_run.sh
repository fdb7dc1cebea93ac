#!/usr/bin/env bash
# On an H100 (double): the stage as one product asking the L1 for its group's res after its second
# gather (l1ahead_res.diff) against the tree's build, both with the tree's H100 cache, Maxwell at
# N = 3 and 4 (l1ahead_h200_run.sh with configs "old new"); then where the tree's fused gather +
# lift + update waits at N = 6 (Nsight Compute's warp-state samples per SASS instruction, summed by
# phase with sass_phases.py --lift).
#
#   l1ahead_res_h100_run.sh DIR
#     run from the source tree's root, DIR laid out as l1ahead_h200_run.sh asks (programs.tar.xz:
#     the new build's dgk and test_tet_tuned; old.tar.xz: the tree's dgk, built with N <= 6;
#     cache_old.json: tree_h100_cache.json); results under $OUT/a and $OUT/p. PARTS (default
#     "ab p") picks the A/B (ab) and/or the profile (p); the profile alone needs only old.tar.xz
#     and cache_old.json.
set -uo pipefail
root=$(pwd)
parts=${PARTS:-"ab p"}
[[ $parts == *ab* ]] && ROUNDS=${ROUNDS:-3} "$root/docs/data/l1ahead_h200_run.sh" "$1" "old new"
[[ $parts == *p* ]] || exit 0
d=$(cd "$1" && pwd)
[ -x "$d/old/dgk" ] || { mkdir -p "$d/old" && tar -xJf "$d/old.tar.xz" -C "$d/old"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
"$root/docs/data/lift_profile_n6.sh" "$d/old/dgk" "$d/cache_old.json" "$OUT/p"
tar -cJf "$OUT/p.tar.xz" -C "$OUT" p
