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


def regions(path, elements):
    rows = list(csv.reader(open(path)))
    print(rows[0][1] if len(rows[0]) > 1 else rows[0][0])
    header, data = rows[1], rows[2:]
    col = {h: i for i, h in enumerate(header)}
    ops = [opcode(r[col['Source']]) for r in data]
    dmma = [k for k, op in enumerate(ops) if op == 'DMMA']
    cuts = {0, len(data)} | {k for k, op in enumerate(ops) if op == 'BAR'} | {k + 1 for k, op in enumerate(ops) if op == 'BAR'}
    if dmma:
        cuts |= {dmma[0], dmma[-1] + 1}
    cuts = sorted(cuts)
    value = lambda r, name: number(r[col[name]]) if name in col else 0.0
    total = sum(value(r, 'Warp Stall Sampling (All Samples)') for r in data)
    sectors = sum(value(r, 'L2 Theoretical Sectors Global') for r in data)
    per = f' per element (of {elements})' if elements else ''
    print(f'{len(data)} instructions, {total:.0f} warp-state samples, {sectors:.4g} global sectors asked of the L2')
    print(f'region: share of samples; LDG, STG, DMMA, LDS, STS in the listing; global load / store sectors{per}, '
          'and the ideal load sectors')
    for a, b in zip(cuts, cuts[1:]):
        part = data[a:b]
        count = lambda name: sum(1 for k in range(a, b) if ops[k] == name)
        ld = sum(value(r, 'L2 Theoretical Sectors Global') for r in part if opcode(r[col['Source']]) == 'LDG')
        ideal = sum(value(r, 'L2 Theoretical Sectors Global Ideal') for r in part if opcode(r[col['Source']]) == 'LDG')
        st = sum(value(r, 'L2 Theoretical Sectors Global') for r in part if opcode(r[col['Source']]) == 'STG')
        scale = 1.0 / elements if elements else 1.0
        share = 100 * sum(value(r, 'Warp Stall Sampling (All Samples)') for r in part) / total if total else 0.0
        print(f'  [{a:5d}, {b:5d}) {share:5.1f}%  {count("LDG"):4d} {count("STG"):3d} {count("DMMA"):4d} '
              f'{count("LDS"):4d} {count("STS"):4d}   {ld * scale:9.4g} / {st * scale:9.4g}  ideal {ideal * scale:9.4g}')


def main():
    if sys.argv[1] == '--regions':
        regions(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
        return
    rows = list(csv.reader(open(sys.argv[1])))
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    # The first line names the kernel, the second the columns.
    print(rows[0][1] if len(rows[0]) > 1 else rows[0][0])
    header, data = rows[1], rows[2:]
    col = {h: i for i, h in enumerate(header)}
    reasons = [h for h in header if h.startswith('stall_') and 'Not Issued' not in h]
    samples_of = lambda r: float(r[col['Warp Stall Sampling (All Samples)']] or 0)
    total = sum(samples_of(r) for r in data)
    by_reason = collections.Counter()
    for r in data:
        for h in reasons:
            by_reason[h] += float(r[col[h]] or 0)
    print(f'warp-state samples: {total:.0f}')
    for h, v in by_reason.most_common(10):
        print(f'  {h[6:]:20s} {100 * v / total:5.1f}%')
    print(f'the {top} instructions with the most samples (index, share, instruction, reasons):')
    ranked = sorted(((samples_of(r), k, r) for k, r in enumerate(data)), reverse=True)[:top]
    for s, k, r in ranked:
        why = sorted(((float(r[col[h]] or 0), h[6:]) for h in reasons), reverse=True)[:3]
        print(f'{k:5d} {100 * s / total:5.2f}%  {r[col["Source"]].strip()[:64]:64s}',
              ' '.join(f'{h}:{100 * v / total:.1f}' for v, h in why if v > 0))
    by_op, executed = collections.Counter(), collections.Counter()
    for r in data:
        op = opcode(r[col['Source']])
        by_op[op] += samples_of(r)
        executed[op] += float(r[col['Instructions Executed']].replace(',', '') or 0)
    print('samples by opcode (share, warp instructions executed):')
    for op, v in by_op.most_common(12):
        print(f'  {op:10s} {100 * v / total:5.1f}%  {executed[op]:.3g}')


if __name__ == '__main__':
    main()
