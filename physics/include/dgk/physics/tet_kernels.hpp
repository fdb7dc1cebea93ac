// Which basis and which kernel family a tetrahedral solver runs (paper 002, section 4.2):
//   nodal     thread     one team per element, one thread per node (dgk/kernels/nodal_tet/kernels.hpp)
//   nodal     blocked    several elements per team, operator entries reused across the block
//                        (dgk/kernels/nodal_tet/blocked.hpp)
//   bernstein sparse     sparse derivative (Algorithm 2), lift as E_L after L_0 (Algorithm 3)
//   bernstein optimal    sparse derivative, lift slice by slice (Algorithm 1)
// (dgk/kernels/bernstein_tet/kernels.hpp). All compute the same semi-discretization: the
// Bernstein and nodal bases span the same space.
#pragma once

#include <string>
#include <vector>

namespace dgk::physics {

enum class TetBasis { Nodal, Bernstein };
enum class TetKernelFamily { Thread, Blocked, Sparse, Optimal };

struct TetKernels {
  TetBasis basis = TetBasis::Nodal;
  TetKernelFamily family = TetKernelFamily::Thread;
  /// Elements per team of the blocked family; 0 chooses by order and execution space.
  int elements_per_team = 0;
};

/// Parses --basis nodal|bernstein and --kernel auto|thread|blocked|sparse|optimal[:E] (E: elements
/// per team of the blocked kernels); throws dgk::Error for an unknown name or a kernel of the
/// other basis.
TetKernels parse_tet_kernels(const std::string& basis, const std::string& kernel);

/// "nodal thread", "bernstein optimal", "nodal blocked:4", ...
std::string to_string(const TetKernels& k);

/// Every (basis, kernel family) pair, for benchmarks and tests.
std::vector<TetKernels> all_tet_kernels();

}  // namespace dgk::physics
