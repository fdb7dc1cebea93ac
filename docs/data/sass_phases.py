#!/usr/bin/env python3
"""Nsight Compute's warp-state samples of the stage as one product, summed by phase.

  sass_phases.py [--lift] CSV [CSV...]   each the source page of one launch (ncu -i REPORT
                                         --page source --csv --print-source sass), xz-compressed
                                         or not

Phases are found in the SASS: the executed barriers (BAR) end the gathers, the first DMMA starts
the volume, the first shared load (LDS) after the first barrier starts the lift, the last DMMA
ends the products; what follows is the update (epilogue).

With --lift the launch is the tensor-core lift with its product through scratch (fused update):
the first executed barrier ends the gather, the products run from there to the last DMMA, and
what follows (the product to scratch, a barrier, the epilogue) is the update. The instructions
that hold the most samples are listed after the phases."""
import csv, io, lzma, sys

lift = "--lift" in sys.argv[1:]
for path in [a for a in sys.argv[1:] if a != "--lift"]:
    raw = lzma.open(path, "rt") if path.endswith(".xz") else open(path)
    rows = list(csv.reader(raw))
    hdr, data = rows[1], rows[2:]
    src, samples, executed = hdr.index("Source"), hdr.index("Warp Stall Sampling (All Samples)"), hdr.index("Instructions Executed")
    stalls = [i for i, h in enumerate(hdr) if h.startswith("stall_") and "Not Issued" not in h]
    def op(r):
        t = r[src].split()
        return (t[1] if t and t[0].startswith("@") else (t[0] if t else "")).split(".")[0]
    ops = [op(r) for r in data]
    ran = [int(r[executed].replace(",", "")) > 0 for r in data]
    bars = [j for j, o in enumerate(ops) if o == "BAR" and ran[j]]
    dmma = [j for j, o in enumerate(ops) if o == "DMMA" and ran[j]]
    lds = [j for j, o in enumerate(ops) if o == "LDS" and ran[j] and j > bars[0]]
    halves = len(bars) >= 3 and not lift
    if lift:
        cuts = [("gather", 0), ("products", bars[0])]
    else:
        cuts = [("gather" + (" 1" if halves else ""), 0), ("geometry", bars[0]), ("volume", dmma[0]),
                ("lift" + (" 1" if halves else ""), lds[0])]
    if halves:
        cuts += [("gather 2", bars[1]), ("lift 2", bars[2])]
    cuts += [("update", dmma[-1] + 1)]
    total = sum(int(r[samples]) for r in data)
    print(f"{path}: {len(data)} instructions, {total} samples")
    for n, (name, a) in enumerate(cuts):
        b = cuts[n + 1][1] if n + 1 < len(cuts) else len(data)
        part = data[a:b]
        s = sum(int(r[samples]) for r in part)
        why = {}
        for r in part:
            for i in stalls:
                why[hdr[i][6:]] = why.get(hdr[i][6:], 0) + int(r[i])
        top = ", ".join(f"{k} {100 * v / max(s, 1):.0f}%" for v, k in sorted(((v, k) for k, v in why.items()), reverse=True)[:3])
        print(f"  {name:9} instructions {a:5}-{b - 1:5}: {100 * s / total:5.1f}% of the samples ({top})")
    if lift:
        top = sorted(range(len(data)), key=lambda j: -int(data[j][samples]))[:12]
        for j in sorted(top):
            r = data[j]
            why = sorted(((int(r[i]), hdr[i][6:]) for i in stalls), reverse=True)[:2]
            print(f"  {j:5} {r[src][:60]:60} {100 * int(r[samples]) / total:5.1f}% "
                  + ", ".join(f"{k} {100 * v / max(int(r[samples]), 1):.0f}%" for v, k in why))
