// Which basis and which kernel family a tetrahedral solver runs (paper 002, section 4.2):
//   nodal     thread     one team per element, one thread per node (dgk/kernels/nodal_tet/kernels.hpp)
//   nodal     blocked    several elements per team, operator entries reused across the block
//                        (dgk/kernels/nodal_tet/blocked.hpp)
//   nodal     tuned      the tunable variants (dgk/kernels/nodal_tet/tuned.hpp) with the
//                        parameters an autotuner chose for the order, precision and device
//                        (dgk/physics/tet_tuning.hpp); the default of the nodal basis
//   bernstein sparse     sparse derivative (Algorithm 2), lift as E_L after L_0 (Algorithm 3)
//   bernstein optimal    sparse derivative, lift slice by slice (Algorithm 1)
//   bernstein tuned      the tuned kernels above on Bernstein coefficients, with the dense forms
//                        of the Bernstein D_r, D_s, D_t and LIFT (basis::tet_bernstein_dense_operators)
// (dgk/kernels/bernstein_tet/kernels.hpp). All compute the same semi-discretization: the
// Bernstein and nodal bases span the same space.
#pragma once

#include <string>
#include <vector>

#include "dgk/kernels/nodal_tet/tuning_shape.hpp"

namespace dgk::physics {

enum class TetBasis { Nodal, Bernstein };
enum class TetKernelFamily { Thread, Blocked, Tuned, Sparse, Optimal };

struct TetKernels {
  TetBasis basis = TetBasis::Nodal;
  TetKernelFamily family = TetKernelFamily::Thread;
  /// Elements per team of the blocked family; 0 chooses by order and execution space.
  int elements_per_team = 0;
  /// The tuned family's variants and parameters; set from the tuning cache or by the tuner
  /// before the solver runs (see dgk/physics/tet_tuning.hpp).
  kernels::nodal_tet::NodalTuning tuning;
  bool tuned = false;  ///< whether `tuning` holds a choice
};

/// Parses --basis nodal|bernstein and --kernel auto|thread|blocked[:E]|tuned|sparse|optimal (E:
/// elements per team of the blocked kernels; auto: tuned for nodal, optimal for bernstein; tuned
/// for either); throws dgk::Error for an unknown name or a kernel of the other basis.
TetKernels parse_tet_kernels(const std::string& basis, const std::string& kernel);

/// "nodal thread", "bernstein optimal", "nodal blocked:4", "nodal tuned (volume micro k=4 ...)"
std::string to_string(const TetKernels& k);

/// The tuned choice in words: "volume micro k=4 wi=2 ws=1 staged=fields; lift fused-update k=2
/// wi=1 ws=1 staged=operator".
std::string to_string(const kernels::nodal_tet::NodalTuning& t);

/// Every (basis, kernel family) pair, for benchmarks and tests.
std::vector<TetKernels> all_tet_kernels();

}  // namespace dgk::physics
