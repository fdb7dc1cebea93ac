"""Summary of alternated bench rounds and Nsight Compute CSVs, for the run scripts in docs/data.

    python3 bench_rounds_summary.py OUT ROUNDS LABEL...

reads OUT/LABEL_R.json (`dgk bench --report`) for R = 1..ROUNDS and prints, for each order, fused
or whole-stage kernel and label, the times (ms) and % of the bound of every round with their
median and the bytes counted; then the metrics of each OUT/ncu_*.csv (`ncu --csv`).
"""
import csv, glob, json, os, statistics, sys

out, rounds, labels = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rows = {}
for label in labels:
    for r in range(1, rounds + 1):
        try:
            d = json.load(open(f"{out}/{label}_{r}.json"))
        except Exception:
            continue
        for k in d["kernels"]:
            if k["kernel"] in ("surface+lift+update", "volume+surface+lift+update", "whole stage"):
                rows.setdefault((k["order"], k["kernel"], label), []).append(
                    (k["seconds"] * 1e3, 100 * k["roofline_fraction"], k.get("bytes", 0)))
for key in sorted(rows):
    t = rows[key]
    print(f"N={key[0]} {key[1]:>27} {key[2]:>8}: " + "  ".join(f"{a:.4f}/{b:.1f}" for a, b, _ in t) +
          f"  median {statistics.median(a for a, _, _ in t):.4f}  counted {t[0][2] / 1e9:.3f} GB")
for f in sorted(glob.glob(f"{out}/ncu_*.csv")):
    vals = {}
    for row in csv.reader(open(f)):
        if len(row) > 3 and "__" in row[-3]:  # the metrics' rows: name, unit, value
            vals[row[-3]] = (row[-2], row[-1])
    print(os.path.basename(f), "  ".join(f"{k.split('__')[1]}={v[1]} {v[0]}" for k, v in vals.items()))
