// DG on tetrahedra for a linear hyperbolic system given by a Physics class (see
// dgk/physics/maxwell3d.hpp for the interface), integrated with LSERK4, in the nodal or the
// Bernstein-Bezier basis with the kernel family chosen at run time (dgk/physics/tet_kernels.hpp). Builds the device data
// from a host mesh and the reference operators, then drives the kernels of
// dgk/kernels/nodal_tet/. Explicitly instantiated for each (physics, precision, execution space)
// of the build; the polynomial order is a run-time value dispatched to compiled kernels.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <Kokkos_Core.hpp>

#include "dgk/backends/ceilings.hpp"
#include "dgk/backends/device.hpp"
#include "dgk/backends/memory.hpp"
#include "dgk/basis/bernstein_tet.hpp"
#include "dgk/basis/tetrahedron.hpp"
#include "dgk/basis/triangle.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/halo_exchange.hpp"
#include "dgk/core/lserk4.hpp"
#include "dgk/core/shared_carveout.hpp"
#include "dgk/core/math.hpp"
#include "dgk/core/order_dispatch.hpp"
#include "dgk/core/simulation.hpp"
#include "dgk/kernels/bernstein_tet/kernels.hpp"
#include "dgk/kernels/nodal_tet/blocked.hpp"
#include "dgk/kernels/nodal_tet/kernels.hpp"
#include "dgk/kernels/nodal_tet/tuned.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/physics/distribution.hpp"
#include "dgk/physics/nodal_state.hpp"
#include "dgk/physics/tet_kernels.hpp"
#include "dgk/physics/tet_tuning.hpp"

namespace dgk::physics {

/// Threads per element for each kernel: on a GPU the node count rounded up to the warp size,
/// on the host one thread per team (the team's loops run sequentially in one thread).
template <class ExecutionSpace>
kernels::nodal_tet::LaunchShape default_launch_shape(int order) {
  kernels::nodal_tet::LaunchShape s;
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecutionSpace::memory_space>::accessible;
  if (host) return s;
  auto round = [](int n) { return std::min(1024, (n + 31) / 32 * 32); };
  s.volume_team = round(basis::tet_np(order));
  s.surface_team = round(4 * basis::tet_nfp(order));
  s.lift_team = round(basis::tet_np(order));
  return s;
}

template <class Physics, class Real, class ExecutionSpace>
class TetSolver final : public Simulation, public NodalTunable {
 public:
  using Mem = typename ExecutionSpace::memory_space;
  using FieldView = kernels::nodal_tet::Fields<Real, Mem>;
  static constexpr int nf = Physics::num_fields;
  using NodalTuning = kernels::nodal_tet::NodalTuning;
  using StageKernel = kernels::nodal_tet::StageKernel;
  using LiftMode = kernels::nodal_tet::LiftMode;

  /// bc_of_tag[tag] is the physics' boundary-condition code for each boundary tag of the mesh.
  /// With a Distribution, `mesh` is this rank's part (owned elements, then ghosts: see
  /// mesh::LocalPart) and the solver is one rank of a distributed run: it exchanges face traces
  /// every stage, and its norms, time step, state and host fields are those of the whole problem
  /// (collective calls).
  TetSolver(const ExecutionSpace& space, int order, const mesh::TetMesh& mesh, const std::vector<int>& bc_of_tag,
            const TetKernels& kernels = {}, std::shared_ptr<const Distribution> dist = {})
      : m_space(space), m_order(order), m_kernels(kernels), m_ref(basis::make_tet_nodal(order)), m_dist(std::move(dist)) {
    if (bernstein()) {
      m_bb = std::make_unique<basis::TetBernstein>(basis::make_tet_bernstein(order));
      m_bops = kernels::bernstein_tet::make_operators<Real, Mem>(*m_bb);
    }
    // Fail early, before any host work, for an order without compiled kernels.
    dispatch_order(order, [](auto) {});
    const auto conn = mesh::connect(mesh);
    m_geo = mesh::geometric_factors(mesh);
    const auto maps = mesh::build_face_maps(mesh, conn, m_ref);
    m_nodes = mesh::node_coordinates(mesh, m_ref);
    m_material = mesh.material;
    const int K_local = mesh.num_elements(), np = m_ref.np, nfp = m_ref.nfp;
    m_own = nodal_state::ownership<Mem>(m_dist.get(), K_local);
    const int K = m_own.owned;  // owned elements; ghosts follow
    m_shape = default_launch_shape<ExecutionSpace>(order);

    // Refuse, with the numbers, a problem that does not fit the execution space's memory.
    {
      const double w = sizeof(Real);
      const double bytes = double(K_local) * (3.0 * nf * np * w + nf * 4.0 * nfp * w + 4.0 * nfp * 4 + 16 + (9 + 4 * kernels::nodal_tet::MeshData<Real, Mem>::face_values + 2) * w + 16) +
                           (3.0 * np * np + 4.0 * np * nfp) * w;
      backends::require_memory<ExecutionSpace>(bytes, [&] {
        std::ostringstream what;
        what << Physics::name << " order " << order << ", " << K << " elements, " << nf * np << " values per element, "
             << (sizeof(Real) == 4 ? "float" : "double");
        return what.str();
      });
    }

    // Reference operators, rounded once: the nodal ones, or for the Bernstein basis its D_r, D_s,
    // D_t and L as dense matrices (for the kernels of the nodal family, which then run on
    // coefficients; the flux gather is the same, see surface()).
    const basis::TetBernsteinDense bdense = bernstein() ? basis::tet_bernstein_dense_operators(*m_bb)
                                                        : basis::TetBernsteinDense{};
    const Eigen::MatrixXd& Dr = bernstein() ? bdense.Dr : m_ref.Dr;
    const Eigen::MatrixXd& Ds = bernstein() ? bdense.Ds : m_ref.Ds;
    const Eigen::MatrixXd& Dt = bernstein() ? bdense.Dt : m_ref.Dt;
    const Eigen::MatrixXd& LIFT = bernstein() ? bdense.LIFT : m_ref.LIFT;
    m_dsum = (Dr.cwiseAbs() + Ds.cwiseAbs() + Dt.cwiseAbs()).rowwise().sum().maxCoeff();
    m_lsum = LIFT.cwiseAbs().rowwise().sum().maxCoeff();
    auto& ops = m_ops;
    ops.Dr = decltype(ops.Dr)("dgk::nodal_tet::Dr", np, np);
    ops.Ds = decltype(ops.Ds)("dgk::nodal_tet::Ds", np, np);
    ops.Dt = decltype(ops.Dt)("dgk::nodal_tet::Dt", np, np);
    ops.lift = decltype(ops.lift)("dgk::nodal_tet::lift", np, 4 * nfp);
    ops.fmask = decltype(ops.fmask)("dgk::nodal_tet::fmask", 4, nfp);
    auto hDr = Kokkos::create_mirror_view(ops.Dr), hDs = Kokkos::create_mirror_view(ops.Ds),
         hDt = Kokkos::create_mirror_view(ops.Dt), hL = Kokkos::create_mirror_view(ops.lift);
    auto hF = Kokkos::create_mirror_view(ops.fmask);
    for (int i = 0; i < np; ++i) {
      for (int j = 0; j < np; ++j) {
        hDr(i, j) = Real(Dr(i, j));
        hDs(i, j) = Real(Ds(i, j));
        hDt(i, j) = Real(Dt(i, j));
      }
      for (int k = 0; k < 4 * nfp; ++k) hL(i, k) = Real(LIFT(i, k));
    }
    for (int f = 0; f < 4; ++f)
      for (int i = 0; i < nfp; ++i) hF(f, i) = m_ref.fmask[f][static_cast<std::size_t>(i)];
    Kokkos::deep_copy(ops.Dr, hDr);
    Kokkos::deep_copy(ops.Ds, hDs);
    Kokkos::deep_copy(ops.Dt, hDt);
    Kokkos::deep_copy(ops.lift, hL);
    Kokkos::deep_copy(ops.fmask, hF);

    // Mesh data.
    auto& md = m_mesh;
    md.num_elements = K;
    md.drdx = decltype(md.drdx)("dgk::nodal_tet::drdx", K);
    md.face = decltype(md.face)("dgk::nodal_tet::face", K);
    md.mapP = decltype(md.mapP)("dgk::nodal_tet::mapP", K, 4 * nfp);
    md.bc = decltype(md.bc)("dgk::nodal_tet::bc", K);
    md.material = decltype(md.material)("dgk::nodal_tet::material", K_local);
    auto hG = Kokkos::create_mirror_view(md.drdx);
    auto hFace = Kokkos::create_mirror_view(md.face);
    auto hP = Kokkos::create_mirror_view(md.mapP);
    auto hB = Kokkos::create_mirror_view(md.bc);
    auto hM = Kokkos::create_mirror_view(md.material);
    for (int e = 0; e < K; ++e) {
      for (int c = 0; c < 9; ++c) hG(e, c) = Real(m_geo.drdx[e][c]);
      for (int f = 0; f < 4; ++f) {
        for (int d = 0; d < 3; ++d) hFace(e, f, d) = Real(m_geo.normal[e][f][d]);
        // The flux coefficients between this element's material and its neighbour's across the
        // face (the element of the face's first neighbour node: itself on the boundary, a ghost
        // across a partition), in double, times Fscale, then rounded once.
        const int ep = maps.vmapP[static_cast<std::size_t>(e * 4 * nfp + f * nfp)] / np;
        const double mm[2] = {mesh.material[e][0], mesh.material[e][1]};
        const double mp[2] = {mesh.material[ep][0], mesh.material[ep][1]};
        double coef[Physics::flux_coefficients];
        Physics::face_coefficients(mm, mp, coef);
        for (int c = 0; c < Physics::flux_coefficients; ++c) hFace(e, f, 3 + c) = Real(coef[c] * m_geo.fscale[e][f]);
        if (conn.EToE[e][f] < 0) {
          const int tag = conn.bc_tag[e][f];
          DGK_THROW_IF(tag < 0 || tag >= static_cast<int>(bc_of_tag.size()) || bc_of_tag[tag] < 0,
                       "element " << e << " face " << f << " of mesh '" << mesh.source
                                  << "' is on boundary tag " << tag << " which has no boundary condition");
          hB(e, f) = bc_of_tag[tag];
        } else {
          hB(e, f) = -1;
        }
      }
      for (int k = 0; k < 4 * nfp; ++k) hP(e, k) = maps.vmapP[static_cast<std::size_t>(e * 4 * nfp + k)];
    }
    for (int e = 0; e < K_local; ++e)
      for (int c = 0; c < 2; ++c) hM(e, c) = Real(mesh.material[e][c]);
    Kokkos::deep_copy(md.drdx, hG);
    Kokkos::deep_copy(md.face, hFace);
    Kokkos::deep_copy(md.mapP, hP);
    {
      // The tuned gathers' per-face form of mapP (MeshData::face_neighbour).
      static_assert(kernels::nodal_tet::MeshData<Real, Mem>::max_face_patterns == mesh::FaceCodes::max_patterns);
      const std::vector<int> own(maps.vmapP.begin(), maps.vmapP.begin() + static_cast<std::ptrdiff_t>(K) * 4 * nfp);
      m_face_codes = mesh::face_codes(own, np, nfp, K_local);
      use_face_codes(true);
    }
    Kokkos::deep_copy(md.bc, hB);
    Kokkos::deep_copy(md.material, hM);

    m_q = FieldView("dgk::nodal_tet::q", K_local, nf, np);
    m_res = FieldView("dgk::nodal_tet::res", K, nf, np);
    m_rhs = FieldView("dgk::nodal_tet::rhs", K, nf, np);
    m_flux = FieldView("dgk::nodal_tet::flux", K, nf, 4 * nfp);
    if (m_dist) m_halo = HaloExchange<ExecutionSpace, Real>(*m_dist->comm, m_dist->part.links, nf, np);
    // The tuned family runs the straightforward kernels until a tuning is set.
    if (m_kernels.family == TetKernelFamily::Tuned) {
      if (m_kernels.tuned)
        set_tuning(m_kernels.tuning);
      else
        m_kernels.tuning = {};
    }
  }

  // --- stages, separately callable -----------------------------------------------------------
  void volume() const {
    dispatch_order(m_order, [&](auto n) {
      constexpr int N = decltype(n)::value;
      switch (m_kernels.family) {
        case TetKernelFamily::Thread: kernels_for<N>().volume(m_space, m_shape.volume_team); break;
        case TetKernelFamily::Blocked: blocked_for<N>().volume(m_space); break;
        case TetKernelFamily::Tuned:
          switch (m_kernels.tuning.volume) {
            case StageKernel::Thread: kernels_for<N>().volume(m_space, m_shape.volume_team); break;
            case StageKernel::Micro: tuned_for<N>(m_kernels.tuning.volume_shape).micro_volume(m_space); break;
            case StageKernel::Batched: tuned_for<N>(m_kernels.tuning.volume_shape).batched_volume(m_space); break;
            case StageKernel::Tensor:
              tuned_for<N>(kernels::nodal_tet::volume_part(m_kernels.tuning.volume_shape)).tensor_volume(m_space);
              break;
          }
          break;
        default: bernstein_for<N>().volume(m_space, m_shape.volume_team); break;
      }
    });
  }
  /// The flux gather is the same for both bases: Bernstein face coefficients sit at the nodal
  /// face positions (fmask) and the numerical flux is linear in the traces.
  void surface() const { surface(0, m_mesh.num_elements); }
  /// The flux of elements [begin, end) only.
  void surface(int begin, int end) const {
    dispatch_order(m_order, [&](auto n) {
      kernels_for<decltype(n)::value>().surface(m_space, m_shape.surface_team, begin, end);
    });
  }
  void lift() const {
    dispatch_order(m_order, [&](auto n) {
      constexpr int N = decltype(n)::value;
      switch (m_kernels.family) {
        case TetKernelFamily::Thread: kernels_for<N>().lift(m_space, m_shape.lift_team); break;
        case TetKernelFamily::Blocked: blocked_for<N>().lift(m_space); break;
        case TetKernelFamily::Tuned:
          switch (m_kernels.tuning.lift) {
            case StageKernel::Thread: kernels_for<N>().lift(m_space, m_shape.lift_team); break;
            case StageKernel::Micro:
              tuned_for<N>(m_kernels.tuning.lift_shape).micro_lift(m_space, 0, m_mesh.num_elements);
              break;
            case StageKernel::Batched: tuned_for<N>(m_kernels.tuning.lift_shape).batched_lift(m_space); break;
            case StageKernel::Tensor:
              tuned_for<N>(m_kernels.tuning.lift_shape).tensor_lift(m_space, 0, m_mesh.num_elements);
              break;
          }
          break;
        case TetKernelFamily::Sparse: bernstein_for<N>().lift_sparse(m_space, m_shape.lift_team); break;
        case TetKernelFamily::Optimal: bernstein_for<N>().lift_optimal(m_space, m_shape.lift_team); break;
      }
    });
  }
  /// The fused kernel of the tuned family (gather and lift, and in the fused-update mode the
  /// LSERK update into the second field buffer) for elements [begin, end).
  void fused(int begin, int end, double a = 0, double b = 0, double dt = 0) const {
    dispatch_order(m_order, [&](auto n) {
      auto k = tuned_for<decltype(n)::value>(m_kernels.tuning.lift_shape);
      k.a = Real(a);
      k.b = Real(b);
      k.dt = Real(dt);
      if (m_kernels.tuning.lift == StageKernel::Tensor)
        k.tensor_lift(m_space, begin, end);
      else
        k.micro_lift(m_space, begin, end);
    });
  }
  /// The fused-stage kernel (volume, gather, lift and the LSERK update into the second field
  /// buffer) for elements [begin, end).
  void fused_stage(int begin, int end, double a, double b, double dt) const {
    dispatch_order(m_order, [&](auto n) {
      auto k = tuned_for<decltype(n)::value>(m_kernels.tuning.volume_shape);
      k.a = Real(a);
      k.b = Real(b);
      k.dt = Real(dt);
      k.tensor_stage(m_space, begin, end, false, m_kernels.tuning.volume_shape);
    });
  }
  void update(double a, double b, double dt) const {
    kernels::nodal_tet::lserk_update(m_space, m_q, m_res, m_rhs, Real(a), Real(b), Real(dt));
  }
  /// rhs = volume + lift(surface) at the current fields. In a distributed run the face traces
  /// travel while the volume kernel and the faces of the elements without ghost neighbours run;
  /// then the remaining faces, then the lift. (Not in the fused-update and fused-stage modes,
  /// whose stage() never forms the whole rhs.)
  void evaluate_rhs() {
    DGK_THROW_IF(mode() == LiftMode::FusedUpdate || mode() == LiftMode::FusedStage,
                 "TetSolver::evaluate_rhs: the " << (mode() == LiftMode::FusedStage ? "fused-stage" : "fused-update")
                                                 << " kernels update the fields in the same kernel; use stage()");
    if (mode() == LiftMode::FusedLift) {
      overlapped([&](int begin, int end) { fused(begin, end); });
      return;
    }
    overlapped([&](int begin, int end) { surface(begin, end); });
    lift();
  }
  /// One LSERK stage: rhs at the current fields, then res = a res + dt rhs; q += b res.
  void stage(double a, double b, double dt) {
    switch (mode()) {
      case LiftMode::Split:
      case LiftMode::FusedLift:
        evaluate_rhs();
        update(a, b, dt);
        return;
      case LiftMode::FusedUpdate: overlapped([&](int begin, int end) { fused(begin, end, a, b, dt); }); break;
      case LiftMode::FusedStage:
        // One kernel per element range: the interior elements while the traces travel.
        m_halo.overlap(
            m_space, m_q, [&] { fused_stage(0, m_own.interior, a, b, dt); },
            [&] { fused_stage(m_own.interior, m_mesh.num_elements, a, b, dt); });
        break;
    }
    std::swap(m_q, m_q_next);
  }
  /// The trace exchange alone (a distributed run), for timing what overlapping hides.
  void exchange() { m_halo.exchange(m_space, m_q); }
  /// One stage without the exchange (a distributed run's compute alone).
  void stage_local(double a, double b, double dt) {
    if (mode() == LiftMode::FusedStage) {
      fused_stage(0, m_mesh.num_elements, a, b, dt);
      std::swap(m_q, m_q_next);
      return;
    }
    volume();
    switch (mode()) {
      case LiftMode::Split:
        surface();
        lift();
        update(a, b, dt);
        break;
      case LiftMode::FusedLift:
        fused(0, m_mesh.num_elements);
        update(a, b, dt);
        break;
      case LiftMode::FusedUpdate:
        fused(0, m_mesh.num_elements, a, b, dt);
        std::swap(m_q, m_q_next);
        break;
      case LiftMode::FusedStage: break;
    }
  }
  /// The run's distribution, or null on one rank.
  const Distribution* distribution() const { return m_dist.get(); }

  const FieldView& fields() const { return m_q; }
  const FieldView& rhs_view() const { return m_rhs; }
  /// The device operators and mesh data the kernels read (for comparisons with other
  /// implementations of the same kernels).
  const kernels::nodal_tet::Operators<Real, Mem>& operators() const { return m_ops; }
  const kernels::nodal_tet::MeshData<Real, Mem>& mesh_data() const { return m_mesh; }
  bool use_face_codes(bool on) override {
    auto& md = m_mesh;
    if (!on || m_face_codes.code.empty()) {
      md.face_neighbour = {};
      md.face_pattern = {};
      return false;
    }
    if (md.face_neighbour.extent(0) > 0) return true;
    const int faces = static_cast<int>(m_face_codes.code.size() / 4), nfp = m_ref.nfp;
    md.face_neighbour = decltype(md.face_neighbour)("dgk::nodal_tet::face_neighbour", faces);
    md.face_pattern = decltype(md.face_pattern)("dgk::nodal_tet::face_pattern", m_face_codes.patterns.size(), nfp);
    auto hN = Kokkos::create_mirror_view(md.face_neighbour);
    auto hT = Kokkos::create_mirror_view(md.face_pattern);
    for (int e = 0; e < faces; ++e)
      for (int f = 0; f < 4; ++f) hN(e, f) = m_face_codes.code[static_cast<std::size_t>(4 * e + f)];
    for (std::size_t p = 0; p < m_face_codes.patterns.size(); ++p)
      for (int i = 0; i < nfp; ++i) hT(p, i) = m_face_codes.patterns[p][static_cast<std::size_t>(i)];
    Kokkos::deep_copy(md.face_neighbour, hN);
    Kokkos::deep_copy(md.face_pattern, hT);
    return true;
  }
  const basis::TetNodal& reference() const { return m_ref; }
  const mesh::NodeCoordinates& nodes() const { return m_nodes; }

  // --- Simulation interface ------------------------------------------------------------------
  std::string backend() const override { return backend_name(BackendOf<ExecutionSpace>::value); }
  std::string precision() const override { return sizeof(Real) == 4 ? "float" : "double"; }
  int order() const override { return m_order; }
  int num_elements() const override {
    return m_dist ? static_cast<int>(m_dist->part.global_elements) : m_mesh.num_elements;
  }
  int num_fields() const override { return nf; }
  std::string field_name(int field) const override { return Physics::field_names[field]; }
  std::vector<std::string> material_names() const override {
    return {Physics::material_names[0], Physics::material_names[1]};
  }
  long long num_dofs() const override { return static_cast<long long>(num_elements()) * m_ref.np * nf; }

  void set_fields(const PointFunction& f, double t) override {
    auto h = Kokkos::create_mirror_view(m_q);
    const int K = m_mesh.num_elements, np = m_ref.np;
    double v[nf];
    for (int e = 0; e < K; ++e) {
      Eigen::MatrixXd values(np, nf);
      for (int i = 0; i < np; ++i) {
        const std::size_t g = static_cast<std::size_t>(e) * np + i;
        f(m_nodes.x[g], m_nodes.y[g], m_nodes.z[g], t, v);
        for (int c = 0; c < nf; ++c) values(i, c) = v[c];
      }
      // Bernstein: the interpolant's coefficients, converted in double and rounded once.
      if (bernstein()) values = m_bb->VBinv * values;
      for (int i = 0; i < np; ++i)
        for (int c = 0; c < nf; ++c) h(e, c, i) = Real(values(i, c));
    }
    Kokkos::deep_copy(m_q, h);
    Kokkos::deep_copy(m_res, Real(0));
    m_time = t;
  }

  double max_dt(double cfl) const override {
    // Explicit DG: dt ~ h / (c (N+1)^2); 1 / Fscale measures h (it is volume over face area up
    // to a constant).
    double worst = 0.0;
    for (int e = 0; e < m_mesh.num_elements; ++e) {
      const double c = Physics::wave_speed(m_material[e]);
      for (int f = 0; f < 4; ++f) worst = std::max(worst, c * m_geo.fscale[e][f]);
    }
    worst = comm().max(worst);
    const double n1 = m_order + 1;
    return cfl * 2.0 / (worst * n1 * n1);
  }

  void step(double dt) override {
    for (int s = 0; s < Lserk4::stages; ++s) stage(Lserk4::a[s], Lserk4::b[s], dt);
    m_time += dt;
  }
  double time() const override { return m_time; }
  void fence() const override { m_space.fence(); }

  std::optional<NonFinite> find_non_finite() const override {
    return nodal_state::find_non_finite(m_space, m_q, m_mesh.num_elements, nf, m_ref.np, m_dist.get(), m_own.global);
  }

  /// The whole problem's fields in global element order (collective in a distributed run).
  std::vector<double> host_fields() const override {
    const auto local = owned_host_fields();
    return m_dist ? m_dist->gather_rows(local.data(), static_cast<std::size_t>(nf * m_ref.np)) : local;
  }
  /// This rank's owned elements' fields at the nodes, in double: [element][field][node].
  std::vector<double> owned_host_fields() const override {
    auto out = nodal_state::owned_values(m_q, m_mesh.num_elements);
    if (bernstein()) {
      // Values at the nodes from the coefficients, in double: [element][field][node].
      const int np = m_ref.np;
      Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> all(
          out.data(), static_cast<Eigen::Index>(m_mesh.num_elements) * nf, np);
      all = (all * m_bb->VB.transpose()).eval();
    }
    return out;
  }

  /// The whole problem's state in global element order (collective in a distributed run), so a
  /// checkpoint restarts on any number of ranks.
  std::vector<StateArray> save_state() const override {
    return nodal_state::save<FieldView>({{"q", &m_q}, {"rk_residual", &m_res}}, m_mesh.num_elements, m_dist.get());
  }

  std::vector<StateArray> save_owned_state(std::vector<long long>& elements) const override {
    return nodal_state::save<FieldView>({{"q", &m_q}, {"rk_residual", &m_res}}, m_mesh.num_elements, m_dist.get(),
                                        &elements);
  }

  void load_state(const std::vector<StateArray>& state, double time) override {
    nodal_state::load<FieldView>(state, {{"q", &m_q}, {"rk_residual", &m_res}}, m_mesh.num_elements, m_dist.get(),
                               precision());
    m_time = time;
  }

  double l2_error(const PointFunction& exact) const override {
    const auto q = owned_host_fields();
    return weighted_norm(
        [&](int e, int i, double* v) {
          const std::size_t g = static_cast<std::size_t>(e) * m_ref.np + i;
          exact(m_nodes.x[g], m_nodes.y[g], m_nodes.z[g], m_time, v);
          for (int c = 0; c < nf; ++c) v[c] = q[(static_cast<std::size_t>(e) * nf + c) * m_ref.np + i] - v[c];
        },
        false);
  }

  double energy() const override {
    const auto q = owned_host_fields();
    const double n = weighted_norm(
        [&](int e, int i, double* v) {
          for (int c = 0; c < nf; ++c) v[c] = q[(static_cast<std::size_t>(e) * nf + c) * m_ref.np + i];
        },
        true);
    return n * n;
  }

  std::vector<StageCost> costs() const override {
    const double K = m_mesh.num_elements, np = m_ref.np, nfp = m_ref.nfp, w = sizeof(Real);
    std::vector<StageCost> c(4);
    // volume: three np x np products per field, the chain rule (5 flops per field and
    // direction) and the physics; reads q and the 9 metric terms, writes rhs.
    c[0] = {"volume", K * np * (nf * (3 * 2 * np + 3 * 5) + Physics::volume_flops), K * (2 * nf * np + 9 + 2) * w};
    // surface: the numerical flux at every face node from its face's coefficients (the scale
    // folded in); reads the element's trace (the neighbour's trace is the neighbour's own,
    // counted there), where the neighbours are (one int per face: mesh::FaceCodes, which the
    // tuned gathers read; the per-node map's 4 nfp ints are more than the fewest), the face
    // data (normal and coefficients) and the boundary codes, writes the flux.
    const double face_values = 4 * (3 + Physics::flux_coefficients);
    c[1] = {"surface", K * 4 * nfp * Physics::face_flux_flops, K * (4 * nfp * 2 * nf * w + 16 + face_values * w + 16)};
    // lift: an np x 4 nfp product per field; reads the flux, reads and writes rhs.
    c[2] = {"lift", K * nf * np * 4 * nfp * 2, K * nf * (4 * nfp + 2 * np) * w};
    // update: 5 flops per value; reads q, res, rhs, writes q, res.
    c[3] = {"update", K * nf * np * 5, K * nf * np * 5 * w};
    if (bernstein()) {
      // Only the useful (non-padding) entries of the sparse operators count, also for the tuned
      // kernels, which multiply their dense forms (the fewest flops, so a stricter bound); the
      // memory traffic is that of the nodal stages (the sparse tables are small and stay in cache).
      // volume (Algorithm 2): four barycentric derivatives of 4 terms each, their differences
      // (d/dr = (D1 - D0) / 2, ...), the chain rule and the physics.
      c[0].flops = K * np * (nf * (4 * 4 * 2 + 3 * 2 + 3 * 5) + Physics::volume_flops);
      double l0 = 0, el = 0;
      for (int v : m_bb->l0_nnz) l0 += v;
      for (int v : m_bb->el_nnz) el += v;
      // L_0 on the four faces' flux, then the accumulation into rhs.
      const double l0_flops = nf * 4 * 2 * l0;
      if (m_kernels.family == TetKernelFamily::Sparse) {
        // Algorithm 3: E_L's useful entries (all four faces).
        c[2].flops = K * (l0_flops + nf * 2 * el);
      } else {
        // Algorithm 1 (the fewest, also for the tuned kernels): per face, N one-degree
        // reductions of 3 terms per output (rows of degree m - 1 for m = 1..N), each layer
        // scaled by ell_i and added into its volume rows.
        const int n = m_order;
        double reduce = 0;
        for (int m = 1; m <= n; ++m) reduce += 3.0 * 2 * basis::tri_np(m - 1);
        c[2].flops = K * (l0_flops + nf * 4 * (reduce + 2 * np));
      }
    }
    if (mode() != LiftMode::Split) {
      // The fused kernel: the gather's and the lift's flops; its traffic is the gather's without
      // the flux store, and the lift's without the flux load.
      const double gather_bytes = K * (4 * nfp * nf * w + 16 + face_values * w + 16);
      StageCost fused{"surface+lift", c[1].flops + c[2].flops, gather_bytes + K * nf * 2 * np * w};
      if (mode() == LiftMode::FusedLift) return {c[0], fused, c[3]};
      // ... and the update's: reads rhs, res and q, writes res and the new q (the element's own
      // trace is part of its q, read once).
      fused.name = "surface+lift+update";
      fused.flops += c[3].flops;
      fused.bytes = gather_bytes - K * 4 * nfp * nf * w + K * nf * np * 5 * w;
      if (mode() == LiftMode::FusedUpdate) return {c[0], fused};
      // The fused stage: every flop of the stage; reads q, the metric terms and materials, the
      // face data and res, writes res and the new q; no rhs.
      return {{"volume+surface+lift+update", c[0].flops + fused.flops,
               K * (4 * nf * np + 9 + 2) * w + gather_bytes - K * 4 * nfp * nf * w}};
    }
    return c;
  }

  StageTimes time_stages(int reps) override {
    StageTimes t;
    auto measure = [&](auto&& f) { return backends::median_seconds(m_space, reps, f); };
    // With one carveout for the stage's kernels, one stage first settles it (each kernel raises
    // it to what it needs), so that each kernel alone runs at the stage's carveout, as in a run.
    if (m_kernels.family == TetKernelFamily::Tuned && m_kernels.tuning.stage_carveout) stage(1.0, 0.0, 0.0);
    // a = 1, b = 0 keeps the fields unchanged while doing the full update's memory traffic.
    if (mode() == LiftMode::FusedStage) {
      t.seconds.push_back(measure([&] { fused_alone(); }));
      return t;
    }
    t.seconds.push_back(measure([&] { volume(); }));
    switch (mode()) {
      case LiftMode::Split:
        t.seconds.push_back(measure([&] { surface(); }));
        t.seconds.push_back(measure([&] { lift(); }));
        t.seconds.push_back(measure([&] { update(1.0, 0.0, 0.0); }));
        break;
      case LiftMode::FusedLift:
        t.seconds.push_back(measure([&] { fused_alone(); }));
        t.seconds.push_back(measure([&] { update(1.0, 0.0, 0.0); }));
        break;
      case LiftMode::FusedUpdate: t.seconds.push_back(measure([&] { fused_alone(); })); break;
      case LiftMode::FusedStage: break;
    }
    return t;
  }
  int stages_per_step() const override { return Lserk4::stages; }

  std::vector<double> time_stage_parts(int reps) override {
    // a = 1, b = 0 keeps the fields unchanged while doing the full update's memory traffic.
    auto measure = [&](auto&& f) {
      comm().barrier();
      return comm().max(backends::median_seconds(m_space, reps, f));
    };
    const double whole = measure([&] { stage(1.0, 0.0, 0.0); });
    if (!m_halo.active()) return {whole, whole, 0.0};
    const double compute = measure([&] { stage_local(1.0, 0.0, 0.0); });
    return {whole, compute, measure([&] { exchange(); })};
  }
  /// Values each exchange sends from this rank (every field of every trace slot).
  std::size_t exchange_values() const { return m_halo.values_sent(); }

  /// The fused kernel (the fused-stage mode: the stage's one kernel) on every element for timing,
  /// leaving the state valid: the update (fused-update and fused-stage modes) runs with a = 1,
  /// b = dt = 0, so the new buffer holds the fields again.
  void fused_alone() {
    if (mode() == LiftMode::FusedStage)
      fused_stage(0, m_mesh.num_elements, 1.0, 0.0, 0.0);
    else
      fused(0, m_mesh.num_elements, 1.0, 0.0, 0.0);
    if (mode() == LiftMode::FusedUpdate || mode() == LiftMode::FusedStage) std::swap(m_q, m_q_next);
  }

  /// The volume kernel and `faces(begin, end)` (the kernel that reads the neighbours' traces)
  /// for elements [begin, end): in a distributed run the traces travel while the volume kernel
  /// and the elements without ghost neighbours run, then the remaining elements.
  template <class Faces>
  void overlapped(Faces&& faces) {
    m_halo.overlap(
        m_space, m_q,
        [&] {
          volume();
          faces(0, m_own.interior);
        },
        [&] { faces(m_own.interior, m_mesh.num_elements); });
  }

  // --- NodalTunable ------------------------------------------------------------------------
  std::string infeasible(const NodalTuning& t) const override {
    std::string why;
    auto valid = [&](const kernels::nodal_tet::MicroShape& s, const char* what) {
      std::ostringstream o;
      if (s.elements < 1 || s.sequential < 1 ||
          (s.inline_blocks != 1 && s.inline_blocks != 2 && s.inline_blocks != 4))
        o << what << ": k = " << s.elements << ", w_i = " << s.inline_blocks << ", w_s = " << s.sequential
          << " (expected k >= 1, w_i in {1, 2, 4}, w_s >= 1)";
      return o.str();
    };
    if (t.volume == StageKernel::Micro) why = valid(t.volume_shape, "volume");
    if (why.empty() && t.volume == StageKernel::Micro &&
        !(t.volume_shape.rows == 1 || (t.volume_shape.rows == 2 && t.volume_shape.inline_blocks <= 2)))
      why = "volume: r_i = " + std::to_string(t.volume_shape.rows) + " with w_i = " +
            std::to_string(t.volume_shape.inline_blocks) + " (expected r_i = 1, or r_i = 2 with w_i <= 2)";
    const bool volume_capped = t.volume == StageKernel::Micro ||
                               (t.volume == StageKernel::Tensor && t.volume_shape.lane_epilogue);
    if (why.empty() && ((t.lift != StageKernel::Tensor && t.lift_shape.max_registers != 0) ||
                        (!volume_capped && t.volume_shape.max_registers != 0)))
      why = std::string(t.volume_shape.max_registers != 0 && !volume_capped ? "volume" : "lift") +
            ": a register cap is compiled for the micro volume kernel, the tensor-core volume finished by the lanes "
            "and the tensor-core lift only";
    // Load orders compiled for the tensor-core kernels only (which of them, TunedKernels says).
    for (const auto& [flag, what] : {std::pair{&kernels::nodal_tet::MicroShape::batched_loads, "batched loads"},
                                     std::pair{&kernels::nodal_tet::MicroShape::async_copies, "asynchronous copies"},
                                     std::pair{&kernels::nodal_tet::MicroShape::loads_ahead, "loads ahead"}})
      if (why.empty() && ((t.lift_shape.*flag && t.lift != StageKernel::Tensor) ||
                          (t.volume_shape.*flag && t.volume != StageKernel::Tensor)))
        why = std::string(t.lift_shape.*flag && t.lift != StageKernel::Tensor ? "lift" : "volume") + ": " + what +
              " are compiled for the tensor-core lift only";
    if (why.empty() && t.lift_shape.rows != 1) why = "lift: r_i = " + std::to_string(t.lift_shape.rows) +
                                                     " (the lift takes one node per thread)";
    if (why.empty() && (t.lift == StageKernel::Micro ||
                        (t.mode != LiftMode::Split && t.mode != LiftMode::FusedStage && t.lift != StageKernel::Tensor)))
      why = valid(t.lift_shape, "lift");
    if (why.empty() && t.batch < 1) why = "batched: " + std::to_string(t.batch) + " elements per team";
    if (t.mode == LiftMode::FusedStage) {
      // One kernel for the stage: the lane-finished tensor volume with the gather, lift and update.
      if (why.empty() && (t.volume != StageKernel::Tensor || !t.volume_shape.lane_epilogue))
        why = "the fused stage runs the tensor-core volume finished by the lanes (volume tensor ... epilogue=lane)";
      if (why.empty() && t.lift != StageKernel::Thread)
        why = "the fused stage has no lift kernel of its own (lift: expected thread, the default)";
    } else if (why.empty() && (t.volume_shape.lane_update || t.lift_shape.lane_update)) {
      why = "update=lanes: the lanes' update in memory is the fused stage's (mode fused-stage)";
    } else if (why.empty() && (t.volume_shape.merged_product || t.lift_shape.merged_product)) {
      why = "product=merged: the stage as one product is the fused stage's (mode fused-stage)";
    } else if (why.empty() && (t.volume_shape.gather_halves || t.lift_shape.gather_halves)) {
      why = "gather=halves: the flux gathered in two halves is the stage as one product's (mode fused-stage)";
    } else if (why.empty() && t.mode != LiftMode::Split && t.lift != StageKernel::Micro &&
               t.lift != StageKernel::Tensor) {
      why = "the fused modes run the micro or the tensor-core lift kernel";
    }
    if (why.empty() && t.stage_carveout && !fits_shared_carveout<ExecutionSpace>())
      why = "carveout=stage: the kernels fit a shared-memory carveout on CUDA only (Kokkos 3.4)";
    if (why.empty() && t.stage_carveout && t.mode == LiftMode::FusedStage)
      why = "carveout=stage: the fused stage is one kernel, with no carveout to share";
    // Fewer resident teams, through the carveout: the micro and tensor-core kernels, where the
    // build fits carveouts, apart from a carveout shared by the stage (which would undo the cap).
    for (const auto& [s, k, what] : {std::tuple{&t.volume_shape, t.volume, "volume"},
                                     std::tuple{&t.lift_shape, t.mode == LiftMode::FusedStage ? StageKernel::Thread
                                                                                             : t.lift, "lift"}}) {
      if (!why.empty() || s->resident_teams == 0) continue;
      std::ostringstream o;
      o << what << ": teams=" << s->resident_teams << " resident per multiprocessor";
      if (s->resident_teams < 0)
        o << " (expected a positive number, or 0 for as many as registers and threads allow)";
      else if (k != StageKernel::Micro && k != StageKernel::Tensor)
        o << ": a cap on resident teams is for the micro and tensor-core kernels";
      else if (!fits_shared_carveout<ExecutionSpace>())
        o << ": the resident teams are capped through the shared-memory carveout, on CUDA only (Kokkos 3.4)";
      else if (t.stage_carveout)
        o << " with carveout=stage: the stage's carveout would undo the cap";
      else
        continue;
      why = o.str();
    }
    if (!why.empty()) return why;
    dispatch_order(m_order, [&](auto n) {
      constexpr int N = decltype(n)::value;
      auto join = [&](const std::string& part, const std::string& w) {
        if (!w.empty()) why += (why.empty() ? "" : "; ") + part + ": " + w;
      };
      if (t.volume == StageKernel::Tensor)
        join("volume", tuned_for<N>(t.volume_shape, t).infeasible_tensor(m_space, false, t.volume_shape));
      else if (t.volume != StageKernel::Thread)
        join("volume", tuned_for<N>(t.volume_shape, t).infeasible_volume(m_space, t.volume == StageKernel::Batched));
      if (t.lift == StageKernel::Tensor)
        join("lift", tuned_for<N>(t.lift_shape, t).infeasible_tensor(m_space, true));
      else if (t.lift != StageKernel::Thread)
        join("lift", tuned_for<N>(t.lift_shape, t).infeasible_lift(m_space, t.lift == StageKernel::Batched));
    });
    return why;
  }
  void set_tuning(const NodalTuning& t) override {
    const std::string why = infeasible(t);
    DGK_THROW_IF(!why.empty(), "tuned kernels (" << to_string(t) << ") for order " << m_order << ": " << why);
    m_kernels.family = TetKernelFamily::Tuned;
    m_kernels.tuning = t;
    m_kernels.tuned = true;
    m_stage_carveout = -1;  // the new kernels' stage carveout, fitted as they run
    if ((t.mode == LiftMode::FusedUpdate || t.mode == LiftMode::FusedStage) && m_q_next.extent(0) != m_q.extent(0)) {
      backends::require_memory<ExecutionSpace>(double(m_q.span()) * sizeof(Real), [&] {
        return "the second field buffer of the fused-update kernels, order " + std::to_string(m_order);
      });
      m_q_next = FieldView("dgk::nodal_tet::q_next", m_q.extent(0), nf, m_ref.np);
      Kokkos::deep_copy(m_space, m_q_next, m_q);
    }
    dispatch_order(m_order, [&](auto n) {
      using K = kernels::nodal_tet::TunedKernels<decltype(n)::value, Physics, ExecutionSpace, Real>;
      if (t.volume == StageKernel::Tensor && m_tensor_D.extent(0) == 0) m_tensor_D = K::tensor_operator(m_space, m_ops);
      if ((t.lift == StageKernel::Tensor || t.mode == LiftMode::FusedStage) && m_tensor_L.extent(0) == 0)
        m_tensor_L = K::tensor_lift_operator(m_space, m_ops);
    });
  }
  StageLayoutComparison compare_stage_layouts(int reps) override {
    StageLayoutComparison c;
    if (mode() != LiftMode::FusedStage) {
      c.why = "the kernels are not the tuned fused stage";
      return c;
    }
    dispatch_order(m_order, [&](auto n) {
      using K = kernels::nodal_tet::TunedKernels<decltype(n)::value, Physics, ExecutionSpace, Real>;
      c.why = K::node_major_refusal(m_kernels.tuning.volume_shape, true);
    });
    if (c.why.empty() && m_kernels.tuning.volume_shape.merged_product)
      c.why = "the stage as one product (product=merged) reads fields stored (element, field, node) only";
    if (!c.why.empty()) return c;
    using Strided = Kokkos::View<Real***, Kokkos::LayoutStride, Mem, Kokkos::MemoryUnmanaged>;
    const std::size_t K = m_q.extent(0), np = m_ref.np;
    backends::require_memory<ExecutionSpace>(7.0 * double(m_q.span()) * sizeof(Real),
                                             [] { return std::string("the copies of the fields in two arrangements"); });
    FieldView q[2], res[2], out[2];
    for (int v = 0; v < 2; ++v) {
      q[v] = FieldView("dgk::nodal_tet::layout_q", K, nf, np);
      res[v] = FieldView("dgk::nodal_tet::layout_res", K, nf, np);
      out[v] = FieldView("dgk::nodal_tet::layout_q_out", K, nf, np);
    }
    // The node-major buffers seen as (element, field, node): q(e, f, i) at (e np + i) nf + f.
    const Kokkos::LayoutStride node_major(K, np * nf, nf, 1, np, nf);
    auto strided = [&](const FieldView& v) { return Strided(v.data(), node_major); };
    Kokkos::deep_copy(m_space, q[0], m_q);
    Kokkos::deep_copy(m_space, res[0], m_q);
    Kokkos::deep_copy(m_space, strided(q[1]), m_q);
    Kokkos::deep_copy(m_space, strided(res[1]), m_q);
    auto run = [&](int v, double a, double b, double dt) {
      dispatch_order(m_order, [&](auto n) {
        auto k = tuned_for<decltype(n)::value>(m_kernels.tuning.volume_shape);
        k.q = q[v];
        k.res = res[v];
        k.q_out = out[v];
        k.a = Real(a);
        k.b = Real(b);
        k.dt = Real(dt);
        k.tensor_stage(m_space, 0, m_mesh.num_elements, v == 1, m_kernels.tuning.volume_shape);
      });
    };
    run(0, 0.5, 0.25, 0.01);
    run(1, 0.5, 0.25, 0.01);
    for (const FieldView* x : {out, res}) {
      FieldView back("dgk::nodal_tet::layout_back", K, nf, np);
      Kokkos::deep_copy(m_space, back, strided(x[1]));
      auto h0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x[0]);
      auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), back);
      for (std::size_t i = 0; i < h0.span(); ++i) {
        c.max_difference = std::max(c.max_difference, std::abs(double(h0.data()[i]) - double(h1.data()[i])));
        if (x == out) c.max_value = std::max(c.max_value, std::abs(double(h0.data()[i])));
      }
    }
    c.seconds[0] = c.seconds[1] = std::numeric_limits<double>::infinity();
    for (int round = 0; round < 2; ++round)
      for (int v = 0; v < 2; ++v)
        c.seconds[v] = std::min(c.seconds[v], backends::median_seconds(m_space, reps, [&] { run(v, 1.0, 0.0, 0.0); }));
    return c;
  }
  double time_part(TunedPart part, int reps) override {
    auto measure = [&](auto&& f) {
      comm().barrier();
      return comm().max(backends::median_seconds(m_space, reps, f));
    };
    switch (part) {
      case TunedPart::Volume: return measure([&] { volume(); });
      case TunedPart::Lift:
        if (mode() == LiftMode::Split) return measure([&] { lift(); });
        return measure([&] { fused_alone(); });
      case TunedPart::Stage: break;
    }
    return measure([&] { stage(1.0, 0.0, 0.0); });
  }
  /// One stage (a = 0, b = 1, dt at CFL 0.5: q + dt rhs) with the current kernels and with the
  /// straightforward ones from the same state; their largest difference over the rounding
  /// allowance eps (16 max|q| + 4 (np + 4 nfp) dt B), where B bounds the magnitudes of the terms
  /// summed into one rhs value: c (6 |D| metric + 24 |LIFT| Fscale) max|q|, with |D| and |LIFT|
  /// the operators' largest absolute row sums, metric and Fscale the mesh's largest, c the
  /// largest wave speed (the derived tolerance of the kernel tests, for one stage). Kernels that
  /// sum in another order stay far inside it; a wrong one (an index, a race, a missing face)
  /// misses by orders of magnitude wherever its error exceeds the rounding of the sums.
  double stage_deviation() override {
    const TetKernels mine = m_kernels;
    const long long owned = m_mesh.num_elements;
    auto copy = [&](const FieldView& v) {
      FieldView c(Kokkos::view_alloc(Kokkos::WithoutInitializing, "dgk::nodal_tet::stage_check"), v.extent(0),
                  v.extent(1), v.extent(2));
      Kokkos::deep_copy(m_space, c, v);
      return c;
    };
    // Three copies of the fields at most: the state, res, and the straightforward kernels' stage.
    backends::require_memory<ExecutionSpace>(3.0 * double(m_q.span()) * sizeof(Real), [&] {
      return "the tuner's check of a stage against the straightforward kernels, order " + std::to_string(m_order);
    });
    const FieldView q0 = copy(m_q), res0 = copy(m_res);
    const double dt = max_dt(0.5);
    // One stage with k, then `use` of its result, then the state back.
    auto run = [&](const TetKernels& k, auto&& use) {
      if (k.family == TetKernelFamily::Tuned) set_tuning(k.tuning);
      else m_kernels = k;
      stage(0.0, 1.0, dt);
      use(m_q);
      Kokkos::deep_copy(m_space, m_q, q0);
      Kokkos::deep_copy(m_space, m_res, res0);
    };
    TetKernels thread = mine;
    thread.family = TetKernelFamily::Tuned;
    thread.tuning = NodalTuning{};  // thread volume, split thread lift
    FieldView ref;
    double diff = 0;
    run(thread, [&](const FieldView& q) { ref = copy(q); });
    run(mine, [&](const FieldView& q) {
      diff = nodal_state::max_abs_difference(m_space, q, ref, owned, m_dist.get());
    });
    m_kernels = mine;
    const double qmax = nodal_state::max_abs_difference(m_space, q0, FieldView(), owned, m_dist.get());
    const double eps = std::numeric_limits<Real>::epsilon();
    double metric = 0, fscale = 0, speed = 0;
    for (int e = 0; e < m_mesh.num_elements; ++e) {
      for (double g : m_geo.drdx[e]) metric = std::max(metric, std::abs(g));
      for (double f : m_geo.fscale[e]) fscale = std::max(fscale, f);
      speed = std::max(speed, Physics::wave_speed(m_material[e]));
    }
    metric = comm().max(metric);
    fscale = comm().max(fscale);
    speed = comm().max(speed);
    const double bound = speed * (6 * m_dsum * metric + 24 * m_lsum * fscale) * qmax;
    const double allowance = eps * (16 * qmax + 4.0 * (m_ref.np + 4 * m_ref.nfp) * dt * bound);
    return diff == 0 ? 0.0 : diff / std::max(allowance, std::numeric_limits<double>::min());
  }
  int nodes_per_element() const override { return m_ref.np; }
  bool host_kernels() const override {
    return Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  }
  std::string device() const override { return backends::device_name<ExecutionSpace>(); }
  /// The kernels this solver runs (the tuned family's choice included).
  const TetKernels& kernels() const { return m_kernels; }
  /// The shared-memory carveout (percent) the tuned kernels of a stage share: -1 where each has
  /// its own (NodalTuning::stage_carveout off) or before they ran.
  int stage_carveout() const { return m_kernels.tuning.stage_carveout ? m_stage_carveout : -1; }

 private:
  LiftMode mode() const {
    return m_kernels.family == TetKernelFamily::Tuned ? m_kernels.tuning.mode : LiftMode::Split;
  }
  template <int N>
  kernels::nodal_tet::TunedKernels<N, Physics, ExecutionSpace, Real> tuned_for(
      const kernels::nodal_tet::MicroShape& shape) const {
    return tuned_for<N>(shape, m_kernels.tuning);
  }
  template <int N>
  kernels::nodal_tet::TunedKernels<N, Physics, ExecutionSpace, Real> tuned_for(
      const kernels::nodal_tet::MicroShape& shape, const NodalTuning& t) const {
    kernels::nodal_tet::TunedKernels<N, Physics, ExecutionSpace, Real> k;
    k.ops = m_ops;
    k.mesh = m_mesh;
    k.q = m_q;
    k.rhs = m_rhs;
    k.flux = m_flux;
    k.res = m_res;
    k.q_out = m_q_next;
    k.tensor_D = m_tensor_D;
    k.tensor_L = m_tensor_L;
    k.stage_carveout = t.stage_carveout ? &m_stage_carveout : nullptr;
    k.shape = shape;
    k.mode = t.mode;
    k.batch = t.batch;
    return k;
  }
  template <int N>
  kernels::nodal_tet::TeamKernels<N, Physics, ExecutionSpace, Real> kernels_for() const {
    return {m_ops, m_mesh, m_q, m_rhs, m_flux};
  }
  template <int N>
  kernels::nodal_tet::BlockedKernels<N, Physics, ExecutionSpace, Real> blocked_for() const {
    kernels::nodal_tet::BlockedKernels<N, Physics, ExecutionSpace, Real> k{m_ops, m_mesh, m_q, m_rhs, m_flux};
    if (m_kernels.elements_per_team > 0) k.elements_per_team = m_kernels.elements_per_team;
    return k;
  }
  template <int N>
  kernels::bernstein_tet::TeamKernels<N, Physics, ExecutionSpace, Real> bernstein_for() const {
    return {m_bops, m_mesh, m_q, m_rhs, m_flux};
  }
  bool bernstein() const { return m_kernels.basis == TetBasis::Bernstein; }

  // sqrt( sum_e J_e sum_c w_c v_c^T M v_c ) over all elements of all ranks, with v filled per
  // owned element node by `fill`.
  template <class Fill>
  double weighted_norm(Fill&& fill, bool weighted) const {
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
      for (int c = 0; c < nf; ++c) {
        const double wc = weighted ? Physics::energy_weight(c, m_material[e]) : 1.0;
        sum += wc * m_geo.J[e] * v.col(c).dot(mv.col(c));
      }
    }
    return std::sqrt(comm().sum(sum));
  }
  const Comm& comm() const { return nodal_state::comm_of(m_dist.get()); }

  ExecutionSpace m_space;
  int m_order;
  TetKernels m_kernels;
  basis::TetNodal m_ref;
  mesh::TetGeometry m_geo;
  mesh::NodeCoordinates m_nodes;
  std::vector<std::array<double, 2>> m_material;
  kernels::nodal_tet::LaunchShape m_shape;
  kernels::nodal_tet::Operators<Real, Mem> m_ops;
  std::unique_ptr<basis::TetBernstein> m_bb;  ///< Bernstein basis only
  kernels::bernstein_tet::Operators<Real, Mem> m_bops;
  kernels::nodal_tet::MeshData<Real, Mem> m_mesh;
  mesh::FaceCodes m_face_codes;  // host copy of the gathers' face codes (use_face_codes)
  FieldView m_q, m_res, m_rhs, m_flux;  // q: owned then ghost elements; the others: owned
  FieldView m_q_next;                   // the fused-update kernels' second field buffer
  Kokkos::View<Real*, Mem> m_tensor_D;  // the tensor-core volume kernel's operator fragments
  Kokkos::View<Real*, Mem> m_tensor_L;  // the tensor-core lift kernel's operator fragments
  double m_dsum = 0, m_lsum = 0;  // the operators' largest absolute row sums (stage_deviation)
  // The shared-memory carveout all tuned kernels of a stage use: the largest any of them needs
  // (-1 until they run; dgk/core/shared_carveout.hpp). Raised by the launches, so mutable.
  mutable int m_stage_carveout = -1;
  double m_time = 0.0;
  std::shared_ptr<const Distribution> m_dist;
  nodal_state::Ownership<Mem> m_own;
  HaloExchange<ExecutionSpace, Real> m_halo;
};

}  // namespace dgk::physics
