#!/usr/bin/env python3
"""Turns the JSON report of `dgk bench` into a Markdown table (one row per order and kernel)."""
import json
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: bench_table.py REPORT.json", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        rep = json.load(f)
    print(f"Ceilings measured in the run: copy {rep['copy_gbytes_per_s']:.0f} GB/s (read + write), "
          f"FMA {rep['fma_gflops']:.0f} GFLOP/s ({rep['precision']}).\n")
    print("| N | kernel | time (ms) | GFLOP/s | GB/s | % of roofline | s per DOF |")
    print("|---|---|---|---|---|---|---|")
    for row in rep["kernels"]:
        bold = "**" if row["kernel"] == "stage" else ""
        print(f"| {row['order']} | {bold}{row['kernel']}{bold} | {row['seconds'] * 1e3:.3f} | "
              f"{row['gflops']:.1f} | {row['gbytes_per_s']:.1f} | {100 * row['roofline_fraction']:.1f} | "
              f"{row['seconds'] / row['dofs']:.3e} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
