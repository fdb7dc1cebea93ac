#include "euler2d_app.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <memory>

#include <Kokkos_Core.hpp>

#include "dgk/backends/ceilings.hpp"
#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/time_loop.hpp"
#include "dgk/io/report.hpp"
#include "dgk/physics/euler2d_case.hpp"
#include "bench_rows.hpp"
#include "text.hpp"

namespace dgk::app {

namespace {

backends::Ceilings ceilings(Backend backend, const std::string& precision) {
  backends::Ceilings c;
  auto measure = [&](auto space) {
    using Space = decltype(space);
    c = precision == "float" ? backends::measure_ceilings<Space, float>() : backends::measure_ceilings<Space, double>();
  };
  switch (backend) {
#ifdef KOKKOS_ENABLE_SERIAL
    case Backend::Serial:
      measure(Kokkos::Serial());
      break;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    case Backend::OpenMP:
      measure(Kokkos::OpenMP());
      break;
#endif
#ifdef KOKKOS_ENABLE_CUDA
    case Backend::Cuda:
      measure(Kokkos::Cuda());
      break;
#endif
    default:
      DGK_THROW_IF(true, "backend '" << backend_name(backend) << "' is not built into this dgk");
  }
  return c;
}

}  // namespace

void bench_euler2d(const Euler2DBenchOptions& o, std::ostream& out) {
  DGK_THROW_IF(o.elements < 8, "--elements must be at least 8 (got " << o.elements << ")");
  DGK_THROW_IF(o.reps < 1, "--reps must be positive (got " << o.reps << ")");
  physics::CaseOptions base = o.base;
  base.name = "euler2d";
  const Backend backend = base.backend.value_or(default_backend());
  base.backend = backend;
  // Square cells of the problem's domain (the unit-square mesh is mapped onto it).
  const int n = std::max(2, static_cast<int>(std::lround(std::sqrt(o.elements / 2.0))));
  base.mesh = "rect:" + std::to_string(n);
  base.final_time = 0.0;
  const auto ceil = ceilings(backend, base.precision);
  out << "dgk bench euler2d: " << base.problem << ", mesh " << base.mesh << " (" << 2L * n * n << " elements), "
      << backend_name(backend) << ", " << base.precision << ", " << base.flux << " flux, median of " << o.reps << "\n"
      << "  measured ceilings: copy " << fmt(ceil.copy_bytes_per_s / 1e9, 1) << " GB/s (read+write), FMA "
      << fmt(ceil.flops_per_s / 1e9, 1) << " GFLOP/s\n";
  io::Report rep;
  rep.set("case", "euler2d");
  rep.set("problem", base.problem);
  rep.set("backend", backend_name(backend));
  rep.set("precision", base.precision);
  rep.set("flux", base.flux);
  rep.set("elements", io::Report::Value(static_cast<long long>(2L * n * n)));
  rep.set("copy_gbytes_per_s", ceil.copy_bytes_per_s / 1e9);
  rep.set("fma_gflops", ceil.flops_per_s / 1e9);
  out << std::setw(3) << "p" << std::setw(14) << "surface" << std::setw(22) << "stage" << std::setw(11) << "time ms"
      << std::setw(10) << "GFLOP/s" << std::setw(9) << "GB/s" << std::setw(10) << "roofline" << std::setw(14)
      << "s/DOF/stage"
      << "\n";
  for (int order : o.orders) {
    for (const std::string kernel : {"edge", "element"}) {
      physics::CaseOptions c = base;
      c.order = order;
      c.kernel = kernel;
      c.limiter = order == 1 ? "barth-jespersen" : "none";
      const auto cs = std::make_unique<physics::Euler2DCase>(c);
      auto& sim = cs->simulation();
      const auto costs = sim.costs();
      const auto times = sim.time_stages(o.reps);
      double tf = 0, tb = 0, tt = 0, tbound = 0;
      for (std::size_t s = 0; s <= costs.size(); ++s) {
        const bool total = s == costs.size();
        const double flops = total ? tf : costs[s].flops, bytes = total ? tb : costs[s].bytes;
        const double t = total ? tt : times.seconds[s];
        const double bound = total ? tbound : std::max(bytes / ceil.copy_bytes_per_s, flops / ceil.flops_per_s);
        if (!total) {
          tf += flops;
          tb += bytes;
          tt += t;
          tbound += bound;
        }
        const std::string name = total ? "stage" : costs[s].name;
        out << std::setw(3) << order << std::setw(14) << kernel << std::setw(22) << name
            << kernel_columns(t, flops, bytes, bound, double(sim.num_dofs())) << "\n";
        io::Report row = kernel_row(order, name, static_cast<long long>(sim.num_dofs()), t, flops, bytes, bound);
        row.set("surface", kernel);
        rep.add_row("kernels", row);
      }
    }
  }
  if (!o.report.empty()) rep.write_json(o.report);
}

double run_euler2d(const physics::CaseOptions& o, const std::string& density_file, long progress_every,
                   const std::string& report_file, std::ostream& out) {
  const auto cs = std::make_unique<physics::Euler2DCase>(o);
  auto& sim = cs->simulation();
  out << "dgk-euler2d " << o.problem << ": order " << sim.order() << ", mesh " << cs->options().mesh << " ("
      << sim.num_elements() << " elements, " << sim.num_dofs() << " DOFs), " << sim.backend() << ", " << sim.precision()
      << ", " << cs->kernel_summary() << "\n"
      << "  boundary: " << cs->bc_summary() << "\n"
      << "  steps:    " << cs->steps() << " of dt = " << fmt(cs->dt(), 3, true) << " to t = " << cs->final_time()
      << " (CFL " << o.cfl << ")\n"
      << std::flush;
  TimeLoopOptions loop;
  Kokkos::Timer timer;
  if (progress_every > 0)
    loop.on_step = [&](long long step) {
      if (step % progress_every == 0) {
        sim.fence();
        out << "  step " << step << ", t = " << fmt(sim.time(), 4) << ", " << fmt(timer.seconds(), 3) << " s\n"
            << std::flush;
      }
    };
  sim.fence();
  timer.reset();
  advance(sim, cs->steps(), cs->dt(), loop);
  sim.fence();
  const double wall = timer.seconds();
  const double stages = double(cs->steps()) * sim.stages_per_step();
  out << "  wall time:  " << fmt(wall, 3) << " s for " << cs->steps() << " steps, "
      << fmt(wall / std::max(1.0, stages) / double(sim.num_dofs()), 3, true) << " s per DOF per RK stage\n";
  io::Report rep;
  rep.set("case", o.name);
  rep.set("problem", o.problem);
  rep.set("order", sim.order());
  rep.set("mesh", cs->options().mesh);
  rep.set("refine", o.refine);
  rep.set("elements", sim.num_elements());
  rep.set("dofs", io::Report::Value(static_cast<long long>(sim.num_dofs())));
  rep.set("backend", sim.backend());
  rep.set("precision", sim.precision());
  rep.set("steps", io::Report::Value(static_cast<long long>(cs->steps())));
  rep.set("dt", cs->dt());
  rep.set("final_time", sim.time());
  rep.set("wall_s", wall);
  if (cs->exact()) {
    const double err = sim.l2_error(*cs->exact());
    const auto per_field = sim.l2_error_fields(*cs->exact());
    out << "  L2 error:   " << fmt(err, 4, true) << " (";
    for (std::size_t c = 0; c < per_field.size(); ++c) {
      const std::string name = sim.field_name(static_cast<int>(c));
      out << (c ? ", " : "") << name << " " << fmt(per_field[c], 4, true);
      rep.set("l2_error_" + name, per_field[c]);
    }
    out << ")\n";
    rep.set("l2_error", err);
  }
  if (!report_file.empty()) rep.write_json(report_file);
  if (!density_file.empty()) {
    // Cell averages of the density from its nodal values: weights are the row sums of the
    // reference mass matrix over the reference area (exact for every order).
    const auto& m = *cs->tri_mesh();
    const auto ref = basis::make_tri_nodal(sim.order());
    const Eigen::VectorXd w = ref.M.rowwise().sum() / 2.0;
    std::ofstream file(density_file);
    DGK_THROW_IF(!file, "cannot write '" << density_file << "'");
    file << "# x y rho (cell averages at centroids), t = " << sim.time() << "\n" << std::setprecision(7);
    const auto nodal = sim.host_fields();
    const int np = ref.np;
    for (int e = 0; e < sim.num_elements(); ++e) {
      double cx = 0, cy = 0;
      for (int v : m.elements[static_cast<std::size_t>(e)]) {
        cx += m.vertices[static_cast<std::size_t>(v)][0] / 3;
        cy += m.vertices[static_cast<std::size_t>(v)][1] / 3;
      }
      double rho = 0;
      for (int i = 0; i < np; ++i)
        rho += w(i) * nodal[static_cast<std::size_t>(e) * static_cast<std::size_t>(sim.num_fields() * np) +
                            static_cast<std::size_t>(i)];
      file << cx << " " << cy << " " << rho << "\n";
    }
    out << "  density:    " << density_file << "\n";
  }
  return wall;
}

}  // namespace dgk::app
