// Bernstein-Bezier (BB) basis on the reference tetrahedron and its sparse DG operators, after
// Chan & Warburton, "GPU-accelerated Bernstein-Bezier discontinuous Galerkin methods for wave
// problems" (cited below as [CW]: Lemma 1, Section 3.1.2, Algorithms 1-3, Appendix A).
//
// Reference element, barycentrics and faces are those of tetrahedron.hpp:
//   l0 = -(1+r+s+t)/2, l1 = (1+r)/2, l2 = (1+s)/2, l3 = (1+t)/2,
//   B_alpha = N! / (a0! a1! a2! a3!) l0^a0 l1^a1 l2^a2 l3^a3,   |alpha| = a0 + a1 + a2 + a3 = N.
//
// Ordering. Function alpha is numbered like the equispaced node (r, s, t) = (-1 + 2 a1/N,
// -1 + 2 a2/N, -1 + 2 a3/N) of tet_equispaced_nodes: a3 outer, a2 middle, a1 inner, so each B_alpha
// sits at "its" lattice node (and at the same position as the warp & blend node built from it).
// A face f with vertices (va, vb, vc) = tet_face_vertices[f] carries the triangle multi-index
// beta = (alpha_va, alpha_vb, alpha_vc), ordered b2 outer, b1 inner (tri_bernstein_index). In each
// face's own parameters (those of make_tet_nodal's face mass: (r, s), (r, t), (s, t), (s, t)) the
// triangle barycentrics are exactly (l_va, l_vb, l_vc), so the face trace of B_alpha (alpha zero at
// the opposite vertex) is the triangle Bernstein polynomial B_beta. The face functions, listed in
// this order, have increasing volume index; they sit at the positions of make_tet_nodal's fmask.
//
// Face integrals are taken in those face parameters (area 2 for every face, as make_tet_nodal's
// LIFT); the physical scaling enters through the surface Jacobian as for the nodal operators.
//
// Flat storage. Every table of rows x width entries is stored column-major ("LayoutLeft"): entry
// (i, j) at [j * rows + i], so that a Kokkos::View<T**, Kokkos::LayoutLeft>(data, rows, width) wraps
// it and threads i = 0.. rows-1 reading slot j touch consecutive addresses. Padded slots of the
// fixed-width sparse tables hold the value 0 and a valid column index, so kernels may run the full
// width without branches.
//
// Host-side, double precision (Eigen for the dense operators).
#pragma once

#include <array>
#include <vector>

#include <Eigen/Dense>

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/basis/triangle.hpp"

namespace dgk::basis {

/// Position of the degree-n triangle multi-index (n - b1 - b2, b1, b2): b2 outer, b1 inner.
constexpr int tri_bernstein_index(int n, int b1, int b2) {
  return tri_np(n) - tri_np(n - b2) + b1;
}

/// Position of the degree-n tetrahedron multi-index (n - a1 - a2 - a3, a1, a2, a3): a3 outer, a2
/// middle, a1 inner (the ordering of tet_equispaced_nodes).
constexpr int tet_bernstein_index(int n, int a1, int a2, int a3) {
  return tet_np(n) - tet_np(n - a3) + tri_bernstein_index(n - a3, a1, a2);
}

/// All degree-n tetrahedron multi-indices (a0, a1, a2, a3) in index order.
std::vector<std::array<int, 4>> tet_bernstein_multi_indices(int n);

/// All degree-n triangle multi-indices (b0, b1, b2) in index order.
std::vector<std::array<int, 3>> tri_bernstein_multi_indices(int n);

/// Vertex of the tetrahedron opposite face f (the barycentric that vanishes on it): 3, 2, 0, 1.
constexpr std::array<int, 4> tet_face_opposite_vertex{3, 2, 0, 1};

/// Degree-n BB basis on the tetrahedron at the points: VB(k, m) = B_m(r_k, s_k, t_k).
Eigen::MatrixXd tet_bernstein_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s,
                                          const Eigen::VectorXd& t);

/// Partial derivatives of the BB basis with respect to barycentric l_i (the basis read as a
/// polynomial in four independent variables): alpha_i N!/alpha! l^(alpha - e_i).
Eigen::MatrixXd tet_bernstein_bary_derivative_vandermonde(int n, int i, const Eigen::VectorXd& r,
                                                          const Eigen::VectorXd& s, const Eigen::VectorXd& t);

/// Degree-n BB basis on the reference triangle (barycentrics -(r+s)/2, (1+r)/2, (1+s)/2).
Eigen::MatrixXd tri_bernstein_vandermonde(int n, const Eigen::VectorXd& r, const Eigen::VectorXd& s);

/// Bernstein coefficients of the orthonormal basis of tet_vandermonde: column g holds the degree-n
/// BB coefficients of mode g, i.e. the matrix VB^{-1} V. Computed without any inverse: each mode is
/// expanded as a polynomial in the barycentrics from the Jacobi polynomials' explicit sums, with
/// integer arithmetic that is exact in double, then scaled once (0 <= n <= tet_max_order).
Eigen::MatrixXd tet_modal_to_bernstein(int n);

/// The BB operators of the order-N tetrahedron: sparse flat tables for the device kernels and
/// dense matrices from the Vandermonde route, for testing.
struct TetBernstein {
  int order = 0;
  int np = 0;   ///< basis functions per element
  int nfp = 0;  ///< basis functions per face

  /// np x 4: multi-index component a_v of function m at [v * np + m].
  std::vector<int> multi_index;

  // --- Transforms -------------------------------------------------------------------------------
  // Nodal values u and Bernstein coefficients c of one polynomial: u = VB c, c = VBinv u.
  // VB is evaluated directly (products of nonnegative factors: accurate entrywise). VBinv is never
  // obtained by inverting VB: it is Tinv * Vinv, with Tinv = VB^{-1} V from exact polynomial
  // arithmetic and Vinv the inverse of the well-conditioned orthonormal Vandermonde matrix, so its
  // error is ~cond(V) eps rather than cond(VB) eps.
  Eigen::VectorXd r, s, t;  ///< the warp & blend nodes of make_tet_nodal(order) (np)
  Eigen::MatrixXd VB;       ///< Bernstein -> nodal (np x np)
  Eigen::MatrixXd VBinv;    ///< nodal -> Bernstein (np x np)
  Eigen::MatrixXd T;        ///< Bernstein -> orthonormal modal coefficients, Vinv VB (np x np)
  Eigen::MatrixXd Tinv;     ///< orthonormal modal -> Bernstein, tet_modal_to_bernstein (np x np)
  Eigen::MatrixXd M;        ///< Bernstein mass matrix T^T T (np x np)

  // --- Barycentric derivatives ([CW] Lemma 1 / Lemma 2) ----------------------------------------
  // Row alpha of D_i has its nonzeros at the columns alpha + e_i - e_j, j = 0..3, with the value
  // a_j, the same four values for every i. Slot j of a row with a_j = 0 is padding (value 0,
  // column = the row itself). Reference derivatives: d/dr = (D_1 - D_0)/2, d/ds = (D_2 - D_0)/2,
  // d/dt = (D_3 - D_0)/2.
  std::vector<int> d_cols;     ///< np x 16: column of D_i, row m, slot j at [(4 i + j) * np + m]
  std::vector<double> d_vals;  ///< np x 4: value of slot j of row m (= a_j) at [j * np + m]

  // --- Face degree elevation and reduction -----------------------------------------------------
  /// E^N_{N-1} (nfp x nfp(N-1)), 3 slots per row: row beta, slot j -> column beta - e_j (degree
  /// N-1), value b_j / N; slots with b_j = 0 are padding (value 0, column 0).
  std::vector<int> elev_cols;
  std::vector<double> elev_vals;
  /// One-degree reductions (E^m_{m-1})^T, m = 1..N, for Algorithm 1: block m has nfp(m-1) rows
  /// and exactly 3 slots; row gamma, slot j -> column gamma + e_j (degree m), value (g_j + 1)/m, at
  /// [reduce_offset[m] + j * tri_np(m - 1) + row]. reduce_offset has N + 2 entries, the last the
  /// total size.
  std::vector<int> reduce_offset;
  std::vector<int> reduce_cols;
  std::vector<double> reduce_vals;

  // --- Lift factorization L^f = E_L^f L_0 ([CW] Section 3.1.2, Appendix A.3) -------------------
  // L^f = M^{-1} M^f maps the face-f Bernstein coefficients (nfp, face ordering) of a flux to
  // volume Bernstein coefficients. Its rows, grouped by layer i = a_o (o the vertex opposite f;
  // layer i is a degree-(N-i) triangle of multi-indices (a_va, a_vb, a_vc)), are
  // ell_i (E^N_{N-i})^T L_0.
  std::vector<double> ell;  ///< ell_i = (-1)^i binom(N, i) / (1 + i), i = 0..N (ell_0 = 1)
  /// L_0 = (N+1)^2/2 (E^{N+1}_N)^T E^{N+1}_N (nfp x nfp, at most 7 per row), the same for every
  /// face; per row the entries are in increasing column order, padding (value 0, column 0) after.
  static constexpr int l0_width = 7;
  std::vector<int> l0_cols;
  std::vector<double> l0_vals;
  std::vector<int> l0_nnz;  ///< nfp
  /// 4 x np: row p of E_L^f in the layered ordering (layer i = 0..N at offsets
  /// tet_np(N) - tet_np(N - i), triangle index of degree N - i inside) is volume function
  /// face_layer_to_volume[f * np + p]. For face 0 this is the identity.
  std::vector<int> face_layer_to_volume;
  /// 4 x nfp: volume function of face-f function q, [f * nfp + q] (layer 0 of the above).
  std::vector<int> face_to_volume;
  /// E_L = (E_L^0 | ... | E_L^3) (np x 4 nfp) in ELL form with el_width = nfp + 3 slots per row
  /// ([CW]: at most N_fp + 3 nonzeros per row). Column f * nfp + q is face f's function q; a row
  /// lists face 0's entries first, then faces 1, 2, 3, each in increasing column order, then
  /// padding (value 0, column 0).
  int el_width = 0;
  std::vector<int> el_cols;
  std::vector<double> el_vals;
  std::vector<int> el_nnz;  ///< np

  // --- Dense operators by the Vandermonde route (for testing) ----------------------------------
  std::array<Eigen::MatrixXd, 4> Dbary;  ///< VBinv * tet_bernstein_bary_derivative_vandermonde
  Eigen::MatrixXd Dr, Ds, Dt;            ///< VBinv * (nodal D) * VB
  Eigen::MatrixXd LIFT;                  ///< np x 4 nfp: block f = VBinv * (nodal LIFT_f) * VB_f
  Eigen::MatrixXd L0;                    ///< nfp x nfp: the face-0 rows of LIFT's block 0
  Eigen::MatrixXd EL;                    ///< np x 4 nfp: block f = LIFT_f L0^{-1}
};

/// Builds the operators of order n (1 <= n <= tet_max_order); throws dgk::Error otherwise.
TetBernstein make_tet_bernstein(int n);

// --- Sparse application on the host (reference for the device kernels) -------------------------
// u, out: Bernstein coefficients; sizes np (volume), nfp (face), 4 nfp (the four faces' fluxes,
// face f at [f * nfp, (f + 1) nfp)). Unless noted, out is overwritten and must not alias u.

/// out = D_i u (barycentric derivative i, [CW] Lemma 1).
void bb_apply_bary_derivative(const TetBernstein& bb, int i, const double* u, double* out);

/// Reference gradient through the barycentric derivatives ([CW] Algorithm 2, host form).
void bb_apply_reference_gradient(const TetBernstein& bb, const double* u, double* ur, double* us, double* ut);

/// out (nfp) = E^N_{N-1} u, u of size nfp(N-1).
void bb_apply_elevation(const TetBernstein& bb, const double* u, double* out);

/// out (nfp) = L_0 u (u of size nfp).
void bb_apply_l0(const TetBernstein& bb, const double* u, double* out);

/// out (np) = L flux = E_L (L_0 flux_0 | ... | L_0 flux_3) with the ELL table of E_L ([CW]
/// Algorithm 3, host form).
void bb_apply_lift_ell(const TetBernstein& bb, const double* flux, double* out);

/// [CW] Algorithm 1 on flat arrays: out[layer_to_volume[p]] += (E_L^f v)_p for p = 0..np-1, the
/// slice-by-slice sweep (layer 0 is v itself, layer i is ell_i times i successive one-degree
/// reductions of v), O(N^3) operations. layer_to_volume: the np entries of face f in
/// face_layer_to_volume; ell, reduce_*: the tables of TetBernstein. work holds 2 tri_np(n) doubles
/// (the two buffers of the sweep). v is the face vector after L_0 (as printed, steps 3 and 6 of
/// Algorithm 1 reduce u^f; since L^f = E_L^f L_0 the reductions act on L_0 u^f, as here).
void bb_face_reduction_add(int n, const int* layer_to_volume, const double* ell, const int* reduce_offset,
                           const int* reduce_cols, const double* reduce_vals, const double* v, double* work,
                           double* out);

/// bb_face_reduction_add on face f with the tables of bb.
void bb_face_reduction_add(const TetBernstein& bb, int face, const double* v, double* work, double* out);

/// out (np) = L flux through L_0 and Algorithm 1 on each face (the "optimal" surface lift).
void bb_apply_lift_optimal(const TetBernstein& bb, const double* flux, double* out);

/// The reference operators as dense matrices assembled from the sparse tables (each column the
/// sparse form applied to a unit vector): D_r, D_s, D_t (np x np) and L = E_L (L_0 | ... | L_0)
/// (np x 4 nfp). They equal Dr, Ds, Dt and LIFT of TetBernstein up to rounding, without the
/// Vandermonde route's rounding noise: an entry the sparse factors leave zero is zero. The tuned
/// kernels run on Bernstein coefficients with these.
struct TetBernsteinDense {
  Eigen::MatrixXd Dr, Ds, Dt, LIFT;
};
TetBernsteinDense tet_bernstein_dense_operators(const TetBernstein& bb);

}  // namespace dgk::basis
