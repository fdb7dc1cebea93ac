#!/usr/bin/python3
"""Picture of a density written by `dgk-euler2d run --density FILE` ("x y rho" per element, the
cell averages at the centroids; plain or gzip-compressed text): the averages binned onto a
uniform grid of the bounding box, shown with isolines (as paper 004, figure 10)."""
import argparse
import gzip
import os
import sys

sys.dont_write_bytecode = True
import numpy as np  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(prog="density_points.py", description=__doc__)
    ap.add_argument("file", help="text file of x y rho rows (.gz allowed)")
    ap.add_argument("-o", "--output", required=True, help="PNG file to write")
    ap.add_argument("--bins", type=int, nargs=2, default=[960, 240], metavar=("NX", "NY"),
                    help="grid cells along x and y (default 960 240)")
    ap.add_argument("--isolines", type=int, default=30, help="number of density isolines (default 30)")
    ap.add_argument("--xmax", type=float, help="show x up to this value only")
    a = ap.parse_args(argv)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    opener = gzip.open if a.file.endswith(".gz") else open
    with opener(a.file, "rt") as f:
        data = np.loadtxt(f, comments="#")
    if data.ndim != 2 or data.shape[1] != 3 or len(data) == 0:
        sys.exit(f"density_points.py: {a.file}: expected rows of three numbers x y rho")
    x, y, rho = data.T
    x0, x1, y0, y1 = x.min(), x.max(), y.min(), y.max()
    nx, ny = a.bins
    ix = np.clip(((x - x0) / (x1 - x0) * nx).astype(int), 0, nx - 1)
    iy = np.clip(((y - y0) / (y1 - y0) * ny).astype(int), 0, ny - 1)
    total = np.zeros((ny, nx))
    count = np.zeros((ny, nx))
    np.add.at(total, (iy, ix), rho)
    np.add.at(count, (iy, ix), 1)
    grid = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    gx = x0 + (np.arange(nx) + 0.5) * (x1 - x0) / nx
    gy = y0 + (np.arange(ny) + 0.5) * (y1 - y0) / ny
    xmax = a.xmax if a.xmax is not None else x1
    keep = gx <= xmax
    fig, ax = plt.subplots(figsize=(12, 12 * (y1 - y0) / (xmax - x0) + 0.8))
    im = ax.imshow(grid[:, keep], origin="lower", extent=(x0, gx[keep][-1], y0, y1), cmap="viridis",
                   aspect="equal")
    ax.contour(gx[keep], gy, grid[:, keep], levels=a.isolines, colors="k", linewidths=0.4)
    fig.colorbar(im, ax=ax, label="density", shrink=0.8)
    ax.set_title(f"{os.path.basename(a.file)}: {len(rho)} elements, density {rho.min():.3g} .. {rho.max():.3g}")
    fig.tight_layout()
    fig.savefig(a.output, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1:])
