#!/usr/bin/env bash
# On an H100 (double): a build whose tensor-core lift with loads ahead (loads=ahead, the tree's H100
# choice of the fused gather + lift + update at N = 6) updates several values per thread at a
# time, all their loads before their stores (four values a team's width apart, or two
# consecutive values as 16-byte pairs), against the tree's build, which updates value by value;
# both with the tree's H100 cache, Maxwell at N = 6, alternated, by l1ahead_h200_run.sh with
# configs "old new" (its kernel tests first); then Nsight Compute's warp-state samples per SASS
# instruction of both builds' lift at N = 6, summed by phase with sass_phases.py --lift.
#
#   epilogue_batch_h100_run.sh DIR
#     run from the source tree's root; DIR holding programs.tar.xz (dgk and test_tet_tuned of the
#     new build, old/dgk of the tree's, or that already in DIR/old; both built with N <= 6) and cache_old.json
#     (tree_h100_cache.json); results under $OUT/a and $OUT/p.
set -uo pipefail
root=$(pwd)
ORDERS=${ORDERS:-6} ROUNDS=${ROUNDS:-3} "$root/docs/data/l1ahead_h200_run.sh" "$1" "old new"
d=$(cd "$1" && pwd)
"$root/docs/data/lift_profile_n6.sh" "$d/old/dgk" "$d/cache_old.json" "$OUT/p" _old
"$root/docs/data/lift_profile_n6.sh" "$d/dgk" "$d/cache_old.json" "$OUT/p" _new
tar -cJf "$OUT/p.tar.xz" -C "$OUT" p
