# Run by ParaView's pvbatch: has dgk write a short maxwell3d run with output, opens the XDMF
# with ParaView's reader, and checks that ParaView sees the time steps, the sizes, the field
# and cell arrays by name, and the same value ranges as the HDF5 file holds (read with h5py).
import argparse
import os
import subprocess
import sys

import h5py
import numpy as np
from paraview.simple import XDMFReader

parser = argparse.ArgumentParser()
parser.add_argument("--dgk", required=True)
parser.add_argument("--workdir", required=True)
args = parser.parse_args()
os.makedirs(args.workdir, exist_ok=True)
h5 = os.path.join(args.workdir, "pulse.h5")
xdmf = os.path.join(args.workdir, "pulse.xdmf")
subprocess.run([args.dgk, "run", "--mesh", "box:2", "--order", "3", "--initial", "pulse:0.5,0.5,0.5,0.2",
                "--final-time", "0.2", "--output", h5, "--output-every", "4", "--quiet", "--backend", "serial"],
               check=True)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


with h5py.File(h5, "r") as f:
    steps = sorted(f["steps"].keys())
    times = [float(f["steps"][s].attrs["time"]) for s in steps]
    npoints = f["mesh/points"].shape[0]
    ncells = f["mesh/cells"].shape[0]
    nbfaces = f["boundary/cells"].shape[0]
    last = f["steps"][steps[-1]]
    field_ranges = {name: (float(np.min(last[name])), float(np.max(last[name]))) for name in last.keys()}
    cell_ranges = {name: (float(np.min(f["mesh"][name])), float(np.max(f["mesh"][name])))
                   for name in ("element", "partition", "epsilon", "mu")}
    tag_range = (float(np.min(f["boundary/tag"])), float(np.max(f["boundary/tag"])))

reader = XDMFReader(FileNames=[xdmf])
reader.UpdatePipelineInformation()
pv_times = list(reader.TimestepValues)
check(len(pv_times) == len(times) and np.allclose(pv_times, times, rtol=0, atol=1e-15),
      "time steps: ParaView %s, file %s" % (pv_times, times))
# The multiblock data set's arrays: the union over the volume and boundary grids.
merged = reader
merged.UpdatePipeline(times[-1])
info = merged.GetDataInformation()
# The boundary grid's triangles come along as a second block.
check(info.GetNumberOfCells() == ncells + nbfaces,
      "cells: ParaView %d, file %d + %d" % (info.GetNumberOfCells(), ncells, nbfaces))
check(info.GetNumberOfPoints() >= npoints, "points: ParaView %d, file %d" % (info.GetNumberOfPoints(), npoints))
names = [a.Name for a in merged.PointData]
for name, (lo, hi) in field_ranges.items():
    if name not in names:
        failures.append("field %s missing in ParaView (has %s)" % (name, names))
        continue
    r = merged.PointData[name].GetRange()
    scale = max(abs(lo), abs(hi), 1e-300)
    check(abs(r[0] - lo) <= 1e-14 * scale and abs(r[1] - hi) <= 1e-14 * scale,
          "range of %s: ParaView %s, file %s" % (name, r, (lo, hi)))
check(field_ranges["Ez"][1] > 1e-3, "the pulse is not in the output (max Ez %g)" % field_ranges["Ez"][1])
cell_names = [a.Name for a in merged.CellData]
for name, (lo, hi) in cell_ranges.items():
    if name not in cell_names:
        failures.append("cell array %s missing in ParaView (has %s)" % (name, cell_names))
        continue
    r = merged.CellData[name].GetRange()
    check(r[0] <= lo and r[1] >= hi, "range of %s: ParaView %s, file %s" % (name, r, (lo, hi)))
check("tag" in cell_names, "boundary tag missing in ParaView (has %s)" % cell_names)
if "tag" in cell_names:
    r = merged.CellData["tag"].GetRange()
    check(r[1] == tag_range[1], "boundary tags: ParaView %s, file %s" % (r, tag_range))

if failures:
    print("ParaView check FAILED:")
    for f in failures:
        print("  " + f)
    sys.exit(1)
print("ParaView %s read %d steps, %d cells, fields %s" % ("ok", len(pv_times), info.GetNumberOfCells(), sorted(field_ranges)))
