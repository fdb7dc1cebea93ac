#!/usr/bin/env python3
"""Compares the PTX of every kernel of two builds of one translation unit.

    cuobjdump -xptx all OBJ          # in two folders, one per build
    scripts/ptx_compare.py OLD.ptx NEW.ptx [--tag-extra-false TAG]

Kernels are matched by their demangled names; with --tag-extra-false TAG, a trailing ", false"
of TAG's template arguments in NEW is dropped first (a template parameter appended with default
false). Bodies are compared with symbol names, virtual register numbers and labels normalized, so
"same" means ptxas gets the same program: nvcc's register allocation and schedule of a kernel
depend on its PTX (the offsets of its argument's members included), not on its name.
"""
import argparse
import re
import subprocess
import sys


def entries(path, tag=None):
    text = open(path).read()
    parts = re.split(r"\n(?=\.(?:visible |weak )?\.?entry )", text)
    names, bodies = [], []
    for p in parts:
        m = re.match(r"\.(?:visible |weak )?\.?entry (\S+)\(", p)
        if m:
            names.append(m.group(1))
            bodies.append(p)
    demangled = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
    out = {}
    for d, b in zip(demangled, bodies):
        if tag:
            d = re.sub(r"(%s<[^>]*), false>" % re.escape(tag), r"\1>", d)
        b = re.sub(r"_Z[A-Za-z0-9_]+", "NAME", b)
        b = re.sub(r"%(r|rd|rs|f|fd|p)[0-9]+", r"%\1", b)
        b = re.sub(r"BB[0-9]+_[0-9]+", "BB", b)
        b = re.sub(r"depot[0-9]+", "depot", b)
        out[d] = b
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--tag-extra-false")
    a = ap.parse_args()
    old, new = entries(a.old), entries(a.new, a.tag_extra_false)
    differ = [k for k in old if k in new and old[k] != new[k]]
    for k in differ:
        print("differs:", k[:300])
    missing = [k for k in old if k not in new]
    for k in missing:
        print("only in old:", k[:300])
    print("kernels: %d same, %d differ, %d only in old, %d only in new"
          % (sum(1 for k in old if k in new and old[k] == new[k]), len(differ), len(missing),
             sum(1 for k in new if k not in old)))
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
