// Probe for docs/PERFORMANCE.md, "The volume's k-steps unrolled by a factor" (not built by CMake).
//
// One kernel of the stage as one product, for ptxas's registers (-Xptxas=-v) and cuobjdump's SASS:
// Maxwell at order PN, TagTensorStageMerged<PP (paired), PCAP (register cap), PG (gather=halves),
// PU (vunroll)>. Compile it with the command line of the CUDA build's physics/src/tet_case.cpp
// (compile_commands.json), its -o and -c replaced, and -DPN=3 -DPP=true -DPCAP=0 -DPG=false -DPU=3;
// then `cuobjdump -sass` of the object (CUDA 13, as ptxas) and vunroll_sass_counts.py.
#include <Kokkos_Core.hpp>

#include "dgk/physics/maxwell3d.hpp"
// The launch functions are private; the probe launches as the solver does.
#define private public
#include "dgk/kernels/nodal_tet/tuned.hpp"
#undef private

using K = dgk::kernels::nodal_tet::TunedKernels<PN, dgk::physics::Maxwell3D, Kokkos::Cuda, double>;
void probe(const K& k, const Kokkos::Cuda& s) {
  k.launch<dgk::kernels::nodal_tet::TagTensorStageMerged<PP, PCAP, PG, PU>>(s, "probe", 4, 1024, 32);
}
