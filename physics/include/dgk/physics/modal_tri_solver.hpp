// Modal DG on triangles for a nonlinear conservation law (paper 004): the orthonormal basis,
// quadrature-based volume and surface integrals, edge-wise or element-wise surface kernels, the
// Barth-Jespersen limiter at p = 1, and SSP-RK2, SSP-RK3 or classical RK4 in time. Builds the
// device data from a host mesh and dgk/basis/triangle_modal.hpp, then drives the kernels of
// dgk/kernels/modal_tri/. Explicitly instantiated per (physics, precision, execution space) in
// instantiate_modal_tri.cpp.in; the order is a run-time value dispatched to compiled kernels.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <Kokkos_Core.hpp>

#include "dgk/basis/triangle_modal.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/halo_exchange.hpp"
#include "dgk/core/simulation.hpp"
#include "dgk/kernels/modal_tri/kernels.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "dgk/physics/distribution.hpp"
#include "dgk/physics/nodal_state.hpp"

namespace dgk::physics {

/// Highest order of the modal triangle kernels.
constexpr int max_modal_order = 5;

/// Calls f(std::integral_constant<int, order>{}) for order in 1..max_modal_order.
template <int P = 1, class F>
decltype(auto) dispatch_modal_order(int order, F&& f) {
  if constexpr (P >= max_modal_order) {
    DGK_THROW_IF(order != P, "polynomial order " << order
                                                 << " is not supported by the modal triangle kernels (orders 1.."
                                                 << max_modal_order << ")");
    return f(std::integral_constant<int, P>{});
  } else {
    DGK_THROW_IF(order < 1, "polynomial order " << order
                                                << " is not supported by the modal triangle kernels (orders 1.."
                                                << max_modal_order << ")");
    if (order == P) return f(std::integral_constant<int, P>{});
    return dispatch_modal_order<P + 1>(order, std::forward<F>(f));
  }
}

/// Time integrators of the modal solver.
enum class ModalIntegrator { SspRk2, SspRk3, Rk4 };
/// "ssp-rk2", "ssp-rk3", "rk4".
const char* integrator_name(ModalIntegrator i);
/// Parses an integrator name; throws dgk::Error naming the accepted ones.
ModalIntegrator parse_integrator(const std::string& name);

/// The surface kernel variant: one thread per edge (paper 004's choice) or per element.
enum class SurfaceKernel { EdgeWise, ElementWise };

/// Boundary data of a modal run, in double; the solver rounds it once.
struct ModalBoundary {
  /// The physics' boundary code of each boundary edge, from its tag and midpoint.
  std::function<int(int tag, double x, double y)> code;
  /// The prescribed exterior state at a point (for Prescribed edges); steady.
  std::function<void(double x, double y, double* out)> prescribed;
  /// The moving shock of MovingShock edges.
  kernels::modal_tri::MovingShock<double> shock;
};

/// Options of the modal solver beyond order and mesh.
struct ModalSettings {
  ModalIntegrator integrator = ModalIntegrator::SspRk3;
  SurfaceKernel surface = SurfaceKernel::EdgeWise;
  bool limiter = false;  ///< Barth-Jespersen after every stage (p = 1 only)
};

template <class Physics, class Real, class ExecutionSpace>
class ModalTriSolver final : public Simulation {
 public:
  using Mem = typename ExecutionSpace::memory_space;
  using FieldView = kernels::modal_tri::Fields<Real, ExecutionSpace>;
  static constexpr int nf = Physics::num_fields;

  /// `conn` is the mesh's connectivity with any periodic pairs already linked. With a
  /// Distribution, `mesh` and `conn` are this rank's part (owned elements, then ghosts; see
  /// mesh::restrict_connectivity), the ghosts receive all modes of their owners every stage
  /// (and once more before the limiter), and norms, totals, time step, state and host fields
  /// are those of the whole problem (collective calls).
  ModalTriSolver(const ExecutionSpace& space, int order, const mesh::TriMesh& mesh, const mesh::TriConnectivity& conn,
                 const ModalBoundary& boundary, const Physics& physics, const ModalSettings& settings,
                 std::shared_ptr<const Distribution> dist = {});

  // --- stages, separately callable -----------------------------------------------------------
  void surface(SurfaceKernel kind) const;
  void volume() const;
  void limit() const;
  /// rhs at the current fields and time t (surface of the chosen kind, then volume).
  void evaluate_rhs(double t) const;

  const FieldView& fields() const { return m_q; }
  const FieldView& rhs_view() const { return m_rhs; }
  const basis::TriModal& reference() const { return m_ref; }
  const ModalSettings& settings() const { return m_settings; }
  void set_settings(const ModalSettings& s);
  /// Edge slots of the last surface evaluation, K x 3 x nf x np.
  const kernels::modal_tri::EdgeFields<Real, ExecutionSpace>& edge_slots() const { return m_surf; }

  /// Integral of each field over the mesh (mass, momentum, energy for Euler), all ranks.
  std::vector<double> totals() const;
  /// L2 norm of the error of one field against `exact`.
  double l2_error_field(const PointFunction& exact, int field) const;
  /// Cell average of each element and field, [element][field] (this rank's owned elements).
  std::vector<double> cell_averages() const;
  /// Values of the fields at the given reference points (r, s) of every element:
  /// [element][field][point].
  std::vector<double> values_at(const Eigen::VectorXd& r, const Eigen::VectorXd& s) const;
  /// Values at the edge quadrature points, [element][field][edge * nqe + point].
  std::vector<double> edge_values() const;
  /// Modes on the host in double, [element][field][mode].
  std::vector<double> host_modes() const;
  /// Physical coordinates of the edge quadrature points, per element: x, y of [edge * nqe + q].
  std::array<std::vector<double>, 2> edge_points() const;

  // --- Simulation interface ------------------------------------------------------------------
  std::string backend() const override { return backend_name(BackendOf<ExecutionSpace>::value); }
  std::string precision() const override { return sizeof(Real) == 4 ? "float" : "double"; }
  int order() const override { return m_order; }
  int num_elements() const override { return m_dist ? static_cast<int>(m_dist->part.global_elements) : m_mesh.num_elements; }
  int num_fields() const override { return nf; }
  std::string field_name(int field) const override { return Physics::field_names[field]; }
  long long num_dofs() const override { return static_cast<long long>(num_elements()) * m_ref.np * nf; }
  /// L2 projection of f(., t) (a rule exact to degree 2p + 2), z = 0.
  void set_fields(const PointFunction& f, double t) override;
  /// cfl * min(inradius) / ((2p + 1) * s), s the largest |v| + c of the cell averages and of the
  /// prescribed boundary states.
  double max_dt(double cfl) const override;
  void step(double dt) override;
  double time() const override { return m_time; }
  void fence() const override { m_space.fence(); }
  std::optional<NonFinite> find_non_finite() const override;
  /// The fields at the warp & blend nodes of order p (what the output writer expects).
  std::vector<double> host_fields() const override;
  std::vector<double> owned_host_fields() const override;
  std::vector<StateArray> save_state() const override;
  std::vector<StateArray> save_owned_state(std::vector<long long>& elements) const override;
  void load_state(const std::vector<StateArray>& state, double time) override;
  double l2_error(const PointFunction& exact) const override;
  std::vector<double> l2_error_fields(const PointFunction& exact) const override;
  /// The integral of the last field (total energy for Euler): conserved on a periodic domain.
  double energy() const override;
  std::vector<StageCost> costs() const override;
  StageTimes time_stages(int reps) override;
  int stages_per_step() const override;

 private:
  /// Refreshes the ghosts' modes, then limits (after an update).
  void exchange_and_limit();
  template <int P>
  kernels::modal_tri::Kernels<P, Physics, ExecutionSpace, Real> kernels_for(double t = 0) const {
    return {m_physics, m_ops, m_mesh, m_shock, m_q, m_rhs, m_surf, Real(t)};
  }
  /// sum over elements and points of a rule of degree `degree` of f(e, x, y, values[nf]).
  template <class F>
  void for_quadrature(int degree, F&& f) const;

  ExecutionSpace m_space;
  int m_order;
  Physics m_physics;
  ModalSettings m_settings;
  basis::TriModal m_ref;
  mesh::TriMesh m_host_mesh;
  mesh::TriGeometry m_geo;
  double m_min_inradius = 0;
  double m_boundary_speed = 0;
  kernels::modal_tri::Operators<Real, Mem> m_ops;
  kernels::modal_tri::MeshData<Real, Mem> m_mesh;
  kernels::modal_tri::MovingShock<Real> m_shock;
  FieldView m_q, m_q0, m_rhs, m_acc;
  kernels::modal_tri::EdgeFields<Real, ExecutionSpace> m_surf;
  double m_time = 0.0;
  std::shared_ptr<const Distribution> m_dist;
  mutable HaloExchange<ExecutionSpace, Real> m_halo;
  nodal_state::Ownership<Mem> m_own;  // owned elements, those without ghost neighbours
  int m_edges_no_ghost = 0;  // edges [0, m_edges_no_ghost) touch no ghost element
  const Comm& comm() const { return m_dist ? *m_dist->comm : Comm::self(); }
};

}  // namespace dgk::physics
