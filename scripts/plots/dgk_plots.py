#!/usr/bin/python3
"""Shared pieces of dgk's plotting scripts: input loading and checking, style, colour maps, and the
planar slicing of sub-tetrahedra used by field.py.

Only Debian's python3-matplotlib, python3-h5py and python3-numpy are needed. Importing this module
selects matplotlib's Agg backend, so import it before matplotlib.pyplot.
"""
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

OUTPUT_VERSION = 1


class InputError(Exception):
    """A malformed or unusable input; the scripts print it as one line and exit with status 2."""


def run_main(prog, main, argv=None):
    """Calls main(argv); turns an InputError or an unreadable file into `prog: error: ...` and status 2."""
    try:
        return main(argv)
    except InputError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        name = f" {e.filename}" if getattr(e, "filename", None) else ""
        print(f"{prog}: error:{name}: {e.strerror or e}", file=sys.stderr)
        return 2


# ----------------------------------------------------------------------------------------------------------------------
# JSON reports


def load_json(path):
    """The parsed JSON object of the report at path (an InputError if it is missing or not a JSON object)."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not valid JSON ({e})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text (UTF-8) file") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: the top level is not a JSON object")
    return data


def require(obj, key, path, where="", kind=None):
    """obj[key], checked to exist and, with kind, to be of that kind: 'number', 'string', 'list', 'numbers'
    (a non-empty list of numbers) or 'int'. `where` names the place in the file, e.g. 'orders[2]'."""
    place = f"{where}." if where else ""
    if not isinstance(obj, dict) or key not in obj:
        raise InputError(f"{path}: missing key '{place}{key}'")
    value = obj[key]
    ok = True
    if kind == "number":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == "string":
        ok = isinstance(value, str)
    elif kind == "list":
        ok = isinstance(value, list)
    elif kind == "numbers":
        ok = (isinstance(value, list) and len(value) > 0 and
              all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value))
    if not ok:
        what = {"number": "a number", "int": "an integer", "string": "a string", "list": "a list",
                "numbers": "a non-empty list of numbers"}[kind]
        raise InputError(f"{path}: key '{place}{key}' is not {what} (got {json.dumps(value)[:60]})")
    return value


def optional(obj, key, default=None):
    value = obj.get(key, default) if isinstance(obj, dict) else default
    return default if value is None else value


# ----------------------------------------------------------------------------------------------------------------------
# Style


def setup_style():
    """Common matplotlib settings of the dgk pictures."""
    import matplotlib.pyplot as plt

    plt.rcParams.update({
        "figure.dpi": 100,
        "savefig.dpi": 150,
        "font.size": 10,
        "axes.titlesize": 11,
        "axes.labelsize": 10,
        "legend.fontsize": 8,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "grid.linewidth": 0.6,
        "lines.linewidth": 1.6,
        "lines.markersize": 6,
    })
    return plt


# One colour per polynomial order (order 0..11 get distinct colours; higher ones wrap around).
_ORDER_COLOURS = ["#4d4d4d", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                  "#17becf", "#bcbd22", "#393b79", "#637939"]


def order_colour(order):
    return _ORDER_COLOURS[int(order) % len(_ORDER_COLOURS)]


KERNEL_MARKERS = {"volume": "o", "surface": "s", "lift": "^", "update": "D", "stage": "*"}
KERNEL_COLOURS = {"volume": "#4c72b0", "surface": "#dd8452", "lift": "#55a868", "update": "#c44e52",
                  "stage": "#4d4d4d"}
_SPARE_MARKERS = ["v", "P", "X", "h", "<", ">", "p", "8"]
_SPARE_COLOURS = ["#8172b3", "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"]


def kernel_marker(name, known=None):
    """Marker of a kernel; kernels other than the five dgk times get spare markers in order of appearance."""
    if name in KERNEL_MARKERS:
        return KERNEL_MARKERS[name]
    extra = [k for k in (known or []) if k not in KERNEL_MARKERS]
    i = extra.index(name) if name in extra else 0
    return _SPARE_MARKERS[i % len(_SPARE_MARKERS)]


def kernel_colour(name, known=None):
    if name in KERNEL_COLOURS:
        return KERNEL_COLOURS[name]
    extra = [k for k in (known or []) if k not in KERNEL_COLOURS]
    i = extra.index(name) if name in extra else 0
    return _SPARE_COLOURS[i % len(_SPARE_COLOURS)]


KERNEL_ORDER = ["volume", "surface", "lift", "update", "stage"]


def sort_kernels(names):
    """Kernel names in dgk's order (volume, surface, lift, update, stage), unknown ones after, as first seen."""
    seen = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return sorted(seen, key=lambda n: (KERNEL_ORDER.index(n) if n in KERNEL_ORDER else len(KERNEL_ORDER),
                                       seen.index(n)))


# Line styles and fill styles telling several input files apart in one chart.
FILE_LINESTYLES = ["-", "--", ":", "-."]
FILE_FILLS = ["full", "none", "left", "bottom"]


def field_colour_map(values, cmap=None, vmin=None, vmax=None):
    """(cmap, vmin, vmax) for a field: a diverging map symmetric about zero for a field of both signs
    (electric and magnetic field components), viridis otherwise; explicit arguments win."""
    finite = np.asarray(values)[np.isfinite(values)]
    lo = float(finite.min()) if finite.size else 0.0
    hi = float(finite.max()) if finite.size else 1.0
    signed = lo < 0.0 < hi and min(-lo, hi) > 1e-3 * max(-lo, hi)
    if cmap is None:
        cmap = "RdBu_r" if signed else "viridis"
    if vmin is None and vmax is None and signed:
        m = max(-lo, hi)
        vmin, vmax = -m, m
    if vmin is None:
        vmin = lo
    if vmax is None:
        vmax = hi
    if vmin == vmax:
        pad = 1.0 if vmin == 0.0 else 1e-6 * abs(vmin)
        vmin, vmax = vmin - pad, vmax + pad
    return cmap, vmin, vmax


def fmt_number(x, digits=3):
    """Short text of a number: 1.5e+03 -> '1.5e3'."""
    if 100 <= abs(x) < 1e7 and digits <= 4:
        return f"{x:.0f}"
    s = f"{x:.{digits}g}"
    if "e" in s:
        mant, exp = s.split("e")
        s = f"{mant}e{int(exp)}"
    return s


def save_figure(fig, path):
    """Saves the figure as PNG (creating the folder of path); a clear error if it cannot be written."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(f"{path}: the folder {folder} does not exist")
    fig.savefig(path, format="png", bbox_inches="tight")


# ----------------------------------------------------------------------------------------------------------------------
# Visualization output files (HDF5)


def _attr(attrs, name, default=None):
    if name not in attrs:
        return default
    v = attrs[name]
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if isinstance(v, np.ndarray):
        if v.size == 1:
            v = v.reshape(-1)[0]
        else:
            return v
    if isinstance(v, np.bytes_):
        return v.decode("utf-8", "replace")
    if isinstance(v, np.generic):
        return v.item()
    return v


class OutputFile:
    """A dgk visualization output file (format version 1), opened read-only.

    mesh(): points (P, 3) float64, cells (C, 4) or (C, 3) int, both checked; steps: the names of the
    /steps groups in output order; step_info(i) -> (name, time, step); field(i, name) -> (P,) float64.
    """

    def __init__(self, path):
        import h5py

        self.path = path
        if not os.path.isfile(path):
            raise InputError(f"{path}: no such file")
        try:
            self.h5 = h5py.File(path, "r")
        except OSError as e:
            raise InputError(f"{path}: not a readable HDF5 file ({e})") from None
        a = self.h5.attrs
        self.version = _attr(a, "dgk_output_version")
        if self.version is None:
            raise InputError(f"{path}: missing root attribute 'dgk_output_version' (not a dgk output file?)")
        if int(self.version) != OUTPUT_VERSION:
            raise InputError(f"{path}: dgk_output_version is {self.version}; these scripts read version "
                             f"{OUTPUT_VERSION}")
        self.case = str(_attr(a, "case", "?"))
        self.order = _attr(a, "order")
        dim = _attr(a, "dimension")
        for group in ("mesh", "steps"):
            if group not in self.h5:
                raise InputError(f"{path}: missing group '/{group}'")
        for name in ("points", "cells"):
            if name not in self.h5["mesh"]:
                raise InputError(f"{path}: missing dataset '/mesh/{name}'")
        pshape = self.h5["mesh/points"].shape
        cshape = self.h5["mesh/cells"].shape
        if len(pshape) != 2 or pshape[1] != 3:
            raise InputError(f"{path}: '/mesh/points' has shape {pshape}, expected (P, 3)")
        if len(cshape) != 2 or cshape[1] not in (3, 4):
            raise InputError(f"{path}: '/mesh/cells' has shape {cshape}, expected (C, 4) or (C, 3)")
        inferred = 3 if cshape[1] == 4 else 2
        if dim is None:
            dim = inferred
        if int(dim) not in (2, 3):
            raise InputError(f"{path}: root attribute 'dimension' is {dim}, expected 2 or 3")
        if int(dim) != inferred:
            raise InputError(f"{path}: root attribute 'dimension' is {dim} but '/mesh/cells' has {cshape[1]} "
                             f"columns (expected {dim + 1})")
        self.dimension = int(dim)
        self.num_points = pshape[0]
        self.num_cells = cshape[0]
        self.steps = sorted(k for k in self.h5["steps"].keys())
        if not self.steps:
            raise InputError(f"{path}: '/steps' holds no output step")
        self._mesh = None

    def close(self):
        self.h5.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def mesh(self):
        if self._mesh is None:
            points = np.asarray(self.h5["mesh/points"][...], dtype=np.float64)
            cells = np.asarray(self.h5["mesh/cells"][...])
            if not np.issubdtype(cells.dtype, np.integer):
                raise InputError(f"{self.path}: '/mesh/cells' is not an integer dataset ({cells.dtype})")
            cells = cells.astype(np.int64, copy=False)
            if cells.size and (cells.min() < 0 or cells.max() >= self.num_points):
                raise InputError(f"{self.path}: '/mesh/cells' indexes points {cells.min()}..{cells.max()}, but "
                                 f"'/mesh/points' has {self.num_points} points")
            self._mesh = (points, cells)
        return self._mesh

    def boundary(self):
        """(points (B, 3), cells (F, 3|2)) of /boundary, or None if the file has none."""
        if "boundary" not in self.h5 or "points" not in self.h5["boundary"] or "cells" not in self.h5["boundary"]:
            return None
        bp = np.asarray(self.h5["boundary/points"][...], dtype=np.float64)
        bc = np.asarray(self.h5["boundary/cells"][...]).astype(np.int64)
        if bp.ndim != 2 or bp.shape[1] != 3 or bc.ndim != 2 or (bc.size and (bc.min() < 0 or bc.max() >= len(bp))):
            raise InputError(f"{self.path}: '/boundary/points' {bp.shape} and '/boundary/cells' {bc.shape} "
                             f"do not fit together")
        return bp, bc

    def step_index(self, which):
        """The position in self.steps of 'last', 'first', or an index (negative counts from the end)."""
        n = len(self.steps)
        if which in (None, "last"):
            return n - 1
        if which == "first":
            return 0
        try:
            i = int(which)
        except (TypeError, ValueError):
            raise InputError(f"--step: '{which}' is neither 'last', 'first' nor an index") from None
        if not -n <= i < n:
            raise InputError(f"{self.path}: --step {i} is out of range: the file has {n} output steps "
                             f"(indices 0..{n - 1}, {self.steps[0]}..{self.steps[-1]})")
        return i % n

    def step_info(self, i):
        g = self.h5["steps"][self.steps[i]]
        t = _attr(g.attrs, "time")
        s = _attr(g.attrs, "step")
        if t is None:
            raise InputError(f"{self.path}: group '/steps/{self.steps[i]}' has no attribute 'time'")
        if s is None:
            raise InputError(f"{self.path}: group '/steps/{self.steps[i]}' has no attribute 'step'")
        return self.steps[i], float(t), int(s)

    def field_names(self, i):
        g = self.h5["steps"][self.steps[i]]
        return sorted(k for k in g.keys() if hasattr(g[k], "shape"))

    def field(self, i, name):
        """The (P,) values of field `name` in output step i. `name` may also be a magnitude, |E| or |H|, of
        the components Ex, Ey(, Ez) present in the step."""
        g = self.h5["steps"][self.steps[i]]
        names = self.field_names(i)
        if name in names:
            v = np.asarray(g[name][...], dtype=np.float64).reshape(-1)
            if v.shape[0] != self.num_points:
                raise InputError(f"{self.path}: '/steps/{self.steps[i]}/{name}' has {v.shape[0]} values but "
                                 f"'/mesh/points' has {self.num_points} points")
            return v
        if len(name) >= 3 and name[0] == "|" and name[-1] == "|":
            base = name[1:-1]
            comps = [base + c for c in "xyz" if base + c in names]
            if comps:
                return np.sqrt(sum(self.field(i, c) ** 2 for c in comps))
        mags = sorted({f"|{n[:-1]}|" for n in names if len(n) > 1 and n[-1] in "xyz"})
        raise InputError(f"{self.path}: no field '{name}' in '/steps/{self.steps[i]}'; available: "
                         f"{', '.join(names + mags) if names else '(none)'}")


# ----------------------------------------------------------------------------------------------------------------------
# Slicing sub-tetrahedra by a plane (marching tetrahedra)

AXES = {"x": 0, "y": 1, "z": 2}
# The two in-plane axes of a slice normal to x, y or z (what the picture shows horizontally and vertically).
PLANE_AXES = {0: (1, 2), 1: (0, 2), 2: (0, 1)}


def parse_slice(text):
    """'z=0.5' -> (2, 0.5); 'x' alone -> (0, None) (the middle of the mesh along that axis)."""
    t = text.strip().lower().replace(" ", "")
    name, _, value = t.partition("=")
    if name not in AXES:
        raise InputError(f"--slice: '{text}' is not of the form x=VALUE, y=VALUE or z=VALUE")
    if value == "":
        return AXES[name], None
    try:
        v = float(value)
    except ValueError:
        raise InputError(f"--slice: '{value}' in '{text}' is not a number") from None
    if not math.isfinite(v):
        raise InputError(f"--slice: '{text}' is not a finite plane")
    return AXES[name], v


def _cut_table():
    """For each of the 16 patterns of vertices above the plane (bit i: vertex i above), the tetrahedron
    edges cut by the plane, as vertex pairs (above, below) in cyclic order around the cut polygon."""
    table = []
    for mask in range(16):
        up = [i for i in range(4) if mask >> i & 1]
        down = [i for i in range(4) if not mask >> i & 1]
        if len(up) == 1:
            table.append([(up[0], d) for d in down])
        elif len(up) == 3:
            table.append([(u, down[0]) for u in up])
        elif len(up) == 2:
            a, b = up
            c, d = down
            table.append([(a, c), (a, d), (b, d), (b, c)])
        else:
            table.append([])
    return table


_CUTS = _cut_table()


def _slice_once(points, cells, values, axis, offset, on_plane_above):
    d = points[:, axis] - offset
    dc = d[cells]  # (C, 4)
    above = dc >= 0.0 if on_plane_above else dc > 0.0
    mask = above[:, 0] * 1 + above[:, 1] * 2 + above[:, 2] * 4 + above[:, 3] * 8
    tri_xyz, tri_val = [], []
    for m in range(1, 15):
        sel = np.nonzero(mask == m)[0]
        if sel.size == 0:
            continue
        cut = _CUTS[m]
        cs = cells[sel]
        ds = dc[sel]
        xyz = np.empty((sel.size, len(cut), 3))
        val = np.empty((sel.size, len(cut))) if values is not None else None
        for k, (i, j) in enumerate(cut):
            di, dj = ds[:, i], ds[:, j]
            t = (di / (di - dj))[:, None]  # di - dj != 0: one end is above, the other not
            pi, pj = points[cs[:, i]], points[cs[:, j]]
            xyz[:, k, :] = pi + t * (pj - pi)
            if values is not None:
                vi, vj = values[cs[:, i]], values[cs[:, j]]
                val[:, k] = vi + t[:, 0] * (vj - vi)
        if len(cut) == 3:
            tri_xyz.append(xyz)
            if values is not None:
                tri_val.append(val)
        else:  # quadrilateral 0-1-2-3 in cyclic order: triangles 0-1-2 and 0-2-3
            tri_xyz.append(xyz[:, [0, 1, 2], :])
            tri_xyz.append(xyz[:, [0, 2, 3], :])
            if values is not None:
                tri_val.append(val[:, [0, 1, 2]])
                tri_val.append(val[:, [0, 2, 3]])
    if not tri_xyz:
        return np.empty((0, 3, 3)), (np.empty((0, 3)) if values is not None else None)
    xyz = np.concatenate(tri_xyz)
    xyz[:, :, axis] = offset
    return xyz, (np.concatenate(tri_val) if values is not None else None)


def slice_tets(points, cells, values, axis, offset, drop_degenerate=True):
    """Intersects the tetrahedra `cells` (C, 4) over `points` (P, 3) with the plane {x[axis] = offset}.

    Returns (xyz, vals): xyz (T, 3, 3) the corners of the triangles making up the cut polygons (a
    quadrilateral cut becomes two triangles), vals (T, 3) the field `values` (P,) interpolated linearly
    along the cut edges (None when values is None). A face lying in the plane is returned once, from the
    tetrahedron on its upper side (from the lower side on the upper end of the mesh). Triangles of zero
    area (the plane through a vertex or an edge) are dropped unless drop_degenerate is False.
    """
    points = np.asarray(points, dtype=np.float64)
    cells = np.asarray(cells)
    if values is not None:
        values = np.asarray(values, dtype=np.float64)
    xyz, vals = _slice_once(points, cells, values, axis, offset, False)
    if drop_degenerate and len(xyz):
        keep = triangle_areas(xyz) > 1e-12 * _scale2(points)
        xyz = xyz[keep]
        vals = vals[keep] if vals is not None else None
    if len(xyz) == 0:
        # The plane may be the upper face of the mesh: there, no cell has a vertex strictly above it.
        xyz, vals = _slice_once(points, cells, values, axis, offset, True)
        if drop_degenerate and len(xyz):
            keep = triangle_areas(xyz) > 1e-12 * _scale2(points)
            xyz = xyz[keep]
            vals = vals[keep] if vals is not None else None
    return xyz, vals


def _scale2(points):
    if len(points) == 0:
        return 1.0
    ext = points.max(axis=0) - points.min(axis=0)
    return float(max(ext.max(), 1e-300)) ** 2


def triangle_areas(xyz):
    """Areas of triangles xyz (T, 3, 3)."""
    return 0.5 * np.linalg.norm(np.cross(xyz[:, 1] - xyz[:, 0], xyz[:, 2] - xyz[:, 0]), axis=1)


def interpolate_on_triangles(xy, vals, samples):
    """Linear interpolation of per-corner values vals (T, 3) on 2D triangles xy (T, 3, 2) at the points
    samples (S, 2); NaN where a sample lies in no triangle. Meant for checks at a few points."""
    samples = np.asarray(samples, dtype=np.float64)
    out = np.full(len(samples), np.nan)
    a, b, c = xy[:, 0], xy[:, 1], xy[:, 2]
    det = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (b[:, 1] - a[:, 1])
    ok = np.abs(det) > 0
    for s, p in enumerate(samples):
        l1 = ((p[0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (p[1] - a[:, 1]))
        l2 = ((b[:, 0] - a[:, 0]) * (p[1] - a[:, 1]) - (p[0] - a[:, 0]) * (b[:, 1] - a[:, 1]))
        with np.errstate(divide="ignore", invalid="ignore"):
            l1 = l1 / det
            l2 = l2 / det
        l0 = 1.0 - l1 - l2
        eps = 1e-12
        inside = ok & (l0 >= -eps) & (l1 >= -eps) & (l2 >= -eps)
        hit = np.nonzero(inside)[0]
        if hit.size:
            k = hit[0]
            out[s] = l0[k] * vals[k, 0] + l1[k] * vals[k, 1] + l2[k] * vals[k, 2]
    return out


def bounding_box_text(points):
    lo = points.min(axis=0)
    hi = points.max(axis=0)
    return ", ".join(f"{n} in [{fmt_number(l, 6)}, {fmt_number(h, 6)}]" for n, l, h in zip("xyz", lo, hi))
