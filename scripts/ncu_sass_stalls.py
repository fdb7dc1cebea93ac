#!/usr/bin/env python3
"""Where a kernel's warps wait, instruction by instruction, from Nsight Compute's source page.

Input: the CSV of `ncu -i REPORT.ncu-rep --page source --csv --print-source sass` for a report
taken with the source counters (`--set full`). Prints the share of the warp-state samples of each
stall reason, the instructions with the most samples (index in the SASS listing, share of all
samples, the instruction, its three largest reasons) and the samples by opcode.

    scripts/ncu_sass_stalls.py SASS.csv [TOP]
"""
import collections
import csv
import sys


def main():
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
        words = r[col['Source']].split()
        if words and words[0].startswith('@'):
            words = words[1:]
        op = words[0].split('.')[0] if words else ''
        by_op[op] += samples_of(r)
        executed[op] += float(r[col['Instructions Executed']].replace(',', '') or 0)
    print('samples by opcode (share, warp instructions executed):')
    for op, v in by_op.most_common(12):
        print(f'  {op:10s} {100 * v / total:5.1f}%  {executed[op]:.3g}')


if __name__ == '__main__':
    main()
