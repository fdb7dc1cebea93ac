#!/usr/bin/env bash
# Shared against generic scratch accesses, registers and stack of an N = 6 Maxwell double
# tensor-core lift kernel of a dgk build:
#   lift_prefetch_sass.sh DGK OUTFILE [TAG]
# TAG: TagTensorLift's mangled template arguments, by default ILi1ELb0ELi0ELb0ELb0ELb1E (the
# loads-ahead kernel, <1, false, 0, false, false, true>); kernels under a register cap are
# launched with Kokkos::LaunchBounds, which changes their names, and are not found this way.
# Writes the kernel's SASS (cuobjdump -sass, CUDA 13) to OUTFILE and prints its registers and
# stack (where `cuobjdump -res-usage` reads the whole program), how many copies of the kernel the
# program holds (one per cubin that instantiates it) and the instruction counts of the first.
set -uo pipefail
f="_ZN6Kokkos4Impl33cuda_parallel_launch_local_memoryINS0_11ParallelForIN3dgk7kernels9nodal_tet12TunedKernelsILi6ENS3_7physics9Maxwell3DENS_4CudaEdEENS_10TeamPolicyIJS9_NS5_13TagTensorLift${3:-ILi1ELb0ELi0ELb0ELb0ELb1E}EENS_12Experimental16WorkItemProperty20ImplWorkItemPropertyILm1EEEEEES9_EEEEvT_"
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$cuobjdump" -sass -fun "$f" "$1" > "$2" 2>&1
"$cuobjdump" -res-usage "$1" 2>/dev/null | grep -A1 "$f" | grep -o "REG:[0-9]*\|STACK:[0-9]*" | tr '\n' ' '
echo
echo "copies: $(grep -c 'Function :' "$2")"
first=$(awk '/Function :/ { n++ } n == 1' "$2")
printf '%-10s %s\n' instructions "$(grep -cE '^[[:space:]]+/\*[0-9a-f]{4}\*/' <<< "$first")"
for op in LDS.64 LDS STS.64 LD.E.64 ST.E.64 LDL.U8 STL.U8 CCTL.E.PF1 DMMA.8x8x4; do
  printf '%-10s %s\n' "$op" "$(grep -cE "[[:space:]]$op[[:space:]]" <<< "$first")"
done
