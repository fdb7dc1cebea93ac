#!/usr/bin/python3
"""Plots the L2 error against the mesh size h, one line per order, from the JSON reports written by
`dgk convergence maxwell3d --report FILE`.

Log-log axes; each line is annotated with its measured order of convergence (EOC from the last two
meshes); a dashed line of slope N+1 just under the last point of each order shows the expected rate.
Several reports (e.g. double and float, or two backends) can be drawn into one chart: the colour
tells the order, the marker and line style the report.
"""
import argparse
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dgk_plots as dp  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

REPORT_MARKERS = ["o", "s", "^", "D", "v", "P"]


def load_report(path):
    rep = dp.load_json(path)
    info = {
        "path": path,
        "case": dp.require(rep, "case", path, kind="string"),
        "backend": str(dp.require(rep, "backend", path)),
        "precision": str(dp.require(rep, "precision", path)),
        "orders": [],
    }
    rows = dp.require(rep, "orders", path, kind="list")
    if not rows:
        raise dp.InputError(f"{path}: 'orders' is empty")
    for k, row in enumerate(rows):
        where = f"orders[{k}]"
        if not isinstance(row, dict):
            raise dp.InputError(f"{path}: '{where}' is not an object")
        order = dp.require(row, "order", path, where, kind="int")
        h = dp.require(row, "h", path, where, kind="numbers")
        err = dp.require(row, "l2_error", path, where, kind="numbers")
        if len(h) != len(err):
            raise dp.InputError(f"{path}: '{where}.h' has {len(h)} values but '{where}.l2_error' has {len(err)}")
        if min(h) <= 0 or min(err) <= 0:
            raise dp.InputError(f"{path}: '{where}' has a non-positive h or l2_error (log axes need positive "
                                f"values)")
        if not all(math.isfinite(e) for e in err):
            raise dp.InputError(f"{path}: '{where}.l2_error' holds a non-finite value")
        eoc = None
        if len(h) >= 2 and h[-2] != h[-1]:
            eoc = math.log(err[-2] / err[-1]) / math.log(h[-2] / h[-1])
        elif isinstance(row.get("eoc"), (int, float)):
            eoc = float(row["eoc"])
        info["orders"].append({"order": order, "h": h, "err": err, "eoc": eoc})
    return info


def set_h_ticks(ax, hs):
    """Ticks at the mesh sizes of the reports, written 1/n where h is the inverse of an integer."""
    from matplotlib.ticker import FixedLocator, FixedFormatter, NullLocator

    if not hs or len(hs) > 12:
        return
    labels = []
    for h in hs:
        n = 1.0 / h
        labels.append(f"1/{round(n)}" if abs(n - round(n)) < 1e-9 * n else dp.fmt_number(h))
    ax.xaxis.set_major_locator(FixedLocator(hs))
    ax.xaxis.set_major_formatter(FixedFormatter(labels))
    ax.xaxis.set_minor_locator(NullLocator())


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="convergence.py",
        description="Error vs h per order (log-log) from `dgk convergence ... --report FILE` JSON reports, "
                    "with the measured EOC (last two meshes) annotated per line and dashed reference slopes N+1.")
    ap.add_argument("reports", nargs="+", metavar="REPORT.json", help="convergence report(s) written by dgk")
    ap.add_argument("-o", "--output", required=True, metavar="OUT.png", help="PNG file to write")
    ap.add_argument("--title", help="title of the chart (default: from the case, backend and precision)")
    ap.add_argument("--no-reference", action="store_true", help="leave out the dashed N+1 reference slopes")
    args = ap.parse_args(argv)

    reports = [load_report(p) for p in args.reports]
    plt = dp.setup_style()
    fig, ax = plt.subplots(figsize=(8.0, 5.6))
    many = len(reports) > 1
    have_reference = False
    referenced = set()
    all_h = set()
    for r, rep in enumerate(reports):
        tag = f"{rep['backend']}, {rep['precision']}"
        marker = REPORT_MARKERS[r % len(REPORT_MARKERS)]
        ls = dp.FILE_LINESTYLES[r % len(dp.FILE_LINESTYLES)]
        for row in sorted(rep["orders"], key=lambda o: o["order"]):
            n = row["order"]
            c = dp.order_colour(n)
            h, err = row["h"], row["err"]
            all_h.update(h)
            label = f"N = {n}" + (f" ({tag})" if many else "")
            if many and row["eoc"] is not None:
                label += f": EOC {row['eoc']:.2f}"
            ax.loglog(h, err, marker=marker, linestyle=ls, color=c, label=label,
                      markerfacecolor=c if r == 0 else "white")
            if not args.no_reference and len(h) >= 2 and n not in referenced:
                # Reference slope N+1 through the last point, over the mesh sizes of this order in all reports
                # (drawn once per order).
                referenced.add(n)
                p = n + 1
                h0, e0 = h[-1], 0.5 * err[-1]  # a little under the line, so that a line of rate N+1 stays visible
                hs_all = [x for rr in reports for o in rr["orders"] if o["order"] == n for x in o["h"]]
                hs = [min(hs_all), max(hs_all)]
                ax.loglog(hs, [e0 * (x / h0) ** p for x in hs], linestyle=(0, (4, 3)), color=c, linewidth=1.0,
                          alpha=0.55)
                have_reference = True
            if row["eoc"] is not None and not many:  # several reports: the EOC is in the legend
                i_last = min(range(len(h)), key=lambda i: h[i])
                ax.annotate(f"{row['eoc']:.2f}", xy=(h[i_last], err[i_last]), xytext=(-7, 0),
                            textcoords="offset points", ha="right", va="center", fontsize=8, color=c,
                            fontweight="bold")
    ax.set_xlabel("mesh size h")
    ax.set_ylabel("L2 error")
    cases = sorted({rep["case"] for rep in reports})
    if args.title:
        title = args.title
    elif many:
        title = f"{', '.join(cases)}: convergence"
    else:
        title = f"{cases[0]}: convergence ({reports[0]['backend']}, {reports[0]['precision']})"
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.25)
    set_h_ticks(ax, sorted(all_h))
    ax.margins(x=0.1, y=0.08)
    handles, labels = ax.get_legend_handles_labels()
    if have_reference:
        handles.append(Line2D([], [], color="0.4", linestyle=(0, (4, 3)), linewidth=1.0))
        labels.append("slope N + 1")
    handles.append(Line2D([], [], linestyle="none"))
    labels.append("EOC: measured order of\nthe last two meshes" if many else "numbers: EOC of\nthe last two meshes")
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, framealpha=0.9)
    fig.tight_layout()
    dp.save_figure(fig, args.output)
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(dp.run_main("convergence.py", main))
