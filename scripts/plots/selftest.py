#!/usr/bin/python3
"""Self-test of the dgk plotting scripts.

Builds synthetic inputs in a temporary folder (two convergence reports, two bench reports, a 2D and a
3D visualization output file in dgk's layout), runs convergence.py, roofline.py and field.py on them as
subprocesses and checks that the PNGs exist and are not blank; checks the planar slicing of
sub-tetrahedra against a field linear in x, y, z (values at the cut points and at sample points inside
the slice, area of the slice, planes through nodes and on the faces of the mesh) and its speed on a
large mesh; and checks that malformed inputs give a one-line error instead of a traceback.
Exits with status 1 on a failure.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
sys.path.insert(0, HERE)
import dgk_plots as dp  # noqa: E402
import numpy as np  # noqa: E402

PYTHON = sys.executable or "/usr/bin/python3"


def linear(x, y, z):
    return 1.0 + 2.0 * x - 3.0 * y + 0.5 * z


# ----------------------------------------------------------------------------------------------------------------------
# Synthetic meshes in dgk's discontinuous layout: every element has its own nodes.

# The 6 tetrahedra of a cube around its main diagonal (corners numbered by bits x + 2y + 4z).
KUHN = [[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]]


def box_mesh_3d(m, s, lo=(0.0, 0.0, 0.0), hi=(1.0, 1.0, 1.0)):
    """Box split into m^3 cubic elements, each with (s+1)^3 nodes of its own and 6 s^3 sub-tetrahedra.
    Returns points (P, 3), cells (C, 4), element (C,)."""
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    g = np.arange(s + 1) / s
    li, lj, lk = np.meshgrid(g, g, g, indexing="ij")
    local = np.stack([li.ravel(), lj.ravel(), lk.ravel()], axis=1)  # node (a,b,c) at a*(s+1)^2 + b*(s+1) + c
    ei, ej, ek = np.meshgrid(np.arange(m), np.arange(m), np.arange(m), indexing="ij")
    origin = np.stack([ei.ravel(), ej.ravel(), ek.ravel()], axis=1).astype(float)
    h = (hi - lo) / m
    points = (lo + (origin[:, None, :] + local[None, :, :]) * h).reshape(-1, 3)
    npe = (s + 1) ** 3
    a, b, c = np.meshgrid(np.arange(s), np.arange(s), np.arange(s), indexing="ij")
    base = np.stack([a.ravel(), b.ravel(), c.ravel()], axis=1)
    corner = np.array([[(q >> 0) & 1, (q >> 1) & 1, (q >> 2) & 1] for q in range(8)])
    idx = base[:, None, :] + corner[None, :, :]  # (s^3, 8, 3)
    lin = idx[..., 0] * (s + 1) ** 2 + idx[..., 1] * (s + 1) + idx[..., 2]  # (s^3, 8)
    sub = lin[:, KUHN].reshape(-1, 4)  # (6 s^3, 4)
    ne = m ** 3
    cells = (sub[None, :, :] + (np.arange(ne) * npe)[:, None, None]).reshape(-1, 4)
    element = np.repeat(np.arange(ne), len(sub))
    return points, cells.astype(np.int32), element.astype(np.int32)


def square_mesh_2d(m, s):
    """Unit square split into m^2 square elements, each with (s+1)^2 nodes of its own and 2 s^2 sub-triangles."""
    g = np.arange(s + 1) / s
    li, lj = np.meshgrid(g, g, indexing="ij")
    local = np.stack([li.ravel(), lj.ravel()], axis=1)
    ei, ej = np.meshgrid(np.arange(m), np.arange(m), indexing="ij")
    origin = np.stack([ei.ravel(), ej.ravel()], axis=1).astype(float)
    xy = ((origin[:, None, :] + local[None, :, :]) / m).reshape(-1, 2)
    points = np.column_stack([xy, np.zeros(len(xy))])
    npe = (s + 1) ** 2
    a, b = np.meshgrid(np.arange(s), np.arange(s), indexing="ij")
    n00 = (a * (s + 1) + b).ravel()
    n10, n01, n11 = n00 + (s + 1), n00 + 1, n00 + s + 2
    sub = np.concatenate([np.stack([n00, n10, n11], 1), np.stack([n00, n11, n01], 1)])
    ne = m * m
    cells = (sub[None, :, :] + (np.arange(ne) * npe)[:, None, None]).reshape(-1, 3)
    element = np.repeat(np.arange(ne), len(sub))
    return points, cells.astype(np.int32), element.astype(np.int32)


def write_output(path, dim, order, points, cells, element, steps, boundary, materials):
    """Writes a visualization output file in dgk's layout (version 1). steps: [(time, step, {name: values})]."""
    import h5py

    with h5py.File(path, "w") as f:
        f.attrs["dgk_output_version"] = np.int32(1)
        f.attrs["case"] = "selftest"
        f.attrs["order"] = np.int32(order)
        f.attrs["dimension"] = np.int32(dim)
        g = f.create_group("mesh")
        g["points"] = points.astype(np.float64)
        g["cells"] = cells.astype(np.int32)
        g["element"] = element.astype(np.int32)
        g["partition"] = (element % 3).astype(np.int32)
        for name, v in materials.items():
            g[name] = v.astype(np.float64)
        bp, bc, bt = boundary
        b = f.create_group("boundary")
        b["points"] = bp.astype(np.float64)
        b["cells"] = bc.astype(np.int32)
        b["tag"] = bt.astype(np.int32)
        s = f.create_group("steps")
        for k, (t, n, fields) in enumerate(steps):
            sg = s.create_group(f"{k:06d}")
            sg.attrs["time"] = np.float64(t)
            sg.attrs["step"] = np.int64(n)
            for name, v in fields.items():
                sg[name] = v.astype(np.float64)


def make_3d_file(path, m=6, s=3):
    points, cells, element = box_mesh_3d(m, s)
    x, y, z = points.T
    steps = []
    for k, t in enumerate([0.0, 0.1, 0.2]):
        c = math.cos(2 * math.pi * t)
        steps.append((t, 10 * k, {
            "Ex": np.sin(np.pi * x) * np.sin(np.pi * y) * np.cos(np.pi * z) * c,
            "Ey": np.cos(np.pi * x) * np.sin(np.pi * y) * np.sin(np.pi * z) * c,
            "Ez": np.zeros_like(x),
            "Hx": np.full_like(x, 0.1 * k), "Hy": 0.5 * x, "Hz": linear(x, y, z),
        }))
    # Boundary: the two triangles of each face square of the outer elements' corners.
    bp, bc, bt = [], [], []
    g = np.linspace(0.0, 1.0, m + 1)
    for axis in range(3):
        for side, val in ((0, 0.0), (1, 1.0)):
            for i in range(m):
                for j in range(m):
                    quad = []
                    for (u, v) in ((g[i], g[j]), (g[i + 1], g[j]), (g[i + 1], g[j + 1]), (g[i], g[j + 1])):
                        p = [0.0, 0.0, 0.0]
                        p[axis] = val
                        p[(axis + 1) % 3], p[(axis + 2) % 3] = u, v
                        quad.append(p)
                    n0 = len(bp)
                    bp.extend(quad)
                    bc.extend([[n0, n0 + 1, n0 + 2], [n0, n0 + 2, n0 + 3]])
                    bt.extend([2 * axis + side + 1] * 2)
    boundary = (np.array(bp), np.array(bc), np.array(bt))
    mats = {"eps": np.where(element % 2 == 0, 1.0, 2.0), "mu": np.ones(len(cells))}
    write_output(path, 3, s, points, cells, element, steps, boundary, mats)


def make_2d_file(path, m=8, s=4):
    points, cells, element = square_mesh_2d(m, s)
    x, y = points[:, 0], points[:, 1]
    steps = []
    for k, t in enumerate([0.0, 0.5]):
        c = math.cos(2 * math.pi * t / 4)
        steps.append((t, 5 * k, {
            "Ez": np.sin(np.pi * x) * np.sin(np.pi * y) * c,
            "Hx": np.sin(2 * np.pi * x) * np.cos(np.pi * y) * c,
            "Hy": -np.cos(np.pi * x) * y,
        }))
    g = np.linspace(0.0, 1.0, m + 1)
    bp, bc, bt = [], [], []
    for tag, (p0, p1) in enumerate([((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (0, 1)), ((0, 1), (0, 0))], 1):
        for i in range(m):
            a = np.array(p0, float) + (np.array(p1, float) - np.array(p0, float)) * g[i]
            b = np.array(p0, float) + (np.array(p1, float) - np.array(p0, float)) * g[i + 1]
            n0 = len(bp)
            bp.extend([[a[0], a[1], 0.0], [b[0], b[1], 0.0]])
            bc.append([n0, n0 + 1])
            bt.append(tag)
    boundary = (np.array(bp), np.array(bc), np.array(bt))
    write_output(path, 2, s, points, cells, element, steps, boundary, {"eps": np.ones(len(cells))})


def make_convergence_reports(folder):
    paths = []
    for precision, floor in (("double", 0.0), ("float", 2e-6)):
        rep = {"case": "maxwell3d", "backend": "cuda" if precision == "double" else "openmp",
               "precision": precision, "orders": []}
        for n in range(1, 6):
            hs = [1 / 2, 1 / 3, 1 / 4, 1 / 6]
            errs = [0.3 * (0.6 ** n) * h ** (n + 1) * (1 + 0.1 * h) + floor for h in hs]
            eoc = math.log(errs[-2] / errs[-1]) / math.log(hs[-2] / hs[-1])
            rep["orders"].append({"order": n, "h": hs, "l2_error": errs, "eoc": eoc})
        p = os.path.join(folder, f"convergence_{precision}.json")
        with open(p, "w", encoding="utf-8") as f:
            json.dump(rep, f, indent=2)
        paths.append(p)
    return paths


def make_bench_reports(folder):
    paths = []
    for backend, bw, peak, speed in (("cuda", 3300.0, 52000.0, 1.0), ("openmp", 180.0, 1500.0, 0.05)):
        rep = {"case": "maxwell3d", "backend": backend, "precision": "double", "elements": 98304,
               "copy_gbytes_per_s": bw, "fma_gflops": peak, "kernels": []}
        for n in range(1, 8):
            dofs = 98304 * (n + 1) * (n + 2) * (n + 3) // 6 * 6
            rows = []
            for kname, fpd, bpd, eff in (("volume", 20 * n, 60, 0.7), ("surface", 8 * n, 90, 0.5),
                                          ("lift", 12 * n, 50, 0.6), ("update", 4, 72, 0.9)):
                flops, nbytes = fpd * dofs, bpd * dofs
                bound = max(nbytes / (bw * 1e9), flops / (peak * 1e9))
                sec = bound / (eff * (1.0 if speed == 1.0 else 0.8))
                rows.append((kname, flops, nbytes, sec, bound))
            tf = sum(r[1] for r in rows)
            tb = sum(r[2] for r in rows)
            ts = sum(r[3] for r in rows)
            tbound = sum(r[4] for r in rows)
            rows.append(("stage", tf, tb, ts, tbound))
            for kname, flops, nbytes, sec, bound in rows:
                rep["kernels"].append({"order": n, "kernel": kname, "dofs": dofs, "seconds": sec, "flops": flops,
                                       "bytes": nbytes, "gflops": flops / sec / 1e9,
                                       "gbytes_per_s": nbytes / sec / 1e9, "roofline_fraction": bound / sec})
        p = os.path.join(folder, f"bench_{backend}.json")
        with open(p, "w", encoding="utf-8") as f:
            json.dump(rep, f, indent=2)
        paths.append(p)
    return paths


# ----------------------------------------------------------------------------------------------------------------------
# Checks

class Checks:
    def __init__(self):
        self.failures = []
        self.count = 0

    def check(self, ok, what):
        self.count += 1
        if ok:
            print(f"  ok    {what}")
        else:
            print(f"  FAIL  {what}")
            self.failures.append(what)
        return ok


def check_slicing(c):
    """Slices of a box mesh against the linear field 1 + 2x - 3y + 0.5z."""
    points, cells, _ = box_mesh_3d(4, 2, lo=(0.0, -0.5, 0.0), hi=(1.0, 0.5, 2.0))
    values = linear(*points.T)
    # Cross-section areas of the box [0,1] x [-0.5,0.5] x [0,2] normal to x, y, z.
    areas = {0: 2.0, 1: 2.0, 2: 1.0}
    rng = np.random.default_rng(1)
    planes = [(2, 0.37), (2, 1.0), (2, 0.0), (2, 2.0), (0, 0.5), (0, 0.8123), (1, -0.5), (1, 0.1)]
    for axis, off in planes:
        label = f"slice {'xyz'[axis]} = {off}"
        xyz, vals = dp.slice_tets(points, cells, values, axis, off)
        if not c.check(len(xyz) > 0, f"{label}: non-empty ({len(xyz)} triangles)"):
            continue
        on_plane = np.abs(xyz[:, :, axis] - off).max()
        err_nodes = np.abs(vals - linear(xyz[..., 0], xyz[..., 1], xyz[..., 2])).max()
        area = dp.triangle_areas(xyz).sum()
        i, j = dp.PLANE_AXES[axis]
        lo, hi = points.min(axis=0), points.max(axis=0)
        samples = np.column_stack([rng.uniform(lo[i], hi[i], 12), rng.uniform(lo[j], hi[j], 12)])
        got = dp.interpolate_on_triangles(xyz[:, :, [i, j]], vals, samples)
        p3 = np.zeros((len(samples), 3))
        p3[:, axis] = off
        p3[:, i], p3[:, j] = samples[:, 0], samples[:, 1]
        err_samples = np.abs(got - linear(*p3.T)).max()
        c.check(on_plane == 0.0 and err_nodes < 1e-12 and not np.isnan(got).any() and err_samples < 1e-12
                and abs(area - areas[axis]) < 1e-12,
                f"{label}: values at the cut points (err {err_nodes:.1e}) and at 12 sample points (err "
                f"{err_samples:.1e}) equal the linear field, area {area:.15g} (expected {areas[axis]})")
    xyz, _ = dp.slice_tets(points, cells, values, 2, 2.5)
    c.check(len(xyz) == 0, "slice z = 2.5 outside the mesh is empty")
    # A plane through nodes must not cover the face twice: the area stays that of the cross-section.
    xyz, _ = dp.slice_tets(points, cells, None, 2, 0.5, drop_degenerate=False)
    c.check(abs(dp.triangle_areas(xyz).sum() - 1.0) < 1e-12, "slice z = 0.5 through nodes covers the section once")


def check_slice_speed(c, n=48):
    """Slicing time on a box of 6 n^3 sub-tetrahedra (n = 48: 663552)."""
    points, cells, _ = box_mesh_3d(n, 1)
    values = linear(*points.T)
    t0 = time.perf_counter()
    xyz, vals = dp.slice_tets(points, cells, values, 2, 0.4321)
    dt = time.perf_counter() - t0
    c.check(len(xyz) > 0 and abs(dp.triangle_areas(xyz).sum() - 1.0) < 1e-9 and dt < 5.0,
            f"slice of {len(cells)} sub-tetrahedra in {dt:.2f} s ({len(xyz)} triangles)")


def png_ok(path, min_colours=20):
    """(ok, text): the PNG exists, is readable, and is not blank (many colours, no uniform picture)."""
    import matplotlib.image as mpimg

    if not os.path.isfile(path):
        return False, "missing"
    size = os.path.getsize(path)
    img = mpimg.imread(path)
    rgb = (img[..., :3] * 255).astype(np.uint8).reshape(-1, 3)
    colours = len(np.unique(rgb[:: max(1, len(rgb) // 200000)], axis=0))
    ink = float((rgb.astype(int).sum(axis=1) < 600).mean())  # share of non-white pixels
    ok = size > 20000 and colours >= min_colours and ink > 0.02 and img.shape[0] > 200 and img.shape[1] > 200
    return ok, f"{img.shape[1]}x{img.shape[0]}, {size // 1024} KiB, {colours} colours, {100 * ink:.0f}% ink"


def run(args):
    t0 = time.perf_counter()
    p = subprocess.run([PYTHON] + args, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr, time.perf_counter() - t0


def check_script(c, script, args, png):
    rc, out, err, dt = run([os.path.join(HERE, script)] + args + ["-o", png])
    if not c.check(rc == 0, f"{script} {' '.join(os.path.basename(a) for a in args)}: exit 0 ({dt:.1f} s)"):
        print(err.strip())
        return
    ok, text = png_ok(png)
    c.check(ok, f"  {os.path.basename(png)}: {text}")


def check_error(c, script, args, expect):
    rc, out, err, dt = run([os.path.join(HERE, script)] + args)
    err1 = err.strip()
    ok = rc == 2 and "Traceback" not in err and all(e in err for e in expect)
    c.check(ok, f"{script} {' '.join(os.path.basename(a) for a in args)}: error (rc {rc}): {err1[:150]}")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="selftest.py", description="Self-test of the dgk plotting scripts: builds "
                                 "synthetic reports and output files, plots them, and checks the slicing.")
    ap.add_argument("--keep", metavar="DIR", help="write the inputs and pictures into DIR and keep them")
    ap.add_argument("--no-speed", action="store_true", help="leave out the slicing speed check on a large mesh")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    folder = args.keep or tempfile.mkdtemp(prefix="dgk-plots-selftest-")
    os.makedirs(folder, exist_ok=True)
    c = Checks()
    try:
        print("slicing (marching tetrahedra) against a linear field:")
        check_slicing(c)
        if not args.no_speed:
            check_slice_speed(c)

        print("inputs:")
        conv = make_convergence_reports(folder)
        bench = make_bench_reports(folder)
        h3 = os.path.join(folder, "out3d.h5")
        h2 = os.path.join(folder, "out2d.h5")
        make_3d_file(h3)
        make_2d_file(h2)
        print(f"  written to {folder}")
        with dp.OutputFile(h3) as f:  # the file reader and the slicing together: Hz is linear in x, y, z
            i = f.step_index("last")
            points, cells = f.mesh()
            xyz, vals = dp.slice_tets(points, cells, f.field(i, "Hz"), 2, 0.3)
            err = np.abs(vals - linear(xyz[..., 0], xyz[..., 1], xyz[..., 2])).max() if len(xyz) else np.inf
            c.check(err < 1e-12 and abs(dp.triangle_areas(xyz).sum() - 1.0) < 1e-12,
                    f"out3d.h5 ({len(cells)} sub-tetrahedra): Hz on the slice z = 0.3 is the linear field "
                    f"(err {err:.1e})")

        print("scripts:")
        out = lambda name: os.path.join(folder, name)  # noqa: E731
        check_script(c, "convergence.py", conv[:1], out("convergence.png"))
        check_script(c, "convergence.py", conv, out("convergence2.png"))
        check_script(c, "roofline.py", bench[:1], out("roofline.png"))
        check_script(c, "roofline.py", bench, out("roofline2.png"))
        check_script(c, "field.py", [h2, "--field", "Ez"], out("field2d.png"))
        check_script(c, "field.py", [h3, "--field", "Ex", "--slice", "z=0.3"], out("field3d_z.png"))
        check_script(c, "field.py", [h3, "--field", "|E|", "--step", "0", "--slice", "x=0.5"], out("field3d_x.png"))
        check_script(c, "field.py", [h3, "--field", "Hz", "--slice", "y=1", "--edges"], out("field3d_y.png"))

        print("malformed inputs:")
        bad = os.path.join(folder, "bad_convergence.json")
        rep = json.load(open(conv[0], encoding="utf-8"))
        del rep["orders"][1]["l2_error"]
        json.dump(rep, open(bad, "w", encoding="utf-8"))
        check_error(c, "convergence.py", [bad, "-o", out("x.png")], ["orders[1].l2_error", bad])
        badb = os.path.join(folder, "bad_bench.json")
        rep = json.load(open(bench[0], encoding="utf-8"))
        del rep["fma_gflops"]
        json.dump(rep, open(badb, "w", encoding="utf-8"))
        check_error(c, "roofline.py", [badb, "-o", out("x.png")], ["fma_gflops", badb])
        check_error(c, "field.py", [h3, "--field", "Bz", "-o", out("x.png")], ["'Bz'", "available:", "Ex", "Hz"])
        check_error(c, "field.py", [h3, "--field", "Ex", "--slice", "z=5", "-o", out("x.png")],
                    ["z = 5", "z in [0, 1]"])
        check_error(c, "field.py", [h3, "--field", "Ex", "--step", "7", "-o", out("x.png")], ["out of range"])
        check_error(c, "field.py", [os.path.join(folder, "missing.h5"), "--field", "Ex", "-o", out("x.png")],
                    ["no such file"])
        check_error(c, "field.py", [conv[0], "--field", "Ex", "-o", out("x.png")], ["not a readable HDF5 file"])
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    dt = time.perf_counter() - t0
    if c.failures:
        print(f"selftest: {len(c.failures)} of {c.count} checks FAILED ({dt:.1f} s)")
        return 1
    print(f"selftest: all {c.count} checks passed ({dt:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
