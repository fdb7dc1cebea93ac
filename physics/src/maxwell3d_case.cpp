#include "dgk/physics/maxwell3d_case.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "dgk/core/error.hpp"
#include "dgk/core/parse.hpp"
#include "dgk/core/order_dispatch.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/physics/maxwell3d.hpp"
#include "dgk/physics/nodal_tet_solver.hpp"

namespace dgk::physics {

#define DGK_EXTERN_MAXWELL(SPACE, REAL) extern template class NodalTetSolver<Maxwell3D, REAL, SPACE>;
DGK_IF_SERIAL(DGK_EXTERN_MAXWELL, float)
DGK_IF_SERIAL(DGK_EXTERN_MAXWELL, double)
DGK_IF_OPENMP(DGK_EXTERN_MAXWELL, float)
DGK_IF_OPENMP(DGK_EXTERN_MAXWELL, double)
DGK_IF_CUDA(DGK_EXTERN_MAXWELL, float)
DGK_IF_CUDA(DGK_EXTERN_MAXWELL, double)

namespace {

template <class Space>
std::unique_ptr<Simulation> make_on(const std::string& precision, int order, const mesh::TetMesh& mesh,
                                    const std::vector<int>& bc) {
  if (precision == "double") return std::make_unique<NodalTetSolver<Maxwell3D, double, Space>>(Space(), order, mesh, bc);
  if (precision == "float") return std::make_unique<NodalTetSolver<Maxwell3D, float, Space>>(Space(), order, mesh, bc);
  DGK_THROW_IF(true, "unknown precision '" << precision << "' (expected double or float)");
}

}  // namespace

double max_stable_cfl(int order) {
  // Largest CFL (as defined by Simulation::max_dt) at which the discrete energy did not grow
  // over 8 time units, found by bisection on box:1 with a divergence-free pulse and PEC walls;
  // 10% is kept in reserve for less regular meshes.
  static constexpr double measured[10] = {0, 1.218, 1.665, 2.075, 2.316, 2.529, 2.69, 2.8, 2.895, 2.976};
  DGK_THROW_IF(order < 1 || order > 9, "polynomial order " << order << " is not supported (orders 1..9)");
  return 0.9 * measured[order];
}

std::unique_ptr<Simulation> make_maxwell3d_solver(Backend backend, const std::string& precision, int order,
                                                  const mesh::TetMesh& mesh, const std::vector<int>& bc_of_tag) {
  switch (backend) {
#ifdef KOKKOS_ENABLE_SERIAL
    case Backend::Serial: return make_on<Kokkos::Serial>(precision, order, mesh, bc_of_tag);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    case Backend::OpenMP: return make_on<Kokkos::OpenMP>(precision, order, mesh, bc_of_tag);
#endif
#ifdef KOKKOS_ENABLE_CUDA
    case Backend::Cuda: return make_on<Kokkos::Cuda>(precision, order, mesh, bc_of_tag);
#endif
    default: break;
  }
  DGK_THROW_IF(true, "backend '" << backend_name(backend) << "' is not built into this dgk");
}

Maxwell3DCase::Maxwell3DCase(const Maxwell3DOptions& options)
    : Maxwell3DCase(options, mesh::load_tet_mesh(options.mesh)) {}

Maxwell3DCase::Maxwell3DCase(const Maxwell3DOptions& options, mesh::TetMesh mesh)
    : m_options(options), m_mesh(std::move(mesh)) {
  setup();
}

void Maxwell3DCase::setup() {
  const auto& o = m_options;
  DGK_THROW_IF(!(o.cfl > 0) || !std::isfinite(o.cfl), "--cfl must be positive (got " << o.cfl << ")");
  DGK_THROW_IF(o.order < 1 || o.order > max_compiled_order,
               "polynomial order " << o.order << " is not supported (this build has orders 1.." << max_compiled_order << ")");
  DGK_THROW_IF(o.cfl > max_stable_cfl(o.order) && !o.force,
               "--cfl " << o.cfl << " exceeds the stability limit " << max_stable_cfl(o.order) << " of order " << o.order
                        << " (LSERK4 with the upwind flux); lower it, or pass --force to run anyway");
  DGK_THROW_IF(o.final_time && !(*o.final_time >= 0),
               "--final-time must be non-negative (got " << *o.final_time << ")");

  // Boundary conditions by boundary name; PEC where none is given.
  const int ntags = static_cast<int>(m_mesh.boundary_names.size());
  std::vector<int> bc_of_tag(static_cast<std::size_t>(ntags), static_cast<int>(Maxwell3D::PEC));
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
    for (int c = 0; c < Maxwell3D::num_bcs; ++c)
      if (kind == Maxwell3D::bc_names[c]) code = c;
    DGK_THROW_IF(code < 0, "--bc '" << spec << "': unknown condition '" << kind << "' (expected pec, pmc or absorbing)");
    bc_of_tag[static_cast<std::size_t>(tag)] = code;
    given[static_cast<std::size_t>(tag)] = true;
  }
  // Summary of the conditions on the boundaries that have faces.
  std::vector<int> faces_of_tag(static_cast<std::size_t>(ntags), 0);
  const auto conn = mesh::connect(m_mesh);
  for (const auto& tags : conn.bc_tag)
    for (int t : tags)
      if (t >= 0) ++faces_of_tag[static_cast<std::size_t>(t)];
  std::ostringstream bcs;
  for (int t = 0; t < ntags; ++t) {
    const auto ut = static_cast<std::size_t>(t);
    if (faces_of_tag[ut] == 0) continue;
    bcs << (bcs.tellp() > 0 ? ", " : "") << m_mesh.boundary_names[ut] << "=" << Maxwell3D::bc_names[bc_of_tag[ut]]
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
    CavityMode mode;
    if (!args.empty()) {
      const auto v = parse_number_list(args, "--initial " + init);
      DGK_THROW_IF(v.size() != 3, "--initial " << init << ": expected cavity:m,n,p");
      for (int d = 0; d < 3; ++d) {
        DGK_THROW_IF(v[d] < 0 || v[d] != std::floor(v[d]), "--initial " << init << ": mode numbers must be non-negative integers");
        mode.mode[d] = static_cast<int>(v[d]);
      }
      DGK_THROW_IF((mode.mode[0] != 0) + (mode.mode[1] != 0) + (mode.mode[2] != 0) < 2,
                   "--initial " << init << ": a cavity mode needs at least two non-zero mode numbers");
    }
    // The cavity is the mesh's bounding box; it is an exact solution only with PEC walls and
    // vacuum everywhere.
    for (int d = 0; d < 3; ++d) {
      mode.lower[d] = std::numeric_limits<double>::max();
      mode.upper[d] = -std::numeric_limits<double>::max();
    }
    for (const auto& v : m_mesh.vertices)
      for (int d = 0; d < 3; ++d) {
        mode.lower[d] = std::min(mode.lower[d], v[d]);
        mode.upper[d] = std::max(mode.upper[d], v[d]);
      }
    // Exact only on a box (mesh volume = bounding-box volume) with PEC walls in vacuum.
    double volume = 0.0;
    for (const auto& e : m_mesh.elements) {
      const auto& a = m_mesh.vertices[static_cast<std::size_t>(e[0])];
      double d[3][3];
      for (int k = 0; k < 3; ++k)
        for (int c = 0; c < 3; ++c) d[k][c] = m_mesh.vertices[static_cast<std::size_t>(e[k + 1])][c] - a[c];
      volume += std::abs(d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) - d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) +
                         d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0])) / 6.0;
    }
    const double box = (mode.upper[0] - mode.lower[0]) * (mode.upper[1] - mode.lower[1]) * (mode.upper[2] - mode.lower[2]);
    bool exact = std::abs(volume - box) <= 1e-9 * box;
    for (int c : bc_of_tag) exact &= c == Maxwell3D::PEC;
    for (const auto& m : m_mesh.material) exact &= m[0] == 1.0 && m[1] == 1.0;
    m_initial = [mode](double x, double y, double z, double t, double* out) {
      const auto f = mode(x, y, z, t);
      for (int c = 0; c < 6; ++c) out[c] = f[static_cast<std::size_t>(c)];
    };
    if (exact) m_exact = m_initial;
    natural_time = mode.period();
    std::ostringstream s;
    s << "cavity mode (" << mode.mode[0] << "," << mode.mode[1] << "," << mode.mode[2] << "), period " << natural_time;
    m_initial_summary = s.str();
  } else if (kind == "pulse") {
    const auto v = parse_number_list(args, "--initial " + init);
    DGK_THROW_IF(v.size() != 4 || !(v[3] > 0), "--initial " << init << ": expected pulse:x,y,z,width with width > 0");
    GaussianPulse p{{v[0], v[1], v[2]}, v[3]};
    m_initial = [p](double x, double y, double z, double t, double* out) {
      const auto f = p(x, y, z, t);
      for (int c = 0; c < 6; ++c) out[c] = f[static_cast<std::size_t>(c)];
    };
    m_initial_summary = "divergence-free Gaussian pulse, width " + std::to_string(v[3]);
  } else {
    DGK_THROW_IF(true, "--initial '" << init << "': expected cavity[:m,n,p] or pulse:x,y,z,width");
  }

  m_sim = make_maxwell3d_solver(o.backend.value_or(default_backend()), o.precision, o.order, m_mesh, bc_of_tag);
  m_sim->set_fields(m_initial, 0.0);
  m_final_time = o.final_time.value_or(natural_time);
  const double dt_max = m_sim->max_dt(o.cfl);
  m_steps = m_final_time > 0 ? static_cast<int>(std::ceil(m_final_time / dt_max - 1e-12)) : 0;
  m_dt = m_steps > 0 ? m_final_time / m_steps : 0.0;
}

}  // namespace dgk::physics
