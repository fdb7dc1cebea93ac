// Definitions of ModalTriSolver (dgk/physics/modal_tri_solver.hpp). Included only by the
// explicit instantiation units, so the kernels compile once per (physics, precision, space).
#pragma once

#include <algorithm>
#include <utility>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "dgk/backends/ceilings.hpp"
#include "dgk/backends/memory.hpp"
#include "dgk/basis/quadrature.hpp"
#include "dgk/basis/triangle.hpp"
#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/core/math.hpp"
#include "dgk/physics/modal_tri_solver.hpp"
#include "dgk/physics/nodal_state.hpp"

namespace dgk::physics {

namespace modal_detail {

// Physical point of reference point (r, s) in element e.
inline std::array<double, 2> map_point(const mesh::TriMesh& m, int e, double r, double s) {
  const auto& el = m.elements[static_cast<std::size_t>(e)];
  const auto& a = m.vertices[static_cast<std::size_t>(el[0])];
  const auto& b = m.vertices[static_cast<std::size_t>(el[1])];
  const auto& c = m.vertices[static_cast<std::size_t>(el[2])];
  const double la = -0.5 * (r + s), lb = 0.5 * (1.0 + r), lc = 0.5 * (1.0 + s);
  return {la * a[0] + lb * b[0] + lc * c[0], la * a[1] + lb * b[1] + lc * c[1]};
}

}  // namespace modal_detail

template <class Physics, class Real, class ExecutionSpace>
ModalTriSolver<Physics, Real, ExecutionSpace>::ModalTriSolver(const ExecutionSpace& space, int order,
                                                              const mesh::TriMesh& mesh,
                                                              const mesh::TriConnectivity& conn,
                                                              const ModalBoundary& boundary, const Physics& physics,
                                                              const ModalSettings& settings,
                                                              std::shared_ptr<const Distribution> dist)
    : m_space(space), m_order(order), m_physics(physics), m_host_mesh(mesh), m_dist(std::move(dist)) {
  dispatch_modal_order(order, [](auto) {});
  set_settings(settings);
  m_ref = basis::make_tri_modal(order);
  m_geo = mesh::geometric_factors(mesh);
  // Owned elements [0, K), then (distributed) ghosts up to K_local: the kernels run on the owned
  // elements and on the edges that touch one; the ghosts only hold their owners' modes.
  const int K_local = mesh.num_elements(), np = m_ref.np, nq = m_ref.nq(), nqe = m_ref.nqe();
  m_own = nodal_state::ownership<Mem>(m_dist.get(), K_local);
  const int K = m_own.owned;

  // Edge list: boundary edges first (paper 004, section 3.3), then each interior edge once
  // (those with a ghost element last).
  std::vector<std::array<int, 4>> edges;
  std::vector<std::array<int, 2>> boundary_of;  // (element, local edge) of boundary edge b
  std::vector<std::array<int, 3>> elem_edge(static_cast<std::size_t>(K_local) * 3);
  for (int e = 0; e < K; ++e)
    for (int f = 0; f < 3; ++f)
      if (conn.EToE[static_cast<std::size_t>(e)][static_cast<std::size_t>(f)] < 0) {
        const int b = static_cast<int>(boundary_of.size());
        boundary_of.push_back({e, f});
        edges.push_back({e, f, -1, b});
        elem_edge[static_cast<std::size_t>(3 * e + f)] = {-1, b, static_cast<int>(edges.size()) - 1};
      }
  const int nb = static_cast<int>(boundary_of.size());
  // The left element of an edge is the one with the lower global number (as on one rank, so
  // that a distributed run computes every flux from the same side, bitwise alike).
  auto global = [&](int e) { return m_dist ? m_dist->part.global[static_cast<std::size_t>(e)] : e; };
  for (int pass = 0; pass < 2; ++pass)  // edges between owned elements, then those with a ghost
    for (int e = 0; e < K; ++e)
      for (int f = 0; f < 3; ++f) {
        int a = e, fa = f;
        int b = conn.EToE[static_cast<std::size_t>(e)][static_cast<std::size_t>(f)];
        int fb = conn.EToF[static_cast<std::size_t>(e)][static_cast<std::size_t>(f)];
        if (b < 0 || (b >= K) != (pass == 1)) continue;
        if (b < K && !(global(b) > global(e) || (b == e && fb > f))) continue;  // listed from the other side
        if (global(b) < global(a) || (b == a && fb < fa)) {
          std::swap(a, b);
          std::swap(fa, fb);
        }
        edges.push_back({a, fa, b, fb});
        const int id = static_cast<int>(edges.size()) - 1;
        elem_edge[static_cast<std::size_t>(3 * a + fa)] = {b, fb, id};
        elem_edge[static_cast<std::size_t>(3 * b + fb)] = {a, fa, id};
      }
  const int E = static_cast<int>(edges.size());
  m_edges_no_ghost = E;
  for (int id = nb; id < E; ++id)
    if (edges[static_cast<std::size_t>(id)][0] >= K || edges[static_cast<std::size_t>(id)][2] >= K) {
      m_edges_no_ghost = id;
      break;
    }

  {
    const double w = sizeof(Real);
    const double bytes = double(K_local) * (4.0 * nf * np * w + 3.0 * nf * np * w + 5 * w + 9 * 4 + 9 * w) +
                         double(E) * (4 * 4 + 3 * w) + double(nb) * (4 + 4.0 * nqe * w);
    backends::require_memory<ExecutionSpace>(bytes, [&] {
      std::ostringstream what;
      what << Physics::name << " modal order " << order << ", " << K << " elements, "
           << (sizeof(Real) == 4 ? "float" : "double");
      return what.str();
    });
  }

  // Reference data, rounded once.
  auto& ops = m_ops;
  ops.phi = decltype(ops.phi)("dgk::modal_tri::phi", nq, np);
  ops.wdr = decltype(ops.wdr)("dgk::modal_tri::wdr", nq, np);
  ops.wds = decltype(ops.wds)("dgk::modal_tri::wds", nq, np);
  ops.ephi = decltype(ops.ephi)("dgk::modal_tri::ephi", 3, nqe, np);
  ops.ewphi = decltype(ops.ewphi)("dgk::modal_tri::ewphi", 3, nqe, np);
  ops.phi0 = Real(m_ref.phi0);
  {
    auto hp = Kokkos::create_mirror_view(ops.phi), hr = Kokkos::create_mirror_view(ops.wdr),
         hs = Kokkos::create_mirror_view(ops.wds);
    auto he = Kokkos::create_mirror_view(ops.ephi), hw = Kokkos::create_mirror_view(ops.ewphi);
    for (int k = 0; k < nq; ++k)
      for (int j = 0; j < np; ++j) {
        hp(k, j) = Real(m_ref.phi(k, j));
        hr(k, j) = Real(m_ref.w(k) * m_ref.dr(k, j));
        hs(k, j) = Real(m_ref.w(k) * m_ref.ds(k, j));
      }
    for (int f = 0; f < 3; ++f)
      for (int k = 0; k < nqe; ++k)
        for (int j = 0; j < np; ++j) {
          const double v = m_ref.edge_phi[static_cast<std::size_t>(f)](k, j);
          he(f, k, j) = Real(v);
          hw(f, k, j) = Real(m_ref.xw(k) * v);
        }
    Kokkos::deep_copy(ops.phi, hp);
    Kokkos::deep_copy(ops.wdr, hr);
    Kokkos::deep_copy(ops.wds, hs);
    Kokkos::deep_copy(ops.ephi, he);
    Kokkos::deep_copy(ops.ewphi, hw);
  }

  // Mesh data.
  auto& md = m_mesh;
  md.num_elements = K;
  md.num_edges = E;
  md.num_boundary_edges = nb;
  md.geo = decltype(md.geo)("dgk::modal_tri::geo", K_local);
  md.edge = decltype(md.edge)("dgk::modal_tri::edge", E);
  md.edge_geo = decltype(md.edge_geo)("dgk::modal_tri::edge_geo", E);
  md.elem_edge = decltype(md.elem_edge)("dgk::modal_tri::elem_edge", K_local);
  md.elem_edge_geo = decltype(md.elem_edge_geo)("dgk::modal_tri::elem_edge_geo", K_local);
  md.bc = decltype(md.bc)("dgk::modal_tri::bc", nb);
  md.bdata = decltype(md.bdata)("dgk::modal_tri::bdata", nb, nqe, 4);
  auto hg = Kokkos::create_mirror_view(md.geo);
  auto hed = Kokkos::create_mirror_view(md.edge);
  auto heg = Kokkos::create_mirror_view(md.edge_geo);
  auto hee = Kokkos::create_mirror_view(md.elem_edge);
  auto heeg = Kokkos::create_mirror_view(md.elem_edge_geo);
  auto hbc = Kokkos::create_mirror_view(md.bc);
  auto hbd = Kokkos::create_mirror_view(md.bdata);
  m_min_inradius = std::numeric_limits<double>::max();
  for (int e = 0; e < K_local; ++e) {
    const auto ue = static_cast<std::size_t>(e);
    for (int c = 0; c < 4; ++c) hg(e, c) = Real(m_geo.drdx[ue][static_cast<std::size_t>(c)]);
    hg(e, 4) = Real(1.0 / m_geo.J[ue]);
    double perimeter = 0;
    for (int f = 0; f < 3; ++f) {
      const auto uf = static_cast<std::size_t>(f);
      for (int c = 0; c < 3; ++c) hee(e, f, c) = elem_edge[3 * ue + uf][static_cast<std::size_t>(c)];
      heeg(e, f, 0) = Real(m_geo.normal[ue][uf][0]);
      heeg(e, f, 1) = Real(m_geo.normal[ue][uf][1]);
      heeg(e, f, 2) = Real(m_geo.sJ[ue][uf]);
      perimeter += 2.0 * m_geo.sJ[ue][uf];
    }
    if (e < K) m_min_inradius = std::min(m_min_inradius, 2.0 * (2.0 * m_geo.J[ue]) / perimeter);
  }
  m_min_inradius = -comm().max(-m_min_inradius);
  for (int id = 0; id < E; ++id) {
    const auto& ed = edges[static_cast<std::size_t>(id)];
    for (int c = 0; c < 4; ++c) hed(id, c) = ed[static_cast<std::size_t>(c)];
    const auto ue = static_cast<std::size_t>(ed[0]), uf = static_cast<std::size_t>(ed[1]);
    heg(id, 0) = Real(m_geo.normal[ue][uf][0]);
    heg(id, 1) = Real(m_geo.normal[ue][uf][1]);
    heg(id, 2) = Real(m_geo.sJ[ue][uf]);
  }

  // Boundary data.
  m_boundary_speed = 0;
  for (int b = 0; b < nb; ++b) {
    const int e = boundary_of[static_cast<std::size_t>(b)][0], f = boundary_of[static_cast<std::size_t>(b)][1];
    const auto ue = static_cast<std::size_t>(e), uf = static_cast<std::size_t>(f);
    const int tag = conn.bc_tag[ue][uf];
    const auto& el = mesh.elements[ue];
    const auto& va = mesh.vertices[static_cast<std::size_t>(el[uf])];
    const auto& vb = mesh.vertices[static_cast<std::size_t>(el[(uf + 1) % 3])];
    const double xm = 0.5 * (va[0] + vb[0]), ym = 0.5 * (va[1] + vb[1]);
    const std::string name = tag >= 0 && tag < static_cast<int>(mesh.boundary_names.size())
                                 ? mesh.boundary_names[static_cast<std::size_t>(tag)]
                                 : std::to_string(tag);
    const int code = boundary.code ? boundary.code(tag, xm, ym) : -1;
    DGK_THROW_IF(code < 0 || code >= Physics::num_bcs,
                 "element " << e << " edge " << f << " of mesh '" << mesh.source << "' (midpoint " << xm << ", " << ym
                            << ") is on boundary '" << name << "' which has no boundary condition");
    hbc(b) = code;
    const mesh::BoundaryCircle* circle = nullptr;
    for (const auto& c : mesh.boundary_circles)
      if (c.tag == tag) circle = &c;
    for (int k = 0; k < nqe; ++k) {
      const auto rs = basis::tri_edge_point(f, m_ref.xi(k));
      const auto x = modal_detail::map_point(mesh, e, rs[0], rs[1]);
      double v[4] = {0, 0, 0, 0};
      if (code == Physics::Prescribed) {
        DGK_THROW_IF(!boundary.prescribed,
                     "boundary '" << name << "' is an inflow but the problem prescribes no state");
        boundary.prescribed(x[0], x[1], v);
        Real u[4];
        for (int c = 0; c < 4; ++c) u[c] = Real(v[c]);
        DGK_THROW_IF(!(v[0] > 0) || !(m_physics.pressure(u) > Real(0)),
                     "the state prescribed on boundary '" << name << "' at (" << x[0] << ", " << x[1]
                                                          << ") has non-positive density or pressure");
        m_boundary_speed = std::max(m_boundary_speed, double(m_physics.max_speed(u)));
      } else if (code == Physics::Wall) {
        v[0] = m_geo.normal[ue][uf][0];
        v[1] = m_geo.normal[ue][uf][1];
        if (circle) {
          const double dx = x[0] - circle->center[0], dy = x[1] - circle->center[1];
          const double r = std::sqrt(dx * dx + dy * dy), sign = circle->inside ? 1.0 : -1.0;
          v[0] = sign * dx / r;
          v[1] = sign * dy / r;
        }
      } else if (code == Physics::MovingShock) {
        v[0] = x[0];
        v[1] = x[1];
      }
      for (int c = 0; c < 4; ++c) hbd(b, k, c) = Real(v[c]);
    }
  }
  {
    const auto& s = boundary.shock;
    m_shock.x0 = Real(s.x0);
    m_shock.speed = Real(s.speed);
    m_shock.cot_angle = Real(s.cot_angle);
    Real post[4], pre[4];
    for (int c = 0; c < 4; ++c) {
      m_shock.post[c] = post[c] = Real(s.post[c]);
      m_shock.pre[c] = pre[c] = Real(s.pre[c]);
    }
    bool used = false;
    for (int b = 0; b < nb; ++b) used |= hbc(b) == Physics::MovingShock;
    if (used)
      m_boundary_speed =
          std::max({m_boundary_speed, double(m_physics.max_speed(post)), double(m_physics.max_speed(pre))});
  }
  Kokkos::deep_copy(md.geo, hg);
  Kokkos::deep_copy(md.edge, hed);
  Kokkos::deep_copy(md.edge_geo, heg);
  Kokkos::deep_copy(md.elem_edge, hee);
  Kokkos::deep_copy(md.elem_edge_geo, heeg);
  Kokkos::deep_copy(md.bc, hbc);
  Kokkos::deep_copy(md.bdata, hbd);

  m_boundary_speed = comm().max(m_boundary_speed);
  m_q = FieldView("dgk::modal_tri::q", K_local, nf, np);
  m_q0 = FieldView("dgk::modal_tri::q0", K_local, nf, np);
  m_rhs = FieldView("dgk::modal_tri::rhs", K_local, nf, np);
  if (m_settings.integrator == ModalIntegrator::Rk4) m_acc = FieldView("dgk::modal_tri::acc", K_local, nf, np);
  m_surf = decltype(m_surf)("dgk::modal_tri::surf", K_local, 3, nf, np);
  if (m_dist) m_halo = HaloExchange<ExecutionSpace, Real>(*m_dist->comm, m_dist->part.links, nf, np);
}

template <class Physics, class Real, class ExecutionSpace>
void ModalTriSolver<Physics, Real, ExecutionSpace>::set_settings(const ModalSettings& s) {
  DGK_THROW_IF(s.limiter && m_order != 1,
               "the Barth-Jespersen limiter works on p = 1 expansions (this run has order " << m_order << ")");
  if (s.integrator == ModalIntegrator::Rk4 && m_q.extent(0) > 0 && m_acc.extent(0) == 0)
    m_acc = FieldView("dgk::modal_tri::acc", m_q.extent(0), nf, m_q.extent(2));
  m_settings = s;
}

template <class Physics, class Real, class ExecutionSpace>
void ModalTriSolver<Physics, Real, ExecutionSpace>::surface(SurfaceKernel kind) const {
  dispatch_modal_order(m_order, [&](auto p) {
    const auto k = kernels_for<decltype(p)::value>(m_time);
    if (kind == SurfaceKernel::EdgeWise)
      k.surface_edge(m_space);
    else
      k.surface_element(m_space);
  });
}

template <class Physics, class Real, class ExecutionSpace>
void ModalTriSolver<Physics, Real, ExecutionSpace>::volume() const {
  dispatch_modal_order(m_order, [&](auto p) { kernels_for<decltype(p)::value>().volume(m_space); });
}

template <class Physics, class Real, class ExecutionSpace>
void ModalTriSolver<Physics, Real, ExecutionSpace>::limit() const {
  dispatch_modal_order(m_order, [&](auto p) { kernels_for<decltype(p)::value>().limit(m_space); });
}

template <class Physics, class Real, class ExecutionSpace>
void ModalTriSolver<Physics, Real, ExecutionSpace>::evaluate_rhs(double t) const {
  dispatch_modal_order(m_order, [&](auto p) {
    const auto k = kernels_for<decltype(p)::value>(t);
    const bool edge_wise = m_settings.surface == SurfaceKernel::EdgeWise;
    // The surface work without ghost elements runs while the ghosts' modes travel; the volume
    // kernel adds the edge slots, so it comes last.
    m_halo.overlap(
        m_space, m_q,
        [&] {
          if (edge_wise)
            k.surface_edge(m_space, 0, m_edges_no_ghost);
          else
            k.surface_element(m_space, 0, m_own.interior);
        },
        [&] {
          if (edge_wise)
            k.surface_edge(m_space, m_edges_no_ghost, m_mesh.num_edges);
          else
            k.surface_element(m_space, m_own.interior, m_mesh.num_elements);
        });
    k.volume(m_space);
  });
}

template <class Physics, class Real, class ExecutionSpace>
void ModalTriSolver<Physics, Real, ExecutionSpace>::exchange_and_limit() {
  // The limiter reads the neighbours' cell averages: the ghosts' must be the updated ones.
  m_halo.exchange(m_space, m_q);
  limit();
}

template <class Physics, class Real, class ExecutionSpace>
int ModalTriSolver<Physics, Real, ExecutionSpace>::stages_per_step() const {
  switch (m_settings.integrator) {
    case ModalIntegrator::SspRk2:
      return 2;
    case ModalIntegrator::SspRk3:
      return 3;
    default:
      return 4;
  }
}

template <class Physics, class Real, class ExecutionSpace>
void ModalTriSolver<Physics, Real, ExecutionSpace>::step(double dt) {
  using namespace kernels::modal_tri;
  Kokkos::deep_copy(m_space, m_q0, m_q);
  const double t = m_time;
  if (m_settings.integrator == ModalIntegrator::Rk4) {
    static constexpr double w[4] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
    static constexpr double c[5] = {0.0, 0.5, 0.5, 1.0, 1.0};
    for (int s = 0; s < 4; ++s) {
      evaluate_rhs(t + c[s] * dt);
      rk4_update(m_space, m_q, m_q0, m_rhs, m_acc, s == 0, s == 3, Real(w[s]), Real(c[s + 1]), Real(dt));
      if (m_settings.limiter) exchange_and_limit();
    }
  } else {
    // Shu-Osher form q = a q0 + b (q + dt L(q)); stage times c.
    static constexpr double rk2[2][3] = {{0.0, 1.0, 0.0}, {0.5, 0.5, 1.0}};
    static constexpr double rk3[3][3] = {{0.0, 1.0, 0.0}, {0.75, 0.25, 1.0}, {1.0 / 3.0, 2.0 / 3.0, 0.5}};
    const bool two = m_settings.integrator == ModalIntegrator::SspRk2;
    const int stages = two ? 2 : 3;
    for (int s = 0; s < stages; ++s) {
      const double* abc = two ? rk2[s] : rk3[s];
      evaluate_rhs(t + abc[2] * dt);
      ssp_update(m_space, m_q, m_q0, m_rhs, Real(abc[0]), Real(abc[1]), Real(dt));
      if (m_settings.limiter) exchange_and_limit();
    }
  }
  m_time += dt;
}

template <class Physics, class Real, class ExecutionSpace>
double ModalTriSolver<Physics, Real, ExecutionSpace>::max_dt(double cfl) const {
  const double s = std::max(
      comm().max(kernels::modal_tri::max_cell_speed<Physics, ExecutionSpace, Real>(m_space, m_physics, m_q, m_ops.phi0)),
      m_boundary_speed);
  DGK_THROW_IF(!(s > 0) || !std::isfinite(s),
               "the largest wave speed of the initial state is " << s << "; no time step follows from it");
  return cfl * m_min_inradius / ((2.0 * m_order + 1.0) * s);
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<double> ModalTriSolver<Physics, Real, ExecutionSpace>::host_modes() const {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_q);
  const int K = m_mesh.num_elements, np = m_ref.np;
  std::vector<double> out(static_cast<std::size_t>(K) * nf * static_cast<std::size_t>(np));
  for (int e = 0; e < K; ++e)
    for (int c = 0; c < nf; ++c)
      for (int j = 0; j < np; ++j)
        out[(static_cast<std::size_t>(e) * nf + static_cast<std::size_t>(c)) * static_cast<std::size_t>(np) +
            static_cast<std::size_t>(j)] = static_cast<double>(h(e, c, j));
  return out;
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<double> ModalTriSolver<Physics, Real, ExecutionSpace>::values_at(const Eigen::VectorXd& r,
                                                                             const Eigen::VectorXd& s) const {
  const Eigen::MatrixXd V = basis::tri_vandermonde(m_order, r, s);
  const auto modes = host_modes();
  const int K = m_mesh.num_elements, np = m_ref.np, n = static_cast<int>(r.size());
  std::vector<double> out(static_cast<std::size_t>(K) * nf * static_cast<std::size_t>(n));
  for (int e = 0; e < K; ++e)
    for (int c = 0; c < nf; ++c) {
      const double* m = &modes[(static_cast<std::size_t>(e) * nf + static_cast<std::size_t>(c)) * np];
      for (int i = 0; i < n; ++i) {
        double v = 0;
        for (int j = 0; j < np; ++j) v += V(i, j) * m[j];
        out[(static_cast<std::size_t>(e) * nf + static_cast<std::size_t>(c)) * n + static_cast<std::size_t>(i)] = v;
      }
    }
  return out;
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<double> ModalTriSolver<Physics, Real, ExecutionSpace>::edge_values() const {
  const int nqe = m_ref.nqe();
  Eigen::VectorXd r(3 * nqe), s(3 * nqe);
  for (int f = 0; f < 3; ++f)
    for (int k = 0; k < nqe; ++k) {
      const auto p = basis::tri_edge_point(f, m_ref.xi(k));
      r(f * nqe + k) = p[0];
      s(f * nqe + k) = p[1];
    }
  return values_at(r, s);
}

template <class Physics, class Real, class ExecutionSpace>
std::array<std::vector<double>, 2> ModalTriSolver<Physics, Real, ExecutionSpace>::edge_points() const {
  const int nqe = m_ref.nqe(), K = m_mesh.num_elements;
  std::array<std::vector<double>, 2> out;
  for (int e = 0; e < K; ++e)
    for (int f = 0; f < 3; ++f)
      for (int k = 0; k < nqe; ++k) {
        const auto p = basis::tri_edge_point(f, m_ref.xi(k));
        const auto x = modal_detail::map_point(m_host_mesh, e, p[0], p[1]);
        out[0].push_back(x[0]);
        out[1].push_back(x[1]);
      }
  return out;
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<double> ModalTriSolver<Physics, Real, ExecutionSpace>::host_fields() const {
  const auto local = owned_host_fields();
  const int np = basis::tri_np(m_order);
  return m_dist ? m_dist->gather_rows(local.data(), static_cast<std::size_t>(nf * np)) : local;
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<double> ModalTriSolver<Physics, Real, ExecutionSpace>::owned_host_fields() const {
  const auto ref = basis::make_tri_nodal(m_order);
  return values_at(ref.r, ref.s);
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<double> ModalTriSolver<Physics, Real, ExecutionSpace>::cell_averages() const {
  const auto modes = host_modes();
  const int K = m_mesh.num_elements, np = m_ref.np;
  std::vector<double> out(static_cast<std::size_t>(K) * nf);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = modes[i * static_cast<std::size_t>(np)] * m_ref.phi0;
  return out;
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<double> ModalTriSolver<Physics, Real, ExecutionSpace>::totals() const {
  const auto avg = cell_averages();
  std::vector<double> t(nf, 0.0);
  for (int e = 0; e < m_mesh.num_elements; ++e)
    for (int c = 0; c < nf; ++c)
      t[static_cast<std::size_t>(c)] += 2.0 * m_geo.J[static_cast<std::size_t>(e)] *
                                        avg[static_cast<std::size_t>(e) * nf + static_cast<std::size_t>(c)];
  for (auto& v : t) v = comm().sum(v);
  return t;
}

template <class Physics, class Real, class ExecutionSpace>
double ModalTriSolver<Physics, Real, ExecutionSpace>::energy() const {
  return totals()[nf - 1];
}

template <class Physics, class Real, class ExecutionSpace>
template <class F>
void ModalTriSolver<Physics, Real, ExecutionSpace>::for_quadrature(int degree, F&& f) const {
  const auto rule = basis::simplex_quadrature(2, degree);
  const Eigen::VectorXd r = rule.points.col(0), s = rule.points.col(1);
  const auto vals = values_at(r, s);
  const int n = rule.size();
  double u[nf];
  for (int e = 0; e < m_mesh.num_elements; ++e)
    for (int k = 0; k < n; ++k) {
      const auto x = modal_detail::map_point(m_host_mesh, e, r(k), s(k));
      for (int c = 0; c < nf; ++c)
        u[c] = vals[(static_cast<std::size_t>(e) * nf + static_cast<std::size_t>(c)) * static_cast<std::size_t>(n) +
                    static_cast<std::size_t>(k)];
      f(e, rule.weights(k) * m_geo.J[static_cast<std::size_t>(e)], x[0], x[1], u);
    }
}

template <class Physics, class Real, class ExecutionSpace>
double ModalTriSolver<Physics, Real, ExecutionSpace>::l2_error_field(const PointFunction& exact, int field) const {
  double sum = 0, v[nf];
  for_quadrature(2 * m_order + 4, [&](int, double wj, double x, double y, const double* u) {
    exact(x, y, 0.0, m_time, v);
    for (int c = 0; c < nf; ++c)
      if (field < 0 || c == field) sum += wj * (u[c] - v[c]) * (u[c] - v[c]);
  });
  return std::sqrt(comm().sum(sum));
}

template <class Physics, class Real, class ExecutionSpace>
double ModalTriSolver<Physics, Real, ExecutionSpace>::l2_error(const PointFunction& exact) const {
  return l2_error_field(exact, -1);
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<double> ModalTriSolver<Physics, Real, ExecutionSpace>::l2_error_fields(const PointFunction& exact) const {
  std::vector<double> out;
  for (int c = 0; c < nf; ++c) out.push_back(l2_error_field(exact, c));
  return out;
}

template <class Physics, class Real, class ExecutionSpace>
void ModalTriSolver<Physics, Real, ExecutionSpace>::set_fields(const PointFunction& f, double t) {
  const auto rule = basis::simplex_quadrature(2, 2 * m_order + 2);
  const Eigen::VectorXd r = rule.points.col(0), s = rule.points.col(1);
  const Eigen::MatrixXd V = basis::tri_vandermonde(m_order, r, s);
  auto h = Kokkos::create_mirror_view(m_q);
  const int np = m_ref.np, n = rule.size();
  double v[nf];
  std::vector<double> c(static_cast<std::size_t>(nf * np));
  for (int e = 0; e < m_host_mesh.num_elements(); ++e) {  // ghosts too: the limiter reads them
    std::fill(c.begin(), c.end(), 0.0);
    for (int k = 0; k < n; ++k) {
      const auto x = modal_detail::map_point(m_host_mesh, e, r(k), s(k));
      f(x[0], x[1], 0.0, t, v);
      for (int q = 0; q < nf; ++q)
        for (int j = 0; j < np; ++j) c[static_cast<std::size_t>(q * np + j)] += rule.weights(k) * V(k, j) * v[q];
    }
    for (int q = 0; q < nf; ++q)
      for (int j = 0; j < np; ++j) h(e, q, j) = Real(c[static_cast<std::size_t>(q * np + j)]);
  }
  Kokkos::deep_copy(m_q, h);
  // A projected discontinuity overshoots like any other: limited as after every stage.
  if (m_settings.limiter) limit();
  m_time = t;
}

template <class Physics, class Real, class ExecutionSpace>
std::optional<NonFinite> ModalTriSolver<Physics, Real, ExecutionSpace>::find_non_finite() const {
  return nodal_state::find_non_finite(m_space, m_q, m_mesh.num_elements, nf, m_ref.np, m_dist.get(), m_own.global);
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<StateArray> ModalTriSolver<Physics, Real, ExecutionSpace>::save_state() const {
  return nodal_state::save<FieldView>({{"q", &m_q}}, m_mesh.num_elements, m_dist.get());
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<StateArray> ModalTriSolver<Physics, Real, ExecutionSpace>::save_owned_state(
    std::vector<long long>& elements) const {
  return nodal_state::save<FieldView>({{"q", &m_q}}, m_mesh.num_elements, m_dist.get(), &elements);
}

template <class Physics, class Real, class ExecutionSpace>
void ModalTriSolver<Physics, Real, ExecutionSpace>::load_state(const std::vector<StateArray>& state, double time) {
  nodal_state::load<FieldView>(state, {{"q", &m_q}}, m_mesh.num_elements, m_dist.get(), precision());
  m_time = time;
}

template <class Physics, class Real, class ExecutionSpace>
std::vector<StageCost> ModalTriSolver<Physics, Real, ExecutionSpace>::costs() const {
  const double K = m_mesh.num_elements, E = m_mesh.num_edges, nb = m_mesh.num_boundary_edges;
  const double ni = E - nb;  // interior edges
  const double np = m_ref.np, nq = m_ref.nq(), nqe = m_ref.nqe(), w = sizeof(Real);
  const double flux = Physics::numerical_flux_flops;
  std::vector<StageCost> c;
  // surface: per edge point the traces (2 nf np flops per side), the numerical flux, and the
  // test integrals (2 flops per mode and field per side, plus the weight product); reads each
  // element's modes once and the edge data, writes the three slots of every element.
  if (m_settings.surface == SurfaceKernel::EdgeWise)
    c.push_back({"surface edge-wise", nqe * (ni * 2 + nb) * (2 * nf * np + np) + nqe * E * flux,
                 K * (nf * np * w + 3 * nf * np * w) + E * (4 * 4 + 3 * w) + nb * (4 + 4 * nqe * w)});
  else
    c.push_back({"surface element-wise", K * 3 * nqe * (2 * 2 * nf * np + np + flux),
                 K * (nf * np * w + 3 * nf * np * w + 9 * 4 + 9 * w) + nb * (4 + 4 * nqe * w)});
  // volume: per point the state (2 nf np), the fluxes, and per mode the two physical gradients
  // (6 flops) and 4 flops per field; then the slots (4 flops per value); reads q, the slots and
  // the geometry, writes rhs.
  c.push_back({"volume", K * (nq * (2 * nf * np + Physics::flux_flops + np * (6 + 4 * nf)) + 4 * nf * np),
               K * (2 * nf * np * w + 3 * nf * np * w + 5 * w)});
  if (m_settings.limiter)
    // limiter: reads the three p = 1 modes of its own fields and the neighbours' averages (cached:
    // every average is some element's own), writes two modes; the neighbour list.
    c.push_back({"limiter", K * nf * (3 * nqe * 5 + 8), K * (nf * 5 * w + 3 * 4)});
  if (m_settings.integrator == ModalIntegrator::Rk4)
    c.push_back({"update", K * nf * np * 4, K * nf * np * 5 * w});
  else
    c.push_back({"update", K * nf * np * 4, K * nf * np * 4 * w});
  return c;
}

template <class Physics, class Real, class ExecutionSpace>
StageTimes ModalTriSolver<Physics, Real, ExecutionSpace>::time_stages(int reps) {
  StageTimes t;
  auto measure = [&](auto&& f) { return backends::median_seconds(m_space, reps, f); };
  t.seconds.push_back(measure([&] { surface(m_settings.surface); }));
  t.seconds.push_back(measure([&] { volume(); }));
  // The limiter and the update change the fields: run them on a copy, restored afterwards.
  Kokkos::deep_copy(m_space, m_q0, m_q);
  if (m_settings.limiter) t.seconds.push_back(measure([&] { limit(); }));
  if (m_settings.integrator == ModalIntegrator::Rk4)
    t.seconds.push_back(measure([&] {
      kernels::modal_tri::rk4_update(m_space, m_q, m_q0, m_rhs, m_acc, false, false, Real(0), Real(0), Real(0));
    }));
  else
    t.seconds.push_back(
        measure([&] { kernels::modal_tri::ssp_update(m_space, m_q, m_q0, m_rhs, Real(0), Real(1), Real(0)); }));
  Kokkos::deep_copy(m_space, m_q, m_q0);
  m_space.fence();
  return t;
}

}  // namespace dgk::physics
