#!/usr/bin/env python3
"""Where a kernel's warps wait, instruction by instruction, from Nsight Compute's source page.

Input: the CSV of `ncu -i REPORT.ncu-rep --page source --csv --print-source sass` for a report
taken with the source counters (`--set full`, or `--section SourceCounters`). Prints the share of
the warp-state samples of each stall reason, the instructions with the most samples (index in the
SASS listing, share of all samples, the instruction, its three largest reasons) and the samples by
opcode. With --regions, instead: the listing cut into regions at the barriers (BAR) and at the
first and last tensor-core product (DMMA), and for each its share of the samples, its loads,
stores and products, and the sectors its global loads and stores ask of the L2 (the source
counters' L2 Theoretical Sectors Global, and the ideal: as many as the bytes need), per element
where ELEMENTS is given.

    scripts/ncu_sass_stalls.py SASS.csv [TOP]
    scripts/ncu_sass_stalls.py --regions SASS.csv [ELEMENTS]
"""
import collections
import csv
import sys


def number(v):
    return float(v.replace(',', '') or 0) if v not in ('', '-') else 0.0


def opcode(source):
    words = source.split()
    if words and words[0].startswith('@'):
        words = words[1:]
    return words[0].split('.')[0] if words else ''


def listing(path):
    """The source page's instructions (rows), a column's index by name, and each row's opcode;
    prints the kernel's name (the first line; the second names the columns)."""
    rows = list(csv.reader(open(path)))
    print(rows[0][1] if len(rows[0]) > 1 else rows[0][0])
    col = {h: i for i, h in enumerate(rows[1])}
    data = rows[2:]
    return data, col, [opcode(r[col['Source']]) for r in data]


def regions(path, elements):
    data, col, ops = listing(path)
    value = lambda k, name: number(data[k][col[name]]) if name in col else 0.0
    bars = [k for k, op in enumerate(ops) if op == 'BAR']
    dmma = [k for k, op in enumerate(ops) if op == 'DMMA']
    cuts = {0, len(data)} | set(bars) | {k + 1 for k in bars} | ({dmma[0], dmma[-1] + 1} if dmma else set())
    cuts = sorted(cuts)
    samples, sectors, ideal = 'Warp Stall Sampling (All Samples)', 'L2 Theoretical Sectors Global', \
        'L2 Theoretical Sectors Global Ideal'
    total = sum(value(k, samples) for k in range(len(data)))
    per = f' per element (of {elements})' if elements else ''
    print(f'{len(data)} instructions, {total:.0f} warp-state samples, '
          f'{sum(value(k, sectors) for k in range(len(data))):.4g} global sectors asked of the L2')
    print(f'region: share of samples; LDG, STG, DMMA, LDS, STS in the listing; global load / store sectors{per}, '
          'and the ideal load sectors')
    scale = 1.0 / elements if elements else 1.0
    for a, b in zip(cuts, cuts[1:]):
        span = range(a, b)
        count = collections.Counter(ops[k] for k in span)
        of = lambda name, op: scale * sum(value(k, name) for k in span if ops[k] == op)
        share = 100 * sum(value(k, samples) for k in span) / total if total else 0.0
        print(f'  [{a:5d}, {b:5d}) {share:5.1f}%  {count["LDG"]:4d} {count["STG"]:3d} {count["DMMA"]:4d} '
              f'{count["LDS"]:4d} {count["STS"]:4d}   {of(sectors, "LDG"):9.4g} / {of(sectors, "STG"):9.4g}  '
              f'ideal {of(ideal, "LDG"):9.4g}')


def main():
    if sys.argv[1] == '--regions':
        regions(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
        return
    data, col, ops = listing(sys.argv[1])
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    reasons = [h for h in col if h.startswith('stall_') and 'Not Issued' not in h]
    samples_of = lambda r: number(r[col['Warp Stall Sampling (All Samples)']])
    total = sum(samples_of(r) for r in data)
    by_reason = collections.Counter()
    for r in data:
        for h in reasons:
            by_reason[h] += number(r[col[h]])
    print(f'warp-state samples: {total:.0f}')
    for h, v in by_reason.most_common(10):
        print(f'  {h[6:]:20s} {100 * v / total:5.1f}%')
    print(f'the {top} instructions with the most samples (index, share, instruction, reasons):')
    ranked = sorted(((samples_of(r), k, r) for k, r in enumerate(data)), reverse=True)[:top]
    for s, k, r in ranked:
        why = sorted(((number(r[col[h]]), h[6:]) for h in reasons), reverse=True)[:3]
        print(f'{k:5d} {100 * s / total:5.2f}%  {r[col["Source"]].strip()[:64]:64s}',
              ' '.join(f'{h}:{100 * v / total:.1f}' for v, h in why if v > 0))
    by_op, executed = collections.Counter(), collections.Counter()
    for r, op in zip(data, ops):
        by_op[op] += samples_of(r)
        executed[op] += number(r[col['Instructions Executed']])
    print('samples by opcode (share, warp instructions executed):')
    for op, v in by_op.most_common(12):
        print(f'  {op:10s} {100 * v / total:5.1f}%  {executed[op]:.3g}')


if __name__ == '__main__':
    main()
