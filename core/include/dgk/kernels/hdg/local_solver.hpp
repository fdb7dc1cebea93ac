// The HDG local solver on one element, as device functions, and the kernels built on it:
// static condensation into the dense block format (paper 001, section III) and recovery of the
// element unknown from the trace.
//
// Model problem: -div grad u = f, written as q + grad u = 0, div q = f, with the numerical
// flux q^ . n = q . n + tau (u - lambda) (Cockburn, Gopalakrishnan & Lazarov 2009). With an
// orthonormal element basis the mass matrix is J I, so q is eliminated in closed form and the
// element problem for u is
//     S u = f_K + R lambda_K,   S = J sum_rs G_rs Dr Ds^T + tau sum_f sJ_f S_f  (SPD),
//     R[:, f] = (sum_r a_fr Dr + tau I) F_f,  a_fr = n_f . grad r_r,  F_f = sJ_f F_ref(f, o_f),
// and the element's contribution to the trace system is
//     A_K = Q - R^T S^{-1} R,   b_K = R^T S^{-1} f_K,
//     Q_fg = (n_f . n_g) / J F_f^T F_g + tau delta_fg sJ_f I.
// S is factorized with KokkosBatched's LU (no pivoting is needed: S is symmetric positive
// definite), one element per thread.
#pragma once

#include <KokkosBatched_LU_Decl.hpp>
#include <KokkosBatched_LU_Serial_Impl.hpp>
#include <KokkosBatched_SolveLU_Decl.hpp>
#include <KokkosBatched_Trsm_Decl.hpp>
#include <KokkosBatched_Trsm_Serial_Impl.hpp>
#include <Kokkos_Core.hpp>

namespace dgk::kernels::hdg {

/// Reference operators and element geometry on the device (double precision).
template <class Space>
struct LocalSolverData {
  using Mem = typename Space::memory_space;
  int dim = 0, np = 0, nfp = 0, nfaces = 0, nperm = 0;
  double tau = 1.0;
  Kokkos::View<double***, Kokkos::LayoutRight, Mem> Dr;        ///< (dim, np, np)
  Kokkos::View<double***, Kokkos::LayoutRight, Mem> S;         ///< (nfaces, np, np)
  Kokkos::View<double***, Kokkos::LayoutRight, Mem> F;         ///< (nfaces * nperm, np, nfp)
  Kokkos::View<double*, Mem> J;                                ///< (elements)
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> drdx;       ///< (elements, dim * dim)
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> normal;     ///< (elements, nfaces * dim)
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> sJ;         ///< (elements, nfaces)
  Kokkos::View<int**, Kokkos::LayoutRight, Mem> orient;        ///< (elements, nfaces)
  Kokkos::View<int**, Kokkos::LayoutRight, Mem> eface;         ///< (elements, nfaces)
  Kokkos::View<int**, Kokkos::LayoutRight, Mem> face_element;  ///< (faces, 2)

  KOKKOS_INLINE_FUNCTION int nl() const { return nfaces * nfp; }

  /// F_ref(f, o_f)(k, i) of element e's face f.
  KOKKOS_INLINE_FUNCTION double Fref(int e, int f, int k, int i) const { return F(f * nperm + orient(e, f), k, i); }

  /// Fills Sm (np x np) and R (np x nl) of element e.
  template <class MatS, class MatR>
  KOKKOS_INLINE_FUNCTION void build(int e, const MatS& Sm, const MatR& R) const {
    double G[9];
    for (int r = 0; r < dim; ++r)
      for (int s = 0; s < dim; ++s) {
        double g = 0;
        for (int d = 0; d < dim; ++d) g += drdx(e, r * dim + d) * drdx(e, s * dim + d);
        G[r * dim + s] = J(e) * g;
      }
    for (int i = 0; i < np; ++i)
      for (int j = 0; j < np; ++j) {
        double v = 0;
        for (int r = 0; r < dim; ++r)
          for (int s = 0; s < dim; ++s) {
            double dd = 0;
            for (int k = 0; k < np; ++k) dd += Dr(r, i, k) * Dr(s, j, k);
            v += G[r * dim + s] * dd;
          }
        for (int f = 0; f < nfaces; ++f) v += tau * sJ(e, f) * S(f, i, j);
        Sm(i, j) = v;
      }
    for (int f = 0; f < nfaces; ++f) {
      double a[3] = {0, 0, 0};
      for (int r = 0; r < dim; ++r)
        for (int d = 0; d < dim; ++d) a[r] += normal(e, f * dim + d) * drdx(e, r * dim + d);
      const double sj = sJ(e, f);
      for (int i = 0; i < np; ++i)
        for (int m = 0; m < nfp; ++m) {
          double v = tau * Fref(e, f, i, m);
          for (int k = 0; k < np; ++k) {
            double dk = 0;
            for (int r = 0; r < dim; ++r) dk += a[r] * Dr(r, i, k);
            v += dk * Fref(e, f, k, m);
          }
          R(i, f * nfp + m) = sj * v;
        }
    }
  }

  /// Q_fg(i, j) of element e.
  KOKKOS_INLINE_FUNCTION double q_entry(int e, int f, int g, int i, int j) const {
    double nn = 0;
    for (int d = 0; d < dim; ++d) nn += normal(e, f * dim + d) * normal(e, g * dim + d);
    double ff = 0;
    for (int k = 0; k < np; ++k) ff += Fref(e, f, k, i) * Fref(e, g, k, j);
    double v = nn * sJ(e, f) * sJ(e, g) / J(e) * ff;
    if (f == g && i == j) v += tau * sJ(e, f);
    return v;
  }

  /// Factorizes Sm in place and overwrites X (np x ncols) with Sm^{-1} X.
  template <class MatS, class MatX>
  KOKKOS_INLINE_FUNCTION static void factor_solve(const MatS& Sm, const MatX& X) {
    using namespace KokkosBatched;
    SerialLU<Algo::LU::Unblocked>::invoke(Sm);
    SerialTrsm<Side::Left, Uplo::Lower, Trans::NoTranspose, Diag::Unit, Algo::Trsm::Unblocked>::invoke(1.0, Sm, X);
    SerialTrsm<Side::Left, Uplo::Upper, Trans::NoTranspose, Diag::NonUnit, Algo::Trsm::Unblocked>::invoke(1.0, Sm, X);
  }
};

/// Workspace of a batch of elements.
template <class Space>
struct LocalWorkspace {
  using Mem = typename Space::memory_space;
  Kokkos::View<double***, Kokkos::LayoutRight, Mem> S, R, X;
  LocalWorkspace(int batch, int np, int nl)
      : S("hdg::S", batch, np, np), R("hdg::R", batch, np, nl), X("hdg::X", batch, np, nl) {}
};

/// Static condensation of elements [e0, e1): adds A_K and b_K into the dense block matrix
/// A(i, face, j + nfp * slot) and the right-hand side b(i + nfp * face). The diagonal block of an
/// interior face and its right-hand side receive exactly two contributions, added atomically
/// into zero: the sum is the same in either order, so the assembly is deterministic.
template <class Space, class MatA, class VecB>
void condense(const LocalSolverData<Space>& d, const LocalWorkspace<Space>& w, int e0, int e1,
              const Kokkos::View<const double**, Kokkos::LayoutRight, typename Space::memory_space>& fK, const MatA& A,
              const VecB& b) {
  Kokkos::parallel_for(
      "dgk::hdg::condense", Kokkos::RangePolicy<Space>(e0, e1), KOKKOS_LAMBDA(const int e) {
        const int c = e - e0;
        auto Sm = Kokkos::subview(w.S, c, Kokkos::ALL, Kokkos::ALL);
        auto R = Kokkos::subview(w.R, c, Kokkos::ALL, Kokkos::ALL);
        auto X = Kokkos::subview(w.X, c, Kokkos::ALL, Kokkos::ALL);
        d.build(e, Sm, R);
        for (int i = 0; i < d.np; ++i)
          for (int j = 0; j < d.nl(); ++j) X(i, j) = R(i, j);
        LocalSolverData<Space>::factor_solve(Sm, X);
        const int nfp = d.nfp, np = d.np;
        for (int fa = 0; fa < d.nfaces; ++fa) {
          const int l = d.eface(e, fa);
          const int side = d.face_element(l, 0) == e ? 0 : 1;
          for (int fb = 0; fb < d.nfaces; ++fb) {
            const int slot = fa == fb ? 0 : 1 + side * (d.nfaces - 1) + (fb - (fb > fa ? 1 : 0));
            for (int i = 0; i < nfp; ++i)
              for (int j = 0; j < nfp; ++j) {
                double v = d.q_entry(e, fa, fb, i, j);
                for (int k = 0; k < np; ++k) v -= R(k, fa * nfp + i) * X(k, fb * nfp + j);
                if (slot == 0)
                  Kokkos::atomic_add(&A(i, l, j), v);
                else
                  A(i, l, j + nfp * slot) = v;
              }
          }
          for (int i = 0; i < nfp; ++i) {
            double v = 0;
            for (int k = 0; k < np; ++k) v += X(k, fa * nfp + i) * fK(e, k);
            Kokkos::atomic_add(&b(i + nfp * l), v);
          }
        }
      });
}

/// Dirichlet faces: their rows become identity rows with the boundary values as right-hand
/// side, and their columns move to the right-hand side of the interior rows, which keeps the
/// matrix symmetric.
template <class Space, class MatA, class VecB, class Nbr, class VecG>
void apply_dirichlet(int nfp, int num_slots, int num_faces, const Nbr& nbr,
                     const Kokkos::View<const int*, typename Space::memory_space>& boundary, const VecG& g,
                     const MatA& A, const VecB& b) {
  Kokkos::parallel_for(
      "dgk::hdg::dirichlet", Kokkos::RangePolicy<Space>(0, num_faces), KOKKOS_LAMBDA(const int l) {
        if (boundary(l)) {
          for (int i = 0; i < nfp; ++i) {
            for (int k = 0; k < nfp * num_slots; ++k) A(i, l, k) = k == i ? 1.0 : 0.0;
            b(i + nfp * l) = g(i + nfp * l);
          }
          return;
        }
        for (int s = 1; s < num_slots; ++s) {
          const int m = nbr(l, s);
          if (!boundary(m)) continue;
          for (int i = 0; i < nfp; ++i) {
            double v = 0;
            for (int j = 0; j < nfp; ++j) {
              v += A(i, l, j + nfp * s) * g(j + nfp * m);
              A(i, l, j + nfp * s) = 0.0;
            }
            b(i + nfp * l) -= v;
          }
        }
      });
}

/// Recovery of the element unknown of elements [e0, e1): u_K = S^{-1} (f_K + R lambda_K).
template <class Space, class VecL, class MatU>
void recover(const LocalSolverData<Space>& d, const LocalWorkspace<Space>& w, int e0, int e1,
             const Kokkos::View<const double**, Kokkos::LayoutRight, typename Space::memory_space>& fK,
             const VecL& lambda, const MatU& u) {
  Kokkos::parallel_for(
      "dgk::hdg::recover", Kokkos::RangePolicy<Space>(e0, e1), KOKKOS_LAMBDA(const int e) {
        const int c = e - e0;
        auto Sm = Kokkos::subview(w.S, c, Kokkos::ALL, Kokkos::ALL);
        auto R = Kokkos::subview(w.R, c, Kokkos::ALL, Kokkos::ALL);
        auto x = Kokkos::subview(w.X, c, Kokkos::ALL, Kokkos::make_pair(0, 1));
        d.build(e, Sm, R);
        for (int k = 0; k < d.np; ++k) {
          double v = fK(e, k);
          for (int fa = 0; fa < d.nfaces; ++fa) {
            const int l = d.eface(e, fa);
            for (int m = 0; m < d.nfp; ++m) v += R(k, fa * d.nfp + m) * lambda(m + d.nfp * l);
          }
          x(k, 0) = v;
        }
        LocalSolverData<Space>::factor_solve(Sm, x);
        for (int k = 0; k < d.np; ++k) u(e, k) = x(k, 0);
      });
}

}  // namespace dgk::kernels::hdg
