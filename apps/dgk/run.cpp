#include "run.hpp"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <ostream>
#include <sstream>

#include <Kokkos_Core.hpp>

#include "dgk/backends/codegen.hpp"
#include "dgk/basis/tetrahedron.hpp"
#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/core/comm.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/time_loop.hpp"
#include "dgk/io/checkpoint.hpp"
#include "dgk/io/output.hpp"
#include "dgk/mesh/partition.hpp"
#include "dgk/mesh/reorder.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/physics/case.hpp"
#include "dgk/physics/euler2d_case.hpp"
#include "text.hpp"

namespace dgk::app {

namespace {

using physics::CaseOptions;

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : "\n") + x;
  return s;
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The case parameters a checkpoint keeps, beyond order, precision and the mesh itself.
std::vector<std::pair<std::string, std::string>> parameters_of(const CaseOptions& o) {
  return {{"mesh", o.mesh},         {"cfl", exact(o.cfl)}, {"force", o.force ? "true" : "false"},
          {"initial", o.initial},   {"bc", join(o.bc)},    {"kernel", o.kernel},
          {"alpha", exact(o.alpha)}, {"problem", o.problem},  {"flux", o.flux},
          {"limiter", o.limiter},   {"integrator", o.integrator}, {"refine", std::to_string(o.refine)},
          {"reorder", o.reorder}};
}

// The options of the run a checkpoint belongs to; explicitly given options must agree.
CaseOptions options_from(const io::Checkpoint& c, const RunSettings& s, std::optional<std::uint64_t> given_mesh,
                         long long given_elements) {
  const CaseOptions& g = s.case_options;
  DGK_THROW_IF(
      c.case_name != "maxwell3d" && c.case_name != "acoustic3d" && c.case_name != "maxwell2d" &&
          c.case_name != "euler2d",
      "checkpoint '" << c.path << "' was written by case '" << c.case_name << "', which this dgk does not know");
  DGK_THROW_IF(physics::case_dimension(c.case_name) != c.dimension,
               "checkpoint '" << c.path << "': case " << c.case_name << " with a " << c.dimension << "D mesh");
  DGK_THROW_IF(s.given.count("case") && g.name != c.case_name,
               "case " << g.name << " contradicts checkpoint '" << c.path << "', written by case " << c.case_name);
  auto conflict = [&](const std::string& key, const std::string& ours, const std::string& theirs) {
    DGK_THROW_IF(s.given.count(key) && ours != theirs,
                 "--" << key << " " << ours << " contradicts checkpoint '" << c.path << "', written with " << key << " "
                      << theirs
                      << " (leave the option out to continue that run, or start a new run without --restart)");
  };
  conflict("order", std::to_string(g.order), std::to_string(c.order));
  conflict("precision", g.precision, c.precision);
  conflict("cfl", exact(g.cfl), c.parameter("cfl"));
  conflict("initial", g.initial, c.parameter("initial"));
  conflict("bc", join(g.bc), c.parameter("bc"));
  conflict("force", g.force ? "true" : "false", c.parameter("force"));
  conflict("basis", g.basis, c.basis);
  conflict("alpha", exact(g.alpha), c.parameter("alpha"));
  if (c.case_name == "euler2d") {
    conflict("problem", g.problem, c.parameter("problem"));
    conflict("flux", g.flux, c.parameter("flux"));
    conflict("limiter", g.limiter, c.parameter("limiter"));
    conflict("integrator", g.integrator, c.parameter("integrator"));
  }
  if (given_mesh) {
    const bool tri = c.dimension == 2;
    DGK_THROW_IF(*given_mesh != (tri ? io::mesh_fingerprint(c.tri_mesh) : io::mesh_fingerprint(c.mesh)),
                 "--mesh " << g.mesh << " (" << given_elements << " elements) is not the mesh of checkpoint '" << c.path
                           << "' (" << c.parameter("mesh") << ", "
                           << (tri ? c.tri_mesh.num_elements() : c.mesh.num_elements()) << " elements)");
  }
  CaseOptions o;
  o.name = c.case_name;
  o.basis = c.basis;
  // The kernels may change (they compute the same operator); the basis may not.
  o.kernel = s.given.count("kernel") ? g.kernel : c.parameter("kernel");
  o.tune = g.tune;
  o.order = c.order;
  o.precision = c.precision;
  o.mesh = c.parameter("mesh");
  o.cfl = std::stod(c.parameter("cfl"));
  o.force = c.parameter("force") == "true";
  o.initial = c.parameter("initial");
  o.bc = split_lines(c.parameter("bc"));
  o.final_time = c.final_time;
  o.alpha = std::stod(c.parameter("alpha"));
  if (c.case_name == "euler2d") {
    o.problem = c.parameter("problem");
    o.flux = c.parameter("flux");
    o.limiter = c.parameter("limiter");
    o.integrator = c.parameter("integrator");
  }
  o.backend = g.backend;
  return o;
}

// Throughput figures from the counted work of each stage.
struct Throughput {
  double flops_per_step = 0, bytes_per_step = 0;
};
Throughput throughput(const Simulation& sim) {
  Throughput t;
  for (const auto& c : sim.costs()) {
    t.flops_per_step += c.flops * sim.stages_per_step();
    t.bytes_per_step += c.bytes * sim.stages_per_step();
  }
  // Each rank counts its own elements' work.
  t.flops_per_step = Comm::world().sum(t.flops_per_step);
  t.bytes_per_step = Comm::world().sum(t.bytes_per_step);
  return t;
}

// A name for the files of one distributed checkpoint: the step and a random tag, so that a new
// set never overwrites the parts of the previous one.
std::string checkpoint_set_name(long long step) {
  std::random_device rd;
  std::ostringstream o;
  o << "s" << step << "-" << std::hex << ((static_cast<unsigned long long>(rd()) << 32) | rd());
  return o.str();
}

}  // namespace

RunResult run_case(const RunSettings& s, std::ostream& out) {
  DGK_THROW_IF(s.checkpoint_every < 0, "--checkpoint-every must be non-negative (got " << s.checkpoint_every << ")");
  DGK_THROW_IF(s.output_every < 0, "--output-every must be non-negative (got " << s.output_every << ")");
  DGK_THROW_IF(s.checkpoint_every > 0 && s.checkpoint.empty(), "--checkpoint-every needs --checkpoint FILE.h5");
  DGK_THROW_IF(s.output_every > 0 && s.output.empty(), "--output-every needs --output FILE.h5");
  DGK_THROW_IF(!s.restart.empty() && s.restart == s.output,
               "--restart and --output name the same file '" << s.restart << "'");
  DGK_THROW_IF(!s.output.empty() && s.output == s.checkpoint,
               "--output and --checkpoint name the same file '" << s.output << "'");

  // The case: from the options, or from a checkpoint.
  std::optional<io::Checkpoint> ckpt;
  std::unique_ptr<physics::Case> cs;
  if (!s.restart.empty()) {
    ckpt = io::read_checkpoint(s.restart);
    std::optional<std::uint64_t> given_mesh;
    long long given_elements = 0;
    if (s.given.count("mesh")) {
      if (ckpt->dimension == 2) {
        const auto& g = s.case_options;
        const auto m = mesh::reorder_elements(ckpt->case_name == "euler2d"
                                                  ? physics::euler2d_mesh(g.problem, g.mesh, g.refine)
                                                  : mesh::refine_tri_mesh(mesh::load_tri_mesh(g.mesh), g.refine),
                                              g.reorder);
        given_mesh = io::mesh_fingerprint(m);
        given_elements = m.num_elements();
      } else {
        const auto m = mesh::reorder_elements(mesh::load_tet_mesh(s.case_options.mesh), s.case_options.reorder);
        given_mesh = io::mesh_fingerprint(m);
        given_elements = m.num_elements();
      }
    }
    const CaseOptions o = options_from(*ckpt, s, given_mesh, given_elements);
    cs = ckpt->dimension == 2 ? physics::make_case(o, ckpt->tri_mesh) : physics::make_case(o, ckpt->mesh);
    cs->simulation().load_state(ckpt->state, ckpt->time);
  } else {
    cs = physics::make_case(s.case_options);
  }
  auto& sim = cs->simulation();
  const CaseOptions& o = cs->options();

  // Steps: a restart continues with the checkpoint's time step to its final time, or, with an
  // explicit --final-time, to that time with the remaining interval split evenly.
  long long first = 0, last = cs->steps();
  double dt = cs->dt(), final_time = cs->final_time();
  if (ckpt) {
    first = ckpt->step;
    last = ckpt->steps;
    dt = ckpt->dt;
    final_time = ckpt->final_time;
    if (s.given.count("final-time") && s.case_options.final_time && *s.case_options.final_time != ckpt->final_time) {
      const double T = *s.case_options.final_time;
      DGK_THROW_IF(T < ckpt->time, "--final-time " << T << " is before the checkpoint's time " << ckpt->time);
      const long long remaining = dt > 0 ? static_cast<long long>(std::ceil((T - ckpt->time) / dt - 1e-9)) : 0;
      dt = remaining > 0 ? (T - ckpt->time) / remaining : dt;
      last = first + remaining;
      final_time = T;
    }
  }

  // A stop before the end, as for a job with a time limit: the run ends (and checkpoints) there.
  long long stop = last;
  if (s.stop_at_step > 0) {
    DGK_THROW_IF(s.stop_at_step <= first,
                 "--stop-at-step " << s.stop_at_step << " is not after the start step " << first);
    stop = std::min(last, s.stop_at_step);
  }

  out << "dgk run " << o.name << ": order " << sim.order() << ", mesh " << o.mesh << " (" << sim.num_elements()
      << " elements, " << sim.num_dofs() << " DOFs), " << sim.backend() << ", " << sim.precision() << ", "
      << cs->kernel_summary() << " kernels\n"
      << (cs->tuning_source().empty() ? std::string() : "  tuning:   " + cs->tuning_source() + "\n")
      << "  initial:  " << cs->initial_summary() << "\n"
      << "  boundary: " << cs->bc_summary() << "\n";
  if (ckpt)
    out << "  restart:  " << s.restart << " at step " << first << ", t = " << exact(ckpt->time) << " (written on "
        << ckpt->backend << ")\n";
  out << "  steps:    " << last - first << " of dt = " << fmt(dt, 3, true) << " to t = " << final_time << " (CFL "
      << o.cfl << ")\n";
  if (const auto* part = cs->partition())
    out << "  ranks:    " << mesh::partition_summary(*part) << ", "
        << (o.partition.empty() ? mesh::partition_method_name(mesh::default_partition_method()) : o.partition.c_str())
        << " partition\n";

  // In a distributed run every rank takes part in gathering the fields and the state; rank 0
  // writes the files.
  const bool root = Comm::world().root();

  // Outputs.
  double io_seconds = 0;
  Kokkos::Timer io_timer;
  std::unique_ptr<io::OutputWriter> output;
  const bool writes_output = !s.output.empty();
  const Comm& comm = Comm::world();
  if (writes_output) {
    std::vector<std::string> fields;
    for (int c = 0; c < sim.num_fields(); ++c) fields.push_back(sim.field_name(c));
    // A distributed run: every rank writes its own elements to a file of its own (global element
    // numbers, cells marked with the rank); rank 0's XDMF file gathers the parts.
    const auto* part = cs->partition();
    std::vector<long long> ids;  // this rank's elements, in its order
    if (part) ids.assign(part->global.begin(), part->global.begin() + part->owned);
    const std::vector<int> elements(ids.begin(), ids.end());
    auto make = [&](const auto& whole, const auto& ref, auto connect) {
      io::OutputMesh m;
      if (!part) {
        m = io::make_output_mesh(whole, ref, sim.material_names());
      } else {
        const auto mine = mesh::extract_elements(whole, connect(whole), elements);
        m = io::make_output_mesh(mine, ref, sim.material_names(), std::vector<int>(elements.size(), comm.rank()),
                                 /*listed_boundary_only=*/true);
        for (auto& e : m.element) e = elements[static_cast<std::size_t>(e)];
      }
      const std::string path = root ? s.output : io::output_part_path(s.output, comm.rank());
      std::vector<io::OutputPart> parts;
      if (part) {
        // Every part's sizes, for rank 0's XDMF file.
        const io::OutputPart mine = io::output_part(path, m);
        const auto P = comm.all_gather(mine.points), C = comm.all_gather(mine.cells),
                   B = comm.all_gather(mine.boundary_points), F = comm.all_gather(mine.boundary_faces);
        for (std::size_t r = 0; r < P.size(); ++r)
          parts.push_back(io::output_part(r == 0 ? s.output : io::output_part_path(s.output, static_cast<int>(r)),
                                          P[r], C[r], B[r], F[r]));
      }
      output = std::make_unique<io::OutputWriter>(path, std::move(m), o.name, sim.order(), fields, ref.np, parts, root);
    };
    if (cs->tet_mesh())
      make(*cs->tet_mesh(), basis::make_tet_nodal(sim.order()),
           [](const mesh::TetMesh& m) { return mesh::connect(m); });
    else
      make(*cs->tri_mesh(), basis::make_tri_nodal(sim.order()),
           [](const mesh::TriMesh& m) { return mesh::connect(m); });
  }
  auto write_output = [&](long long step) {
    io_timer.reset();
    output->write(step, sim.time(), sim.owned_host_fields());
    io_seconds += io_timer.seconds();
  };
  std::string previous_set;  // of this run's last distributed checkpoint
  int previous_parts = 0;
  auto write_checkpoint = [&](long long step) {
    io_timer.reset();
    io::Checkpoint c;
    c.case_name = o.name;
    c.basis = o.basis;
    c.order = sim.order();
    c.precision = sim.precision();
    c.backend = sim.backend();
    c.step = step;
    c.steps = last;
    c.time = sim.time();
    c.dt = dt;
    c.final_time = final_time;
    c.parameters = parameters_of(o);
    c.dimension = cs->dimension();
    if (cs->tet_mesh())
      c.mesh = *cs->tet_mesh();
    else
      c.tri_mesh = *cs->tri_mesh();
    if (!comm.distributed()) {
      c.state = sim.save_state();
      io::write_checkpoint(s.checkpoint, c);
    } else {
      // One file per rank, no gathering: the parts first, rank 0's file (which names the set)
      // last, then the previous set's parts go.
      c.parts = comm.size();
      c.part = comm.rank();
      c.state = sim.save_owned_state(c.elements);
      c.set = comm.broadcast(root ? checkpoint_set_name(step) : std::string());
      if (!root) io::write_checkpoint(s.checkpoint, c);
      comm.barrier();
      if (root) io::write_checkpoint(s.checkpoint, c);
      comm.barrier();
      if (root)
        for (int p = 1; p < previous_parts; ++p)
          std::remove(io::checkpoint_part_path(s.checkpoint, previous_set, p).c_str());
      previous_set = c.set;
      previous_parts = c.parts;
    }
    io_seconds += io_timer.seconds();
  };
  if (writes_output) write_output(first);

  const double energy0 = sim.energy();
  Progress progress(out, s.progress, first, stop, final_time, sim.num_dofs());
  if (stop < last)
    out << "  stopping after step " << stop << " of " << last
        << (s.checkpoint.empty() ? "" : " (checkpoint at the stop)") << "\n";
  sim.fence();
  Kokkos::Timer timer;
  TimeLoopOptions loop;
  loop.check_every = s.check_every;
  loop.first_step = first;
  loop.on_step = [&](long long step) {
    if (writes_output && ((s.output_every > 0 && step % s.output_every == 0) || step == stop)) write_output(step);
    if (!s.checkpoint.empty() && ((s.checkpoint_every > 0 && step % s.checkpoint_every == 0) || step == stop))
      write_checkpoint(step);
    if (progress.wants(step)) {
      sim.fence();
      progress.update(step, sim.time(), timer.seconds() - io_seconds);
    }
  };
  advance(sim, static_cast<int>(stop - first), dt, loop);
  sim.fence();
  const double wall = timer.seconds() - io_seconds;
  progress.finish();

  std::optional<double> err;
  if (cs->exact()) err = sim.l2_error(*cs->exact());
  const double energy = sim.energy();
  const auto tp = throughput(sim);
  const double steps = std::max<long long>(1, stop - first);
  const double s_per_step = wall / steps;
  const double dofs_per_s = sim.num_dofs() / s_per_step;
  const double pid = s_per_step / (sim.stages_per_step() * double(sim.num_dofs()));

  RunResult result;
  io::Report& r = result.report;
  r.set("case", o.name);
  r.set("basis", o.basis);
  r.set("kernels", cs->kernel_summary());
  if (!cs->tuning_source().empty()) r.set("tuning_source", cs->tuning_source());
  r.set("order", sim.order());
  r.set("mesh", o.mesh);
  r.set("elements", sim.num_elements());
  r.set("dofs", io::Report::Value(static_cast<long long>(sim.num_dofs())));
  r.set("start_step", first);
  r.set("steps", stop - first);
  r.set("last_step", stop);
  r.set("run_steps", last);
  r.set("dt", dt);
  r.set("final_time", final_time);
  r.set("l2_error", err);
  if (cs->exact()) {
    const auto per_field = sim.l2_error_fields(*cs->exact());
    for (std::size_t c = 0; c < per_field.size(); ++c)
      r.set("l2_error_" + sim.field_name(static_cast<int>(c)), per_field[c]);
  }
  r.set("energy_initial", energy0);
  r.set("energy", energy);
  r.set("wall_s", wall);
  r.set("io_s", io_seconds);
  r.set("s_per_step", s_per_step);
  r.set("dofs_per_s", dofs_per_s);
  r.set("s_per_dof_per_stage", pid);
  r.set("gflops", tp.flops_per_step / s_per_step / 1e9);
  r.set("gbytes_per_s", tp.bytes_per_step / s_per_step / 1e9);
  r.set("backend", sim.backend());
  if (const auto codegen = backends::device_code_generator(parse_backend(sim.backend())); !codegen.empty())
    r.set("codegen", codegen);
  r.set("precision", sim.precision());
  r.set("boundary", cs->bc_summary());
  r.set("initial", cs->initial_summary());
  r.set("restart", s.restart);
  r.set("checkpoint", s.checkpoint);
  r.set("output", s.output.empty() || !output ? std::string() : output->xdmf_path());
  const auto* part = cs->partition();
  r.set("ranks", part ? part->ranks : 1);
  if (part) {
    const std::vector<double> per_rank(part->elements_per_rank.begin(), part->elements_per_rank.end());
    const std::vector<double> shared(part->shared_faces_per_rank.begin(), part->shared_faces_per_rank.end());
    r.set("partition", o.partition.empty() ? mesh::partition_method_name(mesh::default_partition_method())
                                           : o.partition);
    r.set("elements_per_rank", io::Report::Value(per_rank));
    r.set("shared_faces_per_rank", io::Report::Value(shared));
    r.set("shared_faces", io::Report::Value(part->shared_faces));
  }

  out << "  L2 error:   " << (err ? fmt(*err, 4, true) : std::string("n/a (no exact solution)")) << "\n"
      << "  energy:     " << fmt(energy, 8, true) << " (initial " << fmt(energy0, 8, true) << ", change "
      << fmt((energy - energy0) / energy0, 2, true) << ")\n"
      << "  wall time:  " << fmt(wall, 3) << " s, " << fmt(s_per_step * 1e3, 3) << " ms/step, "
      << fmt(dofs_per_s / 1e6, 2) << " MDOF/s, " << fmt(pid, 3, true) << " s per DOF per RK stage\n"
      << "  achieved:   " << fmt(tp.bytes_per_step / s_per_step / 1e9, 2) << " GB/s, "
      << fmt(tp.flops_per_step / s_per_step / 1e9, 2) << " GFLOP/s (counted bytes and flops)\n";
  if (writes_output || !s.checkpoint.empty()) {
    out << "  files:      ";
    if (output)
      out << output->xdmf_path() << " (" << output->steps_written() << " steps)" << (s.checkpoint.empty() ? "" : ", ");
    if (!s.checkpoint.empty()) out << "checkpoint " << s.checkpoint;
    out << "; " << fmt(io_seconds, 3) << " s writing\n";
  }
  if (!s.report.empty() && root) r.write_json(s.report);
  result.final_state = sim.save_state();
  result.steps = stop;
  return result;
}

}  // namespace dgk::app
