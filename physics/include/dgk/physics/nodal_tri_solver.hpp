// Nodal DG on triangles for a linear hyperbolic system given by a Physics object (see
// dgk/physics/maxwell2d.hpp for the interface), integrated with LSERK4: the 2D counterpart of
// dgk/physics/tet_solver.hpp. Builds the device data from a host mesh and the reference
// operators, then drives the kernels of dgk/kernels/nodal_tri/. Explicitly instantiated for each
// (physics, precision, execution space) of the build; the polynomial order is a run-time value
// dispatched to compiled kernels.
//
// The members that launch kernels are defined outside the class and are not inline: a
// translation unit that sees an `extern template class NodalTriSolver<...>` declaration then
// compiles none of the kernels, which stay in the one instantiation unit.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <Kokkos_Core.hpp>

#include "dgk/backends/ceilings.hpp"
#include "dgk/backends/memory.hpp"
#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/lserk4.hpp"
#include "dgk/core/math.hpp"
#include "dgk/core/order_dispatch.hpp"
#include "dgk/core/simulation.hpp"
#include "dgk/core/halo_exchange.hpp"
#include "dgk/kernels/nodal_tri/kernels.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "dgk/physics/distribution.hpp"
#include "dgk/physics/nodal_state.hpp"

namespace dgk::physics {

/// Threads per element for each kernel: on a GPU the node count rounded up to the warp size,
/// on the host one thread per team (the team's loops run sequentially in one thread).
template <class ExecutionSpace>
kernels::nodal_tri::LaunchShape default_tri_launch_shape(int order) {
  kernels::nodal_tri::LaunchShape s;
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecutionSpace::memory_space>::accessible;
  if (host) return s;
  auto round = [](int n) { return std::min(1024, (n + 31) / 32 * 32); };
  s.volume_team = round(basis::tri_np(order));
  s.surface_team = round(3 * basis::tri_nfp(order));
  s.lift_team = round(basis::tri_np(order));
  return s;
}

template <class Physics, class Real, class ExecutionSpace>
class NodalTriSolver final : public Simulation {
 public:
  using Mem = typename ExecutionSpace::memory_space;
  using FieldView = kernels::nodal_tri::Fields<Real, Mem>;
  static constexpr int nf = Physics::num_fields;

  /// bc_of_tag[tag] is the physics' boundary-condition code for each boundary tag of the mesh;
  /// `physics` carries the equation's run-time parameters (e.g. the flux weight). With a
  /// Distribution, `mesh` is this rank's part and the solver one rank of a distributed run (see
  /// TetSolver).
  NodalTriSolver(const ExecutionSpace& space, int order, const mesh::TriMesh& mesh, const std::vector<int>& bc_of_tag,
                 const Physics& physics = Physics(), std::shared_ptr<const Distribution> dist = {});

  // --- stages, separately callable -----------------------------------------------------------
  void volume() const;
  void surface() const { surface(0, m_mesh.num_elements); }
  /// The flux of elements [begin, end) only.
  void surface(int begin, int end) const;
  void lift() const;
  void update(double a, double b, double dt) const;
  /// rhs = volume + lift(surface) at the current fields; in a distributed run the edge traces
  /// travel while the volume kernel and the edges of elements without ghost neighbours run.
  void evaluate_rhs();
  /// The run's distribution, or null on one rank.
  const Distribution* distribution() const { return m_dist.get(); }

  const FieldView& fields() const { return m_q; }
  const FieldView& rhs_view() const { return m_rhs; }
  const basis::TriNodal& reference() const { return m_ref; }
  const mesh::TriNodeCoordinates& nodes() const { return m_nodes; }
  const mesh::TriGeometry& geometry() const { return m_geo; }
  /// The equation with its run-time parameters (e.g. the flux weight).
  const Physics& equation() const { return m_physics; }

  // --- Simulation interface ------------------------------------------------------------------
  std::string backend() const override { return backend_name(BackendOf<ExecutionSpace>::value); }
  std::string precision() const override { return sizeof(Real) == 4 ? "float" : "double"; }
  int order() const override { return m_order; }
  int num_elements() const override {
    return static_cast<int>(nodal_state::global_elements(m_dist.get(), m_mesh.num_elements));
  }
  int num_fields() const override { return nf; }
  std::string field_name(int field) const override { return Physics::field_names[field]; }
  std::vector<std::string> material_names() const override {
    return {Physics::material_names[0], Physics::material_names[1]};
  }
  long long num_dofs() const override { return static_cast<long long>(num_elements()) * m_ref.np * nf; }

  /// Points are (x, y, 0): the z argument of the PointFunction is always 0.
  void set_fields(const PointFunction& f, double t) override;
  double max_dt(double cfl) const override;
  void step(double dt) override;
  double time() const override { return m_time; }
  void fence() const override { m_space.fence(); }
  std::optional<NonFinite> find_non_finite() const override;
  std::vector<double> host_fields() const override;
  std::vector<double> owned_host_fields() const override {
    return nodal_state::owned_values(m_q, m_mesh.num_elements);
  }
  std::vector<StateArray> save_state() const override;
  std::vector<StateArray> save_owned_state(std::vector<long long>& elements) const override;
  void load_state(const std::vector<StateArray>& state, double time) override;
  double l2_error(const PointFunction& exact) const override;
  double energy() const override;
  std::vector<StageCost> costs() const override;
  StageTimes time_stages(int reps) override;
  int stages_per_step() const override { return Lserk4::stages; }

 private:
  template <int N>
  kernels::nodal_tri::TeamKernels<N, Physics, ExecutionSpace, Real> kernels_for() const {
    return {m_physics, m_ops, m_mesh, m_q, m_rhs, m_flux};
  }

  // sqrt( sum_e J_e sum_c w_c v_c^T M v_c ) over the elements of all ranks, with v filled per
  // owned element node by `fill`.
  template <class Fill>
  double weighted_norm(Fill&& fill, bool weighted) const;

  ExecutionSpace m_space;
  int m_order;
  Physics m_physics;
  basis::TriNodal m_ref;
  mesh::TriGeometry m_geo;
  mesh::TriNodeCoordinates m_nodes;
  std::vector<std::array<double, 2>> m_material;
  kernels::nodal_tri::LaunchShape m_shape;
  kernels::nodal_tri::Operators<Real, Mem> m_ops;
  kernels::nodal_tri::MeshData<Real, Mem> m_mesh;
  FieldView m_q, m_res, m_rhs, m_flux;  // q: owned then ghost elements; the others: owned
  double m_time = 0.0;
  std::shared_ptr<const Distribution> m_dist;
  nodal_state::Ownership<Mem> m_own;
  HaloExchange<ExecutionSpace, Real> m_halo;
};

// --- definitions -------------------------------------------------------------------------------

template <class Physics, class Real, class ExecutionSpace>
NodalTriSolver<Physics, Real, ExecutionSpace>::NodalTriSolver(const ExecutionSpace& space, int order,
                                                              const mesh::TriMesh& mesh,
                                                              const std::vector<int>& bc_of_tag, const Physics& physics,
                                                              std::shared_ptr<const Distribution> dist)
    : m_space(space), m_order(order), m_physics(physics), m_ref(basis::make_tri_nodal(order)), m_dist(std::move(dist)) {
  // Fail early, before any host work, for an order without compiled kernels.
  dispatch_order(order, [](auto) {});
  const auto conn = mesh::connect(mesh);
  m_geo = mesh::geometric_factors(mesh);
  const auto maps = mesh::build_edge_maps(mesh, conn, m_ref);
  m_nodes = mesh::node_coordinates(mesh, m_ref);
  m_material = mesh.material;
  const int K_local = mesh.num_elements(), np = m_ref.np, nfp = m_ref.nfp;
  m_own = nodal_state::ownership<Mem>(m_dist.get(), K_local);
  const int K = m_own.owned;  // owned elements; ghosts follow
  m_shape = default_tri_launch_shape<ExecutionSpace>(order);

  // Refuse, with the numbers, a problem that does not fit the execution space's memory.
  {
    const double w = sizeof(Real);
    const double bytes = double(K_local) * (3.0 * nf * np * w + nf * 3.0 * nfp * w + 3.0 * nfp * 4 + (4 + 9 + 2) * w + 12) +
                         (2.0 * np * np + 3.0 * np * nfp) * w;
    backends::require_memory<ExecutionSpace>(bytes, [&] {
      std::ostringstream what;
      what << Physics::name << " order " << order << ", " << K << " elements, " << nf * np << " values per element, "
           << (sizeof(Real) == 4 ? "float" : "double");
      return what.str();
    });
  }

  // Reference operators, rounded once.
  auto& ops = m_ops;
  ops.Dr = decltype(ops.Dr)("dgk::nodal_tri::Dr", np, np);
  ops.Ds = decltype(ops.Ds)("dgk::nodal_tri::Ds", np, np);
  ops.lift = decltype(ops.lift)("dgk::nodal_tri::lift", np, 3 * nfp);
  ops.fmask = decltype(ops.fmask)("dgk::nodal_tri::fmask", 3, nfp);
  auto hDr = Kokkos::create_mirror_view(ops.Dr), hDs = Kokkos::create_mirror_view(ops.Ds),
       hL = Kokkos::create_mirror_view(ops.lift);
  auto hF = Kokkos::create_mirror_view(ops.fmask);
  for (int i = 0; i < np; ++i) {
    for (int j = 0; j < np; ++j) {
      hDr(i, j) = Real(m_ref.Dr(i, j));
      hDs(i, j) = Real(m_ref.Ds(i, j));
    }
    for (int k = 0; k < 3 * nfp; ++k) hL(i, k) = Real(m_ref.LIFT(i, k));
  }
  for (int f = 0; f < 3; ++f)
    for (int i = 0; i < nfp; ++i) hF(f, i) = m_ref.fmask[f][static_cast<std::size_t>(i)];
  Kokkos::deep_copy(ops.Dr, hDr);
  Kokkos::deep_copy(ops.Ds, hDs);
  Kokkos::deep_copy(ops.lift, hL);
  Kokkos::deep_copy(ops.fmask, hF);

  // Mesh data.
  auto& md = m_mesh;
  md.num_elements = K;
  md.drdx = decltype(md.drdx)("dgk::nodal_tri::drdx", K);
  md.face = decltype(md.face)("dgk::nodal_tri::face", K);
  md.mapP = decltype(md.mapP)("dgk::nodal_tri::mapP", K, 3 * nfp);
  md.bc = decltype(md.bc)("dgk::nodal_tri::bc", K);
  md.material = decltype(md.material)("dgk::nodal_tri::material", K_local);
  auto hG = Kokkos::create_mirror_view(md.drdx);
  auto hFace = Kokkos::create_mirror_view(md.face);
  auto hP = Kokkos::create_mirror_view(md.mapP);
  auto hB = Kokkos::create_mirror_view(md.bc);
  auto hM = Kokkos::create_mirror_view(md.material);
  for (int e = 0; e < K; ++e) {
    const auto ue = static_cast<std::size_t>(e);
    for (int c = 0; c < 4; ++c) hG(e, c) = Real(m_geo.drdx[ue][c]);
    for (int f = 0; f < 3; ++f) {
      for (int d = 0; d < 2; ++d) hFace(e, f, d) = Real(m_geo.normal[ue][f][d]);
      hFace(e, f, 2) = Real(m_geo.fscale[ue][f]);
      if (conn.EToE[ue][f] < 0) {
        const int tag = conn.bc_tag[ue][f];
        DGK_THROW_IF(
            tag < 0 || tag >= static_cast<int>(bc_of_tag.size()) || bc_of_tag[static_cast<std::size_t>(tag)] < 0,
            "element " << e << " edge " << f << " of mesh '" << mesh.source << "' is on boundary tag " << tag
                       << " which has no boundary condition");
        hB(e, f) = bc_of_tag[static_cast<std::size_t>(tag)];
      } else {
        hB(e, f) = -1;
      }
    }
    for (int k = 0; k < 3 * nfp; ++k)
      hP(e, k) = maps.vmapP[ue * 3 * static_cast<std::size_t>(nfp) + static_cast<std::size_t>(k)];
  }
  for (int e = 0; e < K_local; ++e)
    for (int c = 0; c < 2; ++c) hM(e, c) = Real(mesh.material[static_cast<std::size_t>(e)][c]);
  Kokkos::deep_copy(md.drdx, hG);
  Kokkos::deep_copy(md.face, hFace);
  Kokkos::deep_copy(md.mapP, hP);
  Kokkos::deep_copy(md.bc, hB);
  Kokkos::deep_copy(md.material, hM);

  m_q = FieldView("dgk::nodal_tri::q", K_local, nf, np);
  m_res = FieldView("dgk::nodal_tri::res", K, nf, np);
  m_rhs = FieldView("dgk::nodal_tri::rhs", K, nf, np);
  m_flux = FieldView("dgk::nodal_tri::flux", K, nf, 3 * nfp);
  if (m_dist) m_halo = HaloExchange<ExecutionSpace, Real>(*m_dist->comm, m_dist->part.links, nf, np);
}

template <class Physics, class Real, class ExecutionSpace>
void NodalTriSolver<Physics, Real, ExecutionSpace>::volume() const {
  dispatch_order(m_order, [&](auto n) { kernels_for<decltype(n)::value>().volume(m_space, m_shape.volume_team); });
}

template <class Physics, class Real, class ExecutionSpace>
void NodalTriSolver<Physics, Real, ExecutionSpace>::surface(int begin, int end) const {
  dispatch_order(m_order, [&](auto n) {
    kernels_for<decltype(n)::value>().surface(m_space, m_shape.surface_team, begin, end);
  });
}

template <class Physics, class Real, class ExecutionSpace>
void NodalTriSolver<Physics, Real, ExecutionSpace>::lift() const {
  dispatch_order(m_order, [&](auto n) { kernels_for<decltype(n)::value>().lift(m_space, m_shape.lift_team); });
}

template <class Physics, class Real, class ExecutionSpace>
void NodalTriSolver<Physics, Real, ExecutionSpace>::update(double a, double b, double dt) const {
  kernels::nodal_tri::lserk_update(m_space, m_q, m_res, m_rhs, Real(a), Real(b), Real(dt));
}

template <class Physics, class Real, class ExecutionSpace>
void NodalTriSolver<Physics, Real, ExecutionSpace>::evaluate_rhs() {
  m_halo.overlap(
      m_space, m_q,
      [&] {
        volume();
        surface(0, m_own.interior);
      },
      [&] { surface(m_own.interior, m_mesh.num_elements); });
  lift();
}

template <class Physics, class Real, class ExecutionSpace>
void NodalTriSolver<Physics, Real, ExecutionSpace>::set_fields(const PointFunction& f, double t) {
  auto h = Kokkos::create_mirror_view(m_q);
  const int K = m_mesh.num_elements, np = m_ref.np;
  double v[nf];
  for (int e = 0; e < K; ++e)
    for (int i = 0; i < np; ++i) {
      const std::size_t g = static_cast<std::size_t>(e) * static_cast<std::size_t>(np) + static_cast<std::size_t>(i);
      f(m_nodes.x[g], m_nodes.y[g], 0.0, t, v);
      for (int c = 0; c < nf; ++c) h(e, c, i) = Real(v[c]);
    }
  Kokkos::deep_copy(m_q, h);
  Kokkos::deep_copy(m_res, Real(0));
  m_time = t;
}

template <class Physics, class Real, class ExecutionSpace>
double NodalTriSolver<Physics, Real, ExecutionSpace>::max_dt(double cfl) const {
  // Explicit DG: dt ~ h / (c (N+1)^2); 1 / Fscale measures h (it is area over edge length up to
  // a constant).
  double worst = 0.0;
  for (std::size_t e = 0; e < static_cast<std::size_t>(m_mesh.num_elements); ++e) {
    const double c = 1.0 / std::sqrt(m_material[e][0] * m_material[e][1]);
    for (int f = 0; f < 3; ++f) worst = std::max(worst, c * m_geo.fscale[e][f]);
  }
  worst = nodal_state::comm_of(m_dist.get()).max(worst);
  const double n1 = m_order + 1;
  return cfl * 2.0 / (worst * n1 * n1);
}

template <class Physics, class Real, class ExecutionSpace>
void NodalTriSolver<Physics, Real, ExecutionSpace>::step(double dt) {
  for (int s = 0; s < Lserk4::stages; ++s) {
    evaluate_rhs();
    update(Lserk4::a[s], Lserk4::b[s], dt);
  }
  m_time += dt;
}

template <class Physics, class Real, class ExecutionSpace>
std::optional<NonFinite> NodalTriSolver<Physics, Real, ExecutionSpace>::find_non_finite() const {
  return nodal_state::find_non_finite(m_space, m_q, m_mesh.num_elements, nf, m_ref.np, m_dist.get(), m_own.global);
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<double> NodalTriSolver<Physics, Real, ExecutionSpace>::host_fields() const {
  const auto local = nodal_state::owned_values(m_q, m_mesh.num_elements);
  return m_dist ? m_dist->gather_rows(local.data(), static_cast<std::size_t>(nf * m_ref.np)) : local;
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<StateArray> NodalTriSolver<Physics, Real, ExecutionSpace>::save_state() const {
  return nodal_state::save<FieldView>({{"q", &m_q}, {"rk_residual", &m_res}}, m_mesh.num_elements, m_dist.get());
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<StateArray> NodalTriSolver<Physics, Real, ExecutionSpace>::save_owned_state(
    std::vector<long long>& elements) const {
  return nodal_state::save<FieldView>({{"q", &m_q}, {"rk_residual", &m_res}}, m_mesh.num_elements, m_dist.get(),
                                      &elements);
}

template <class Physics, class Real, class ExecutionSpace>
void NodalTriSolver<Physics, Real, ExecutionSpace>::load_state(const std::vector<StateArray>& state, double time) {
  nodal_state::load<FieldView>(state, {{"q", &m_q}, {"rk_residual", &m_res}}, m_mesh.num_elements, m_dist.get(),
                               precision());
  m_time = time;
}

template <class Physics, class Real, class ExecutionSpace>
double NodalTriSolver<Physics, Real, ExecutionSpace>::l2_error(const PointFunction& exact) const {
  const auto q = nodal_state::owned_values(m_q, m_mesh.num_elements);
  const auto np = static_cast<std::size_t>(m_ref.np);
  return weighted_norm(
      [&](int e, int i, double* v) {
        const std::size_t g = static_cast<std::size_t>(e) * np + static_cast<std::size_t>(i);
        exact(m_nodes.x[g], m_nodes.y[g], 0.0, m_time, v);
        for (int c = 0; c < nf; ++c)
          v[c] =
              q[(static_cast<std::size_t>(e) * nf + static_cast<std::size_t>(c)) * np + static_cast<std::size_t>(i)] -
              v[c];
      },
      false);
}

template <class Physics, class Real, class ExecutionSpace>
double NodalTriSolver<Physics, Real, ExecutionSpace>::energy() const {
  const auto q = nodal_state::owned_values(m_q, m_mesh.num_elements);
  const auto np = static_cast<std::size_t>(m_ref.np);
  const double n = weighted_norm(
      [&](int e, int i, double* v) {
        for (int c = 0; c < nf; ++c)
          v[c] = q[(static_cast<std::size_t>(e) * nf + static_cast<std::size_t>(c)) * np + static_cast<std::size_t>(i)];
      },
      true);
  return n * n;
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<StageCost> NodalTriSolver<Physics, Real, ExecutionSpace>::costs() const {
  const double K = m_mesh.num_elements, np = m_ref.np, nfp = m_ref.nfp, w = sizeof(Real);
  std::vector<StageCost> c(4);
  // volume: two np x np products per field, the chain rule (3 flops per field and direction)
  // and the physics; reads q, the 4 metric terms and the 2 materials, writes rhs.
  c[0] = {"volume", K * np * (nf * (2 * 2 * np + 2 * 3) + Physics::volume_flops), K * (2 * nf * np + 4 + 2) * w};
  // surface: the numerical flux and the scaling at every edge node; reads the element's trace
  // (the neighbour's trace is the neighbour's own, counted there), the neighbour index, the edge
  // data and the materials, writes the flux.
  c[1] = {"surface", K * 3 * nfp * (Physics::flux_flops + nf), K * (3 * nfp * (2 * nf * w + 4) + (9 + 2) * w + 12)};
  // lift: an np x 3 nfp product per field; reads the flux, reads and writes rhs.
  c[2] = {"lift", K * nf * np * 3 * nfp * 2, K * nf * (3 * nfp + 2 * np) * w};
  // update: 5 flops per value; reads q, res, rhs, writes q, res.
  c[3] = {"update", K * nf * np * 5, K * nf * np * 5 * w};
  return c;
}

template <class Physics, class Real, class ExecutionSpace>
StageTimes NodalTriSolver<Physics, Real, ExecutionSpace>::time_stages(int reps) {
  StageTimes t;
  auto measure = [&](auto&& f) { return backends::median_seconds(m_space, reps, f); };
  t.seconds.push_back(measure([&] { volume(); }));
  t.seconds.push_back(measure([&] { surface(); }));
  t.seconds.push_back(measure([&] { lift(); }));
  // a = 1, b = 0 keeps the fields unchanged while doing the full update's memory traffic.
  t.seconds.push_back(measure([&] { update(1.0, 0.0, 0.0); }));
  return t;
}

template <class Physics, class Real, class ExecutionSpace>
template <class Fill>
double NodalTriSolver<Physics, Real, ExecutionSpace>::weighted_norm(Fill&& fill, bool weighted) const {
  const int np = m_ref.np;
  Eigen::MatrixXd v(np, nf);
  double sum = 0.0;
  double tmp[nf];
  for (int e = 0; e < m_mesh.num_elements; ++e) {
    for (int i = 0; i < np; ++i) {
      fill(e, i, tmp);
      for (int c = 0; c < nf; ++c) v(i, c) = tmp[c];
    }
    const Eigen::MatrixXd mv = m_ref.M * v;
    const auto ue = static_cast<std::size_t>(e);
    for (int c = 0; c < nf; ++c) {
      const double wc = weighted ? Physics::energy_weight(c, m_material[ue]) : 1.0;
      sum += wc * m_geo.J[ue] * v.col(c).dot(mv.col(c));
    }
  }
  return std::sqrt(nodal_state::comm_of(m_dist.get()).sum(sum));
}

}  // namespace dgk::physics
