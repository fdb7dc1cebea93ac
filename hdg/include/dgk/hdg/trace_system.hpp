// The HDG trace system of the model problem -div grad u = f with Dirichlet data on the whole
// boundary, on triangles or tetrahedra: assembled by element-wise static condensation on the
// device (dgk/kernels/hdg/local_solver.hpp) into the dense block format of paper 001, solved by
// conjugate gradients with the fused tensor-contraction product, and the element unknown
// recovered from the trace.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include "dgk/hdg/reference.hpp"
#include "dgk/hdg/trace_mesh.hpp"
#include "dgk/kernels/hdg/dense_block_spmv.hpp"
#include "dgk/kernels/hdg/local_solver.hpp"

namespace dgk::hdg {

/// A trace-system matrix in the dense block format, on Space, in precision Real.
template <class Real, class Space>
struct TraceMatrix {
  using Mem = typename Space::memory_space;
  kernels::hdg::DenseBlockView<Real, Space> dbf;
  /// Real neighbour slots of each block row (n_af); the others hold zero blocks.
  std::vector<int> num_neighbours;
  long long rows() const { return static_cast<long long>(dbf.m) * dbf.r; }
  /// Bytes of the dense block format: the blocks and the neighbour list.
  double bytes() const {
    return static_cast<double>(dbf.A.size()) * sizeof(Real) + static_cast<double>(dbf.nbr.size()) * sizeof(int);
  }
};

/// The same matrix in another precision.
template <class Real, class Space>
TraceMatrix<Real, Space> convert(const TraceMatrix<double, Space>& a);

template <class Real, class Space>
using CrsMatrix = KokkosSparse::CrsMatrix<Real, int, Space, void, int>;

/// The same matrix in compressed sparse rows: every real neighbour block (n_af per row),
/// padding left out.
template <class Real, class Space>
CrsMatrix<Real, Space> to_crs(const TraceMatrix<Real, Space>& a);

/// Bytes of a CRS matrix: values, column indices and row offsets.
template <class Real, class Space>
double crs_bytes(const CrsMatrix<Real, Space>& a) {
  return static_cast<double>(a.nnz()) * (sizeof(Real) + sizeof(int)) + (a.numRows() + 1.0) * sizeof(int);
}

/// A manufactured solution: u and f = -div grad u at a point (dim coordinates).
struct PoissonProblem {
  std::function<double(const double*)> u, f;
  std::string name;
  /// u = prod_d cos(pi x_d) + x_0: smooth, with non-zero boundary values.
  static PoissonProblem cosine(int dim);
};

struct PoissonOptions {
  int order = 1;     ///< polynomial degree p of element and face spaces, 0..10
  double tau = 1.0;  ///< stabilization
};

struct CgOptions {
  double tolerance = 1e-12;  ///< on the residual relative to the right-hand side
  int max_iterations = 0;    ///< 0: the number of unknowns
};

struct CgResult {
  int iterations = 0;
  double relative_residual = 0;
};

template <class Space>
class HdgPoisson {
 public:
  using Mem = typename Space::memory_space;
  using Vector = Kokkos::View<double*, Mem>;

  /// Builds the reference operators and assembles the trace system (throws dgk::Error for an
  /// order outside 0..10).
  HdgPoisson(TraceMesh mesh, const PoissonOptions& options, PoissonProblem problem);

  const TraceMesh& mesh() const { return mesh_; }
  const HdgReference& reference() const { return ref_; }
  const TraceMatrix<double, Space>& matrix() const { return matrix_; }
  const Vector& rhs() const { return rhs_; }
  const Vector& trace() const { return trace_; }
  long long trace_unknowns() const { return matrix_.rows(); }
  double assembly_seconds() const { return assembly_seconds_; }

  /// Conjugate gradients on the trace system from a zero guess, with the fused contraction
  /// product. Throws dgk::Error with the iteration count and residual when the tolerance is not
  /// reached.
  CgResult solve(const CgOptions& options = {});
  /// The element unknown recovered from the current trace: (element, basis function), host.
  std::vector<double> element_unknowns() const;
  /// L2 norm over the domain of u_h - u for the current trace.
  double l2_error() const;

 private:
  TraceMesh mesh_;
  HdgReference ref_;
  PoissonOptions options_;
  PoissonProblem problem_;
  TraceMatrix<double, Space> matrix_;
  Vector rhs_, trace_;
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> fK_;
  kernels::hdg::LocalSolverData<Space> data_;
  double assembly_seconds_ = 0;
};

}  // namespace dgk::hdg
