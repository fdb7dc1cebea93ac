#include "dgk/physics/tet_case.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <sstream>

#include "dgk/backends/codegen.hpp"
#include "dgk/basis/tetrahedron.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/parse.hpp"
#include "dgk/core/order_dispatch.hpp"
#include "dgk/mesh/reorder.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/physics/acoustic3d.hpp"
#include "dgk/physics/case_distribution.hpp"
#include "dgk/physics/maxwell3d.hpp"
#include "dgk/physics/tet_solver.hpp"
#include "dgk/physics/tet_tuning.hpp"

namespace dgk::physics {

#define DGK_EXTERN_TET(SPACE, REAL)                          \
  extern template class TetSolver<Maxwell3D, REAL, SPACE>; \
  extern template class TetSolver<Acoustic3D, REAL, SPACE>;
DGK_IF_SERIAL(DGK_EXTERN_TET, float)
DGK_IF_SERIAL(DGK_EXTERN_TET, double)
DGK_IF_OPENMP(DGK_EXTERN_TET, float)
DGK_IF_OPENMP(DGK_EXTERN_TET, double)
DGK_IF_CUDA(DGK_EXTERN_TET, float)
DGK_IF_CUDA(DGK_EXTERN_TET, double)

namespace {

using DistPtr = std::shared_ptr<const Distribution>;

template <class Physics, class Space>
std::unique_ptr<Simulation> make_on(const std::string& precision, int order, const TetKernels& kernels,
                                    const mesh::TetMesh& mesh, const std::vector<int>& bc, const DistPtr& dist) {
  if (precision == "double")
    return std::make_unique<TetSolver<Physics, double, Space>>(Space(), order, mesh, bc, kernels, dist);
  if (precision == "float")
    return std::make_unique<TetSolver<Physics, float, Space>>(Space(), order, mesh, bc, kernels, dist);
  DGK_THROW_IF(true, "unknown precision '" << precision << "' (expected double or float)");
}

template <class Space>
std::unique_ptr<Simulation> make_for(const std::string& name, const std::string& precision, int order,
                                     const TetKernels& kernels, const mesh::TetMesh& mesh, const std::vector<int>& bc,
                                     const DistPtr& dist) {
  if (name == "maxwell3d") return make_on<Maxwell3D, Space>(precision, order, kernels, mesh, bc, dist);
  if (name == "acoustic3d") return make_on<Acoustic3D, Space>(precision, order, kernels, mesh, bc, dist);
  DGK_THROW_IF(true, "unknown tetrahedral case '" << name << "' (expected maxwell3d or acoustic3d)");
}

// The names of a physics' boundary conditions, for parsing and messages.
struct BcNames {
  std::vector<std::string> names;
  std::string list() const {
    std::string l;
    for (std::size_t i = 0; i < names.size(); ++i) l += (i ? (i + 1 == names.size() ? " or " : ", ") : "") + names[i];
    return l;
  }
};
template <class Physics>
BcNames bc_names_of() {
  BcNames b;
  for (int c = 0; c < Physics::num_bcs; ++c) b.names.emplace_back(Physics::bc_names[c]);
  return b;
}

}  // namespace

double max_stable_cfl(int order, const std::string& name) {
  DGK_THROW_IF(order < 1 || order > 9, "polynomial order " << order << " is not supported (orders 1..9)");
  // Largest CFL (as defined by Simulation::max_dt) at which the discrete energy did not grow
  // over 8 time units, found by bisection on box:1 with a pulse (tests/physics stability
  // sweeps); 10% is kept in reserve for less regular meshes.
  static constexpr double maxwell[10] = {0, 1.218, 1.665, 2.075, 2.316, 2.529, 2.69, 2.8, 2.895, 2.976};
  static constexpr double acoustic[10] = {0, 1.223, 1.591, 2.011, 2.210, 2.453, 2.566, 2.722, 2.794, 2.886};
  if (name == "acoustic3d") return 0.9 * acoustic[order];
  return 0.9 * maxwell[order];
}

bool tet_solvers_built(Backend backend) {
  switch (backend) {
#if defined(KOKKOS_ENABLE_SERIAL) && !defined(DGK_NO_HOST_SOLVERS)
    case Backend::Serial: return true;
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && !defined(DGK_NO_HOST_SOLVERS)
    case Backend::OpenMP: return true;
#endif
#ifdef KOKKOS_ENABLE_CUDA
    case Backend::Cuda: return true;
#endif
    default: return false;
  }
}

std::unique_ptr<Simulation> make_tet_solver(const std::string& name, Backend backend, const std::string& precision,
                                            int order, const TetKernels& kernels, const mesh::TetMesh& mesh,
                                            const std::vector<int>& bc_of_tag, std::shared_ptr<const Distribution> dist) {
  switch (backend) {
#if defined(KOKKOS_ENABLE_SERIAL) && !defined(DGK_NO_HOST_SOLVERS)
    case Backend::Serial: return make_for<Kokkos::Serial>(name, precision, order, kernels, mesh, bc_of_tag, dist);
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && !defined(DGK_NO_HOST_SOLVERS)
    case Backend::OpenMP: return make_for<Kokkos::OpenMP>(name, precision, order, kernels, mesh, bc_of_tag, dist);
#endif
#ifdef KOKKOS_ENABLE_CUDA
    case Backend::Cuda: return make_for<Kokkos::Cuda>(name, precision, order, kernels, mesh, bc_of_tag, dist);
#endif
    default: break;
  }
  DGK_THROW_IF(true, "backend '" << backend_name(backend) << "' is not built into this dgk");
}

TetCase::TetCase(const CaseOptions& options)
    : TetCase(options, mesh::reorder_elements(mesh::load_tet_mesh(options.mesh.empty() ? "box:6" : options.mesh),
                                              options.reorder)) {}

TetCase::TetCase(const CaseOptions& options, mesh::TetMesh mesh)
    : m_options(options), m_mesh(std::move(mesh)) {
  setup();
}

void TetCase::apply_tuning(Backend backend) {
  auto& o = m_options;
  const char* env = std::getenv("DGK_TUNE");
  const bool from_env = o.tune.empty() && env && *env;
  if (o.tune.empty()) o.tune = from_env ? env : "auto";
  DGK_THROW_IF(o.tune != "auto" && o.tune != "always" && o.tune != "never",
               (from_env ? "DGK_TUNE='" : "--tune '") << o.tune << "': expected auto, always or never");
  auto* solver = dynamic_cast<NodalTunable*>(m_sim.get());
  DGK_THROW_IF(!solver, "the " << o.name << " solver has no tunable kernels");
  const bool root = !m_dist || m_dist->comm->root();
  const TuningKey key{o.name,  o.order, o.precision, backend_name(backend), solver->device(),
                      o.basis, backends::device_code_generator(backend)};
  const TuningCache cache;
  std::optional<TuningResult> hit;
  if (o.tune != "always") hit = cache.find(key);
  std::string why_not;
  if (hit) why_not = solver->infeasible(hit->choice);
  if (hit && why_not.empty()) {
    solver->set_tuning(hit->choice);
    m_kernels.tuning = hit->choice;
    m_kernels.tuned = true;
    m_tuning_source = "cache " + cache.path();
  } else if (o.tune == "never") {
    m_tuning_source = "none (" +
                      (hit ? "the entry in " + cache.path() + " cannot run: " + why_not
                           : "no entry in " + cache.path()) +
                      "; --tune never): straightforward kernels";
  } else {
    if (root) {
      std::cerr << "dgk: tuning the kernels for " << o.name << " order " << o.order << " (" << o.basis << " basis), "
                << o.precision << ", "
                << backend_name(backend) << " on " << key.device << " ("
                << (o.tune == "always" ? "--tune always"
                                       : why_not.empty() ? "first use" : "the cached choice cannot run: " + why_not)
                << "; the choice is kept in " << cache.path() << ")\n";
    }
    const auto result = tune_nodal(*solver, m_sim->num_elements(), 5, root ? &std::cerr : nullptr);
    if (root) cache.store(key, result);
    m_kernels.tuning = result.choice;
    m_kernels.tuned = true;
    m_tuning_source = "tuned now, cached in " + cache.path();
    m_tuning_result = result;
  }
}

void TetCase::setup() {
  DGK_THROW_IF(m_options.refine != 0, "--refine " << m_options.refine << ": refinement splits triangles; case "
                                                  << m_options.name << " runs on tetrahedra");
  if (m_options.mesh.empty()) m_options.mesh = m_mesh.source;
  const auto& o = m_options;
  const bool maxwell = o.name == "maxwell3d";
  DGK_THROW_IF(!maxwell && o.name != "acoustic3d",
               "unknown tetrahedral case '" << o.name << "' (expected maxwell3d or acoustic3d)");
  DGK_THROW_IF(!(o.cfl > 0) || !std::isfinite(o.cfl), "--cfl must be positive (got " << o.cfl << ")");
  DGK_THROW_IF(o.order < 1 || o.order > max_compiled_order,
               "polynomial order " << o.order << " is not supported (this build has orders 1.." << max_compiled_order << ")");
  const double limit = max_stable_cfl(o.order, o.name);
  DGK_THROW_IF(o.cfl > limit && !o.force,
               "--cfl " << o.cfl << " exceeds the stability limit " << limit << " of order " << o.order
                        << " (LSERK4 with the upwind flux); lower it, or pass --force to run anyway");
  DGK_THROW_IF(o.final_time && !(*o.final_time >= 0),
               "--final-time must be non-negative (got " << *o.final_time << ")");
  m_kernels = parse_tet_kernels(o.basis, o.kernel);

  // Boundary conditions by boundary name; the physics' first condition (PEC, Dirichlet) where
  // none is given.
  const BcNames bcn = maxwell ? bc_names_of<Maxwell3D>() : bc_names_of<Acoustic3D>();
  const int ntags = static_cast<int>(m_mesh.boundary_names.size());
  std::vector<int> bc_of_tag(static_cast<std::size_t>(ntags), 0);
  std::vector<bool> given(static_cast<std::size_t>(ntags), false);
  for (const auto& spec : o.bc) {
    const auto eq = spec.find('=');
    DGK_THROW_IF(eq == std::string::npos, "--bc '" << spec << "': expected NAME=CONDITION (" << bcn.list() << ")");
    const std::string name = spec.substr(0, eq), kind = spec.substr(eq + 1);
    const int tag = m_mesh.boundary_tag(name);
    std::string names;
    for (const auto& n : m_mesh.boundary_names) names += (names.empty() ? "" : ", ") + n;
    DGK_THROW_IF(tag < 0, "--bc '" << spec << "': mesh '" << m_mesh.source << "' has no boundary named '" << name
                                   << "' (it has: " << names << ")");
    int code = -1;
    for (std::size_t c = 0; c < bcn.names.size(); ++c)
      if (kind == bcn.names[c]) code = static_cast<int>(c);
    DGK_THROW_IF(code < 0, "--bc '" << spec << "': unknown condition '" << kind << "' for " << o.name << " (expected "
                                    << bcn.list() << ")");
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
    bcs << (bcs.tellp() > 0 ? ", " : "") << m_mesh.boundary_names[ut] << "=" << bcn.names[static_cast<std::size_t>(bc_of_tag[ut])]
        << (given[ut] ? "" : " (default)");
  }
  m_bc_summary = bcs.str();

  // The mesh's bounding box, and whether the mesh fills it with unit material and the default
  // conditions everywhere: then the box's eigenmode / standing wave is an exact solution.
  std::array<double, 3> lower, upper;
  for (int d = 0; d < 3; ++d) {
    lower[d] = std::numeric_limits<double>::max();
    upper[d] = -std::numeric_limits<double>::max();
  }
  for (const auto& v : m_mesh.vertices)
    for (int d = 0; d < 3; ++d) {
      lower[d] = std::min(lower[d], v[d]);
      upper[d] = std::max(upper[d], v[d]);
    }
  double volume = 0.0;
  for (int e = 0; e < m_mesh.num_elements(); ++e) volume += std::abs(mesh::element_jacobian(m_mesh, e)) * 4.0 / 3.0;
  const double box = (upper[0] - lower[0]) * (upper[1] - lower[1]) * (upper[2] - lower[2]);
  bool exact = std::abs(volume - box) <= 1e-9 * box;
  for (int c : bc_of_tag) exact &= c == 0;
  for (const auto& m : m_mesh.material) exact &= m[0] == 1.0 && m[1] == 1.0;

  // Initial condition.
  const std::string init = o.initial.empty() ? (maxwell ? "cavity:1,1,1" : "standing") : o.initial;
  const auto colon = init.find(':');
  const std::string kind = init.substr(0, colon);
  const std::string args = colon == std::string::npos ? "" : init.substr(colon + 1);
  double natural_time = 1.0;
  if (maxwell && kind == "cavity") {
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
    mode.lower = lower;
    mode.upper = upper;
    m_initial = [mode](double x, double y, double z, double t, double* out) {
      const auto f = mode(x, y, z, t);
      for (int c = 0; c < 6; ++c) out[c] = f[static_cast<std::size_t>(c)];
    };
    if (exact) m_exact = m_initial;
    natural_time = mode.period();
    std::ostringstream s;
    s << "cavity mode (" << mode.mode[0] << "," << mode.mode[1] << "," << mode.mode[2] << "), period " << natural_time;
    m_initial_summary = s.str();
  } else if (!maxwell && kind == "standing") {
    DGK_THROW_IF(!args.empty(), "--initial " << init << ": 'standing' takes no parameters");
    AcousticStandingWave wave;
    wave.lower = lower;
    wave.upper = upper;
    m_initial = [wave](double x, double y, double z, double t, double* out) {
      const auto f = wave(x, y, z, t);
      for (int c = 0; c < 4; ++c) out[c] = f[static_cast<std::size_t>(c)];
    };
    if (exact) m_exact = m_initial;
    natural_time = wave.period();
    std::ostringstream s;
    s << "standing wave cos(pi x) cos(pi y) cos(pi z) on the bounding box, period " << natural_time;
    m_initial_summary = s.str();
  } else if (kind == "pulse") {
    const auto v = parse_number_list(args, "--initial " + init);
    DGK_THROW_IF(v.size() != 4 || !(v[3] > 0), "--initial " << init << ": expected pulse:x,y,z,width with width > 0");
    if (maxwell) {
      GaussianPulse p{{v[0], v[1], v[2]}, v[3]};
      m_initial = [p](double x, double y, double z, double t, double* out) {
        const auto f = p(x, y, z, t);
        for (int c = 0; c < 6; ++c) out[c] = f[static_cast<std::size_t>(c)];
      };
      m_initial_summary = "divergence-free Gaussian pulse, width " + std::to_string(v[3]);
    } else {
      AcousticPulse p{{v[0], v[1], v[2]}, v[3]};
      m_initial = [p](double x, double y, double z, double t, double* out) {
        const auto f = p(x, y, z, t);
        for (int c = 0; c < 4; ++c) out[c] = f[static_cast<std::size_t>(c)];
      };
      m_initial_summary = "Gaussian pressure pulse, width " + std::to_string(v[3]);
    }
  } else {
    DGK_THROW_IF(true, "--initial '" << init << "': expected "
                                     << (maxwell ? "cavity[:m,n,p] or pulse:x,y,z,width" : "standing or pulse:x,y,z,width")
                                     << " for " << o.name);
  }

  // A distributed run: each rank solves on its part of the mesh (owned elements and ghosts).
  mesh::TetMesh local;
  m_dist = distribute_over_ranks(m_mesh, conn, o.partition, [&] { return basis::make_tet_nodal(o.order); }, local);
  const Backend backend = o.backend.value_or(default_backend());
  m_sim = make_tet_solver(o.name, backend, o.precision, o.order, m_kernels, m_dist ? local : m_mesh, bc_of_tag, m_dist);
  // The initial state first: the tuner checks each stage it times against the straightforward
  // kernels' from the run's own state (and leaves it as it was).
  m_sim->set_fields(m_initial, 0.0);
  if (m_kernels.family == TetKernelFamily::Tuned) apply_tuning(backend);
  m_final_time = o.final_time.value_or(natural_time);
  const double dt_max = m_sim->max_dt(o.cfl);
  m_steps = m_final_time > 0 ? static_cast<int>(std::ceil(m_final_time / dt_max - 1e-12)) : 0;
  m_dt = m_steps > 0 ? m_final_time / m_steps : 0.0;
}

}  // namespace dgk::physics
