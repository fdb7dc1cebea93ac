// Modal, quadrature-based DG operator on triangles for a nonlinear conservation law (paper 004,
// sections 3.2-3.5), one thread per element or per edge:
//   surface (edge-wise):    one thread per edge evaluates both traces at the edge's
//                           Gauss-Legendre points, the numerical flux once, and writes the
//                           contributions of the left and the right element to their own slots
//                           (no atomics, paper 004 section 3.3);
//   surface (element-wise): one thread per element does the same for its three edges, writing
//                           only its own slots (each interior flux is computed twice);
//   volume:                 one thread per element integrates F(u) . grad psi_j with the
//                           degree-2p rule and adds the three edge slots scaled by 1/J (the
//                           right-hand-side evaluator of section 3.4, fused);
//   limiter:                Barth-Jespersen for p = 1 (section 3.5);
//   max_speed:              the largest |v| + c of the cell averages (time step).
// Both surface variants write the same slots surf(e, f, field, mode), so either feeds the volume
// kernel and they can be compared value by value.
#pragma once

#include <Kokkos_Core.hpp>

#include "dgk/kernels/modal_tri/data.hpp"

namespace dgk::kernels::modal_tri {

struct TagVolume {};
struct TagSurfaceEdge {};
struct TagSurfaceElement {};
struct TagLimit {};

template <int P, class Physics, class ExecutionSpace, class Real>
struct Kernels {
  using S = Sizes<P>;
  static constexpr int np = S::np, nq = S::nq, nqe = S::nqe, nf = Physics::num_fields;
  using Mem = typename ExecutionSpace::memory_space;

  Physics physics;
  Operators<Real, Mem> ops;
  MeshData<Real, Mem> mesh;
  MovingShock<Real> shock;
  Fields<Real, ExecutionSpace> q, rhs;
  EdgeFields<Real, ExecutionSpace> surf;  ///< K x 3 x nf x np
  Real time = 0;                          ///< of the stage, for time-dependent boundary states

  // --- building blocks ---------------------------------------------------------------------

  /// State at point qp of edge f of element e.
  KOKKOS_FORCEINLINE_FUNCTION void trace(int e, int f, int qp, Real (&u)[nf]) const {
    for (int c = 0; c < nf; ++c) u[c] = Real(0);
    for (int j = 0; j < np; ++j) {
      const Real b = ops.ephi(f, qp, j);
      for (int c = 0; c < nf; ++c) u[c] += q(e, c, j) * b;
    }
  }

  /// Exterior state at point qp (left orientation) of boundary edge b.
  KOKKOS_FORCEINLINE_FUNCTION void boundary_state(int b, int qp, const Real (&um)[nf], Real (&up)[nf]) const {
    switch (mesh.bc(b)) {
      case Physics::Prescribed:
        for (int c = 0; c < nf; ++c) up[c] = mesh.bdata(b, qp, c);
        break;
      case Physics::Wall:
        physics.reflect(um, mesh.bdata(b, qp, 0), mesh.bdata(b, qp, 1), up);
        break;
      case Physics::MovingShock: {
        const Real xs = shock.x0 + (mesh.bdata(b, qp, 1) + shock.speed * time) * shock.cot_angle;
        const bool behind = mesh.bdata(b, qp, 0) < xs;
        for (int c = 0; c < nf; ++c) up[c] = behind ? shock.post[c] : shock.pre[c];
        break;
      }
      default:  // Outflow
        for (int c = 0; c < nf; ++c) up[c] = um[c];
        break;
    }
  }

  // --- kernels -----------------------------------------------------------------------------

  /// rhs = volume integral + (1 / J) * sum of the three edge slots.
  KOKKOS_INLINE_FUNCTION void operator()(TagVolume, const int e) const {
    Real c[nf][np], acc[nf][np];
    for (int f = 0; f < nf; ++f)
      for (int j = 0; j < np; ++j) {
        c[f][j] = q(e, f, j);
        acc[f][j] = Real(0);
      }
    const Real rx = mesh.geo(e, 0), sx = mesh.geo(e, 1), ry = mesh.geo(e, 2), sy = mesh.geo(e, 3);
    for (int k = 0; k < nq; ++k) {
      Real u[nf];
      for (int f = 0; f < nf; ++f) u[f] = Real(0);
      for (int j = 0; j < np; ++j) {
        const Real b = ops.phi(k, j);
        for (int f = 0; f < nf; ++f) u[f] += c[f][j] * b;
      }
      Real F[nf], G[nf];
      physics.fluxes(u, F, G);
      for (int j = 0; j < np; ++j) {
        const Real dr = ops.wdr(k, j), ds = ops.wds(k, j);
        const Real dx = rx * dr + sx * ds, dy = ry * dr + sy * ds;
        for (int f = 0; f < nf; ++f) acc[f][j] += F[f] * dx + G[f] * dy;
      }
    }
    const Real ij = mesh.geo(e, 4);
    for (int f = 0; f < nf; ++f)
      for (int j = 0; j < np; ++j)
        rhs(e, f, j) = acc[f][j] + ij * (surf(e, 0, f, j) + surf(e, 1, f, j) + surf(e, 2, f, j));
  }

  /// One thread per edge: flux once, both elements' slots written.
  KOKKOS_INLINE_FUNCTION void operator()(TagSurfaceEdge, const int ed) const {
    const int el = mesh.edge(ed, 0), fl = mesh.edge(ed, 1), er = mesh.edge(ed, 2), fr = mesh.edge(ed, 3);
    const Real nx = mesh.edge_geo(ed, 0), ny = mesh.edge_geo(ed, 1), len = mesh.edge_geo(ed, 2);
    Real accl[nf][np], accr[nf][np];
    for (int f = 0; f < nf; ++f)
      for (int j = 0; j < np; ++j) accl[f][j] = accr[f][j] = Real(0);
    for (int k = 0; k < nqe; ++k) {
      Real um[nf], up[nf], fn[nf];
      trace(el, fl, k, um);
      if (er >= 0)
        trace(er, fr, nqe - 1 - k, up);
      else
        boundary_state(fr, k, um, up);
      physics.numerical_flux(um, up, nx, ny, fn);
      for (int j = 0; j < np; ++j) {
        const Real bl = ops.ewphi(fl, k, j) * len;
        for (int f = 0; f < nf; ++f) accl[f][j] -= bl * fn[f];
      }
      if (er >= 0)
        for (int j = 0; j < np; ++j) {
          const Real br = ops.ewphi(fr, nqe - 1 - k, j) * len;
          for (int f = 0; f < nf; ++f) accr[f][j] += br * fn[f];
        }
    }
    for (int f = 0; f < nf; ++f)
      for (int j = 0; j < np; ++j) surf(el, fl, f, j) = accl[f][j];
    if (er >= 0)
      for (int f = 0; f < nf; ++f)
        for (int j = 0; j < np; ++j) surf(er, fr, f, j) = accr[f][j];
  }

  /// One thread per element: its three edges, its own slots only.
  KOKKOS_INLINE_FUNCTION void operator()(TagSurfaceElement, const int e) const {
    for (int fe = 0; fe < 3; ++fe) {
      const int en = mesh.elem_edge(e, fe, 0), fnb = mesh.elem_edge(e, fe, 1);
      const Real nx = mesh.elem_edge_geo(e, fe, 0), ny = mesh.elem_edge_geo(e, fe, 1);
      const Real len = mesh.elem_edge_geo(e, fe, 2);
      // On the boundary the stored data is in this element's orientation (it is the left one).
      Real acc[nf][np];
      for (int f = 0; f < nf; ++f)
        for (int j = 0; j < np; ++j) acc[f][j] = Real(0);
      for (int k = 0; k < nqe; ++k) {
        Real um[nf], up[nf], fn[nf];
        trace(e, fe, k, um);
        if (en >= 0)
          trace(en, fnb, nqe - 1 - k, up);
        else
          boundary_state(fnb, k, um, up);
        physics.numerical_flux(um, up, nx, ny, fn);
        for (int j = 0; j < np; ++j) {
          const Real b = ops.ewphi(fe, k, j) * len;
          for (int f = 0; f < nf; ++f) acc[f][j] -= b * fn[f];
        }
      }
      for (int f = 0; f < nf; ++f)
        for (int j = 0; j < np; ++j) surf(e, fe, f, j) = acc[f][j];
    }
  }

  /// Barth-Jespersen (paper 004, equations (20)-(22)) on each field of a p = 1 expansion: the
  /// slope is scaled so that no edge quadrature point exceeds the range of the cell averages of
  /// the element and its neighbours. Reads the neighbours' averages (mode 0, never written
  /// here) and rewrites this element's linear modes only, so elements limit independently.
  KOKKOS_INLINE_FUNCTION void operator()(TagLimit, const int e) const {
    int nb[3];
    for (int fe = 0; fe < 3; ++fe) nb[fe] = mesh.elem_edge(e, fe, 0);
    for (int f = 0; f < nf; ++f) {
      const Real avg = q(e, f, 0) * ops.phi0;
      Real lo = avg, hi = avg;
      for (int fe = 0; fe < 3; ++fe)
        if (nb[fe] >= 0) {
          const Real v = q(nb[fe], f, 0) * ops.phi0;
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
      const Real c1 = q(e, f, 1), c2 = q(e, f, 2);
      Real alpha = Real(1);
      for (int fe = 0; fe < 3; ++fe)
        for (int k = 0; k < nqe; ++k) {
          const Real d = c1 * ops.ephi(fe, k, 1) + c2 * ops.ephi(fe, k, 2);
          Real a = Real(1);
          if (d > Real(0))
            a = (hi - avg) / d;
          else if (d < Real(0))
            a = (lo - avg) / d;
          alpha = a < alpha ? a : alpha;
        }
      if (alpha < Real(1)) {
        q(e, f, 1) = alpha * c1;
        q(e, f, 2) = alpha * c2;
      }
    }
  }

  // --- launches ----------------------------------------------------------------------------

  void volume(const ExecutionSpace& space) const {
    Kokkos::parallel_for("dgk::modal_tri::volume",
                         Kokkos::RangePolicy<ExecutionSpace, TagVolume>(space, 0, mesh.num_elements), *this);
  }
  void surface_edge(const ExecutionSpace& space) const { surface_edge(space, 0, mesh.num_edges); }
  /// Edges [begin, end) only (a distributed run computes the edges without ghost elements while
  /// the exchange is in flight).
  void surface_edge(const ExecutionSpace& space, int begin, int end) const {
    if (end > begin)
      Kokkos::parallel_for("dgk::modal_tri::surface_edge",
                           Kokkos::RangePolicy<ExecutionSpace, TagSurfaceEdge>(space, begin, end), *this);
  }
  void surface_element(const ExecutionSpace& space) const { surface_element(space, 0, mesh.num_elements); }
  /// Elements [begin, end) only.
  void surface_element(const ExecutionSpace& space, int begin, int end) const {
    if (end > begin)
      Kokkos::parallel_for("dgk::modal_tri::surface_element",
                           Kokkos::RangePolicy<ExecutionSpace, TagSurfaceElement>(space, begin, end), *this);
  }
  void limit(const ExecutionSpace& space) const {
    Kokkos::parallel_for("dgk::modal_tri::limit",
                         Kokkos::RangePolicy<ExecutionSpace, TagLimit>(space, 0, mesh.num_elements), *this);
  }
};

/// Largest |v| + c over the cell averages (mode 0 times phi0) of q.
template <class Physics, class ExecutionSpace, class Real>
double max_cell_speed(const ExecutionSpace& space, const Physics& physics, const Fields<Real, ExecutionSpace>& q,
                      Real phi0) {
  double out = 0;
  Kokkos::parallel_reduce(
      "dgk::modal_tri::max_speed", Kokkos::RangePolicy<ExecutionSpace>(space, 0, q.extent_int(0)),
      KOKKOS_LAMBDA(const int e, double& m) {
        Real u[Physics::num_fields];
        for (int c = 0; c < Physics::num_fields; ++c) u[c] = q(e, c, 0) * phi0;
        const double s = static_cast<double>(physics.max_speed(u));
        m = s > m ? s : m;
      },
      Kokkos::Max<double>(out));
  return out;
}

/// Stage updates of the explicit Runge-Kutta methods on whole field arrays (same extents):
///   ssp:  q = a q0 + b (q + dt rhs)              (Shu-Osher form)
///   rk4:  acc = (first ? 0 : acc) + w rhs;  q = q0 + c dt rhs   (or q0 + dt acc at the end)
template <class ExecutionSpace, class Real>
void ssp_update(const ExecutionSpace& space, const Fields<Real, ExecutionSpace>& q,
                const Fields<Real, ExecutionSpace>& q0, const Fields<Real, ExecutionSpace>& rhs, Real a, Real b,
                Real dt) {
  Real* qq = q.data();
  const Real* q0p = q0.data();
  const Real* r = rhs.data();
  Kokkos::parallel_for(
      "dgk::modal_tri::ssp_update", Kokkos::RangePolicy<ExecutionSpace>(space, 0, q.span()),
      KOKKOS_LAMBDA(const std::size_t i) { qq[i] = a * q0p[i] + b * (qq[i] + dt * r[i]); });
}

template <class ExecutionSpace, class Real>
void rk4_update(const ExecutionSpace& space, const Fields<Real, ExecutionSpace>& q,
                const Fields<Real, ExecutionSpace>& q0, const Fields<Real, ExecutionSpace>& rhs,
                const Fields<Real, ExecutionSpace>& acc, bool first, bool last, Real w, Real c, Real dt) {
  Real* qq = q.data();
  Real* aa = acc.data();
  const Real* q0p = q0.data();
  const Real* r = rhs.data();
  Kokkos::parallel_for(
      "dgk::modal_tri::rk4_update", Kokkos::RangePolicy<ExecutionSpace>(space, 0, q.span()),
      KOKKOS_LAMBDA(const std::size_t i) {
        const Real sum = (first ? Real(0) : aa[i]) + w * r[i];
        if (last)
          qq[i] = q0p[i] + dt * sum;
        else {
          aa[i] = sum;
          qq[i] = q0p[i] + c * dt * r[i];
        }
      });
}

}  // namespace dgk::kernels::modal_tri
