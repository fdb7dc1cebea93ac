// The nodal Maxwell volume kernel written once more in plain CUDA C++, in the benchmark program
// only: the kernel the solver runs (the tuned family's micro or tensor-core volume kernel with
// the tuned parameters, else the straightforward TeamKernels::TagVolume) reads the same device
// arrays and does the same arithmetic in the same order, so the two results agree bitwise and
// their times tell what Kokkos costs on the same work.
#pragma once

#include <string>

#include "dgk/core/simulation.hpp"

namespace dgk::app {

struct CudaReferenceTiming {
  bool available = false;  ///< false: not a CUDA build, or not the nodal maxwell3d solver in double
  std::string why;         ///< when not available
  std::string kernel;      ///< "micro" or "tensor" (the tuned kernel, its parameters), or "thread"
  double seconds = 0;      ///< median of the plain CUDA volume kernel, CUDA events
  double wall_seconds = 0;  ///< the same kernel on the host's clock (launch and fence), as dgk bench times
  double kokkos_event_seconds = 0;  ///< the Kokkos volume kernel with CUDA events on the same stream
  double kokkos_wall_seconds = 0;   ///< the Kokkos volume kernel on the host's clock, alternating with the others
  double queued_seconds = 0;  ///< the plain CUDA kernel alone: CUDA events, launched behind a wait on the GPU
  double kokkos_queued_seconds = 0;  ///< the Kokkos volume kernel alone, the same way
  double launch_seconds = 0;  ///< the host's time in the plain CUDA launch call (median, with events)
  double kokkos_launch_seconds = 0;  ///< the host's time in the solver's volume() call, the same way
  double max_difference = 0;  ///< largest |rhs_cuda - rhs_kokkos| (0: bitwise)
};

/// Times the plain CUDA volume kernel on `sim`'s data (median of `reps` after a warm-up, with CUDA
/// events, with the host's clock, and with the events queued behind a wait on the GPU so that they
/// time the kernel alone), the Kokkos volume kernel with the same clocks, and compares their
/// outputs.
CudaReferenceTiming time_cuda_reference_volume(Simulation& sim, int reps);

}  // namespace dgk::app
