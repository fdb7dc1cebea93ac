// Nodal DG operator on tetrahedra as Kokkos team kernels (paper 000, sections 4-5):
//   volume:  rhs   = physics volume term of the element-local derivatives  (D_r, D_s, D_t)
//   surface: flux  = Fscale * n.(F(u-) - F*)  at every face node           (flux gather)
//   lift:    rhs  += LIFT * flux                                            (lifting)
//   update:  res = a res + dt rhs;  q += b res                              (LSERK4 stage)
// These are the straightforward variants: one team per element, one thread per node (or face
// node), operators read from global memory, the element's fields staged in team scratch.
// Each stage is a separate launch so it can be timed and swapped.
#pragma once

#include <Kokkos_Core.hpp>

#include "dgk/core/read_only.hpp"
#include "dgk/kernels/nodal_tet/data.hpp"

namespace dgk::kernels::nodal_tet {

struct TagVolume {};
struct TagSurface {};
struct TagLift {};

/// Launch shape of the team kernels: team size per kind of kernel (threads per element).
struct LaunchShape {
  int volume_team = 1;
  int surface_team = 1;
  int lift_team = 1;
};

/// An element's metric terms (rx, sx, tx, ry, sy, ty, rz, sz, tz) and its two material values,
/// read through the read-only path.
template <class Real>
struct ElementGeometry {
  Real g[9], mat[2];
};
template <class Real, class Mem>
KOKKOS_INLINE_FUNCTION ElementGeometry<Real> element_geometry(const MeshData<Real, Mem>& mesh, int e) {
  ElementGeometry<Real> geo;
  const Real* ge = mesh.drdx.data() + 9 * static_cast<std::size_t>(e);
  const Real* me = mesh.material.data() + 2 * static_cast<std::size_t>(e);
  for (int c = 0; c < 9; ++c) geo.g[c] = read_only(ge + c);
  for (int c = 0; c < 2; ++c) geo.mat[c] = read_only(me + c);
  return geo;
}

/// The physics' volume term at one node of an element from the reference derivatives of its
/// fields (dr = D_r q, ...): the chain rule through the element's metric terms, then the
/// physics with the element's material. Shared by every volume kernel.
template <class Physics, class Real>
KOKKOS_INLINE_FUNCTION void volume_term(const ElementGeometry<Real>& geo, const Real (&dr)[Physics::num_fields],
                                        const Real (&ds)[Physics::num_fields], const Real (&dt)[Physics::num_fields],
                                        Real (&out)[Physics::num_fields]) {
  constexpr int nf = Physics::num_fields;
  const Real* g = geo.g;
  Real grad[3][nf];
  for (int f = 0; f < nf; ++f) {
    grad[0][f] = g[0] * dr[f] + g[1] * ds[f] + g[2] * dt[f];
    grad[1][f] = g[3] * dr[f] + g[4] * ds[f] + g[5] * dt[f];
    grad[2][f] = g[6] * dr[f] + g[7] * ds[f] + g[8] * dt[f];
  }
  Physics::volume(grad, geo.mat, out);
}
/// The same at one node of element e, its geometry read from the mesh.
template <class Physics, class Real, class Mem>
KOKKOS_INLINE_FUNCTION void volume_term(const MeshData<Real, Mem>& mesh, int e, const Real (&dr)[Physics::num_fields],
                                        const Real (&ds)[Physics::num_fields], const Real (&dt)[Physics::num_fields],
                                        Real (&out)[Physics::num_fields]) {
  volume_term<Physics>(element_geometry(mesh, e), dr, ds, dt, out);
}

/// The scaled numerical flux Fscale n.(F(u-) - F*) at a face node of element e on `face`, from
/// the fields there (qm) and at the neighbour node (qp): a boundary face replaces qp by its
/// boundary state. The face's flux coefficients (the materials on both sides and Fscale, see
/// MeshData::face) come with its normal, so a face node neither divides nor reads a material.
template <class Physics, class Real, class Mem>
KOKKOS_INLINE_FUNCTION void face_flux_of_states(const MeshData<Real, Mem>& mesh, int e, int face,
                                                const Real (&qm)[Physics::num_fields], Real (&qp)[Physics::num_fields],
                                                Real (&out)[Physics::num_fields]) {
  constexpr int nc = Physics::flux_coefficients;
  static_assert(nc <= MeshData<Real, Mem>::max_flux_coefficients, "MeshData::face has no room for the flux coefficients");
  const int code = read_only(mesh.bc.data() + 4 * static_cast<std::size_t>(e) + face);
  const Real* row = mesh.face.data() + (4 * static_cast<std::size_t>(e) + face) * MeshData<Real, Mem>::face_values;
  const Real n[3] = {read_only(row), read_only(row + 1), read_only(row + 2)};
  Real c[nc];
  for (int i = 0; i < nc; ++i) c[i] = read_only(row + 3 + i);
  if (code >= 0) Physics::boundary_state(code, n, qm, qp);
  Physics::face_flux(n, c, qm, qp, out);
}

/// Where the flux gather at face node k (0 <= k < 4 nfp, face-major) of an element reads: the
/// element's node there (fmask) and the neighbour node as element * np + node (mapP); the first
/// of the gather's two dependent loads. NFP, where given, is the face node count.
struct FaceNodeAt {
  int node, neighbour;
};
template <int NFP = 0, class Real, class Mem>
KOKKOS_INLINE_FUNCTION FaceNodeAt face_node_at(const Operators<Real, Mem>& ops, const MeshData<Real, Mem>& mesh, int e,
                                               int k) {
  const int nfp = NFP > 0 ? NFP : static_cast<int>(ops.fmask.extent(1));
  return {read_only(ops.fmask.data() + k), read_only(mesh.mapP.data() + static_cast<std::size_t>(e) * (4 * nfp) + k)};
}
/// The fields of element e at a face node (qm) and at its neighbour node (qp): the second of the
/// gather's loads. NP, where given, is the element node count.
/// The same with the neighbour's element ep and node jp given.
template <class FieldView, class Real, int NF>
KOKKOS_INLINE_FUNCTION void face_node_states(const FieldView& q, int e, int node, int ep, int jp, Real (&qm)[NF],
                                             Real (&qp)[NF]) {
  if constexpr (IsNodeMajor<FieldView>::value) {
    q.node(e, node, qm);
    q.node(ep, jp, qp);
  } else {
    for (int f = 0; f < NF; ++f) {
      qm[f] = q(e, f, node);
      qp[f] = q(ep, f, jp);
    }
  }
}
template <int NP = 0, class FieldView, class Real, int NF>
KOKKOS_INLINE_FUNCTION void face_node_states(const FieldView& q, int e, const FaceNodeAt& at, Real (&qm)[NF],
                                             Real (&qp)[NF]) {
  const int np = NP > 0 ? NP : static_cast<int>(q.extent(2));
  face_node_states(q, e, at.node, at.neighbour / np, at.neighbour % np, qm, qp);
}

/// The scaled numerical flux at face node k (0 <= k < 4 nfp, face-major) of element e: the flux
/// gather of one face node, shared by every kernel that computes it. NFP and NP, where given (the
/// kernels compiled for one order), are the face and element node counts, so that the node
/// arithmetic on the gather's path of dependent loads is by constants; 0 reads them from the
/// operators and the fields. Every face node has a neighbour node (itself on the boundary), so
/// the neighbour's values are loaded on every face, with the face's own, and a boundary face then
/// replaces them by its boundary state: no load waits for the branch on the boundary code.
template <class Physics, int NFP = 0, int NP = 0, class Real, class Mem, class FieldView>
KOKKOS_INLINE_FUNCTION void face_node_flux(const Operators<Real, Mem>& ops, const MeshData<Real, Mem>& mesh,
                                           const FieldView& q, int e, int k, Real (&out)[Physics::num_fields]) {
  constexpr int nf = Physics::num_fields;
  const int nfp = NFP > 0 ? NFP : static_cast<int>(ops.fmask.extent(1));
  const FaceNodeAt at = face_node_at<NFP>(ops, mesh, e, k);
  Real qm[nf], qp[nf];
  face_node_states<NP>(q, e, at, qm, qp);
  face_flux_of_states<Physics>(mesh, e, k / nfp, qm, qp, out);
}

/// QLayout is the layout of q only (the fields the kernels read): LayoutRight is the solver's
/// (element, field, node); a LayoutStride view lets a benchmark time the same kernels on another
/// arrangement of the same fields.
template <int N, class Physics, class ExecutionSpace, class Real, class QLayout = Kokkos::LayoutRight>
struct TeamKernels {
  using S = Sizes<N>;
  static constexpr int np = S::np, nfp = S::nfp, nf = Physics::num_fields;
  using Mem = typename ExecutionSpace::memory_space;
  using Policy = Kokkos::TeamPolicy<ExecutionSpace>;
  using Member = typename Policy::member_type;
  using ScratchMatrix = Kokkos::View<Real**, Kokkos::LayoutRight, typename ExecutionSpace::scratch_memory_space,
                                     Kokkos::MemoryUnmanaged>;

  Operators<Real, Mem> ops;
  MeshData<Real, Mem> mesh;
  Kokkos::View<Real***, QLayout, Mem> q;
  Fields<Real, Mem> rhs, flux;  // flux: K x nf x 4 nfp
  int first = 0;                // the surface kernel's first element (see surface())

  KOKKOS_INLINE_FUNCTION void operator()(TagVolume, const Member& m) const {
    const int e = m.league_rank();
    ScratchMatrix sq(m.team_scratch(0), nf, np);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nf * np), [&](const int k) {
      sq(k / np, k % np) = q(e, k / np, k % np);
    });
    m.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np), [&](const int i) {
      Real dr[nf], ds[nf], dt[nf];
      for (int f = 0; f < nf; ++f) dr[f] = ds[f] = dt[f] = Real(0);
      for (int j = 0; j < np; ++j) {
        const Real a = ops.Dr(i, j), b = ops.Ds(i, j), c = ops.Dt(i, j);
        for (int f = 0; f < nf; ++f) {
          const Real v = sq(f, j);
          dr[f] += a * v;
          ds[f] += b * v;
          dt[f] += c * v;
        }
      }
      Real out[nf];
      volume_term<Physics>(mesh, e, dr, ds, dt, out);
      for (int f = 0; f < nf; ++f) rhs(e, f, i) = out[f];
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(TagSurface, const Member& m) const {
    const int e = first + m.league_rank();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 4 * nfp), [&](const int k) {
      Real out[nf];
      face_node_flux<Physics>(ops, mesh, q, e, k, out);
      for (int f = 0; f < nf; ++f) flux(e, f, k) = out[f];
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(TagLift, const Member& m) const {
    const int e = m.league_rank();
    ScratchMatrix sf(m.team_scratch(0), nf, 4 * nfp);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nf * 4 * nfp), [&](const int k) {
      sf(k / (4 * nfp), k % (4 * nfp)) = flux(e, k / (4 * nfp), k % (4 * nfp));
    });
    m.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np), [&](const int i) {
      Real acc[nf];
      for (int f = 0; f < nf; ++f) acc[f] = Real(0);
      for (int k = 0; k < 4 * nfp; ++k) {
        const Real l = ops.lift(i, k);
        for (int f = 0; f < nf; ++f) acc[f] += l * sf(f, k);
      }
      for (int f = 0; f < nf; ++f) rhs(e, f, i) += acc[f];
    });
  }

  void volume(const ExecutionSpace& space, int team) const {
    Kokkos::parallel_for("dgk::nodal_tet::volume",
                         Kokkos::TeamPolicy<ExecutionSpace, TagVolume>(space, mesh.num_elements, team)
                             .set_scratch_size(0, Kokkos::PerTeam(ScratchMatrix::shmem_size(nf, np))),
                         *this);
  }
  void surface(const ExecutionSpace& space, int team) const { surface(space, team, 0, mesh.num_elements); }
  /// The flux of elements [begin, end) only: a distributed run computes the faces that need no
  /// ghost values while the exchange is in flight.
  void surface(const ExecutionSpace& space, int team, int begin, int end) const {
    if (end <= begin) return;
    TeamKernels k = *this;
    k.first = begin;
    Kokkos::parallel_for("dgk::nodal_tet::surface",
                         Kokkos::TeamPolicy<ExecutionSpace, TagSurface>(space, end - begin, team), k);
  }
  void lift(const ExecutionSpace& space, int team) const {
    Kokkos::parallel_for("dgk::nodal_tet::lift",
                         Kokkos::TeamPolicy<ExecutionSpace, TagLift>(space, mesh.num_elements, team)
                             .set_scratch_size(0, Kokkos::PerTeam(ScratchMatrix::shmem_size(nf, 4 * nfp))),
                         *this);
  }
};

/// One LSERK stage on the first n values of flat arrays: res = a res + dt rhs; q += b res. n is
/// rhs's span: q may hold ghost elements after the owned ones, which the update leaves alone.
template <class ExecutionSpace, class Real, class View>
void lserk_update(const ExecutionSpace& space, const View& q, const View& res, const View& rhs, Real a, Real b,
                  Real dt) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, typename View::memory_space>::accessible,
                "lserk_update: the fields must be accessible from the execution space");
  const std::size_t n = rhs.span();
  Real* pq = q.data();
  Real* pr = res.data();
  const Real* ph = rhs.data();
  Kokkos::parallel_for("dgk::nodal_tet::update", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n),
                       KOKKOS_LAMBDA(const std::size_t i) {
                         const Real r = a * pr[i] + dt * ph[i];
                         pr[i] = r;
                         pq[i] += b * r;
                       });
}

}  // namespace dgk::kernels::nodal_tet
