#!/usr/bin/env python3
"""Markdown tables of the tuned nodal kernels from the reports of scripts/gpu-tune.sh:

    tuned_tables.py BENCH_THREAD.json BENCH_TUNED.json [TUNE.json]

Per order: each kernel of the straightforward and the tuned family (time, GFLOP/s, GB/s, % of the
roofline bound), the stage speedup, the tuned parameters, and the plain CUDA reference of the
tuned volume kernel where the report has it."""
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def tc(row):
    """The fraction of the roofline at the tensor-core rate, for a kernel on the tensor cores."""
    return f" ({100 * row['tensor_roofline_fraction']:.1f})" if "tensor_roofline_fraction" in row else ""


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    thread, tuned = load(sys.argv[1]), load(sys.argv[2])
    print(f"Ceilings measured in the runs: copy {thread['copy_gbytes_per_s']:.0f} / {tuned['copy_gbytes_per_s']:.0f} "
          f"GB/s (read + write), FMA {thread['fma_gflops']:.0f} / {tuned['fma_gflops']:.0f} GFLOP/s "
          f"({tuned['precision']}; straightforward / tuned run)"
          + (f", FP64 tensor-core mma {tuned['tensor_gflops']:.0f} GFLOP/s (tuned run)" if "tensor_gflops" in tuned else "")
          + f", {tuned['elements']} elements.\n")
    print("A kernel on the tensor cores shows, after its % of roofline, in brackets its fraction of the "
          "roofline at the tensor-core rate.\n\n" if "tensor_gflops" in tuned else "", end="")
    print("| N | kernels | kernel | time (ms) | GFLOP/s | GB/s | % of roofline |")
    print("|---|---|---|---|---|---|---|")
    orders = sorted({r["order"] for r in tuned["kernels"]})
    stage, whole = {}, {}
    for n in orders:
        for name, rep in (("thread", thread), ("tuned", tuned)):
            for r in rep["kernels"]:
                if r["order"] != n:
                    continue
                bold = "**" if r["kernel"] in ("stage", "whole stage") else ""
                if r["kernel"] == "stage":
                    stage[(n, name)] = r
                if r["kernel"] == "whole stage":
                    whole[(n, name)] = r
                print(f"| {n} | {name} | {bold}{r['kernel']}{bold} | {r['seconds'] * 1e3:.3f} | {r['gflops']:.1f} | "
                      f"{r['gbytes_per_s']:.1f} | {100 * r['roofline_fraction']:.1f}{tc(r)} |")
    # The stage as a run takes it (its kernels back to back) where the reports time it, else the
    # sum of its kernels timed one by one.
    if whole:
        stage = whole
        print("\nWhole stages (the stage's kernels back to back, as a run takes them):")
    print("\n| N | thread stage (ms) | tuned stage (ms) | speedup | tuned stage % of roofline | tuned parameters |")
    print("|---|---|---|---|---|---|")
    for n in orders:
        a, b = stage.get((n, "thread")), stage.get((n, "tuned"))
        if not a or not b:
            continue
        params = next((r.get("tuning", "") for r in tuned["kernels"] if r["order"] == n and "tuning" in r), "")
        print(f"| {n} | {a['seconds'] * 1e3:.3f} | {b['seconds'] * 1e3:.3f} | {a['seconds'] / b['seconds']:.2f} | "
              f"{100 * b['roofline_fraction']:.1f}{tc(b)} | {params} |")
    ref = tuned.get("cuda_reference", [])
    if ref:
        # Both kernels on three clocks: CUDA events on the same stream, the host's clock around
        # launch and fence (how dgk bench times every kernel), and the events with the launch
        # queued behind a wait on the GPU (the kernel alone; absent from older data).
        queued = all("queued_seconds" in r for r in ref)
        print("\n| N | CUDA kernel | Kokkos, events (ms) | CUDA, events (ms) | Kokkos / CUDA, events "
              "| Kokkos, wall (ms) | CUDA, wall (ms) | Kokkos / CUDA, wall |"
              + (" Kokkos, alone (ms) | CUDA, alone (ms) | Kokkos / CUDA, alone |" if queued else "")
              + " max difference |")
        print("|---|---|---|---|---|---|---|---|---|" + ("---|---|---|" if queued else ""))
        for r in ref:
            ke, ce = r["kokkos_event_seconds"], r["seconds"]
            kw, cw = r["kokkos_wall_seconds"], r["wall_seconds"]
            alone = ""
            if queued:
                kq, cq = r["kokkos_queued_seconds"], r["queued_seconds"]
                alone = f" {kq * 1e3:.4f} | {cq * 1e3:.4f} | {kq / cq:.3f} |"
            print(f"| {r['order']} | {r.get('cuda_kernel', '')} | {ke * 1e3:.3f} | {ce * 1e3:.3f} | {ke / ce:.3f} | "
                  f"{kw * 1e3:.3f} | {cw * 1e3:.3f} | {kw / cw:.3f} |{alone} {r['max_difference']:.1e} |")
    if len(sys.argv) == 4:
        tune = load(sys.argv[3])
        print(f"\nTuning ({tune['precision']}, {tune['elements']} elements):\n")
        print("| N | thread stage (ms) | tuned stage (ms) | timings | choice |")
        print("|---|---|---|---|---|")
        for r in tune["orders"]:
            print(f"| {r['order']} | {r['thread_stage_seconds'] * 1e3:.3f} | {r['stage_seconds'] * 1e3:.3f} | "
                  f"{r['timings']} | {r['choice']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
