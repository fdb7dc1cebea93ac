#include "dgk/physics/maxwell2d_case.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "dgk/core/error.hpp"
#include "dgk/core/order_dispatch.hpp"
#include "dgk/core/parse.hpp"
#include "dgk/mesh/reorder.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "dgk/physics/case_distribution.hpp"
#include "dgk/physics/maxwell2d.hpp"
#include "dgk/physics/nodal_tri_solver.hpp"

namespace dgk::physics {

// The solvers are compiled once, in the instantiation units (instantiate_nodal_tri.cpp.in).
#define DGK_EXTERN_MAXWELL2D(SPACE, REAL) extern template class NodalTriSolver<Maxwell2D, REAL, SPACE>;
DGK_IF_SERIAL(DGK_EXTERN_MAXWELL2D, float)
DGK_IF_SERIAL(DGK_EXTERN_MAXWELL2D, double)
DGK_IF_OPENMP(DGK_EXTERN_MAXWELL2D, float)
DGK_IF_OPENMP(DGK_EXTERN_MAXWELL2D, double)
DGK_IF_CUDA(DGK_EXTERN_MAXWELL2D, float)
DGK_IF_CUDA(DGK_EXTERN_MAXWELL2D, double)
#undef DGK_EXTERN_MAXWELL2D

namespace {

template <class Space>
std::unique_ptr<Simulation> make_on(const std::string& precision, int order, const mesh::TriMesh& mesh,
                                    const std::vector<int>& bc, const Maxwell2D& physics,
                                    const std::shared_ptr<const Distribution>& dist) {
  if (precision == "double")
    return std::make_unique<NodalTriSolver<Maxwell2D, double, Space>>(Space(), order, mesh, bc, physics, dist);
  if (precision == "float")
    return std::make_unique<NodalTriSolver<Maxwell2D, float, Space>>(Space(), order, mesh, bc, physics, dist);
  DGK_THROW_IF(true, "unknown precision '" << precision << "' (expected double or float)");
}

}  // namespace

double max_stable_cfl_2d(int order) {
  // Largest CFL (as defined by Simulation::max_dt) at which the discrete energy did not grow
  // over 8 time units, found by bisection with a Gaussian pulse and PEC walls for the flux
  // weights alpha = 0, 0.5 and 1, on rect:1 and on rect:4,jitter=0.2. The smallest is always the
  // upwind flux (alpha = 1) on rect:1, listed here; 10% is kept in reserve for less regular
  // meshes.
  static constexpr double measured[10] = {0, 1.967, 2.610, 3.120, 3.366, 3.669, 3.770, 3.934, 4.002, 4.114};
  DGK_THROW_IF(order < 1 || order > 9, "polynomial order " << order << " is not supported (orders 1..9)");
  return 0.9 * measured[order];
}

std::unique_ptr<Simulation> make_maxwell2d_solver(Backend backend, const std::string& precision, int order,
                                                  const mesh::TriMesh& mesh, const std::vector<int>& bc_of_tag,
                                                  double alpha, std::shared_ptr<const Distribution> dist) {
  DGK_THROW_IF(!(alpha >= 0.0 && alpha <= 1.0),
               "--alpha " << alpha << " is outside [0, 1] (1 upwind flux, 0 central flux)");
  Maxwell2D physics;
  physics.alpha = alpha;
  switch (backend) {
#if defined(KOKKOS_ENABLE_SERIAL) && !defined(DGK_NO_HOST_SOLVERS)
    case Backend::Serial:
      return make_on<Kokkos::Serial>(precision, order, mesh, bc_of_tag, physics, dist);
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && !defined(DGK_NO_HOST_SOLVERS)
    case Backend::OpenMP:
      return make_on<Kokkos::OpenMP>(precision, order, mesh, bc_of_tag, physics, dist);
#endif
#ifdef KOKKOS_ENABLE_CUDA
    case Backend::Cuda:
      return make_on<Kokkos::Cuda>(precision, order, mesh, bc_of_tag, physics, dist);
#endif
    default:
      break;
  }
  DGK_THROW_IF(true, "backend '" << backend_name(backend) << "' is not built into this dgk");
}

Maxwell2DCase::Maxwell2DCase(const Maxwell2DOptions& options)
    : Maxwell2DCase(options, mesh::load_tri_mesh(options.mesh)) {}

Maxwell2DCase::Maxwell2DCase(const Maxwell2DOptions& options, mesh::TriMesh mesh)
    : m_options(options), m_mesh(std::move(mesh)) {
  setup();
}

namespace {
Maxwell2DOptions from_case_options(const CaseOptions& c) {
  DGK_THROW_IF(c.name != "maxwell2d", "case '" << c.name << "' is not maxwell2d");
  DGK_THROW_IF(c.basis != "nodal", "--basis " << c.basis << ": maxwell2d has the nodal basis only");
  DGK_THROW_IF(c.kernel != "auto" && c.kernel != "thread",
               "--kernel " << c.kernel << ": maxwell2d has the thread (node per thread) kernels only");
  Maxwell2DOptions o;
  o.order = c.order;
  if (!c.mesh.empty()) o.mesh = c.mesh;
  o.final_time = c.final_time;
  o.cfl = c.cfl;
  o.force = c.force;
  o.precision = c.precision;
  o.backend = c.backend;
  o.bc = c.bc;
  if (!c.initial.empty()) o.initial = c.initial;
  o.alpha = c.alpha;
  o.partition = c.partition;
  return o;
}
}  // namespace

Maxwell2DCase::Maxwell2DCase(const CaseOptions& options)
    : Maxwell2DCase(from_case_options(options),
                    mesh::reorder_elements(
                        mesh::refine_tri_mesh(mesh::load_tri_mesh(from_case_options(options).mesh), options.refine),
                        options.reorder)) {
  m_case_options = options;
  m_case_options.mesh = m_mesh.source;
}

Maxwell2DCase::Maxwell2DCase(const CaseOptions& options, mesh::TriMesh mesh)
    : Maxwell2DCase(from_case_options(options), std::move(mesh)) {
  m_case_options = options;
  if (m_case_options.mesh.empty()) m_case_options.mesh = m_mesh.source;
}

void Maxwell2DCase::setup() {
  const auto& o = m_options;
  DGK_THROW_IF(!(o.cfl > 0) || !std::isfinite(o.cfl), "--cfl must be positive (got " << o.cfl << ")");
  DGK_THROW_IF(
      o.order < 1 || o.order > max_compiled_order,
      "polynomial order " << o.order << " is not supported (this build has orders 1.." << max_compiled_order << ")");
  DGK_THROW_IF(!(o.alpha >= 0.0 && o.alpha <= 1.0),
               "--alpha " << o.alpha << " is outside [0, 1] (1 upwind flux, 0 central flux)");
  DGK_THROW_IF(o.cfl > max_stable_cfl_2d(o.order) && !o.force,
               "--cfl " << o.cfl << " exceeds the stability limit " << max_stable_cfl_2d(o.order) << " of order "
                        << o.order << " (LSERK4 on triangles); lower it, or pass --force to run anyway");
  DGK_THROW_IF(o.final_time && !(*o.final_time >= 0),
               "--final-time must be non-negative (got " << *o.final_time << ")");

  // Boundary conditions by boundary name; PEC where none is given.
  const int ntags = static_cast<int>(m_mesh.boundary_names.size());
  std::vector<int> bc_of_tag(static_cast<std::size_t>(ntags), static_cast<int>(Maxwell2D::PEC));
  std::vector<bool> given(static_cast<std::size_t>(ntags), false);
  for (const auto& spec : o.bc) {
    const auto eq = spec.find('=');
    DGK_THROW_IF(eq == std::string::npos, "--bc '" << spec << "': expected NAME=pec|pmc|absorbing");
    const std::string name = spec.substr(0, eq), kind = spec.substr(eq + 1);
    const int tag = m_mesh.boundary_tag(name);
    std::string names;
    for (const auto& n : m_mesh.boundary_names) names += (names.empty() ? "" : ", ") + n;
    DGK_THROW_IF(tag < 0, "--bc '" << spec << "': mesh '" << m_mesh.source << "' has no boundary named '" << name
                                   << "' (it has: " << names << ")");
    int code = -1;
    for (int c = 0; c < Maxwell2D::num_bcs; ++c)
      if (kind == Maxwell2D::bc_names[c]) code = c;
    DGK_THROW_IF(code < 0,
                 "--bc '" << spec << "': unknown condition '" << kind << "' (expected pec, pmc or absorbing)");
    bc_of_tag[static_cast<std::size_t>(tag)] = code;
    given[static_cast<std::size_t>(tag)] = true;
  }
  // Summary of the conditions on the boundaries that have edges.
  std::vector<int> edges_of_tag(static_cast<std::size_t>(ntags), 0);
  const auto conn = mesh::connect(m_mesh);
  for (const auto& tags : conn.bc_tag)
    for (int t : tags)
      if (t >= 0) ++edges_of_tag[static_cast<std::size_t>(t)];
  std::ostringstream bcs;
  bool all_pec = true;
  for (int t = 0; t < ntags; ++t) {
    const auto ut = static_cast<std::size_t>(t);
    if (edges_of_tag[ut] == 0) continue;
    all_pec &= bc_of_tag[ut] == Maxwell2D::PEC;
    bcs << (bcs.tellp() > 0 ? ", " : "") << m_mesh.boundary_names[ut] << "=" << Maxwell2D::bc_names[bc_of_tag[ut]]
        << (given[ut] ? "" : " (default)");
  }
  m_bc_summary = bcs.str();

  // Initial condition.
  const std::string& init = o.initial;
  const auto colon = init.find(':');
  const std::string kind = init.substr(0, colon);
  const std::string args = colon == std::string::npos ? "" : init.substr(colon + 1);
  double natural_time = 1.0;
  if (kind == "cavity") {
    CavityMode2D mode;
    if (colon != std::string::npos) {
      const auto v = parse_number_list(args, "--initial " + init);
      DGK_THROW_IF(v.size() != 2, "--initial " << init << ": expected cavity:m,n");
      for (int d = 0; d < 2; ++d) {
        DGK_THROW_IF(!(v[d] >= 1 && v[d] <= 1e6) || v[d] != std::floor(v[d]),
                     "--initial " << init << ": mode numbers must be positive integers (a TM mode with a zero mode "
                                  << "number vanishes)");
        mode.mode[d] = static_cast<int>(v[d]);
      }
    }
    // The cavity is the mesh's bounding box.
    for (int d = 0; d < 2; ++d) {
      mode.lower[d] = std::numeric_limits<double>::max();
      mode.upper[d] = -std::numeric_limits<double>::max();
    }
    for (const auto& v : m_mesh.vertices)
      for (int d = 0; d < 2; ++d) {
        mode.lower[d] = std::min(mode.lower[d], v[d]);
        mode.upper[d] = std::max(mode.upper[d], v[d]);
      }
    // Exact only on a rectangle (mesh area = bounding-box area) with PEC walls in vacuum.
    double area = 0.0;
    for (int e = 0; e < m_mesh.num_elements(); ++e) area += std::abs(2.0 * mesh::element_jacobian(m_mesh, e));
    const double box = (mode.upper[0] - mode.lower[0]) * (mode.upper[1] - mode.lower[1]);
    bool exact = std::abs(area - box) <= 1e-9 * box && all_pec;
    for (const auto& m : m_mesh.material) exact &= m[0] == 1.0 && m[1] == 1.0;
    m_initial = [mode](double x, double y, double, double t, double* out) {
      const auto f = mode(x, y, t);
      for (int c = 0; c < 3; ++c) out[c] = f[static_cast<std::size_t>(c)];
    };
    if (exact) m_exact = m_initial;
    natural_time = mode.period();
    std::ostringstream s;
    s << "cavity mode (" << mode.mode[0] << "," << mode.mode[1] << "), period " << natural_time;
    m_initial_summary = s.str();
  } else if (kind == "pulse") {
    const auto v = parse_number_list(args, "--initial " + init);
    DGK_THROW_IF(v.size() != 3 || !(v[2] > 0), "--initial " << init << ": expected pulse:x,y,width with width > 0");
    GaussianPulse2D p{{v[0], v[1]}, v[2]};
    m_initial = [p](double x, double y, double, double t, double* out) {
      const auto f = p(x, y, t);
      for (int c = 0; c < 3; ++c) out[c] = f[static_cast<std::size_t>(c)];
    };
    std::ostringstream s;
    s << "Gaussian pulse of Ez at (" << v[0] << "," << v[1] << "), width " << v[2];
    m_initial_summary = s.str();
  } else {
    DGK_THROW_IF(true, "--initial '" << init << "': expected cavity[:m,n] or pulse:x,y,width");
  }

  // A distributed run: each rank solves on its part of the mesh (owned elements and ghosts).
  mesh::TriMesh local;
  m_dist = distribute_over_ranks(m_mesh, conn, o.partition, [&] { return basis::make_tri_nodal(o.order); }, local);
  m_sim = make_maxwell2d_solver(o.backend.value_or(default_backend()), o.precision, o.order, m_dist ? local : m_mesh,
                                bc_of_tag, o.alpha, m_dist);
  m_sim->set_fields(m_initial, 0.0);
  m_final_time = o.final_time.value_or(natural_time);
  const double dt_max = m_sim->max_dt(o.cfl);
  const double steps = m_final_time > 0 ? std::ceil(m_final_time / dt_max - 1e-12) : 0.0;
  DGK_THROW_IF(!(steps <= std::numeric_limits<int>::max()), "--final-time " << m_final_time << " needs " << steps
                                                                            << " steps of " << dt_max << ", more than "
                                                                            << std::numeric_limits<int>::max());
  m_steps = static_cast<int>(steps);
  m_dt = m_steps > 0 ? m_final_time / m_steps : 0.0;
}

}  // namespace dgk::physics
