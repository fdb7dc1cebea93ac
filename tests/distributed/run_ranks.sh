#!/usr/bin/env bash
# `dgk run` under mpiexec: a 3D and a 2D case on 1, 2 and 3 ranks report the same error and
# energy (to the reduction-order bound (K - 1) eps), the partition statistics add up, and a
# checkpoint written by 2 ranks restarts on 3 ranks and on 1 and ends where the uninterrupted
# run ends (bitwise: the restarted runs write their final state to a checkpoint too, and the
# states are compared value by value, the distributed checkpoints assembled from their parts,
# one file per rank); the ParaView output of 2 ranks holds the one-rank fields
# and marks each cell with its rank.
#   run_ranks.sh DGK MPIEXEC WORKDIR
set -euo pipefail
dgk=$1 mpiexec=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
# Debian's python3-h5py and numpy live with the system interpreter.
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
run() { # ranks, then dgk arguments
  local n=$1
  shift
  "$mpiexec" -n "$n" --oversubscribe --bind-to none "$dgk" run --quiet --backend serial "$@" >/dev/null
}
for r in 1 2 3; do
  run $r maxwell3d --order 3 --mesh box:3 --final-time 0.1 --report m3_$r.json --checkpoint m3_$r.h5
  run $r maxwell2d --order 4 --mesh rect:6,jitter=0.1 --final-time 0.1 --report m2_$r.json
  run $r acoustic3d --order 2 --mesh box:3 --final-time 0.1 --report a3_$r.json --checkpoint a3_$r.h5
  # Euler: periodic (both surface kernels), and a limited shock tube with walls and outflow.
  run $r euler2d --problem isentropic-vortex --order 2 --mesh rect:6,jitter=0.1 --final-time 0.3 \
    --report ev_$r.json --checkpoint ev_$r.h5
  run $r euler2d --problem isentropic-vortex --order 2 --mesh rect:6,jitter=0.1 --final-time 0.3 --kernel element \
    --checkpoint evel_$r.h5
  run $r euler2d --problem sod --order 1 --limiter barth-jespersen --mesh rect:24,2,jitter=0.1 --final-time 0.05 \
    --report es_$r.json --checkpoint es_$r.h5
done
# ParaView output written by 2 ranks (a file per rank, one XDMF file): the fields of the one-rank
# output, cells marked by rank.
run 1 maxwell2d --order 3 --mesh rect:5 --final-time 0.1 --output out_1.h5 --output-every 3
run 2 maxwell2d --order 3 --mesh rect:5 --final-time 0.1 --output out_2.h5 --output-every 3
"$py" - <<'PY'
# Rank r wrote its own elements to out_2.h5 (r = 0) or out_2.part<r>.h5, with global element
# numbers per cell; put the parts' point values back in global order and compare.
import sys
import h5py, numpy as np
with h5py.File("out_1.h5") as one:
    C1, P1 = one["mesh/cells"].shape[0], one["mesh/points"].shape[0]
    K = int(one["mesh/element"][...].max()) + 1
    cpe, npe = C1 // K, P1 // K
    ref = {s: {n: one["steps"][s][n][...] for n in one["steps"][s]} for s in one["steps"]}
with h5py.File("out_1.h5") as one:
    faces_one = one["boundary/cells"].shape[0]
faces_parts = 0
ok, ranks = True, set()
got = {s: {n: np.full(P1, np.nan) for n in ref[s]} for s in ref}
for name in ("out_2.h5", "out_2.part1.h5"):
    with h5py.File(name) as f:
        ranks |= set(int(v) for v in f["mesh/partition"][...])
        faces_parts += f["boundary/cells"].shape[0]
        mine = f["mesh/element"][...][::cpe]  # global number of each of this file's elements
        for s in f["steps"]:
            for n in f["steps"][s]:
                got[s][n].reshape(K, npe)[mine] = f["steps"][s][n][...].reshape(len(mine), npe)
for s in ref:
    for n in ref[s]:
        if not np.array_equal(ref[s][n], got[s][n]):
            print(f"output of 2 ranks, step {s} field {n}: differs from one rank's")
            ok = False
if faces_parts != faces_one:
    print(f"output of 2 ranks: {faces_parts} boundary edges, one rank's output has {faces_one}")
    ok = False
if ranks != {0, 1}:
    print(f"output of 2 ranks: cells marked with ranks {sorted(ranks)}, expected [0, 1]")
    ok = False
xdmf = open("out_2.xdmf").read()
if "out_2.part1.h5:" not in xdmf or 'CollectionType="Spatial"' not in xdmf:
    print("out_2.xdmf does not gather the parts")
    ok = False
sys.exit(0 if ok else 1)
PY
xmllint --noout out_2.xdmf
# Interrupted on 2 ranks, continued on 3 and on 1.
run 2 maxwell3d --order 3 --mesh box:3 --final-time 0.1 --checkpoint half.h5 --stop-at-step 4
cp half.h5 half_for_1.h5  # with its part files, which are named after it
for f in half.h5.*.part*; do cp "$f" "half_for_1.h5.${f#half.h5.}"; done
ls half.h5.*.part1 >/dev/null  # two ranks wrote two files
run 3 maxwell3d --restart half.h5 --checkpoint end_3.h5
run 1 maxwell3d --restart half_for_1.h5 --checkpoint end_1.h5
python3 - <<'PY'
import json, sys
eps = 2.0**-52
def load(name):
    return json.load(open(name))
ok = True
for case, K in (("m3", 162), ("a3", 162), ("m2", 72), ("ev", 72), ("es", 96)):
    one = load(f"{case}_1.json")
    for r in (2, 3):
        d = load(f"{case}_{r}.json")
        for key in ("l2_error", "energy"):
            if key not in one or not isinstance(one[key], float):
                continue
            a, b = d[key], one[key]
            if abs(a - b) > K * eps * abs(b):
                print(f"{case} on {r} ranks: {key} {a!r} differs from one rank's {b!r}")
                ok = False
        if d["ranks"] != r or sum(d["elements_per_rank"]) != d["elements"] or len(d["elements_per_rank"]) != r:
            print(f"{case} on {r} ranks: partition statistics {d.get('elements_per_rank')} do not add up")
            ok = False
        if sum(d["shared_faces_per_rank"]) != 2 * d["shared_faces"]:
            print(f"{case} on {r} ranks: shared faces do not add up")
            ok = False
sys.exit(0 if ok else 1)
PY
# The states at the end: uninterrupted (1, 2, 3 ranks) and restarted (3 and 1 ranks) agree
# bitwise.
# Bitwise comparison of final states; a distributed checkpoint is one file per rank, assembled
# here from its parts (each holds its elements' rows and their global numbers).
"$py" - m3_1.h5 m3_2.h5 m3_1.h5 m3_3.h5 m3_1.h5 end_3.h5 m3_1.h5 end_1.h5 \
  a3_1.h5 a3_2.h5 a3_1.h5 a3_3.h5 ev_1.h5 ev_2.h5 ev_1.h5 ev_3.h5 evel_1.h5 evel_2.h5 evel_1.h5 evel_3.h5 es_1.h5 es_2.h5 es_1.h5 es_3.h5 <<'PY'
import sys
import h5py, numpy as np
def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)
def state(path):
    with h5py.File(path) as f:
        q = f["state/q"][...]
        parts = int(f.attrs.get("parts", 1))
        if parts == 1:
            return q, 1
        out = np.full((f["mesh/elements"].shape[0],) + q.shape[1:], np.nan, q.dtype)
        out[f["state/elements"][...]] = q
        tag = text(f.attrs["set"])
    for p in range(1, parts):
        with h5py.File(f"{path}.{tag}.part{p}") as g:
            out[g["state/elements"][...]] = g["state/q"][...]
    return out, parts
args, ok = sys.argv[1:], True
for ref, other in zip(args[0::2], args[1::2]):
    (a, _), (b, parts) = state(ref), state(other)
    if a.shape != b.shape or not np.array_equal(a, b):
        print(f"final fields of {other} ({parts} parts) differ from those of {ref}")
        ok = False
sys.exit(0 if ok else 1)
PY
echo "run_ranks: all agree"
