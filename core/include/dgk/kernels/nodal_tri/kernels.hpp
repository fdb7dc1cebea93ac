// Nodal DG operator on triangles as Kokkos team kernels, the 2D counterpart of
// nodal_tet/kernels.hpp (paper 003, equation (9) and listings 1-3):
//   volume:  rhs   = physics volume term of the element-local derivatives  (D_r, D_s)
//   surface: flux  = Fscale * n.(F(u-) - F*)  at every edge node           (flux gather)
//   lift:    rhs  += LIFT * flux                                            (lifting)
// The LSERK stage update is nodal_tet::lserk_update, which is generic over the field View.
// One team per element, one thread per node (or edge node), operators read from global memory,
// the element's fields staged in team scratch; each stage is a separate launch.
//
// Unlike the tetrahedral kernels, the physics is held by value: its flux may carry run-time
// parameters (the upwind weight of Maxwell2D), so its member functions are called on the copy.
#pragma once

#include <Kokkos_Core.hpp>

#include "dgk/kernels/nodal_tet/kernels.hpp"
#include "dgk/kernels/nodal_tri/data.hpp"

namespace dgk::kernels::nodal_tri {

struct TagVolume {};
struct TagSurface {};
struct TagLift {};

/// Launch shape of the team kernels: team size per kind of kernel (threads per element).
struct LaunchShape {
  int volume_team = 1;
  int surface_team = 1;
  int lift_team = 1;
};

using nodal_tet::lserk_update;

template <int N, class Physics, class ExecutionSpace, class Real>
struct TeamKernels {
  using S = Sizes<N>;
  static constexpr int np = S::np, nfp = S::nfp, nf = Physics::num_fields;
  using Mem = typename ExecutionSpace::memory_space;
  using Policy = Kokkos::TeamPolicy<ExecutionSpace>;
  using Member = typename Policy::member_type;
  using ScratchMatrix =
      Kokkos::View<Real**, Kokkos::LayoutRight, typename ExecutionSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Physics physics;
  Operators<Real, Mem> ops;
  MeshData<Real, Mem> mesh;
  Fields<Real, Mem> q, rhs, flux;  // flux: K x nf x 3 nfp
  int first = 0;                   // the surface kernel's first element (see surface())

  KOKKOS_INLINE_FUNCTION void operator()(TagVolume, const Member& m) const {
    const int e = m.league_rank();
    ScratchMatrix sq(m.team_scratch(0), nf, np);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nf * np),
                         [&](const int k) { sq(k / np, k % np) = q(e, k / np, k % np); });
    m.team_barrier();
    const Real g[4] = {mesh.drdx(e, 0), mesh.drdx(e, 1), mesh.drdx(e, 2), mesh.drdx(e, 3)};
    const Real mat[2] = {mesh.material(e, 0), mesh.material(e, 1)};
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np), [&](const int i) {
      Real dr[nf], ds[nf];
      for (int f = 0; f < nf; ++f) dr[f] = ds[f] = Real(0);
      for (int j = 0; j < np; ++j) {
        const Real a = ops.Dr(i, j), b = ops.Ds(i, j);
        for (int f = 0; f < nf; ++f) {
          const Real v = sq(f, j);
          dr[f] += a * v;
          ds[f] += b * v;
        }
      }
      // d/dx = rx d/dr + sx d/ds, d/dy = ry d/dr + sy d/ds (paper 003, equation (6)).
      Real grad[2][nf];
      for (int f = 0; f < nf; ++f) {
        grad[0][f] = g[0] * dr[f] + g[1] * ds[f];
        grad[1][f] = g[2] * dr[f] + g[3] * ds[f];
      }
      Real out[nf];
      physics.volume(grad, mat, out);
      for (int f = 0; f < nf; ++f) rhs(e, f, i) = out[f];
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(TagSurface, const Member& m) const {
    const int e = first + m.league_rank();
    const Real mm[2] = {mesh.material(e, 0), mesh.material(e, 1)};
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 3 * nfp), [&](const int k) {
      const int edge = k / nfp;
      const int node = ops.fmask(edge, k % nfp);
      const Real n[2] = {mesh.face(e, edge, 0), mesh.face(e, edge, 1)};
      const Real fscale = mesh.face(e, edge, 2);
      Real qm[nf], qp[nf], out[nf];
      for (int f = 0; f < nf; ++f) qm[f] = q(e, f, node);
      const int code = mesh.bc(e, edge);
      if (code < 0) {
        const int p = mesh.mapP(e, k);
        const int ep = p / np, jp = p % np;
        for (int f = 0; f < nf; ++f) qp[f] = q(ep, f, jp);
        const Real mp[2] = {mesh.material(ep, 0), mesh.material(ep, 1)};
        physics.numerical_flux(n, qm, qp, mm, mp, out);
      } else {
        physics.boundary_state(code, n, qm, qp);
        physics.numerical_flux(n, qm, qp, mm, mm, out);
      }
      for (int f = 0; f < nf; ++f) flux(e, f, k) = fscale * out[f];
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(TagLift, const Member& m) const {
    const int e = m.league_rank();
    ScratchMatrix sf(m.team_scratch(0), nf, 3 * nfp);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nf * 3 * nfp), [&](const int k) {
      sf(k / (3 * nfp), k % (3 * nfp)) = flux(e, k / (3 * nfp), k % (3 * nfp));
    });
    m.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np), [&](const int i) {
      Real acc[nf];
      for (int f = 0; f < nf; ++f) acc[f] = Real(0);
      for (int k = 0; k < 3 * nfp; ++k) {
        const Real l = ops.lift(i, k);
        for (int f = 0; f < nf; ++f) acc[f] += l * sf(f, k);
      }
      for (int f = 0; f < nf; ++f) rhs(e, f, i) += acc[f];
    });
  }

  void volume(const ExecutionSpace& space, int team) const {
    Kokkos::parallel_for("dgk::nodal_tri::volume",
                         Kokkos::TeamPolicy<ExecutionSpace, TagVolume>(space, mesh.num_elements, team)
                             .set_scratch_size(0, Kokkos::PerTeam(ScratchMatrix::shmem_size(nf, np))),
                         *this);
  }
  void surface(const ExecutionSpace& space, int team) const { surface(space, team, 0, mesh.num_elements); }
  /// The flux of elements [begin, end) only (see nodal_tet::TeamKernels::surface).
  void surface(const ExecutionSpace& space, int team, int begin, int end) const {
    if (end <= begin) return;
    TeamKernels k = *this;
    k.first = begin;
    Kokkos::parallel_for("dgk::nodal_tri::surface",
                         Kokkos::TeamPolicy<ExecutionSpace, TagSurface>(space, end - begin, team), k);
  }
  void lift(const ExecutionSpace& space, int team) const {
    Kokkos::parallel_for("dgk::nodal_tri::lift",
                         Kokkos::TeamPolicy<ExecutionSpace, TagLift>(space, mesh.num_elements, team)
                             .set_scratch_size(0, Kokkos::PerTeam(ScratchMatrix::shmem_size(nf, 3 * nfp))),
                         *this);
  }
};

}  // namespace dgk::kernels::nodal_tri
