#!/usr/bin/env python3
"""Interior faces of the box mesh whose two elements lie more than W elements apart, in the
generator's order and along the Morton curve of the centroids (as mesh/src/box.cpp and
mesh/src/reorder.cpp build them): a gather that reads a neighbour's trace W or more elements
away finds it in no cache that holds only the last W elements' data.

    locality_far_faces.py [CUBES]   (default 32: box:32, 196608 elements; needs numpy)
"""
import sys

import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 32
perms = [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2)]
nv = n + 1
elements, centroids = [], []
for k in range(n):
    for j in range(n):
        for i in range(n):
            for p in perms:
                c = [i, j, k]
                pts = [tuple(c)]
                for s in range(3):
                    c[p[s]] += 1
                    pts.append(tuple(c))
                elements.append([x + nv * (y + nv * z) for x, y, z in pts])
                centroids.append(np.mean(pts, axis=0))
E = len(elements)
centroids = np.array(centroids)
faces = {}
for e, el in enumerate(elements):
    for f in [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]:
        faces.setdefault(tuple(sorted(el[x] for x in f)), []).append(e)
pairs = np.array([v for v in faces.values() if len(v) == 2])


def spread(v):
    v = v.astype(np.uint64) & np.uint64(0x1FFFFF)
    for shift, mask in [(32, 0x1F00000000FFFF), (16, 0x1F0000FF0000FF), (8, 0x100F00F00F00F00F),
                        (4, 0x10C30C30C30C30C3), (2, 0x1249249249249249)]:
        v = (v | (v << np.uint64(shift))) & np.uint64(mask)
    return v


lo = centroids.min(0)
scale = ((1 << 21) - 1) / (centroids.max(0) - lo).max()
q = ((centroids - lo) * scale).astype(np.uint64)
key = spread(q[:, 0]) | (spread(q[:, 1]) << np.uint64(1)) | (spread(q[:, 2]) << np.uint64(2))
curve = np.empty(E, int)
curve[np.argsort(key, kind="stable")] = np.arange(E)
print(f"box:{n}: {E} elements, {len(pairs)} interior faces")
for name, pos in [("generator order", np.arange(E)), ("Morton curve", curve)]:
    d = np.abs(pos[pairs[:, 0]] - pos[pairs[:, 1]])
    print(f"{name:>16}: mean distance {d.mean():.1f}; faces more than W apart: " +
          ", ".join(f"W = {w} {100 * (d > w).mean():.1f}%" for w in (256, 1000, 2000, 4000, 8000)))
