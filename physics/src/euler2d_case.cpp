#include "dgk/physics/euler2d_case.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "dgk/core/comm.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/mesh/reorder.hpp"

namespace dgk::physics {

// The solvers are compiled once, in the instantiation units (instantiate_modal_tri.cpp.in).
#define DGK_EXTERN_EULER2D(SPACE, REAL) extern template class ModalTriSolver<Euler2D, REAL, SPACE>;
DGK_IF_SERIAL(DGK_EXTERN_EULER2D, float)
DGK_IF_SERIAL(DGK_EXTERN_EULER2D, double)
DGK_IF_OPENMP(DGK_EXTERN_EULER2D, float)
DGK_IF_OPENMP(DGK_EXTERN_EULER2D, double)
DGK_IF_CUDA(DGK_EXTERN_EULER2D, float)
DGK_IF_CUDA(DGK_EXTERN_EULER2D, double)
#undef DGK_EXTERN_EULER2D

const char* integrator_name(ModalIntegrator i) {
  switch (i) {
    case ModalIntegrator::SspRk2:
      return "ssp-rk2";
    case ModalIntegrator::SspRk3:
      return "ssp-rk3";
    default:
      return "rk4";
  }
}

ModalIntegrator parse_integrator(const std::string& name) {
  if (name == "ssp-rk2") return ModalIntegrator::SspRk2;
  if (name == "ssp-rk3") return ModalIntegrator::SspRk3;
  if (name == "rk4") return ModalIntegrator::Rk4;
  DGK_THROW_IF(true, "--integrator " << name << ": expected ssp-rk2, ssp-rk3 or rk4");
}

namespace {

constexpr double kGamma = 1.4;
constexpr double kPi = 3.14159265358979323846;

// Conserved state from density, velocity and pressure.
void conserved(double rho, double u, double v, double p, double* out) {
  out[0] = rho;
  out[1] = rho * u;
  out[2] = rho * v;
  out[3] = p / (kGamma - 1.0) + 0.5 * rho * (u * u + v * v);
}

// Isentropic vortex (Shu) of strength 5 advected by the flow (1, 1) across the periodic square
// of side kVortexSide centred at the origin; the nearest periodic image of the centre counts
// (the vortex's perturbation at the domain's edge is below 1e-11).
constexpr double kVortexSide = 15.0;
void isentropic_vortex(double x, double y, double t, double* out) {
  const double beta = 5.0, u0 = 1.0, v0 = 1.0, L = kVortexSide;
  auto wrap = [L](double d) { return d - L * std::floor(d / L + 0.5); };
  const double dx = wrap(x - u0 * t), dy = wrap(y - v0 * t);
  const double r2 = dx * dx + dy * dy;
  const double e = std::exp(0.5 * (1.0 - r2));
  const double du = -beta / (2.0 * kPi) * e * dy, dv = beta / (2.0 * kPi) * e * dx;
  const double T = 1.0 - (kGamma - 1.0) * beta * beta / (8.0 * kGamma * kPi * kPi) * e * e;
  const double rho = std::pow(T, 1.0 / (kGamma - 1.0));
  conserved(rho, u0 + du, v0 + dv, rho * T, out);
}

// Supersonic vortex: steady isentropic flow around the origin, Mach 2.25 at the inner radius 1
// where density is 1 and the sound speed 1 (paper 004, section 4.1).
constexpr double kInner = 1.0, kOuter = 1.384, kMachInner = 2.25;
void supersonic_vortex(double x, double y, double, double* out) {
  const double r = std::sqrt(x * x + y * y);
  const double rho = std::pow(1.0 + 0.5 * (kGamma - 1.0) * kMachInner * kMachInner * (1.0 - kInner * kInner / (r * r)),
                              1.0 / (kGamma - 1.0));
  const double speed = kMachInner * kInner / r;
  conserved(rho, -speed * y / r, speed * x / r, std::pow(rho, kGamma) / kGamma, out);
}

// Double Mach reflection (paper 004, section 4.2): Mach 10 shock at 60 degrees to the x axis
// starting at x0 = 1/6 on the wall; post-shock state rho 8, |v| 8.25, p 116.5.
constexpr double kShockX0 = 1.0 / 6.0;
void dmr_post(double* out) {
  conserved(8.0, 8.25 * std::cos(kPi / 6.0), -8.25 * std::sin(kPi / 6.0), 116.5, out);
}
void dmr_pre(double* out) {
  conserved(1.4, 0.0, 0.0, 1.0, out);
}
void double_mach(double x, double y, double t, double* out) {
  if (x < kShockX0 + (y + 20.0 * t) / std::sqrt(3.0))
    dmr_post(out);
  else
    dmr_pre(out);
}

void sod(double x, double, double, double* out) {
  if (x < 0.5)
    conserved(1.0, 0.0, 0.0, 1.0, out);
  else
    conserved(0.125, 0.0, 0.0, 0.1, out);
}

struct Problem {
  std::string name;
  std::array<double, 2> lower, upper;  // of the rectangle, or the (r, theta) box of the annulus
  bool annulus = false;
  bool periodic = false;
  std::string default_mesh;
  double final_time;
  bool exact;
  void (*state)(double, double, double, double*);
  const char* description;
};

const Problem& problem(const std::string& name) {
  static const Problem list[] = {
      {"isentropic-vortex",
       {-0.5 * kVortexSide, -0.5 * kVortexSide},
       {0.5 * kVortexSide, 0.5 * kVortexSide},
       false,
       true,
       "rect:16",
       kVortexSide,
       true,
       isentropic_vortex,
       "isentropic vortex advected by (1, 1) on the periodic square [-7.5, 7.5]^2"},
      {"supersonic-vortex",
       {kInner, 0.0},
       {kOuter, 0.5 * kPi},
       true,
       false,
       "rect:4,16",
       5.0,
       true,
       supersonic_vortex,
       "supersonic vortex (Mach 2.25 at r = 1) in the quarter annulus 1 <= r <= 1.384"},
      {"double-mach",
       {0.0, 0.0},
       {4.0, 1.0},
       false,
       false,
       "rect:96,24",
       0.2,
       false,
       double_mach,
       "double Mach reflection: Mach 10 shock on a 30 degree wedge at x = 1/6, [0, 4] x [0, 1]"},
      {"sod",
       {0.0, 0.0},
       {1.0, 0.1},
       false,
       false,
       "rect:100,10",
       0.2,
       false,
       sod,
       "Sod shock tube along x at x = 0.5, [0, 1] x [0, 0.1]"},
  };
  for (const auto& p : list)
    if (p.name == name) return p;
  DGK_THROW_IF(true, "--problem " << name << ": expected isentropic-vortex, supersonic-vortex, double-mach or sod");
}

void set_circles(mesh::TriMesh& m) {
  const int inner = m.boundary_tag("inner"), outer = m.boundary_tag("outer");
  m.boundary_circles.clear();
  if (inner >= 0) m.boundary_circles.push_back({inner, {0.0, 0.0}, kInner, false});
  if (outer >= 0) m.boundary_circles.push_back({outer, {0.0, 0.0}, kOuter, true});
}

}  // namespace

const std::vector<std::string>& euler2d_problems() {
  static const std::vector<std::string> names{"isentropic-vortex", "supersonic-vortex", "double-mach", "sod"};
  return names;
}

mesh::TriMesh euler2d_mesh(const std::string& problem_name, const std::string& spec_in, int refine) {
  const Problem& p = problem(problem_name);
  const std::string spec = spec_in.empty() ? p.default_mesh : spec_in;
  DGK_THROW_IF(refine < 0, "--refine must be non-negative (got " << refine << ")");
  mesh::TriMesh m;
  if (spec.rfind("rect:", 0) == 0) {
    m = mesh::load_tri_mesh(spec);  // the unit square
    for (auto& v : m.vertices) {
      const double a = p.lower[0] + v[0] * (p.upper[0] - p.lower[0]);
      const double b = p.lower[1] + v[1] * (p.upper[1] - p.lower[1]);
      v = p.annulus ? std::array<double, 2>{a * std::cos(b), a * std::sin(b)} : std::array<double, 2>{a, b};
    }
    if (p.annulus) {
      // xmin, xmax, ymin, ymax of the (r, theta) rectangle.
      m.boundary_names = {"boundary", "inner", "outer", "inflow", "outflow"};
      set_circles(m);
    }
    m.source = spec;
  } else if (spec.rfind("gmsh:", 0) == 0) {
    char* end = nullptr;
    const double h = std::strtod(spec.c_str() + 5, &end);
    DGK_THROW_IF(end == spec.c_str() + 5 || *end != '\0' || !(h > 0) || !std::isfinite(h),
                 "--mesh " << spec << ": expected gmsh:h with an edge length h > 0");
    DGK_THROW_IF(p.periodic, "--mesh " << spec << ": the periodic " << p.name
                                       << " needs matching opposite sides; use rect:n (or rect:n,jitter=J)");
    if (p.annulus)
      m = mesh::generate_quarter_annulus(kInner, kOuter, h);
    else if (p.name == "double-mach")
      m = mesh::generate_rectangle(p.lower, p.upper, h, {kShockX0});
    else
      m = mesh::generate_rectangle(p.lower, p.upper, h);
    m.source = spec;
  } else {
    m = mesh::load_tri_mesh(spec);
    if (p.annulus && m.boundary_circles.empty()) set_circles(m);
  }
  if (refine > 0) m = mesh::refine_tri_mesh(m, refine);
  return m;
}

std::unique_ptr<Simulation> make_euler2d_solver(Backend backend, const std::string& precision, int order,
                                                const mesh::TriMesh& mesh, const mesh::TriConnectivity& conn,
                                                const ModalBoundary& boundary, const Euler2D& physics,
                                                const ModalSettings& settings, std::shared_ptr<const Distribution> dist) {
  auto make = [&](auto space) -> std::unique_ptr<Simulation> {
    using Space = decltype(space);
    if (precision == "double")
      return std::make_unique<ModalTriSolver<Euler2D, double, Space>>(space, order, mesh, conn, boundary, physics,
                                                                      settings, dist);
    if (precision == "float")
      return std::make_unique<ModalTriSolver<Euler2D, float, Space>>(space, order, mesh, conn, boundary, physics,
                                                                     settings, dist);
    DGK_THROW_IF(true, "unknown precision '" << precision << "' (expected double or float)");
  };
  switch (backend) {
#if defined(KOKKOS_ENABLE_SERIAL) && !defined(DGK_NO_HOST_SOLVERS)
    case Backend::Serial:
      return make(Kokkos::Serial());
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && !defined(DGK_NO_HOST_SOLVERS)
    case Backend::OpenMP:
      return make(Kokkos::OpenMP());
#endif
#ifdef KOKKOS_ENABLE_CUDA
    case Backend::Cuda:
      return make(Kokkos::Cuda());
#endif
    default:
      break;
  }
  DGK_THROW_IF(true, "backend '" << backend_name(backend) << "' is not built into this dgk");
}

Euler2DCase::Euler2DCase(const CaseOptions& options)
    : Euler2DCase(options, mesh::reorder_elements(euler2d_mesh(options.problem, options.mesh, options.refine),
                                                  options.reorder)) {}

Euler2DCase::Euler2DCase(const CaseOptions& options, mesh::TriMesh mesh) : m_options(options), m_mesh(std::move(mesh)) {
  if (m_options.mesh.empty()) m_options.mesh = m_mesh.source;
  setup();
}

std::string Euler2DCase::kernel_summary() const {
  std::string s = m_settings.surface == SurfaceKernel::EdgeWise ? "modal edge-wise" : "modal element-wise";
  s += std::string(", ") + m_options.flux + " flux, " + integrator_name(m_settings.integrator);
  if (m_settings.limiter) s += ", Barth-Jespersen limiter";
  return s;
}

void Euler2DCase::setup() {
  auto& o = m_options;
  const Problem& p = problem(o.problem);
  DGK_THROW_IF(o.name != "euler2d", "case '" << o.name << "' is not euler2d");
  DGK_THROW_IF(o.basis != "nodal" && o.basis != "modal", "--basis " << o.basis << ": euler2d has the modal basis only");
  o.basis = "modal";
  DGK_THROW_IF(!(o.cfl > 0) || !std::isfinite(o.cfl), "--cfl must be positive (got " << o.cfl << ")");
  DGK_THROW_IF(o.final_time && !(*o.final_time >= 0),
               "--final-time must be non-negative (got " << *o.final_time << ")");
  DGK_THROW_IF(!o.initial.empty() && o.initial != p.name,
               "--initial " << o.initial << ": euler2d starts from its problem's state (choose it with --problem)");

  Euler2D physics;
  physics.gamma = kGamma;
  if (o.flux == "llf")
    physics.flux = Euler2D::LaxFriedrichs;
  else if (o.flux == "hllc")
    physics.flux = Euler2D::Hllc;
  else
    DGK_THROW_IF(true, "--flux " << o.flux << ": expected llf or hllc");

  if (o.limiter.empty()) o.limiter = "none";
  DGK_THROW_IF(o.limiter != "none" && o.limiter != "barth-jespersen",
               "--limiter " << o.limiter << ": expected none or barth-jespersen");
  m_settings.limiter = o.limiter == "barth-jespersen";
  DGK_THROW_IF(
      m_settings.limiter && o.order != 1,
      "--limiter barth-jespersen limits p = 1 expansions; this run has --order " << o.order << " (pass --order 1)");
  if (o.integrator.empty()) o.integrator = "ssp-rk3";
  m_settings.integrator = parse_integrator(o.integrator);
  if (o.kernel == "auto" || o.kernel == "edge")
    m_settings.surface = SurfaceKernel::EdgeWise;
  else if (o.kernel == "element")
    m_settings.surface = SurfaceKernel::ElementWise;
  else
    DGK_THROW_IF(true, "--kernel " << o.kernel << ": euler2d has the surface kernels edge (one thread per edge) and "
                                   << "element (one thread per element)");

  // Connectivity, periodic sides linked.
  auto conn = mesh::connect(m_mesh);
  if (p.periodic) {
    const int xmin = m_mesh.boundary_tag("xmin"), xmax = m_mesh.boundary_tag("xmax");
    const int ymin = m_mesh.boundary_tag("ymin"), ymax = m_mesh.boundary_tag("ymax");
    DGK_THROW_IF(xmin < 0 || xmax < 0 || ymin < 0 || ymax < 0,
                 "the periodic " << p.name << " needs boundaries xmin, xmax, ymin and ymax (mesh '" << m_mesh.source
                                 << "' lacks one)");
    mesh::connect_periodic(m_mesh, conn, xmin, xmax, {p.upper[0] - p.lower[0], 0.0});
    mesh::connect_periodic(m_mesh, conn, ymin, ymax, {0.0, p.upper[1] - p.lower[1]});
  }

  // Boundary conditions: the problem's defaults by boundary name, then --bc.
  const int ntags = static_cast<int>(m_mesh.boundary_names.size());
  std::vector<int> code_of_tag(static_cast<std::size_t>(ntags), -1);
  std::vector<std::string> given(static_cast<std::size_t>(ntags));
  int wedge_tag = -1;  // double-mach: inflow before x0, wall after
  for (int t = 0; t < ntags; ++t) {
    const std::string& n = m_mesh.boundary_names[static_cast<std::size_t>(t)];
    int c = -1;
    if (p.name == "supersonic-vortex")
      c = n == "inner" || n == "outer" ? Euler2D::Wall
          : n == "inflow"              ? Euler2D::Prescribed
          : n == "outflow"             ? Euler2D::Outflow
                                       : -1;
    else if (p.name == "double-mach")
      c = n == "xmin" ? Euler2D::Prescribed : n == "xmax" ? Euler2D::Outflow : n == "ymax" ? Euler2D::MovingShock : -1;
    else if (p.name == "sod")
      c = n == "xmin" || n == "xmax" ? Euler2D::Outflow : n == "ymin" || n == "ymax" ? Euler2D::Wall : -1;
    if (p.name == "double-mach" && n == "ymin") wedge_tag = t;
    code_of_tag[static_cast<std::size_t>(t)] = c;
  }
  for (const auto& spec : o.bc) {
    const auto eq = spec.find('=');
    DGK_THROW_IF(eq == std::string::npos, "--bc '" << spec << "': expected NAME=inflow|outflow|wall|moving-shock");
    const std::string name = spec.substr(0, eq), kind = spec.substr(eq + 1);
    const int tag = m_mesh.boundary_tag(name);
    std::string names;
    for (const auto& n : m_mesh.boundary_names) names += (names.empty() ? "" : ", ") + n;
    DGK_THROW_IF(tag < 0, "--bc '" << spec << "': mesh '" << m_mesh.source << "' has no boundary named '" << name
                                   << "' (it has: " << names << ")");
    int code = -1;
    for (int c = 0; c < Euler2D::num_bcs; ++c)
      if (kind == Euler2D::bc_names[c]) code = c;
    DGK_THROW_IF(code < 0, "--bc '" << spec << "': unknown condition '" << kind
                                    << "' (expected inflow, outflow, wall or moving-shock)");
    code_of_tag[static_cast<std::size_t>(tag)] = code;
    given[static_cast<std::size_t>(tag)] = kind;
    if (tag == wedge_tag) wedge_tag = -1;
  }
  ModalBoundary boundary;
  boundary.code = [code_of_tag, wedge_tag](int tag, double x, double) {
    if (tag == wedge_tag) return x < kShockX0 ? int(Euler2D::Prescribed) : int(Euler2D::Wall);
    return tag >= 0 && tag < static_cast<int>(code_of_tag.size()) ? code_of_tag[static_cast<std::size_t>(tag)] : -1;
  };
  const auto state = p.state;
  boundary.prescribed = [state](double x, double y, double* out) { state(x, y, 0.0, out); };
  boundary.shock.x0 = kShockX0;
  boundary.shock.speed = 20.0;
  boundary.shock.cot_angle = 1.0 / std::sqrt(3.0);
  dmr_post(boundary.shock.post);
  dmr_pre(boundary.shock.pre);

  // Summary of the conditions on boundaries that have edges.
  std::vector<int> edges_of_tag(static_cast<std::size_t>(ntags), 0);
  for (const auto& tags : conn.bc_tag)
    for (int t : tags)
      if (t >= 0 && t < ntags) ++edges_of_tag[static_cast<std::size_t>(t)];
  std::ostringstream bcs;
  if (p.periodic) bcs << "periodic in x and y";
  for (int t = 0; t < ntags; ++t) {
    const auto ut = static_cast<std::size_t>(t);
    if (edges_of_tag[ut] == 0) continue;
    bcs << (bcs.tellp() > 0 ? ", " : "") << m_mesh.boundary_names[ut] << "=";
    if (t == wedge_tag)
      bcs << "inflow (x < 1/6), wall";
    else
      bcs << (code_of_tag[ut] >= 0 ? Euler2D::bc_names[code_of_tag[ut]] : "none");
    if (given[ut].empty()) bcs << " (default)";
    for (const auto& c : m_mesh.boundary_circles)
      if (c.tag == t) bcs << " (curved, r = " << c.radius << ")";
  }
  m_bc_summary = bcs.str();

  m_initial = [state](double x, double y, double, double t, double* out) { state(x, y, t, out); };
  if (p.exact) m_exact = m_initial;
  m_initial_summary = p.description;
  o.initial = p.name;

  // A distributed run: each rank solves on its part of the mesh (owned elements and ghosts, which
  // receive all modes of their owners), with the whole mesh's connectivity (periodic pairs too).
  const Comm& comm = Comm::world();
  mesh::TriMesh local_mesh;
  mesh::TriConnectivity local_conn;
  if (comm.distributed()) {
    const int np = (o.order + 1) * (o.order + 2) / 2;
    std::vector<int> modes(static_cast<std::size_t>(np));
    for (int j = 0; j < np; ++j) modes[static_cast<std::size_t>(j)] = j;
    m_dist = distribute(m_mesh, conn, partition_method_of(o.partition), std::vector<std::vector<int>>(3, modes), np,
                        comm, local_mesh);
    local_conn = mesh::restrict_connectivity(conn, m_dist->part);
  }
  m_sim = make_euler2d_solver(o.backend.value_or(default_backend()), o.precision, o.order,
                              m_dist ? local_mesh : m_mesh, m_dist ? local_conn : conn, boundary, physics, m_settings,
                              m_dist);
  m_sim->set_fields(m_initial, 0.0);
  m_final_time = o.final_time.value_or(p.final_time);
  const double dt_max = m_sim->max_dt(o.cfl);
  const double steps = m_final_time > 0 ? std::ceil(m_final_time / dt_max - 1e-12) : 0.0;
  DGK_THROW_IF(!(steps <= std::numeric_limits<int>::max()), "--final-time " << m_final_time << " needs " << steps
                                                                            << " steps of " << dt_max << ", more than "
                                                                            << std::numeric_limits<int>::max());
  m_steps = static_cast<int>(steps);
  m_dt = m_steps > 0 ? m_final_time / m_steps : 0.0;
}

}  // namespace dgk::physics
