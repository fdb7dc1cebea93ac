// Checkpoint and visualization files: round trips, and damaged or mismatched files rejected
// with messages that say what is wrong.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/core/error.hpp"
#include "dgk/io/checkpoint.hpp"
#include "dgk/io/hdf5.hpp"
#include "dgk/io/output.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "dgk_test_paths.hpp"

namespace {

using dgk::io::Checkpoint;

std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/dgk_test_files_" + std::to_string(::getpid()) + "_" + name;
}

// Validates an XDMF file against dgk's document type with xmllint. Skips the test, saying why,
// where xmllint was not found at configure time or is not on this machine (a build carried to
// another machine); the document type is then looked up from the source tree's root.
void expect_valid_xdmf(const std::string& xdmf) {
#if defined(DGK_XMLLINT) && defined(DGK_XDMF_DTD)
  if (::access(DGK_XMLLINT, X_OK) != 0) GTEST_SKIP() << DGK_XMLLINT << " is not here: the XDMF was not validated";
  const std::string dtd = dgk::Testing::source_path(DGK_XDMF_DTD, "io/schema/xdmf.dtd");
  const std::string cmd = std::string(DGK_XMLLINT) + " --noout --dtdvalid " + dtd + " " + xdmf + " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
#else
  (void)xdmf;
  GTEST_SKIP() << "xmllint not found at configure time: the XDMF was not validated";
#endif
}

std::vector<char> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Throws and says `what`.
template <class F>
void expect_error(F&& f, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning '" << what << "'";
  } catch (const dgk::Error& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << "message: " << e.what();
  }
}

// A checkpoint with recognizable state: a double array and a float array.
Checkpoint sample_checkpoint() {
  Checkpoint c;
  c.case_name = "maxwell3d";
  c.order = 3;
  c.precision = "double";
  c.backend = "Serial";
  c.step = 7;
  c.steps = 20;
  c.time = 0.123456789012345678;
  c.dt = 0.0176;
  c.final_time = 0.352;
  c.parameters = {{"cfl", "0.75"}, {"initial", "cavity:1,1,1"}, {"bc", "xmin=pec\nxmax=pmc"}};
  dgk::mesh::BoxSpec spec;
  spec.cells = {2, 1, 1};
  c.mesh = dgk::mesh::make_box(spec);
  c.mesh.source = "box:2,1,1";
  c.mesh.material[3] = {2.5, 0.5};
  dgk::StateArray q;
  q.name = "q";
  q.dims = {12, 6, 20};
  q.value_bytes = 8;
  std::vector<double> v(12 * 6 * 20);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(1.0 + i) * 1e3 + 1.0 / 3.0;
  q.bytes.resize(v.size() * 8);
  std::memcpy(q.bytes.data(), v.data(), q.bytes.size());
  dgk::StateArray r = q;
  r.name = "rk_residual";
  r.value_bytes = 4;
  std::vector<float> w(v.begin(), v.end());
  r.bytes.resize(w.size() * 4);
  std::memcpy(r.bytes.data(), w.data(), r.bytes.size());
  c.state = {q, r};
  return c;
}

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!dgk::io::hdf5_available()) GTEST_SKIP() << "built without HDF5";
  }
};

TEST_F(Files, CheckpointRoundTripIsExact) {
  const auto c = sample_checkpoint();
  const std::string path = temp_path("roundtrip.h5");
  dgk::io::write_checkpoint(path, c);
  const auto d = dgk::io::read_checkpoint(path);
  EXPECT_EQ(d.format_version, dgk::io::checkpoint_format_version);
  EXPECT_EQ(d.case_name, c.case_name);
  EXPECT_EQ(d.order, c.order);
  EXPECT_EQ(d.precision, c.precision);
  EXPECT_EQ(d.step, c.step);
  EXPECT_EQ(d.steps, c.steps);
  EXPECT_EQ(d.time, c.time);  // bitwise
  EXPECT_EQ(d.dt, c.dt);
  EXPECT_EQ(d.final_time, c.final_time);
  EXPECT_EQ(d.parameters, c.parameters);
  EXPECT_EQ(d.parameter("bc"), "xmin=pec\nxmax=pmc");
  expect_error([&] { d.parameter("nonexistent"); }, "no parameter 'nonexistent'");
  EXPECT_EQ(dgk::io::mesh_fingerprint(d.mesh), dgk::io::mesh_fingerprint(c.mesh));
  EXPECT_EQ(d.mesh.boundary_names, c.mesh.boundary_names);
  EXPECT_EQ(d.mesh.source, c.mesh.source);
  ASSERT_EQ(d.state.size(), 2u);
  for (int a = 0; a < 2; ++a) {
    EXPECT_EQ(d.state[a].name, c.state[a].name);
    EXPECT_EQ(d.state[a].dims, c.state[a].dims);
    EXPECT_EQ(d.state[a].value_bytes, c.state[a].value_bytes);
    EXPECT_EQ(d.state[a].bytes, c.state[a].bytes);
  }
  // No temporary left behind.
  EXPECT_FALSE(std::ifstream(path + ".writing").good());
  std::remove(path.c_str());
}

TEST_F(Files, DamagedCheckpointsAreRejected) {
  const auto c = sample_checkpoint();
  const std::string path = temp_path("damaged.h5");
  dgk::io::write_checkpoint(path, c);
  const auto good = slurp(path);

  // A flipped byte inside the stored fields: the checksum catches it.
  {
    auto bytes = good;
    const auto* q = reinterpret_cast<const char*>(c.state[0].bytes.data());
    auto it = std::search(bytes.begin(), bytes.end(), q + 800, q + 864);
    ASSERT_NE(it, bytes.end()) << "the field data was not found in the file";
    *(it + 5) = static_cast<char>(*(it + 5) ^ 0x10);
    spit(path, bytes);
    expect_error([&] { dgk::io::read_checkpoint(path); }, "fails its checksum");
  }
  // A flipped byte in the stored mesh: the fingerprint catches it.
  {
    auto bytes = good;
    const auto* v = reinterpret_cast<const char*>(c.mesh.vertices.data());
    auto it = std::search(bytes.begin(), bytes.end(), v + 24, v + 72);
    ASSERT_NE(it, bytes.end());
    *(it + 7) = static_cast<char>(*(it + 7) ^ 0x01);
    spit(path, bytes);
    expect_error([&] { dgk::io::read_checkpoint(path); }, "does not match its fingerprint");
  }
  // Truncated: not readable as HDF5 any more.
  {
    spit(path, std::vector<char>(good.begin(), good.begin() + static_cast<long>(good.size() / 3)));
    expect_error([&] { dgk::io::read_checkpoint(path); }, path);
  }
  // Not HDF5 at all, empty, missing.
  spit(path, std::vector<char>{'h', 'e', 'l', 'l', 'o'});
  expect_error([&] { dgk::io::read_checkpoint(path); }, "is not an HDF5 file");
  spit(path, {});
  expect_error([&] { dgk::io::read_checkpoint(path); }, "is not an HDF5 file");
  std::remove(path.c_str());
  expect_error([&] { dgk::io::read_checkpoint(path); }, "no such file");
}

TEST_F(Files, OtherFormatVersionsAndOtherFilesAreRejected) {
  auto c = sample_checkpoint();
  const std::string path = temp_path("version.h5");
  c.format_version = dgk::io::checkpoint_format_version + 1;
  dgk::io::write_checkpoint(path, c);
  expect_error([&] { dgk::io::read_checkpoint(path); },
               "format version " + std::to_string(dgk::io::checkpoint_format_version + 1));

  // An output file is HDF5 but not a checkpoint, and the other way round.
  const auto mesh = dgk::mesh::make_box({});
  const auto ref = dgk::basis::make_tet_nodal(1);
  const std::string out = temp_path("other.h5");
  { dgk::io::OutputWriter w(out, dgk::io::make_output_mesh(mesh, ref, {"eps", "mu"}), "maxwell3d", 1, {"u"}, ref.np); }
  expect_error([&] { dgk::io::read_checkpoint(out); }, "not a dgk checkpoint");
  expect_error([&] { dgk::io::read_output(path); }, "not a dgk output file");
  std::remove(path.c_str());
  std::remove(out.c_str());
  std::remove(dgk::io::xdmf_path_for(out).c_str());
  // Unwritable destinations.
  expect_error([&] { dgk::io::write_checkpoint("/nonexistent-folder/x.h5", sample_checkpoint()); }, "cannot create");
}

// The output holds every element's nodes, N^3 sub-tetrahedra per element, the materials and
// the boundary faces; the time series reads back exactly; the XDMF is valid.
TEST_F(Files, OutputReadsBackAndValidates) {
  dgk::mesh::BoxSpec spec;
  spec.cells = {2, 2, 1};
  auto mesh = dgk::mesh::make_box(spec);
  mesh.material[5] = {4.0, 1.0};
  const int order = 3;
  const auto ref = dgk::basis::make_tet_nodal(order);
  const int K = mesh.num_elements(), np = ref.np;
  const std::string path = temp_path("output.h5");
  dgk::io::OutputWriter w(path, dgk::io::make_output_mesh(mesh, ref, {"eps", "mu"}, std::vector<int>(K, 1)),
                          "maxwell3d", order, {"a", "b"}, np);
  const auto nodes = dgk::mesh::node_coordinates(mesh, ref);
  auto fields_at = [&](double t) {
    std::vector<double> f(static_cast<std::size_t>(K) * 2 * np);
    for (int e = 0; e < K; ++e)
      for (int i = 0; i < np; ++i) {
        const std::size_t g = static_cast<std::size_t>(e) * np + i;
        f[(static_cast<std::size_t>(e) * 2 + 0) * np + i] = nodes.x[g] + t;
        f[(static_cast<std::size_t>(e) * 2 + 1) * np + i] = nodes.y[g] * nodes.z[g] - t;
      }
    return f;
  };
  w.write(0, 0.0, fields_at(0.0));
  w.write(10, 0.25, fields_at(0.25));
  EXPECT_THROW(w.write(11, 0.3, std::vector<double>(5)), dgk::Error);

  const auto r = dgk::io::read_output(path);
  EXPECT_EQ(r.case_name, "maxwell3d");
  EXPECT_EQ(r.order, order);
  EXPECT_EQ(r.mesh.dimension, 3);
  EXPECT_EQ(r.mesh.num_points(), static_cast<long long>(K) * np);
  EXPECT_EQ(r.mesh.num_cells(), static_cast<long long>(K) * order * order * order);
  ASSERT_EQ(r.mesh.cell_data.size(), 2u);
  EXPECT_EQ(r.mesh.cell_data[0].first, "eps");
  EXPECT_EQ(r.mesh.cell_data[0].second[static_cast<std::size_t>(5 * order * order * order)], 4.0);
  for (int p : r.mesh.partition) EXPECT_EQ(p, 1);
  // Point e*np+i is node i of element e.
  for (std::size_t g = 0; g < nodes.x.size(); ++g) {
    EXPECT_EQ(r.mesh.points[3 * g], nodes.x[g]);
    EXPECT_EQ(r.mesh.points[3 * g + 2], nodes.z[g]);
  }
  // Every sub-cell lies in its parent element: its points belong to that element.
  for (long long c = 0; c < r.mesh.num_cells(); ++c)
    for (int v = 0; v < 4; ++v)
      EXPECT_EQ(r.mesh.cells[static_cast<std::size_t>(4 * c + v)] / np, r.mesh.element[static_cast<std::size_t>(c)]);
  // The boundary of a 2x2x1 box: 2*(4 + 2 + 2) squares, two triangles each.
  EXPECT_EQ(r.mesh.boundary_tag.size(), 32u);
  EXPECT_EQ(r.mesh.boundary_names, mesh.boundary_names);
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[1].step, 10);
  EXPECT_EQ(r.steps[1].time, 0.25);
  const auto f = fields_at(0.25);
  ASSERT_EQ(r.steps[1].fields.size(), 2u);
  EXPECT_EQ(r.steps[1].fields[1].first, "b");
  for (int e = 0; e < K; ++e)
    for (int i = 0; i < np; ++i)
      EXPECT_EQ(r.steps[1].fields[1].second[static_cast<std::size_t>(e) * np + i],
                f[(static_cast<std::size_t>(e) * 2 + 1) * np + i]);

  // The XDMF validates against the document type and names both steps.
  std::ifstream x(w.xdmf_path());
  const std::string xdmf{std::istreambuf_iterator<char>(x), std::istreambuf_iterator<char>()};
  EXPECT_NE(xdmf.find("<Time Value=\"0.25\"/>"), std::string::npos);
  EXPECT_NE(xdmf.find("/steps/000001/b"), std::string::npos);
  expect_valid_xdmf(w.xdmf_path());
  std::remove(path.c_str());
  std::remove(w.xdmf_path().c_str());
}

// Triangles: N^2 sub-triangles per element at z = 0, boundary edges, and a valid XDMF.
TEST_F(Files, TriangleOutputReadsBackAndValidates) {
  dgk::mesh::RectangleSpec spec;
  spec.cells = {3, 2};
  const auto mesh = dgk::mesh::make_rectangle(spec);
  const int order = 4;
  const auto ref = dgk::basis::make_tri_nodal(order);
  const int K = mesh.num_elements(), np = ref.np;
  const std::string path = temp_path("tri_output.h5");
  dgk::io::OutputWriter w(path, dgk::io::make_output_mesh(mesh, ref, {"epsilon", "mu"}), "maxwell2d", order,
                          {"Hx", "Hy", "Ez"}, np);
  std::vector<double> f(static_cast<std::size_t>(K) * 3 * np);
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = std::cos(0.1 * i);
  w.write(5, 0.5, f);
  const auto r = dgk::io::read_output(path);
  EXPECT_EQ(r.mesh.dimension, 2);
  EXPECT_EQ(r.mesh.nodes_per_cell, 3);
  EXPECT_EQ(r.mesh.num_points(), static_cast<long long>(K) * np);
  EXPECT_EQ(r.mesh.num_cells(), static_cast<long long>(K) * order * order);
  for (long long p = 0; p < r.mesh.num_points(); ++p)
    EXPECT_EQ(r.mesh.points[static_cast<std::size_t>(3 * p + 2)], 0.0);
  // The boundary of a 3 x 2 rectangle: 10 edges of two points.
  EXPECT_EQ(r.mesh.boundary_tag.size(), 10u);
  EXPECT_EQ(r.mesh.boundary_cells.size(), 20u);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].fields[2].first, "Ez");
  EXPECT_EQ(r.steps[0].fields[2].second[static_cast<std::size_t>(np + 1)],
            f[(1 * 3 + 2) * static_cast<std::size_t>(np) + 1]);
  expect_valid_xdmf(w.xdmf_path());
  std::remove(path.c_str());
  std::remove(w.xdmf_path().c_str());
}

TEST_F(Files, DamagedOutputIsRejected) {
  const auto mesh = dgk::mesh::make_box({});
  const auto ref = dgk::basis::make_tet_nodal(2);
  const std::string path = temp_path("bad_output.h5");
  {
    dgk::io::OutputWriter w(path, dgk::io::make_output_mesh(mesh, ref, {"eps"}), "maxwell3d", 2, {"u"}, ref.np);
    w.write(0, 0.0, std::vector<double>(static_cast<std::size_t>(mesh.num_elements()) * ref.np, 1.0));
  }
  auto bytes = slurp(path);
  spit(path, std::vector<char>(bytes.begin(), bytes.begin() + static_cast<long>(bytes.size() / 2)));
  expect_error([&] { dgk::io::read_output(path); }, path);
  std::remove(path.c_str());
  std::remove(dgk::io::xdmf_path_for(path).c_str());
  EXPECT_EQ(dgk::io::xdmf_path_for("a/b.c/run.h5"), "a/b.c/run.xdmf");
  EXPECT_EQ(dgk::io::xdmf_path_for("a.d/run"), "a.d/run.xdmf");
}

}  // namespace
