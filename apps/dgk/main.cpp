// The dgk command line program: run a case, study its convergence, benchmark its kernels.
#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

#include <CLI/CLI.hpp>

#include "bench_hdg.hpp"
#include "config.hpp"
#include "cuda_reference.hpp"
#include "bench_rows.hpp"
#include "layout_bench.hpp"
#include "dgk/backends/codegen.hpp"
#include "dgk/backends/ceilings.hpp"
#include "dgk/core/comm.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/parse.hpp"
#include "dgk/core/time_loop.hpp"
#include "dgk/core/version.hpp"
#include "dgk/io/hdf5.hpp"
#include "dgk/io/report.hpp"
#include "dgk/mesh/partition.hpp"
#include "dgk/mesh/reorder.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/physics/case.hpp"
#include "dgk/physics/cases.hpp"
#include "dgk/physics/euler2d_case.hpp"
#include "dgk/physics/tet_case.hpp"
#include "dgk/physics/tet_tuning.hpp"
#include "euler2d_app.hpp"
#include "run.hpp"
#include "text.hpp"

namespace {

using dgk::app::fmt;
using dgk::io::Report;
using dgk::physics::CaseOptions;
using dgk::physics::TetCase;

struct CommonOptions {
  CaseOptions m;
  std::string backend;
  std::string report;
  /// NaN: not given (the case's natural final time).
  double final_time = std::numeric_limits<double>::quiet_NaN();
  bool quiet = false;
  int check_every = 10;
};

void add_case_options(CLI::App* cmd, CommonOptions& c, bool with_order) {
  if (with_order) cmd->add_option("--order", c.m.order, "polynomial order N (1..9)")->capture_default_str();
  cmd->add_option("--precision", c.m.precision, "double|float")
      ->capture_default_str()
      ->check(CLI::IsMember({"double", "float"}));
  cmd->add_option("--backend", c.backend, "serial|openmp|cuda (default: Kokkos's default space)");
  cmd->add_option("--cfl", c.m.cfl, "CFL number of the time step")->capture_default_str();
  cmd->add_option("--report", c.report, "write the results as JSON to this file");
  cmd->add_option("--basis", c.m.basis, "nodal|bernstein (tetrahedral cases); euler2d is modal")
      ->capture_default_str()
      ->check(CLI::IsMember({"nodal", "bernstein", "modal"}));
  cmd->add_option("--problem", c.m.problem, "euler2d: isentropic-vortex|supersonic-vortex|double-mach|sod")
      ->capture_default_str()
      ->check(CLI::IsMember(dgk::physics::euler2d_problems()));
  cmd->add_option("--flux", c.m.flux, "euler2d: numerical flux llf|hllc")
      ->capture_default_str()
      ->check(CLI::IsMember({"llf", "hllc"}));
  cmd->add_option("--limiter", c.m.limiter, "euler2d: none|barth-jespersen (p = 1; default none)")
      ->check(CLI::IsMember({"none", "barth-jespersen"}));
  cmd->add_option("--integrator", c.m.integrator, "euler2d: ssp-rk2|ssp-rk3|rk4 (default ssp-rk3)")
      ->check(CLI::IsMember({"ssp-rk2", "ssp-rk3", "rk4"}));
  cmd->add_option("--refine", c.m.refine, "2D: split every triangle into four this many times")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--reorder", c.m.reorder,
                  "element order for locality: none|sfc (Morton curve)|random (worst case, for measuring)")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "sfc", "random"}));
  cmd->add_option("--partition", c.m.partition,
                  "distributed runs (mpirun -np R dgk run ...): metis|sfc|block (default: metis where built, else sfc)")
      ->check(CLI::IsMember({"metis", "sfc", "block"}));
  cmd->add_option("--tune", c.m.tune,
                  "tuned nodal kernels: auto (the tuning cache, tuning on first use), always (tune again), never "
                  "(the cache or else the straightforward kernels); default $DGK_TUNE, else auto")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

CaseOptions resolve(const CommonOptions& c) {
  CaseOptions m = c.m;
  if (!c.backend.empty()) m.backend = dgk::parse_backend(c.backend);
  if (!std::isnan(c.final_time)) m.final_time = c.final_time;
  return m;
}

// The `run` subcommand's own options beyond the common ones.
struct RunOnly {
  std::string config, checkpoint, restart, output;
  long long checkpoint_every = 0, output_every = 0, stop_at_step = 0;
};

int run_case(CLI::App& cmd, CommonOptions& c, const RunOnly& extra) {
  if (!extra.config.empty()) dgk::app::apply_config(cmd, extra.config, c.m.bc);
  dgk::app::RunSettings s;
  s.case_options = resolve(c);
  // euler2d's default order: 1 for the problems with shocks (limited), 2 for the smooth ones.
  if (s.case_options.name == "euler2d" && cmd.get_option("--order")->count() == 0)
    s.case_options.order = s.case_options.problem == "double-mach" || s.case_options.problem == "sod" ? 1 : 2;
  for (const CLI::Option* opt : cmd.get_options())
    if (opt->count() > 0 && !opt->get_lnames().empty()) s.given.insert(opt->get_lnames().front());
  if (cmd.get_option("case")->count() > 0) s.given.insert("case");
  if (!c.m.bc.empty()) s.given.insert("bc");
  s.report = c.report;
  s.check_every = c.check_every;
  s.progress = c.quiet ? dgk::app::Progress::Mode::Quiet
                       : (isatty(fileno(stdout)) ? dgk::app::Progress::Mode::Bar : dgk::app::Progress::Mode::Lines);
  s.checkpoint = extra.checkpoint;
  s.checkpoint_every = extra.checkpoint_every;
  s.restart = extra.restart;
  s.output = extra.output;
  s.output_every = extra.output_every;
  s.stop_at_step = extra.stop_at_step;
  dgk::app::run_case(s, std::cout);
  return 0;
}

int run_convergence(const CommonOptions& c, const std::string& orders_text, int meshes, int start) {
  const auto orders = dgk::parse_int_range(orders_text, "--orders");
  DGK_THROW_IF(meshes < 2, "--meshes must be at least 2 (got " << meshes << ")");
  DGK_THROW_IF(start < 1, "--start must be at least 1 (got " << start << ")");
  const CaseOptions base = resolve(c);
  Report rep;
  rep.set("case", base.name);
  rep.set("basis", base.basis);
  const std::string family = dgk::physics::case_dimension(base.name) == 2 ? "rect" : "box";
  std::cout << "dgk convergence " << base.name << ": " << family << ":n meshes n = " << start << ".."
            << start + meshes - 1 << ", one period of the exact solution, " << base.basis << " basis\n";
  std::cout << std::setw(3) << "N";
  for (int k = 0; k < meshes; ++k) std::cout << std::setw(12) << ("h=1/" + std::to_string(start + k));
  std::cout << std::setw(8) << "EOC"
            << "\n";
  for (int n : orders) {
    std::vector<double> errs, hs;
    std::cout << std::setw(3) << n << std::flush;
    std::string backend, precision;
    for (int k = 0; k < meshes; ++k) {
      CaseOptions o = base;
      o.order = n;
      o.mesh = family + ":" + std::to_string(start + k);
      const auto cs = dgk::physics::make_case(o);
      DGK_THROW_IF(!cs->exact(), "the initial condition '" << o.initial << "' has no exact solution to converge to");
      auto& sim = cs->simulation();
      for (int s = 0; s < cs->steps(); ++s) sim.step(cs->dt());
      errs.push_back(sim.l2_error(*cs->exact()));
      hs.push_back(1.0 / (start + k));
      backend = sim.backend();
      precision = sim.precision();
      std::cout << std::setw(12) << fmt(errs.back(), 2, true) << std::flush;
    }
    const double eoc = std::log(errs[errs.size() - 2] / errs.back()) / std::log(hs[hs.size() - 2] / hs.back());
    std::cout << std::setw(8) << fmt(eoc, 2) << "\n";
    Report row;
    row.set("order", n);
    row.set("h", Report::Value(hs));
    row.set("l2_error", Report::Value(errs));
    row.set("eoc", eoc);
    rep.set("backend", backend);
    rep.set("precision", precision);
    rep.add_row("orders", row);
  }
  if (!c.report.empty()) rep.write_json(c.report);
  return 0;
}

int run_bench(const CommonOptions& c, const std::string& orders_text, long elements, int reps, bool layouts,
              const std::string& gather) {
  const auto orders = dgk::parse_int_range(orders_text, "--orders");
  DGK_THROW_IF(elements < 6, "--elements must be at least 6 (got " << elements << ")");
  DGK_THROW_IF(reps < 1, "--reps must be positive (got " << reps << ")");
  const int n = std::max(1, static_cast<int>(std::lround(std::cbrt(elements / 6.0))));
  CaseOptions base = resolve(c);
  if (base.name == "euler2d") {
    dgk::app::Euler2DBenchOptions b;
    b.base = base;
    b.orders = orders;
    b.elements = elements;
    b.reps = reps;
    b.report = c.report;
    dgk::app::bench_euler2d(b, std::cout);
    return 0;
  }
  DGK_THROW_IF(dgk::physics::case_dimension(base.name) != 3,
               "dgk bench times the tetrahedral cases (maxwell3d, acoustic3d) and euler2d");
  base.mesh = "box:" + std::to_string(n);
  const dgk::Backend backend = base.backend.value_or(dgk::default_backend());
  auto mesh = dgk::mesh::reorder_elements(dgk::mesh::load_tet_mesh(base.mesh), base.reorder);
  // The kernel families to time: one, or all of both bases.
  std::vector<dgk::physics::TetKernels> families;
  if (base.kernel == "all")
    families = dgk::physics::all_tet_kernels();
  else
    families.push_back(dgk::physics::parse_tet_kernels(base.basis, base.kernel));

  // Ceilings measured in this run, on this backend and precision.
  dgk::backends::Ceilings ceil;
  auto measure = [&](auto space_tag) {
    using Space = decltype(space_tag);
    ceil = base.precision == "float" ? dgk::backends::measure_ceilings<Space, float>()
                                     : dgk::backends::measure_ceilings<Space, double>();
  };
  switch (backend) {
#ifdef KOKKOS_ENABLE_SERIAL
    case dgk::Backend::Serial:
      measure(Kokkos::Serial());
      break;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    case dgk::Backend::OpenMP:
      measure(Kokkos::OpenMP());
      break;
#endif
#ifdef KOKKOS_ENABLE_CUDA
    case dgk::Backend::Cuda:
      measure(Kokkos::Cuda());
      break;
#endif
    default:
      break;
  }
  std::vector<int> nb, nbf;
  dgk::mesh::flat_neighbours(dgk::mesh::connect(mesh), nb, nbf);
  // The share of faces whose neighbour lies more than W elements away (W about the L2's reach
  // on the GPUs of PERFORMANCE.md at the middle orders: 2000).
  const std::vector<double> far_distances{256, 1000, 2000, 4000, 8000};
  std::vector<double> far_fractions;
  for (double w : far_distances)
    far_fractions.push_back(dgk::mesh::far_neighbour_fraction(nb, 4, static_cast<long long>(w)));
  const std::string codegen = dgk::backends::device_code_generator(backend);
  std::cout << "dgk bench " << base.name << ": mesh " << base.mesh << " (" << mesh.num_elements() << " elements, "
            << base.reorder << " order: neighbours " << fmt(dgk::mesh::mean_neighbour_distance(nb, 4), 1)
            << " elements apart on average, " << fmt(100 * far_fractions[2], 1)
            << "% of faces more than 2000 apart; gathers by " << (gather == "codes" ? "face codes" : "the node map")
            << "), "
            << dgk::backend_name(backend)
            << (codegen.empty() ? std::string() : " (device code by " + codegen + ")") << ", " << base.precision << ", median of " << reps << "\n"
            << "  measured ceilings: copy " << fmt(ceil.copy_bytes_per_s / 1e9, 1) << " GB/s (read+write), FMA "
            << fmt(ceil.flops_per_s / 1e9, 1) << " GFLOP/s"
            << (ceil.tensor_flops_per_s > 0
                    ? ", FP64 tensor-core mma " + fmt(ceil.tensor_flops_per_s / 1e9, 1) + " GFLOP/s"
                    : std::string())
            << "\n";
  Report rep;
  rep.set("case", base.name);
  rep.set("backend", dgk::backend_name(backend));
  if (!codegen.empty()) rep.set("codegen", codegen);
  rep.set("precision", base.precision);
  rep.set("elements", mesh.num_elements());
  rep.set("reorder", base.reorder);
  rep.set("gather", gather);
  rep.set("mean_neighbour_distance", dgk::mesh::mean_neighbour_distance(nb, 4));
  rep.set("far_neighbour_distances", far_distances);
  rep.set("far_neighbour_fractions", far_fractions);
  rep.set("copy_gbytes_per_s", ceil.copy_bytes_per_s / 1e9);
  rep.set("fma_gflops", ceil.flops_per_s / 1e9);
  if (ceil.tensor_flops_per_s > 0) rep.set("tensor_gflops", ceil.tensor_flops_per_s / 1e9);
  std::cout << std::setw(3) << "N" << std::setw(19) << "kernels" << std::setw(9) << "stage" << std::setw(11)
            << "time ms" << std::setw(10) << "GFLOP/s" << std::setw(9) << "GB/s" << std::setw(10) << "roofline"
            << std::setw(14) << "s/DOF/stage"
            << "\n";
  for (int order : orders) {
    // Total stage time per family, for the speedups.
    std::vector<std::pair<std::string, double>> totals;
    for (const auto& family : families) {
      CaseOptions o = base;
      o.order = order;
      o.final_time = 0.0;
      o.basis = family.basis == dgk::physics::TetBasis::Nodal ? "nodal" : "bernstein";
      o.kernel = dgk::physics::to_string(family).substr(o.basis.size() + 1);
      TetCase cs(o, mesh);
      auto& sim = cs.simulation();
      if (auto* tunable = dynamic_cast<dgk::physics::NodalTunable*>(&sim))
        (void)tunable->use_face_codes(gather == "codes");
      const auto costs = sim.costs();
      const auto times = sim.time_stages(reps);
      double tf = 0, tb = 0, tt = 0, tbound = 0, tbound_tc = 0;
      // Kernels on FP64 tensor cores are also judged against the tensor-core rate.
      const bool tuned_family = cs.kernels().family == dgk::physics::TetKernelFamily::Tuned;
      using dgk::kernels::nodal_tet::StageKernel;
      const bool tc_volume = tuned_family && cs.kernels().tuning.volume == StageKernel::Tensor,
                 tc_lift = tuned_family && cs.kernels().tuning.lift == StageKernel::Tensor,
                 tc_any = (tc_volume || tc_lift) && ceil.tensor_flops_per_s > 0;
      // The tuned family's parameters go on a line of their own.
      const std::string full = dgk::physics::to_string(cs.kernels());
      const std::string fname = full.substr(0, full.find(" ("));
      if (cs.kernels().family == dgk::physics::TetKernelFamily::Tuned)
        std::cout << "  N = " << order << " tuned kernels: " << dgk::physics::to_string(cs.kernels().tuning) << " ("
                  << cs.tuning_source() << ")\n";
      // A report row of this family: the kernel's numbers, the family, its tuning, and the fraction
      // of the roofline at the tensor-core rate for a kernel on the tensor cores (bound_tc > 0).
      auto family_row = [&](const std::string& name, double t, double flops, double bytes, double bound,
                            double bound_tc) {
        Report row = dgk::app::kernel_row(order, name, static_cast<long long>(sim.num_dofs()), t, flops, bytes, bound);
        row.set("kernels", fname);
        if (fname != full) row.set("tuning", dgk::physics::to_string(cs.kernels().tuning));
        if (bound_tc > 0) row.set("tensor_roofline_fraction", bound_tc / t);
        return row;
      };
      for (std::size_t s = 0; s <= costs.size(); ++s) {
        const bool total = s == costs.size();
        const double flops = total ? tf : costs[s].flops, bytes = total ? tb : costs[s].bytes;
        const double t = total ? tt : times.seconds[s];
        const double bound = total ? tbound : std::max(bytes / ceil.copy_bytes_per_s, flops / ceil.flops_per_s);
        const std::string name = total ? "stage" : costs[s].name;
        const bool lift_part = name.find("lift") != std::string::npos;
        // (The fused stage, "volume+surface+lift+update", is the tensor-core volume kernel's.)
        const bool on_tc =
            tc_any && (total || (name.rfind("volume", 0) == 0 ? tc_volume : lift_part && tc_lift));
        const double bound_tc =
            total ? tbound_tc
                  : (on_tc ? std::max(bytes / ceil.copy_bytes_per_s, flops / ceil.tensor_flops_per_s) : bound);
        if (!total) {
          tf += flops;
          tb += bytes;
          tt += t;
          tbound += bound;
          tbound_tc += bound_tc;
        }
        std::cout << std::setw(3) << order << std::setw(19) << fname << std::setw(9) << name
                  << dgk::app::kernel_columns(t, flops, bytes, bound, double(sim.num_dofs())) << "\n";
        rep.add_row("kernels", family_row(name, t, flops, bytes, bound, on_tc ? bound_tc : 0.0));
        if (on_tc)
          std::cout << std::setw(3) << order << std::setw(19) << "" << std::setw(9) << name
                    << "  on FP64 tensor cores: " << fmt(100 * bound_tc / t, 1)
                    << "% of the roofline at the measured tensor-core rate\n";
      }
      // The stage as a run takes it: its kernels back to back, each reading what the one before
      // it left in memory and cache. Each kernel above is timed in a loop of its own, with its
      // own cache configuration and caches warmed by itself, so their sum ("stage") can be
      // shorter than the stage a run takes; judged against the same bound. (Where the solver
      // times whole stages.)
      if (const auto whole = sim.time_stage_parts(reps); !whole.empty()) {
        const double t = whole[0];
        std::cout << std::setw(3) << order << std::setw(19) << fname << std::setw(9) << "whole"
                  << dgk::app::kernel_columns(t, tf, tb, tbound, double(sim.num_dofs()))
                  << "   (the stage's kernels back to back)\n";
        rep.add_row("kernels", family_row("whole stage", t, tf, tb, tbound, tc_any ? tbound_tc : 0.0));
      }
      totals.emplace_back(fname, tt);
      // Field layouts: the straightforward volume and gather on (element, field, node) and on
      // (element, node, field), same kernels and data.
      if (layouts && base.name == "maxwell3d" && base.precision == "double" && fname == "nodal thread") {
        const auto lt = dgk::app::time_field_layouts(sim, reps);
        if (lt.available) {
          std::cout << std::setw(3) << order << "  field layouts (element, field, node) / (element, node, field): volume "
                    << fmt(lt.volume[0] * 1e3, 4) << " / " << fmt(lt.volume[1] * 1e3, 4) << " ms, surface "
                    << fmt(lt.surface[0] * 1e3, 4) << " / " << fmt(lt.surface[1] * 1e3, 4)
                    << " ms, results differ by " << fmt(lt.max_difference, 2, true) << "\n";
          Report row;
          row.set("order", order);
          row.set("volume_field_major", lt.volume[0]);
          row.set("volume_node_major", lt.volume[1]);
          row.set("surface_field_major", lt.surface[0]);
          row.set("surface_node_major", lt.surface[1]);
          row.set("max_difference", lt.max_difference);
          rep.add_row("layouts", row);
        } else {
          std::cout << "  field layouts: " << lt.why << "\n";
        }
      }
      // What Kokkos costs: the same volume kernel in plain CUDA C++, on the same data.
      if (backend == dgk::Backend::Cuda && (fname == "nodal thread" || fname == "nodal tuned") &&
          base.name == "maxwell3d" && base.precision == "double") {
        const auto ref = dgk::app::time_cuda_reference_volume(sim, reps);
        if (ref.available) {
          std::cout << std::setw(3) << order << std::setw(19) << ("plain CUDA " + ref.kernel) << std::setw(9) << "volume"
                    << std::setw(11) << fmt(ref.seconds * 1e3, 4) << "   Kokkos / CUDA = "
                    << fmt(ref.kokkos_event_seconds / ref.seconds, 3) << " (CUDA events), "
                    << fmt(ref.kokkos_wall_seconds / ref.wall_seconds, 3) << " (wall clock), "
                    << fmt(ref.kokkos_queued_seconds / ref.queued_seconds, 3) << " (kernel alone), results differ by "
                    << fmt(ref.max_difference, 2, true) << "\n";
          Report row;
          row.set("order", order);
          row.set("kernels", std::string("plain CUDA"));
          row.set("cuda_kernel", ref.kernel);
          row.set("kokkos_kernels", fname);
          row.set("kernel", std::string("volume"));
          row.set("seconds", ref.seconds);
          row.set("wall_seconds", ref.wall_seconds);
          row.set("kokkos_seconds", times.seconds[0]);
          row.set("kokkos_event_seconds", ref.kokkos_event_seconds);
          row.set("kokkos_wall_seconds", ref.kokkos_wall_seconds);
          row.set("queued_seconds", ref.queued_seconds);
          row.set("kokkos_queued_seconds", ref.kokkos_queued_seconds);
          row.set("launch_seconds", ref.launch_seconds);
          row.set("kokkos_launch_seconds", ref.kokkos_launch_seconds);
          row.set("max_difference", ref.max_difference);
          rep.add_row("cuda_reference", row);
        } else {
          std::cout << "  plain CUDA reference: " << ref.why << "\n";
        }
      }
      // The tuned fused stage on both arrangements: the cache's shape, then every fused-stage
      // shape compiled for both (this changes the solver's kernels, so it comes last).
      if (layouts && base.name == "maxwell3d" && base.precision == "double" && fname == "nodal tuned") {
        auto row_of = [&](const std::string& shape, const dgk::physics::StageLayoutComparison& st) {
          Report row;
          row.set("order", order);
          row.set("shape", shape);
          row.set("stage_field_major", st.seconds[0]);
          row.set("stage_node_major", st.seconds[1]);
          row.set("max_difference", st.max_difference);
          row.set("max_value", st.max_value);
          rep.add_row("stage_layouts", row);
        };
        const auto st = dgk::app::time_stage_layouts(sim, reps);
        if (st.why.empty()) {
          std::cout << std::setw(3) << order
                    << "  field layouts (element, field, node) / (element, node, field): fused stage "
                    << fmt(st.seconds[0] * 1e3, 4) << " / " << fmt(st.seconds[1] * 1e3, 4) << " ms ("
                    << fmt(st.seconds[1] / st.seconds[0], 3) << "), results differ by "
                    << fmt(st.max_difference, 2, true) << " (largest value " << fmt(st.max_value, 2, true) << ")\n";
          row_of("cache", st);
        } else {
          std::cout << std::setw(3) << order << "  field layouts of the fused stage: " << st.why << "\n";
        }
        const auto sweep = dgk::app::sweep_stage_layouts(sim, reps);
        double best[2] = {0, 0};
        std::string best_shape[2];
        for (const auto& [shape, c] : sweep) {
          row_of(shape, c);
          for (int v = 0; v < 2; ++v)
            if (best[v] == 0 || c.seconds[v] < best[v]) {
              best[v] = c.seconds[v];
              best_shape[v] = shape;
            }
        }
        if (!sweep.empty())
          std::cout << std::setw(3) << order << "  field layouts over " << sweep.size()
                    << " fused-stage shapes, fastest (element, field, node): " << fmt(best[0] * 1e3, 4) << " ms ("
                    << best_shape[0] << "); (element, node, field): " << fmt(best[1] * 1e3, 4) << " ms ("
                    << best_shape[1] << "), ratio " << fmt(best[1] / best[0], 3) << "\n";
      }
    }
    // Speedups of every family over the nodal families (paper 002, Figures 7, 8 and 12).
    if (totals.size() > 1) {
      std::cout << "  N = " << order << " speedups of a full RK stage:";
      for (const auto& [name, t] : totals)
        for (const auto& [ref, tr] : totals)
          if (ref.rfind("nodal", 0) == 0 && name != ref && name.rfind("bernstein", 0) == 0)
            std::cout << "  " << name << " vs " << ref << " " << fmt(tr / t, 2) << "x";
      std::cout << "\n";
    }
  }
  if (!c.report.empty()) rep.write_json(c.report);
  return 0;
}

// `dgk tune`: tunes the kernels (either basis) of a tetrahedral case for each order on a box
// mesh and keeps the choices in the tuning cache, which `dgk run` then uses.
int run_tune(const CommonOptions& c, const std::string& orders_text, long elements) {
  const auto orders = dgk::parse_int_range(orders_text, "--orders");
  DGK_THROW_IF(elements < 6, "--elements must be at least 6 (got " << elements << ")");
  CaseOptions base = resolve(c);
  DGK_THROW_IF(dgk::physics::case_dimension(base.name) != 3,
               "dgk tune tunes the kernels of the tetrahedral cases (maxwell3d, acoustic3d; --basis nodal or bernstein)");
  const int n = std::max(1, static_cast<int>(std::lround(std::cbrt(elements / 6.0))));
  base.mesh = "box:" + std::to_string(n);
  base.kernel = "tuned";
  base.tune = "always";
  base.final_time = 0.0;
  const auto mesh = dgk::mesh::reorder_elements(dgk::mesh::load_tet_mesh(base.mesh), base.reorder);
  const dgk::Backend backend = base.backend.value_or(dgk::default_backend());
  std::cout << "dgk tune " << base.name << ": mesh " << base.mesh << " (" << mesh.num_elements() << " elements), "
            << dgk::backend_name(backend) << ", " << base.precision << "; cache "
            << dgk::physics::TuningCache().path() << "\n";
  Report rep;
  rep.set("case", base.name);
  rep.set("backend", dgk::backend_name(backend));
  if (const auto codegen = dgk::backends::device_code_generator(backend); !codegen.empty())
    rep.set("codegen", codegen);
  rep.set("precision", base.precision);
  rep.set("elements", mesh.num_elements());
  rep.set("cache", dgk::physics::TuningCache().path());
  std::vector<std::string> table;
  for (int order : orders) {
    CaseOptions o = base;
    o.order = order;
    TetCase cs(o, mesh);
    const auto& r = cs.tuning_result();
    DGK_THROW_IF(!r, "dgk tune: order " << order << " was not tuned");
    std::ostringstream line;
    line << std::setw(3) << order << std::setw(12) << fmt(r->baseline_seconds * 1e3, 4) << std::setw(12)
         << fmt(r->stage_seconds * 1e3, 4) << std::setw(9) << fmt(r->baseline_seconds / r->stage_seconds, 2) << "x  "
         << dgk::physics::to_string(r->choice);
    table.push_back(line.str());
    Report row;
    row.set("order", order);
    row.set("device", dynamic_cast<const dgk::physics::NodalTunable&>(cs.simulation()).device());
    row.set("choice", dgk::physics::to_string(r->choice));
    row.set("stage_seconds", r->stage_seconds);
    row.set("thread_stage_seconds", r->baseline_seconds);
    row.set("timings", static_cast<int>(r->trials.size()));
    // Every timing of the search, in the order taken: what each part of each candidate took.
    for (const auto& t : r->trials) {
      Report trial;
      trial.set("part", t.part);
      trial.set("seconds", t.seconds);
      trial.set("tuning", dgk::physics::to_string(t.tuning));
      row.add_row("trials", trial);
    }
    // Stages refused because they did not compute the straightforward kernels' stage.
    std::string refused;
    for (const auto& t : r->rejected) refused += (refused.empty() ? "" : "; ") + dgk::physics::to_string(t.tuning);
    row.set("refused_stages", static_cast<int>(r->rejected.size()));
    if (!refused.empty()) row.set("refused", refused);
    rep.add_row("orders", row);
  }
  std::cout << std::setw(3) << "N" << std::setw(12) << "thread ms" << std::setw(12) << "tuned ms" << std::setw(10)
            << "speedup"
            << "  choice (per RK stage)\n";
  for (const auto& l : table) std::cout << l << "\n";
  if (!c.report.empty()) rep.write_json(c.report);
  return 0;
}

// Whole RK stages of a tetrahedral case on all ranks of the run: the scaling figures.
int run_bench_distributed(const CommonOptions& c, const std::string& orders_text, long elements, int reps) {
  const auto orders = dgk::parse_int_range(orders_text, "--orders");
  DGK_THROW_IF(elements < 6, "--elements must be at least 6 (got " << elements << ")");
  DGK_THROW_IF(reps < 1, "--reps must be positive (got " << reps << ")");
  CaseOptions base = resolve(c);
  DGK_THROW_IF(dgk::physics::case_dimension(base.name) != 3,
               "dgk bench --distributed times the tetrahedral cases (maxwell3d, acoustic3d)");
  const int n = std::max(1, static_cast<int>(std::lround(std::cbrt(elements / 6.0))));
  base.mesh = "box:" + std::to_string(n);
  const auto mesh = dgk::mesh::reorder_elements(dgk::mesh::load_tet_mesh(base.mesh), base.reorder);
  const dgk::Comm& comm = dgk::Comm::world();
  const dgk::Backend backend = base.backend.value_or(dgk::default_backend());
  std::cout << "dgk bench " << base.name << " --distributed: mesh " << base.mesh << " (" << mesh.num_elements()
            << " elements) on " << comm.size() << (comm.size() == 1 ? " rank" : " ranks") << ", "
            << dgk::backend_name(backend) << ", " << base.precision << ", median of " << reps
            << " (slowest rank)\n"
            << "  exchange: "
            << (backend != dgk::Backend::Cuda ? "host memory"
                                                : comm.device_aware() ? "device buffers (CUDA-aware MPI)"
                                                                      : "staged through host memory")
            << "\n";
  Report rep;
  rep.set("case", base.name);
  rep.set("backend", dgk::backend_name(backend));
  rep.set("precision", base.precision);
  rep.set("elements", mesh.num_elements());
  rep.set("ranks", comm.size());
  std::cout << std::setw(3) << "N" << std::setw(13) << "elem/rank" << std::setw(9) << "shared" << std::setw(12)
            << "stage ms" << std::setw(12) << "compute ms" << std::setw(13) << "exchange ms" << std::setw(9) << "hidden"
            << std::setw(14) << "s/DOF/stage" << "\n";
  for (int order : orders) {
    CaseOptions o = base;
    o.order = order;
    o.final_time = 0.0;
    TetCase cs(o, mesh);
    auto& sim = cs.simulation();
    const auto t = sim.time_stage_parts(reps);
    DGK_THROW_IF(t.size() != 3, "case " << base.name << " does not time its stages as a distributed run");
    const auto* part = cs.partition();
    long long most = mesh.num_elements(), shared = 0;
    if (part) {
      most = *std::max_element(part->elements_per_rank.begin(), part->elements_per_rank.end());
      shared = part->shared_faces;
    }
    // Of the exchange's time, the part the overlapped stage did not add to the computation.
    const double hidden = t[2] > 0 ? std::clamp((t[1] + t[2] - t[0]) / t[2], 0.0, 1.0) : 0.0;
    std::cout << std::setw(3) << order << std::setw(13) << most << std::setw(9) << shared << std::setw(12)
              << fmt(t[0] * 1e3, 4) << std::setw(12) << fmt(t[1] * 1e3, 4) << std::setw(13) << fmt(t[2] * 1e3, 4)
              << std::setw(8) << (t[2] > 0 ? fmt(100 * hidden, 1) : std::string("-")) << "%" << std::setw(14)
              << fmt(t[0] / double(sim.num_dofs()), 3, true) << "\n";
    Report row;
    row.set("order", order);
    row.set("dofs", Report::Value(static_cast<long long>(sim.num_dofs())));
    row.set("max_elements_per_rank", Report::Value(most));
    row.set("shared_faces", Report::Value(shared));
    row.set("stage_seconds", t[0]);
    row.set("compute_seconds", t[1]);
    row.set("exchange_seconds", t[2]);
    row.set("hidden_fraction", hidden);
    row.set("s_per_dof_per_stage", t[0] / double(sim.num_dofs()));
    rep.add_row("stages", row);
  }
  if (!c.report.empty() && comm.root()) rep.write_json(c.report);
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  // MPI first (a no-op without MPI): under mpirun every rank runs this program; rank 0 prints.
  dgk::MpiSession mpi(argc, argv);
  const dgk::Comm& comm = dgk::Comm::world();
  if (!comm.root()) std::cout.setstate(std::ios::badbit);
  CLI::App app{"dgk: discontinuous Galerkin solvers as Kokkos team kernels"};
  app.set_version_flag("--version", std::string(dgk::version_string()) + "\n");
  app.require_subcommand(0, 1);

  std::vector<std::string> case_names;
  for (const auto& c : dgk::physics::cases()) case_names.push_back(c.name);

  CommonOptions run_opts;
  auto* run = app.add_subcommand("run", "run a case (default: maxwell3d, order 4, box mesh, one cavity period)");
  run->add_option("case", run_opts.m.name, "the case to run")->check(CLI::IsMember(case_names))->capture_default_str();
  add_case_options(run, run_opts, true);
  run->add_option("--alpha", run_opts.m.alpha, "maxwell2d: flux weight, 1 upwind, 0 central (paper 003)")
      ->capture_default_str();
  run->add_option("--kernel", run_opts.m.kernel,
                  "kernel family: auto (nodal: tuned; bernstein: optimal), thread or blocked[:E] (nodal), sparse or "
                  "optimal (bernstein), tuned (either basis; on Bernstein coefficients with the dense Bernstein "
                  "operators)")
      ->capture_default_str();
  run->add_option(
      "--mesh", run_opts.m.mesh,
      "3D: box:n, box:nx,ny,nz or a Gmsh .msh file (default box:6); maxwell2d: rect:n, rect:nx,ny[,jitter=J] "
      "(default rect:8); euler2d: rect:n or rect:nx,ny[,jitter=J] mapped onto the problem's domain, gmsh:h "
      "(generated by Gmsh, edge length h) or a .msh file");
  run->add_option("--final-time", run_opts.final_time, "final time (default: one period of the mode)");
  run->add_option("--bc", run_opts.m.bc,
                  "boundary condition per Gmsh physical group: NAME=pec|pmc|absorbing (maxwell3d), NAME=dirichlet|wall "
                  "(acoustic3d), NAME=inflow|outflow|wall|moving-shock (euler2d)");
  run->add_option("--initial", run_opts.m.initial,
                  "maxwell3d: cavity[:m,n,p] or pulse:x,y,z,width; acoustic3d: standing or pulse:x,y,z,width "
                  "(default: the case's exact solution)");
  run->add_flag("--quiet", run_opts.quiet, "no progress lines");
  run->add_option("--check-every", run_opts.check_every, "check for NaN/Inf every this many steps (0: never)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  run->add_flag("--force", run_opts.m.force, "run even with a CFL number above the stability limit");
  RunOnly run_extra;
  run->add_option("--config", run_extra.config,
                  "TOML file with any of these options as keys (and a [boundary] table of NAME = condition); "
                  "the command line overrides it");
  run->add_option("--checkpoint", run_extra.checkpoint, "write a checkpoint (HDF5) to this file at the end of the run");
  run->add_option("--checkpoint-every", run_extra.checkpoint_every, "also write the checkpoint every this many steps")
      ->check(CLI::NonNegativeNumber);
  run->add_option(
      "--restart", run_extra.restart,
      "continue the run saved in this checkpoint (its mesh, order and parameters; options given must agree)");
  run->add_option("--stop-at-step", run_extra.stop_at_step,
                  "stop after this step, as an interrupted job would (with --checkpoint, saved there for --restart)")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--output", run_extra.output,
                  "write the fields for ParaView: FILE.h5 with FILE.xdmf beside it (first and last step)");
  run->add_option("--output-every", run_extra.output_every, "also write the fields every this many steps")
      ->check(CLI::NonNegativeNumber);

  CommonOptions conv_opts;
  std::string conv_orders = "1..5";
  int conv_meshes = 3, conv_start = 2;
  auto* conv = app.add_subcommand("convergence", "L2 errors and orders of convergence on refined box meshes");
  conv->add_option("case", conv_opts.m.name, "the case")->check(CLI::IsMember(case_names))->capture_default_str();
  add_case_options(conv, conv_opts, false);
  conv->add_option("--kernel", conv_opts.m.kernel, "kernel family (see dgk run --help)")->capture_default_str();
  conv->add_option("--alpha", conv_opts.m.alpha, "maxwell2d: flux weight, 1 upwind, 0 central")->capture_default_str();
  conv->add_option("--orders", conv_orders, "orders, e.g. 1..6 or 2,4")->capture_default_str();
  conv->add_option("--meshes", conv_meshes, "number of meshes")->capture_default_str();
  conv->add_option("--start", conv_start, "cubes per side of the coarsest box mesh")->capture_default_str();

  CommonOptions bench_opts;
  std::string bench_orders = "1..7";
  long bench_elements = 98304;
  int bench_reps = 20;
  bool bench_distributed = false;
  int bench_dim = 2;
  long bench_faces = 11780;
  auto* bench = app.add_subcommand("bench", "time each kernel stage against the measured roofline");
  std::vector<std::string> bench_names = case_names;
  bench_names.push_back("hdg");
  bench->add_option("case", bench_opts.m.name, "the case, or hdg: the HDG trace system's products (paper 001)")
      ->check(CLI::IsMember(bench_names))
      ->capture_default_str();
  bench->add_option("--dim", bench_dim, "hdg: 2 (triangles) or 3 (tetrahedra)")
      ->capture_default_str()
      ->check(CLI::IsMember({2, 3}));
  bench->add_option("--faces", bench_faces, "hdg: approximate number of faces (edges in 2D)")->capture_default_str();
  add_case_options(bench, bench_opts, false);
  bench
      ->add_option("--kernel", bench_opts.m.kernel,
                   "kernel family (see dgk run --help), or all: every family of both bases, with speedups")
      ->capture_default_str();
  bench->add_option("--orders", bench_orders, "orders, e.g. 1..7")->capture_default_str();
  bench->add_option("--elements", bench_elements, "approximate number of elements (box mesh)")->capture_default_str();
  bench->add_option("--reps", bench_reps, "timed repetitions per kernel (median reported)")->capture_default_str();
  std::string bench_gather = "codes";
  bench
      ->add_option("--gather", bench_gather,
                   "tuned nodal kernels on FP64 tensor cores (the fused stage at N >= 4, the tensor-core lift): "
                   "their flux gathers find the neighbour nodes by the mesh's face codes (one int per face, the "
                   "default) or by the per-node map (map: to measure the difference); the other kernels take the map")
      ->capture_default_str()
      ->check(CLI::IsMember({"codes", "map"}));
  bool bench_layouts = false;
  bench->add_flag("--layouts", bench_layouts,
                  "maxwell3d, double: also time with the fields arranged (element, node, field) against the "
                  "solver's (element, field, node): with --kernel thread the volume and surface kernels, with "
                  "--kernel tuned the fused stage where it is the tuned choice");
  bench->add_flag("--distributed", bench_distributed,
                  "time whole RK stages as a distributed run does (under mpirun: exchange overlapped, computation "
                  "alone, exchange alone, and the hidden fraction)");

  CommonOptions tune_opts;
  std::string tune_orders = "1..7";
  long tune_elements = 98304;
  auto* tune = app.add_subcommand(
      "tune", "tune the nodal kernels of a tetrahedral case for each order and keep the choices for dgk run");
  tune->add_option("case", tune_opts.m.name, "maxwell3d or acoustic3d")
      ->check(CLI::IsMember({"maxwell3d", "acoustic3d"}))
      ->capture_default_str();
  add_case_options(tune, tune_opts, false);
  tune->add_option("--orders", tune_orders, "orders, e.g. 1..9")->capture_default_str();
  tune->add_option("--elements", tune_elements, "approximate number of elements of the box mesh timed on")
      ->capture_default_str();

  auto* info = app.add_subcommand("info", "print the build configuration and the known cases");

  // --kokkos-* arguments go to Kokkos, the rest to the parser; Kokkos starts only after the
  // command line is known to be valid.
  std::vector<char*> ours, theirs;
  dgk::app::split_kokkos_args(argc, argv, ours, theirs);
  try {
    app.parse(static_cast<int>(ours.size()), ours.data());
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (app.get_subcommands().empty()) {
    std::cerr << "dgk: a command is required: run, convergence, bench, tune or info (see dgk --help)\n";
    return 2;
  }
  // Threads spread over the cores unless the user says otherwise (and Kokkos stays quiet).
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "threads", 0);
  int rc = 0;
  dgk::app::add_device_by_local_rank(theirs);
  int kargc = static_cast<int>(theirs.size());
  dgk::initialize_kokkos(kargc, theirs.data());
  try {
    if (*info) {
      std::cout << dgk::version_string() << "\ncases:\n";
      for (const auto& c : dgk::physics::cases()) std::cout << "  " << c.name << ": " << c.description << "\n";
      std::cout << "Gmsh meshes: " << (dgk::mesh::gmsh_available() ? "yes" : "no") << "\n"
                << "HDF5: " << (dgk::io::hdf5_available() ? dgk::io::hdf5_version() : std::string("no")) << "\n";
    } else if (*run) {
      rc = run_case(*run, run_opts, run_extra);
    } else if (*tune) {
      rc = run_tune(tune_opts, tune_orders, tune_elements);
    } else if (*conv) {
      rc = run_convergence(conv_opts, conv_orders, conv_meshes, conv_start);
    } else if (*bench) {
      if (bench_opts.m.name == "hdg") {
        dgk::app::HdgBenchOptions h;
        h.dim = bench_dim;
        h.orders = dgk::parse_int_range(bench->get_option("--orders")->count() ? bench_orders : "1..5", "--orders");
        h.faces = bench_faces;
        h.precision = bench_opts.m.precision;
        h.backend = bench_opts.backend.empty() ? dgk::default_backend() : dgk::parse_backend(bench_opts.backend);
        h.reps = bench_reps;
        h.report = bench_opts.report;
        dgk::app::bench_hdg(h, std::cout);
      } else {
        rc = bench_distributed ? run_bench_distributed(bench_opts, bench_orders, bench_elements, bench_reps)
                               : run_bench(bench_opts, bench_orders, bench_elements, bench_reps, bench_layouts, bench_gather);
      }
    }
  } catch (const std::exception& e) {
    // In a distributed run the other ranks may wait in a collective this rank will never reach:
    // the error ends them all.
    if (comm.distributed()) {
      std::cerr << "dgk: error (rank " << comm.rank() << "): " << e.what() << "\n" << std::flush;
      comm.abort(2);
    }
    std::cerr << "dgk: error: " << e.what() << "\n";
    rc = 2;
  }
  Kokkos::finalize();
  return rc;
}
