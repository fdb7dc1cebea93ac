#!/usr/bin/python3
"""Picture of one field of one output step of a dgk visualization output file (HDF5).

2D files: the sub-triangles coloured by the field (Gouraud shading of the values at the points).
3D files: a planar slice x, y or z = VALUE through the sub-tetrahedra (marching tetrahedra; the
coordinates and the field are interpolated linearly along the cut edges), drawn the same way.
"""
import argparse
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dgk_plots as dp  # noqa: E402
import numpy as np  # noqa: E402

AXIS_NAMES = "xyz"


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="field.py",
        description="Picture of a field from a dgk visualization output file: the sub-triangles of a 2D file, "
                    "or a planar slice through the sub-tetrahedra of a 3D file.",
        epilog="Examples: field.py out.h5 --field Ez -o ez.png; "
               "field.py out.h5 --field '|E|' --step 0 --slice x=0.25 -o e0.png")
    ap.add_argument("file", metavar="OUTPUT.h5", help="visualization output file written by dgk")
    ap.add_argument("--field", metavar="NAME",
                    help="field to show, e.g. Ez; |E| or |H| for the magnitude of the components "
                         "(without --field: the list of fields)")
    ap.add_argument("--step", default="last", metavar="last|first|INDEX",
                    help="output step: 'last' (default), 'first', or its index in output order (negative counts "
                         "from the end)")
    ap.add_argument("--slice", metavar="AXIS=VALUE",
                    help="3D files: the plane x=VALUE, y=VALUE or z=VALUE (default: z through the middle of the "
                         "mesh; 'x' alone: the middle along x)")
    ap.add_argument("-o", "--output", metavar="OUT.png", help="PNG file to write (required unless listing fields)")
    ap.add_argument("--cmap", help="matplotlib colour map (default: RdBu_r, symmetric, for fields of both signs; "
                                   "viridis otherwise)")
    ap.add_argument("--vmin", type=float, help="lower end of the colour scale")
    ap.add_argument("--vmax", type=float, help="upper end of the colour scale")
    ap.add_argument("--shading", choices=["gouraud", "flat"], default="gouraud",
                    help="gouraud: linear between the points (default); flat: one colour per triangle")
    ap.add_argument("--edges", action="store_true", help="draw the edges of the sub-cells (of the cut polygons in 3D)")
    ap.add_argument("--no-boundary", action="store_true", help="2D files: do not draw the boundary edges")
    ap.add_argument("--title", help="title (default: field, time, step)")
    ap.add_argument("--size", type=float, default=7.0, metavar="INCHES", help="width of the picture (default 7)")
    ap.add_argument("--verbose", action="store_true", help="print sizes and timings")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    t0 = time.perf_counter()
    if args.cmap:
        import matplotlib

        if args.cmap not in matplotlib.colormaps:
            raise dp.InputError(f"--cmap: no colour map '{args.cmap}' in matplotlib (e.g. viridis, RdBu_r, "
                                f"coolwarm, magma, turbo)")
    if args.vmin is not None and args.vmax is not None and not args.vmin < args.vmax:
        raise dp.InputError(f"--vmin {args.vmin} must be below --vmax {args.vmax}")
    if not 1.0 <= args.size <= 50.0:
        raise dp.InputError(f"--size {args.size}: give a width between 1 and 50 inches")
    with dp.OutputFile(args.file) as f:
        i = f.step_index(args.step)
        name, t, step = f.step_info(i)
        if not args.field:
            names = f.field_names(i)
            raise dp.InputError(f"{args.file}: --field is required; fields in '/steps/{name}': "
                                f"{', '.join(names) if names else '(none)'}")
        if not args.output:
            raise dp.InputError("-o/--output is required")
        values = f.field(i, args.field)
        points, cells = f.mesh()
        boundary = None if args.no_boundary or f.dimension == 3 else f.boundary()
        dim, case, order = f.dimension, f.case, f.order
        nsteps = len(f.steps)
    t_read = time.perf_counter() - t0

    if dim == 2:
        xy = points[:, :2]
        tris = cells
        vals = values
        axes = (0, 1)
        where = ""
        if args.slice:
            print("field.py: note: --slice is ignored for a 2D file", file=sys.stderr)
    else:
        axis, offset = dp.parse_slice(args.slice or "z")
        if offset is None:
            offset = 0.5 * (points[:, axis].min() + points[:, axis].max())
        xyz, tv = dp.slice_tets(points, cells, values, axis, offset)
        if len(xyz) == 0:
            raise dp.InputError(f"{args.file}: the plane {AXIS_NAMES[axis]} = {dp.fmt_number(offset, 6)} cuts no "
                                f"sub-tetrahedron; the mesh spans {dp.bounding_box_text(points)}")
        axes = dp.PLANE_AXES[axis]
        xy = xyz[:, :, axes].reshape(-1, 2)
        tris = np.arange(len(xy)).reshape(-1, 3)
        vals = tv.reshape(-1)
        where = f", slice {AXIS_NAMES[axis]} = {dp.fmt_number(offset, 6)}"
    t_slice = time.perf_counter() - t0 - t_read

    import matplotlib.tri as mtri
    from matplotlib.collections import LineCollection

    plt = dp.setup_style()
    cmap, vmin, vmax = dp.field_colour_map(vals, args.cmap, args.vmin, args.vmax)
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    ext = np.maximum(hi - lo, 1e-300)
    aspect = float(np.clip(ext[1] / ext[0], 0.15, 4.0))
    w = args.size
    fig, ax = plt.subplots(figsize=(w, min(1.2 + w * 0.8 * aspect, 1.6 * w)))
    ax.grid(False)
    tri = mtri.Triangulation(xy[:, 0], xy[:, 1], tris)
    if args.shading == "gouraud":
        im = ax.tripcolor(tri, vals, shading="gouraud", cmap=cmap, vmin=vmin, vmax=vmax, rasterized=True)
    else:
        im = ax.tripcolor(tri, facecolors=vals[tris].mean(axis=1), cmap=cmap, vmin=vmin, vmax=vmax,
                          edgecolors="none", rasterized=True)
    if args.edges:
        ax.triplot(tri, color="k", linewidth=0.2, alpha=0.5)
    if boundary is not None:
        bp, bc = boundary
        if bc.shape[1] == 2 and len(bc):
            segs = bp[:, :2][bc]
            ax.add_collection(LineCollection(segs, colors="k", linewidths=0.8))
    ax.set_aspect("equal")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_xlabel(AXIS_NAMES[axes[0]])
    ax.set_ylabel(AXIS_NAMES[axes[1]])
    ax.grid(False)
    from mpl_toolkits.axes_grid1 import make_axes_locatable

    cax = make_axes_locatable(ax).append_axes("right", size="4%", pad=0.12)
    cax.grid(False)
    cb = fig.colorbar(im, cax=cax)
    cb.set_label(args.field)
    order_text = f", order {order}" if order is not None else ""
    title = args.title or (f"{args.field} at t = {dp.fmt_number(t, 6)} (step {step}, output {i + 1} of {nsteps})\n"
                           f"{case}{order_text}{where}")
    ax.set_title(title, fontsize=10)
    dp.save_figure(fig, args.output)
    plt.close(fig)
    if args.verbose:
        print(f"field.py: {len(points)} points, {len(cells)} cells, {len(tris)} triangles drawn; read "
              f"{t_read:.2f} s, slice {t_slice:.2f} s, total {time.perf_counter() - t0:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(dp.run_main("field.py", main))
