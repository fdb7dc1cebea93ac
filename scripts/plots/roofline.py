#!/usr/bin/python3
"""Roofline chart of the kernel timings written by `dgk bench maxwell3d --report FILE`.

Left: each kernel of each order as a point at x = arithmetic intensity (flops / bytes), y = GFLOP/s,
under the roof measured in the run, min(fma_gflops, AI * copy_gbytes_per_s); marker shape = kernel,
colour = order. Right: the fraction of the roofline bound reached, per order and kernel (bars), one
panel per bench file. Several bench files (e.g. a GPU and a CPU run) each get their own roof, told
apart by the line style of the roof and the fill of the markers.
"""
import argparse
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dgk_plots as dp  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

ROW_KEYS = ["order", "kernel", "dofs", "seconds", "flops", "bytes", "gflops", "gbytes_per_s", "roofline_fraction"]


def load_bench(path):
    rep = dp.load_json(path)
    b = {"path": path}
    b["case"] = str(dp.require(rep, "case", path))
    b["backend"] = str(dp.require(rep, "backend", path))
    b["precision"] = str(dp.require(rep, "precision", path))
    b["elements"] = dp.require(rep, "elements", path, kind="number")
    b["bw"] = dp.require(rep, "copy_gbytes_per_s", path, kind="number")
    b["peak"] = dp.require(rep, "fma_gflops", path, kind="number")
    if b["bw"] <= 0 or b["peak"] <= 0:
        raise dp.InputError(f"{path}: 'copy_gbytes_per_s' ({b['bw']}) and 'fma_gflops' ({b['peak']}) must be "
                            f"positive")
    rows = dp.require(rep, "kernels", path, kind="list")
    if not rows:
        raise dp.InputError(f"{path}: 'kernels' is empty")
    b["rows"] = []
    for k, row in enumerate(rows):
        where = f"kernels[{k}]"
        if not isinstance(row, dict):
            raise dp.InputError(f"{path}: '{where}' is not an object")
        r = {}
        for key in ROW_KEYS:
            r[key] = dp.require(row, key, path, where, kind="string" if key == "kernel" else "number")
        r["order"] = int(r["order"])
        if r["bytes"] > 0 and r["flops"] > 0 and r["gflops"] > 0:
            r["ai"] = r["flops"] / r["bytes"]
        else:
            r["ai"] = None  # no place on log-log axes; still in the bars
            print(f"roofline.py: note: {path}: '{where}' ({r['kernel']}, order {r['order']}) has no positive "
                  f"flops, bytes and gflops; left out of the roofline chart", file=sys.stderr)
        b["rows"].append(r)
    b["label"] = f"{b['backend']}, {b['precision']}"
    return b


def roof(ai, b):
    return min(b["peak"], ai * b["bw"])


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="roofline.py",
        description="Roofline chart (GFLOP/s vs arithmetic intensity under the measured roof) and the fraction "
                    "of the roofline bound per order and kernel, from `dgk bench ... --report FILE` JSON reports.")
    ap.add_argument("reports", nargs="+", metavar="BENCH.json", help="bench report(s) written by dgk")
    ap.add_argument("-o", "--output", required=True, metavar="OUT.png", help="PNG file to write")
    ap.add_argument("--title", help="title of the figure (default: from the case and the runs)")
    ap.add_argument("--kernels", help="comma-separated kernels to show (default: all, e.g. volume,surface,lift,"
                                      "update,stage)")
    ap.add_argument("--no-labels", action="store_true", help="do not write the order next to each point")
    args = ap.parse_args(argv)

    benches = [load_bench(p) for p in args.reports]
    if args.kernels:
        wanted = [k.strip() for k in args.kernels.split(",") if k.strip()]
        present = dp.sort_kernels(r["kernel"] for b in benches for r in b["rows"])
        unknown = [k for k in wanted if k not in present]
        if unknown:
            raise dp.InputError(f"--kernels: no kernel {', '.join(unknown)} in the reports; available: "
                                f"{', '.join(present)}")
        for b in benches:
            b["rows"] = [r for r in b["rows"] if r["kernel"] in wanted]
    kernels = dp.sort_kernels(r["kernel"] for b in benches for r in b["rows"])
    orders = sorted({r["order"] for b in benches for r in b["rows"]})

    plt = dp.setup_style()
    nb = len(benches)
    fig = plt.figure(figsize=(13.5, max(5.6, 2.9 * nb + 0.8)))
    gs = fig.add_gridspec(nb, 2, width_ratios=[1.25, 1.0], wspace=0.22, hspace=0.45)
    ax = fig.add_subplot(gs[:, 0])

    # Range of arithmetic intensities: the points and the ridge points, with a margin.
    ais = [r["ai"] for b in benches for r in b["rows"] if r["ai"]] + [b["peak"] / b["bw"] for b in benches]
    lo = 10 ** math.floor(math.log10(min(ais) / 2))
    hi = 10 ** math.ceil(math.log10(max(ais) * 2))
    xs = [lo * (hi / lo) ** (i / 400) for i in range(401)]
    for i, b in enumerate(benches):
        ls = dp.FILE_LINESTYLES[i % len(dp.FILE_LINESTYLES)]
        ax.loglog(xs, [roof(x, b) for x in xs], color="0.15", linestyle=ls, linewidth=1.8, zorder=1)
        fill = dp.FILE_FILLS[i % len(dp.FILE_FILLS)]
        for r in b["rows"]:
            if r["ai"] is None:
                continue
            c = dp.order_colour(r["order"])
            big = r["kernel"] == "stage"
            ax.plot([r["ai"]], [r["gflops"]], linestyle="none", marker=dp.kernel_marker(r["kernel"], kernels),
                    markersize=12 if big else 7.5, color=c, markeredgecolor=c if fill == "full" else c,
                    fillstyle=fill, markerfacecoloralt="white", markeredgewidth=1.3, zorder=3, alpha=0.9)
            if not args.no_labels:
                ax.annotate(f"{r['order']}", xy=(r["ai"], r["gflops"]), xytext=(5, 3), textcoords="offset points",
                            fontsize=7, color=c, zorder=4)
    ax.set_xlim(lo, hi)
    ymax = max([b["peak"] for b in benches] + [r["gflops"] for b in benches for r in b["rows"] if r["ai"]])
    ymin = min([r["gflops"] for b in benches for r in b["rows"] if r["ai"]] + [roof(lo, b) for b in benches])
    ax.set_ylim(10 ** math.floor(math.log10(ymin / 1.5)), ymax * 3)
    ax.set_xlabel("arithmetic intensity (flop / byte)")
    ax.set_ylabel("GFLOP/s")
    ax.grid(True, which="both", alpha=0.2)
    ax.set_title("roofline (numbers: order N)" if not args.no_labels else "roofline")

    if nb == 1:
        # Ceilings written along the roof (several runs: in the legend of the runs instead).
        b = benches[0]
        ridge = b["peak"] / b["bw"]
        ax.annotate(f"FMA {dp.fmt_number(b['peak'])} GFLOP/s", xy=(hi, b["peak"]), xytext=(-4, 4),
                    textcoords="offset points", ha="right", va="bottom", fontsize=8, color="0.15")
        x1, x2 = ridge / 30, ridge / 10
        p1, p2 = ax.transData.transform([(x1, roof(x1, b)), (x2, roof(x2, b))])
        angle = math.degrees(math.atan2(p2[1] - p1[1], p2[0] - p1[0]))
        ax.annotate(f"copy {dp.fmt_number(b['bw'])} GB/s", xy=(x1, roof(x1, b)), xytext=(0, 4),
                    textcoords="offset points", ha="left", va="bottom", fontsize=8, color="0.15",
                    rotation=angle, rotation_mode="anchor")

    # Legends under the chart: kernels (marker), orders (colour), runs (roof line style and marker fill).
    kh = [Line2D([], [], linestyle="none", marker=dp.kernel_marker(k, kernels), color="0.3",
                 markersize=10 if k == "stage" else 7) for k in kernels]
    oh = [Line2D([], [], linestyle="none", marker="o", color=dp.order_colour(n), markersize=7) for n in orders]
    ax_h = fig.get_size_inches()[1] * ax.get_position().height  # inches

    def below(inches):
        return (0.0, -inches / ax_h)

    leg1 = ax.legend(kh, kernels, title="kernel (marker)", loc="upper left", bbox_to_anchor=below(0.5),
                     ncol=min(len(kernels), 5), fontsize=8, title_fontsize=8, framealpha=0.9)
    ax.add_artist(leg1)
    leg2 = ax.legend(oh, [f"N = {n}" for n in orders], title="order (colour)", loc="upper left",
                     bbox_to_anchor=below(1.05), ncol=min(len(orders), 8), fontsize=8, title_fontsize=8,
                     framealpha=0.9)
    if nb > 1:
        ax.add_artist(leg2)
        fh = [Line2D([], [], color="0.15", linestyle=dp.FILE_LINESTYLES[i % len(dp.FILE_LINESTYLES)],
                     marker="o", fillstyle=dp.FILE_FILLS[i % len(dp.FILE_FILLS)], markerfacecoloralt="white",
                     markersize=7) for i in range(nb)]
        ax.legend(fh, [f"{b['label']} ({os.path.basename(b['path'])}): copy {dp.fmt_number(b['bw'])} GB/s, "
                       f"FMA {dp.fmt_number(b['peak'])} GFLOP/s" for b in benches],
                  title="run (roof line style, marker fill)", loc="upper left", bbox_to_anchor=below(1.6),
                  fontsize=8, title_fontsize=8, framealpha=0.9)

    # Right: fraction of the roofline bound, grouped by order, one bar per kernel.
    share = None
    for i, b in enumerate(benches):
        bx = fig.add_subplot(gs[i, 1], sharey=share)
        share = share or bx
        b_orders = sorted({r["order"] for r in b["rows"]})
        b_kernels = dp.sort_kernels(r["kernel"] for r in b["rows"])
        width = 0.8 / max(1, len(b_kernels))
        for j, k in enumerate(b_kernels):
            xs_k, ys_k = [], []
            for gi, n in enumerate(b_orders):
                vals = [r["roofline_fraction"] for r in b["rows"] if r["order"] == n and r["kernel"] == k]
                if vals:
                    xs_k.append(gi - 0.4 + width * (j + 0.5))
                    ys_k.append(100.0 * vals[-1])
            bx.bar(xs_k, ys_k, width=width * 0.92, color=dp.kernel_colour(k, kernels),
                   edgecolor="0.2" if k == "stage" else "none", linewidth=0.8, label=k,
                   hatch="//" if k == "stage" else None)
        bx.axhline(100.0, color="0.2", linewidth=1.0, linestyle="--")
        bx.set_xticks(range(len(b_orders)))
        bx.set_xticklabels([f"N = {n}" for n in b_orders])
        bx.set_ylabel("% of roofline bound")
        bx.set_title(f"{b['label']}: {b['elements']} elements ({os.path.basename(b['path'])})", fontsize=9)
        bx.grid(True, axis="y", alpha=0.3)
        bx.grid(False, axis="x")
        bx.set_axisbelow(True)
        if i == 0:
            bx.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=8, title="kernel",
                      title_fontsize=8)
        if i == nb - 1 and any(r["roofline_fraction"] > 1.0 for bb in benches for r in bb["rows"]):
            bx.set_xlabel("above 100%: faster than the measured copy bandwidth allows (data in cache)",
                          fontsize=8, color="0.3")
    fracs = [100.0 * r["roofline_fraction"] for b in benches for r in b["rows"]]
    share.set_ylim(0, max(110.0, max(fracs) * 1.25))

    cases = sorted({b["case"] for b in benches})
    fig.suptitle(args.title or f"{', '.join(cases)}: kernel performance against the measured roofline",
                 fontsize=12)
    dp.save_figure(fig, args.output)
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(dp.run_main("roofline.py", main))
