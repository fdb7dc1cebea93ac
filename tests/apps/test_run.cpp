// `dgk run`: restart equality, rejected restarts, configuration files and progress output.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <CLI/CLI.hpp>

#include "bench_hdg.hpp"
#include "config.hpp"
#include "dgk/core/error.hpp"
#include "dgk/io/hdf5.hpp"
#include "dgk/io/output.hpp"
#include "dgk_test_paths.hpp"
#include "progress.hpp"
#include "run.hpp"

namespace {

using dgk::app::RunSettings;

std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/dgk_test_run_" + std::to_string(::getpid()) + "_" + name;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const dgk::Error& e) {
    return e.what();
  }
  return "(no error)";
}

// A short run of a case: maxwell3d with mixed walls by default; "acoustic3d" in the Bernstein
// basis, or "maxwell2d" on a jittered mesh.
RunSettings small_run(const std::string& backend, const std::string& precision, const std::string& name = "maxwell3d") {
  RunSettings s;
  s.case_options.name = name;
  s.case_options.order = 3;
  s.case_options.mesh = "box:2";
  s.case_options.precision = precision;
  s.case_options.backend = dgk::parse_backend(backend);
  s.case_options.final_time = 0.3;
  s.case_options.initial = "pulse:0.4,0.5,0.6,0.25";
  s.case_options.bc = {"xmin=pmc", "zmax=absorbing"};
  if (name == "acoustic3d") {
    s.case_options.basis = "bernstein";
    s.case_options.bc = {"xmin=wall"};
  } else if (name == "maxwell2d") {
    s.case_options.mesh = "rect:4,jitter=0.1";
    s.case_options.initial = "pulse:0.4,0.5,0.25";
    s.case_options.bc = {"xmax=absorbing"};
  }
  s.progress = dgk::app::Progress::Mode::Quiet;
  return s;
}

// Interrupted at a step and restarted from the checkpoint, a run ends bitwise where the
// uninterrupted run ends, on the same backend and precision.
void expect_restart_is_bitwise(const std::string& backend, const std::string& precision,
                               const std::string& name = "maxwell3d") {
  if (!dgk::io::hdf5_available()) GTEST_SKIP() << "built without HDF5";
  std::ostringstream log;
  const auto full = dgk::app::run_case(small_run(backend, precision, name), log);
  ASSERT_GT(full.steps, 8);

  RunSettings first = small_run(backend, precision, name);
  first.checkpoint = temp_path(backend + precision + ".h5");
  first.checkpoint_every = 3;
  first.stop_at_step = full.steps / 2;
  const auto part = dgk::app::run_case(first, log);
  EXPECT_EQ(part.steps, full.steps / 2);

  RunSettings second;
  second.restart = first.checkpoint;
  second.case_options.backend = dgk::parse_backend(backend);
  second.progress = dgk::app::Progress::Mode::Quiet;
  const auto resumed = dgk::app::run_case(second, log);
  EXPECT_EQ(resumed.steps, full.steps);
  ASSERT_EQ(resumed.final_state.size(), full.final_state.size());
  for (std::size_t a = 0; a < full.final_state.size(); ++a) {
    EXPECT_EQ(resumed.final_state[a].name, full.final_state[a].name);
    EXPECT_TRUE(resumed.final_state[a].bytes == full.final_state[a].bytes)
        << full.final_state[a].name << " differs after the restart (" << name << ", " << backend << ", " << precision
        << ")";
  }
  std::remove(first.checkpoint.c_str());
}

// Maxwell 3D in both precisions, and the acoustic waves and 2D Maxwell in the precisions given.
void expect_restarts_are_bitwise(const std::string& backend, const std::string& acoustic_precision,
                                 const std::string& maxwell2d_precision) {
  expect_restart_is_bitwise(backend, "double");
  expect_restart_is_bitwise(backend, "float");
  expect_restart_is_bitwise(backend, acoustic_precision, "acoustic3d");
  expect_restart_is_bitwise(backend, maxwell2d_precision, "maxwell2d");
}

TEST(Restart, BitwiseOnSerial) {
#ifdef KOKKOS_ENABLE_SERIAL
  expect_restarts_are_bitwise("serial", "double", "float");
#else
  GTEST_SKIP() << "no Serial backend";
#endif
}

TEST(Restart, BitwiseOnOpenMP) {
#ifdef KOKKOS_ENABLE_OPENMP
  expect_restarts_are_bitwise("openmp", "float", "double");
#else
  GTEST_SKIP() << "no OpenMP backend";
#endif
}

TEST(Restart, BitwiseOnCuda) {
#ifdef KOKKOS_ENABLE_CUDA
  expect_restarts_are_bitwise("cuda", "double", "float");
#else
  GTEST_SKIP() << "no Cuda backend";
#endif
}

TEST(Restart, MismatchedOptionsAreRejected) {
  if (!dgk::io::hdf5_available()) GTEST_SKIP() << "built without HDF5";
  std::ostringstream log;
  RunSettings s = small_run("serial", "double");
  s.checkpoint = temp_path("mismatch.h5");
  s.stop_at_step = 2;
  dgk::app::run_case(s, log);

  auto restart_with = [&](auto change, const std::string& key) {
    RunSettings r;
    r.restart = s.checkpoint;
    r.progress = dgk::app::Progress::Mode::Quiet;
    change(r.case_options);
    r.given.insert(key);
    return error_of([&] { dgk::app::run_case(r, log); });
  };
  std::string m = restart_with([](auto& o) { o.order = 4; }, "order");
  EXPECT_NE(m.find("--order 4 contradicts checkpoint"), std::string::npos) << m;
  EXPECT_NE(m.find("written with order 3"), std::string::npos) << m;
  m = restart_with([](auto& o) { o.precision = "float"; }, "precision");
  EXPECT_NE(m.find("--precision float contradicts"), std::string::npos) << m;
  m = restart_with([](auto& o) { o.mesh = "box:3"; }, "mesh");
  EXPECT_NE(m.find("is not the mesh of checkpoint"), std::string::npos) << m;
  m = restart_with([](auto& o) { o.initial = "cavity"; }, "initial");
  EXPECT_NE(m.find("--initial cavity contradicts"), std::string::npos) << m;
  // The same values as stored are accepted.
  m = restart_with([](auto& o) { o.order = 3; }, "order");
  EXPECT_EQ(m, "(no error)");

  // Damaged checkpoints stop the run with the file's name.
  { std::ofstream(s.checkpoint, std::ios::trunc) << "not a checkpoint"; }
  m = restart_with([](auto&) {}, "none");
  EXPECT_NE(m.find(s.checkpoint), std::string::npos) << m;
  EXPECT_NE(m.find("not an HDF5 file"), std::string::npos) << m;
  std::remove(s.checkpoint.c_str());

  RunSettings bad = small_run("serial", "double");
  bad.checkpoint_every = 3;
  EXPECT_NE(error_of([&] { dgk::app::run_case(bad, log); }).find("--checkpoint-every needs --checkpoint"),
            std::string::npos);
}

// A command with one option of each kind, as the program defines them.
struct Options {
  int order = 4;
  double cfl = 0.75;
  std::string precision = "double", mesh = "box:6", name = "maxwell3d";
  bool quiet = false;
  std::vector<std::string> bc;
};

void define(CLI::App& app, Options& o) {
  app.add_option("name", o.name, "positional");
  app.add_option("--order", o.order)->check(CLI::Range(1, 9));
  app.add_option("--cfl", o.cfl);
  app.add_option("--precision", o.precision)->check(CLI::IsMember({"double", "float"}));
  app.add_option("--mesh", o.mesh);
  app.add_flag("--quiet", o.quiet);
  app.add_option("--bc", o.bc);
  app.add_option("--config", o.name);
}

// Parses `args` (after the program name) and applies `toml`; returns the error text or "".
std::string configure(Options& o, const std::string& toml, std::vector<std::string> args = {}) {
  CLI::App app;
  define(app, o);
  std::vector<const char*> argv{"dgk"};
  for (const auto& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  const std::string path = temp_path("config.toml");
  write_file(path, toml);
  std::string err;
  try {
    dgk::app::apply_config(app, path, o.bc);
  } catch (const dgk::Error& e) {
    err = e.what();
  }
  std::remove(path.c_str());
  return err;
}

TEST(Config, SetsEveryKindOfOption) {
  Options o;
  const std::string err = configure(o, R"(# a case
name = "other"
order = 3
cfl = 1          # integers are numbers
precision = "float"
mesh = "room.msh"
quiet = true
bc = ["inlet=absorbing"]

[boundary]
outer = "pec"
inner = "pmc"
)");
  ASSERT_EQ(err, "");
  EXPECT_EQ(o.name, "other");
  EXPECT_EQ(o.order, 3);
  EXPECT_EQ(o.cfl, 1.0);
  EXPECT_EQ(o.precision, "float");
  EXPECT_EQ(o.mesh, "room.msh");
  EXPECT_TRUE(o.quiet);
  // [boundary] first, so that later (command line) entries win.
  EXPECT_EQ(o.bc, (std::vector<std::string>{"outer=pec", "inner=pmc", "inlet=absorbing"}));
}

TEST(Config, CommandLineOverridesTheFile) {
  Options o;
  const std::string err =
      configure(o, "order = 3\ncfl = 0.5\n[boundary]\nouter = \"pec\"\n", {"--order", "5", "--bc", "outer=pmc"});
  ASSERT_EQ(err, "");
  EXPECT_EQ(o.order, 5);
  EXPECT_EQ(o.cfl, 0.5);
  EXPECT_EQ(o.bc, (std::vector<std::string>{"outer=pec", "outer=pmc"}));  // the last one applies
}

TEST(Config, BadFilesNameTheLineAndKey) {
  struct Case {
    std::string toml, expect;
  };
  const std::vector<Case> cases = {
      {"order = 3\norder_typo = 4\n", ":2: unknown key 'order_typo'"},
      {"order = 3\nmesh = \n", ":2:"},                                        // syntax
      {"cfl = 0.5\n\norder = \"four\"\n", ":3: 'order' must be an integer"},  // type
      {"order = 2.5\n", ":1: 'order' must be an integer"},
      {"cfl = \"fast\"\n", ":1: 'cfl' must be a number"},
      {"mesh = 4\n", ":1: 'mesh' must be a string"},
      {"quiet = 1\n", ":1: 'quiet' must be a boolean"},
      {"bc = \"a=pec\"\n", ":1: 'bc' must be an array of strings"},
      {"bc = [\"a=pec\", 3]\n", ":1: 'bc' must be an array of strings"},
      {"order = [3]\n", ":1: 'order' must be an integer, not an array"},
      {"\n\norder = 12\n", ":3: 'order' = 12"},  // rejected by the option's own check
      {"precision = \"half\"\n", ":1: 'precision' = half"},
      {"config = \"other.toml\"\n", ":1: 'config' cannot be set in a configuration file"},
      {"[boundary]\nouter = 1\n", ":2: boundary 'outer' must be a string"},
      {"boundary = \"pec\"\n", ":1: 'boundary' must be a table"},
      {"[solver]\norder = 3\n", ":1: unknown key 'solver'"},
  };
  for (const auto& c : cases) {
    Options o;
    const std::string err = configure(o, c.toml);
    EXPECT_NE(err.find(c.expect), std::string::npos) << "file:\n" << c.toml << "error: " << err;
    EXPECT_NE(err.find("config.toml"), std::string::npos) << err;
  }
  Options o;
  CLI::App app;
  define(app, o);
  const char* argv[] = {"dgk"};
  app.parse(1, argv);
  EXPECT_NE(error_of([&] { dgk::app::apply_config(app, "/nonexistent/case.toml", o.bc); }).find("no such file"),
            std::string::npos);
}

#ifdef DGK_PROGRAM
// The program: where the build put it, or beside this test (a build carried to another machine).
std::string program() {
  if (std::ifstream(DGK_PROGRAM).good()) return DGK_PROGRAM;
  char self[4096] = {0};
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof(self) - 1);
  std::string dir = n > 0 ? std::string(self, static_cast<std::size_t>(n)) : std::string();
  dir = dir.substr(0, dir.find_last_of('/') + 1);
  return dir + "dgk";
}

std::string examples_folder() { return dgk::Testing::source_path(DGK_EXAMPLES, "examples"); }

// The program itself: a configuration file, overridden on the command line, drives a run whose
// report shows the merged options; a bad file stops it with the file and line.
TEST(Config, TheProgramReadsConfigFiles) {
  const std::string toml = temp_path("case.toml"), report = temp_path("report.json");
  write_file(toml,
             "order = 2\nmesh = \"box:1\"\nfinal-time = 0.05\nquiet = true\nbackend = \"serial\"\n"
             "[boundary]\nxmin = \"pmc\"\n");
  const std::string cmd = program() + " run --config " + toml + " --order 3 --report " + report + " > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(report);
  const std::string json{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  EXPECT_NE(json.find("\"order\": 3"), std::string::npos) << json;
  EXPECT_NE(json.find("\"mesh\": \"box:1\""), std::string::npos) << json;
  EXPECT_NE(json.find("xmin=pmc"), std::string::npos) << json;
  EXPECT_NE(json.find("\"final_time\": 0.05"), std::string::npos) << json;

  write_file(toml, "order = 2\nfinal-time = \"soon\"\n");
  const std::string out = temp_path("out.txt");
  const std::string bad = program() + " run --config " + toml + " > " + out + " 2>&1";
  EXPECT_NE(std::system(bad.c_str()), 0);
  std::ifstream o(out);
  const std::string text{std::istreambuf_iterator<char>(o), std::istreambuf_iterator<char>()};
  EXPECT_NE(text.find(toml + ":2: 'final-time' must be a number"), std::string::npos) << text;
  for (const auto& p : {toml, report, out}) std::remove(p.c_str());
}

// The example configuration files in examples/ are valid: each sets up its case (no steps).
TEST(Config, ExamplesAreValid) {
  if (!dgk::io::hdf5_available()) GTEST_SKIP() << "the examples write HDF5 files; built without HDF5";
  const std::string dir = examples_folder();
  for (const char* name : {"maxwell3d_cavity.toml", "maxwell3d_pulse.toml"}) {
    const std::string out = temp_path("example.h5"), ck = temp_path("example-ck.h5"), rep = temp_path("example.json");
    const std::string cmd = program() + " run --config " + dir + "/" + name + " --final-time 0 --quiet" +
                            " --backend serial --output " + out + " --checkpoint " + ck + " --report " + rep +
                            " > /dev/null 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    for (const auto& p : {out, ck, rep, dgk::io::xdmf_path_for(out)}) std::remove(p.c_str());
  }
}

// `dgk tune --report` holds every timing of the search: one row per timing (its part, time and
// kernels), as many as the order's count of timings.
TEST(Tune, TheReportHoldsEveryTiming) {
  const std::string cache = temp_path("tuning.json"), report = temp_path("tune.json");
  const std::string cmd = "DGK_TUNING_CACHE=" + cache + " " + program() +
                          " tune maxwell3d --backend serial --precision double --orders 1 --elements 48 --report " +
                          report + " > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(report);
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_EQ(j.at("orders").size(), 1u) << j.dump(1).substr(0, 2000);
  const auto& order = j.at("orders")[0];
  const auto& trials = order.at("trials");
  EXPECT_GT(order.at("timings").get<int>(), 10);
  EXPECT_EQ(trials.size(), order.at("timings").get<std::size_t>());
  std::set<std::string> parts;
  for (const auto& t : trials) {
    EXPECT_GT(t.at("seconds").get<double>(), 0.0) << t.dump();
    EXPECT_FALSE(t.at("tuning").get<std::string>().empty()) << t.dump();
    parts.insert(t.at("part").get<std::string>());
  }
  EXPECT_TRUE(parts.count("volume") == 1 && parts.count("stage") == 1) << order.dump(1).substr(0, 2000);
  for (const auto& p : {cache, report}) std::remove(p.c_str());
}
#endif

TEST(Progress, BarOnTerminalsLinesOtherwise) {
  using dgk::app::Progress;
  std::ostringstream bar_out, line_out, quiet_out;
  Progress bar(bar_out, Progress::Mode::Bar, 0, 200, 2.0, 1000000);
  Progress lines(line_out, Progress::Mode::Lines, 100, 200, 2.0, 1000000);
  Progress quiet(quiet_out, Progress::Mode::Quiet, 0, 200, 2.0, 1000000);
  // A bar is redrawn every 1%, lines every 10%, and both at the last step.
  int bar_updates = 0, line_updates = 0;
  for (long long s = 1; s <= 200; ++s) bar_updates += bar.wants(s);
  for (long long s = 101; s <= 200; ++s) line_updates += lines.wants(s);
  EXPECT_EQ(bar_updates, 100);
  EXPECT_EQ(line_updates, 10);
  EXPECT_FALSE(quiet.wants(200));

  const std::string b = bar.render(50, 0.5, 10.0);
  EXPECT_NE(b.find("[#######"), std::string::npos) << b;
  EXPECT_NE(b.find(" 25%"), std::string::npos) << b;
  EXPECT_NE(b.find("step 50/200"), std::string::npos) << b;
  EXPECT_NE(b.find("t = 0.5/2"), std::string::npos) << b;
  EXPECT_NE(b.find("ETA 30.0 s"), std::string::npos) << b;  // 150 steps at 0.2 s
  EXPECT_NE(b.find("5.0 MDOF/s"), std::string::npos) << b;  // 50 steps x 1e6 DOFs in 10 s
  const std::string l = lines.render(150, 1.5, 100.0);
  EXPECT_EQ(l.find('#'), std::string::npos) << l;
  EXPECT_NE(l.find(" 50%"), std::string::npos) << l;
  EXPECT_NE(l.find("ETA 1 min 40 s"), std::string::npos) << l;

  bar.update(50, 0.5, 10.0);
  bar.finish();
  EXPECT_EQ(bar_out.str().front(), '\r');
  EXPECT_EQ(bar_out.str().back(), '\n');
  lines.update(150, 1.5, 100.0);
  const std::string printed = line_out.str();
  EXPECT_EQ(std::count(printed.begin(), printed.end(), '\n'), 1);
  quiet.update(1, 0.0, 1.0);
  EXPECT_TRUE(quiet_out.str().empty());
}

// dgk bench hdg: every product of every order gets a row with a positive time and bandwidth, and
// the report holds the same rows; bad options are errors that name the option.
TEST(BenchHdg, TimesEveryProductOfEveryOrder) {
  dgk::app::HdgBenchOptions o;
  o.dim = 3;
  o.orders = {1, 2};
  o.faces = 400;
  o.reps = 2;
  o.backend = dgk::Backend::Serial;
  o.report = ::testing::TempDir() + "dgk_bench_hdg.json";
  std::ostringstream out;
  dgk::app::bench_hdg(o, out);
  const std::string text = out.str();
  for (const char* product : {"t_v", "t_c", "t_v+t_c", "fused", "CRS"}) EXPECT_NE(text.find(product), std::string::npos) << text;
  EXPECT_NE(text.find("measured copy bandwidth"), std::string::npos);
  std::ifstream json(o.report);
  std::stringstream buf;
  buf << json.rdbuf();
  const std::string rep = buf.str();
  std::size_t rows = 0;
  for (std::size_t at = rep.find("\"product\""); at != std::string::npos; at = rep.find("\"product\"", at + 1)) ++rows;
  EXPECT_EQ(rows, 10u) << rep;
  std::remove(o.report.c_str());
  o.dim = 4;
  try {
    dgk::app::bench_hdg(o, out);
    FAIL() << "dimension 4 accepted";
  } catch (const dgk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("--dim"), std::string::npos) << e.what();
  }
  o.dim = 2;
  o.orders = {0};
  EXPECT_THROW(dgk::app::bench_hdg(o, out), dgk::Error);
}

}  // namespace
