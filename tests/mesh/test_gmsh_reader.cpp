// Gmsh readers: a box and a rectangle meshed by Gmsh read back, hand-written files, and
// malformed input.
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/mesh/tri_mesh.hpp"

#ifdef DGK_HAS_GMSH

#include <gmsh.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <sstream>
#include <vector>

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/core/error.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "mesh_test_util.hpp"

// Gmsh's script parser keeps a few bytes of a failed parse (the garbled files below) for good;
// that is not dgk's leak.
extern "C" const char* __lsan_default_suppressions() {  // NOLINT: the sanitizer's hook
  return "leak:libgmsh\n";
}

namespace dgk::mesh {
namespace {

namespace fs = std::filesystem;
using test::error_of;

// Each test works in its own temporary folder.
class GmshReader : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_dir = fs::temp_directory_path() / ("dgk_mesh_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  std::string file(const std::string& name) const { return (m_dir / name).string(); }

 private:
  fs::path m_dir;
};

// Elements of dimension dim (of one entity, or of all) in the current Gmsh model.
std::size_t count_elements(int dim, int entity = -1) {
  std::size_t count = 0;
  std::vector<int> types;
  gmsh::model::mesh::getElementTypes(types, dim, entity);
  for (int type : types) {
    std::vector<std::size_t> tags, nodes;
    gmsh::model::mesh::getElementsByType(type, tags, nodes, entity);
    count += tags.size();
  }
  return count;
}

// Writes the current model as MSH 4.1 and ends the Gmsh session.
void write_msh41(const std::string& path) {
  gmsh::option::setNumber("Mesh.MshFileVersion", 4.1);
  gmsh::write(path);
  gmsh::finalize();
}

// What Gmsh itself reports about the box it meshed.
struct GmshBox {
  std::size_t tetrahedra = 0;
  std::map<std::string, std::size_t> triangles;  // per boundary group name
  int volume_group = 0;
};

// The box [0.5, 1.5] x [-1, 1] x [0, 0.5] (volume 1) meshed by Gmsh, with a named physical
// group per side (zmax left unnamed) and one volume group, written as MSH 4.1.
GmshBox write_gmsh_box(const std::string& path, int order) {
  const double lower[3] = {0.5, -1.0, 0.0}, upper[3] = {1.5, 1.0, 0.5};
  GmshBox box;
  gmsh::initialize(0, nullptr, false);
  gmsh::option::setNumber("General.Terminal", 0);
  gmsh::model::add("box");
  const int volume = gmsh::model::occ::addBox(lower[0], lower[1], lower[2], upper[0] - lower[0], upper[1] - lower[1],
                                              upper[2] - lower[2]);
  gmsh::model::occ::synchronize();
  gmsh::vectorpair surfaces;
  gmsh::model::getEntities(surfaces, 2);
  EXPECT_EQ(surfaces.size(), 6u);
  std::map<int, std::string> group_of_surface;
  for (const auto& [dim, tag] : surfaces) {
    double lo[3], hi[3];
    gmsh::model::getBoundingBox(dim, tag, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    int axis = 0;
    for (int d = 1; d < 3; ++d) {
      if (hi[d] - lo[d] < hi[axis] - lo[axis]) axis = d;
    }
    const bool is_min = std::abs(0.5 * (lo[axis] + hi[axis]) - lower[axis]) < 1e-6;
    const std::string name = std::string(1, "xyz"[axis]) + (is_min ? "min" : "max");
    const int group = gmsh::model::addPhysicalGroup(2, {tag}, 10 + 2 * axis + (is_min ? 0 : 1));
    if (name != "zmax") gmsh::model::setPhysicalName(2, group, name);
    group_of_surface[tag] = name == "zmax" ? "group" + std::to_string(group) : name;
  }
  box.volume_group = gmsh::model::addPhysicalGroup(3, {volume}, 7);
  gmsh::model::setPhysicalName(3, box.volume_group, "air");
  gmsh::option::setNumber("Mesh.MeshSizeMax", 0.3);
  gmsh::option::setNumber("Mesh.ElementOrder", order);
  gmsh::model::mesh::generate(3);

  box.tetrahedra = count_elements(3);
  for (const auto& [surface, name] : group_of_surface) box.triangles[name] += count_elements(2, surface);
  write_msh41(path);
  return box;
}

// Each named boundary group became a tag holding as many boundary elements as Gmsh put in it.
template <class Mesh, class Boundary>
void expect_group_counts(const Mesh& mesh, const std::vector<Boundary>& boundary,
                         const std::map<std::string, std::size_t>& counts) {
  std::map<int, std::size_t> per_tag;
  for (const auto& b : boundary) ++per_tag[b.tag];
  for (const auto& [name, count] : counts) {
    const int tag = mesh.boundary_tag(name);
    ASSERT_GE(tag, 1) << name;
    EXPECT_GT(count, 0u) << name;
    EXPECT_EQ(per_tag[tag], count) << name;
  }
}

void check_box(const TetMesh& mesh, const GmshBox& box) {
  ASSERT_GT(box.tetrahedra, 0u);
  EXPECT_EQ(static_cast<std::size_t>(mesh.num_elements()), box.tetrahedra);
  EXPECT_EQ(mesh.material.size(), box.tetrahedra);
  ASSERT_EQ(mesh.region.size(), box.tetrahedra);
  for (int r : mesh.region) EXPECT_EQ(r, box.volume_group);

  // Tags per named group, and the unnamed one called after its physical tag.
  ASSERT_EQ(mesh.boundary_names.size(), 7u);
  expect_group_counts(mesh, mesh.boundary_faces, box.triangles);
  EXPECT_GE(mesh.boundary_tag("group15"), 1);

  const TetConnectivity conn = connect(mesh);
  EXPECT_EQ(static_cast<std::size_t>(conn.num_boundary_faces), mesh.boundary_faces.size());
  for (int e = 0; e < mesh.num_elements(); ++e) {
    for (int f = 0; f < 4; ++f) {
      if (conn.EToE[e][f] >= 0) {
        EXPECT_EQ(conn.EToE[conn.EToE[e][f]][conn.EToF[e][f]], e);
      } else {
        EXPECT_GE(conn.bc_tag[e][f], 1);  // every hull face belongs to a side group
      }
    }
  }
  const TetGeometry geo = geometric_factors(mesh);
  double volume = 0.0;
  for (double J : geo.J) volume += J * 4.0 / 3.0;
  EXPECT_NEAR(volume, 1.0, 1e-12);
  const FaceMaps maps = build_face_maps(mesh, conn, basis::make_tet_nodal(3));
  EXPECT_EQ(maps.boundary_faces.size(), mesh.boundary_faces.size());
}

TEST_F(GmshReader, BoxRoundTrip) {
  const std::string path = file("box.msh");
  const GmshBox box = write_gmsh_box(path, 1);
  const TetMesh mesh = read_gmsh_tet(path);
  EXPECT_EQ(mesh.source, path);
  check_box(mesh, box);
  // Through the specification parser, and a second time in the same process.
  const TetMesh again = load_tet_mesh(path);
  EXPECT_EQ(again.num_elements(), mesh.num_elements());
  EXPECT_EQ(again.vertices, mesh.vertices);
}

TEST_F(GmshReader, SecondOrderTetrahedraUseTheirCorners) {
  const std::string path = file("box2.msh");
  const GmshBox box = write_gmsh_box(path, 2);
  const TetMesh mesh = read_gmsh_tet(path);
  check_box(mesh, box);
  // Edge midpoints are not vertices: a tetrahedral mesh has fewer vertices than elements.
  EXPECT_LT(mesh.num_vertices(), mesh.num_elements());
}

TEST_F(GmshReader, MissingFile) {
  const std::string path = file("missing.msh");
  const std::string message = error_of([&] { read_gmsh_tet(path); });
  EXPECT_NE(message.find("'" + path + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
}

TEST_F(GmshReader, MalformedFiles) {
  const std::string good = file("good.msh");
  write_gmsh_box(good, 1);
  std::string text;
  {
    std::ifstream in(good);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::map<std::string, std::string> files{
      {"truncated.msh", text.substr(0, text.size() / 2)},
      {"cut_in_elements.msh", text.substr(0, text.size() - text.size() / 10)},
      {"garbled.msh", "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 4 1 4\nnot numbers\n"},
      {"text.msh", "this is not a mesh\n"},
      {"empty.msh", ""}};
  for (const auto& [name, content] : files) {
    const std::string path = file(name);
    std::ofstream(path) << content;
    const std::string message = error_of([&] { read_gmsh_tet(path); });
    EXPECT_NE(message.find("'" + path + "'"), std::string::npos) << name << ": " << message;
  }
  const std::string folder = file("folder.msh");
  fs::create_directories(folder);
  EXPECT_NE(error_of([&] { read_gmsh_tet(folder); }).find("'" + folder + "' is a directory"), std::string::npos);
  // The reader recovers: a good file still reads after the failures.
  EXPECT_GT(read_gmsh_tet(good).num_elements(), 0);
}

TEST_F(GmshReader, SurfaceMeshHasNoTetrahedra) {
  const std::string path = file("square.msh");
  gmsh::initialize(0, nullptr, false);
  gmsh::option::setNumber("General.Terminal", 0);
  gmsh::model::occ::addRectangle(0, 0, 0, 1, 1);
  gmsh::model::occ::synchronize();
  gmsh::model::mesh::generate(2);
  gmsh::write(path);
  gmsh::finalize();
  const std::string message = error_of([&] { read_gmsh_tet(path); });
  EXPECT_NE(message.find("'" + path + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("no tetrahedra"), std::string::npos) << message;
}

TEST_F(GmshReader, VolumeWithoutPhysicalGroupIsExplained) {
  // With a surface group but no volume group, Gmsh saves no tetrahedra.
  const std::string path = file("surface_groups.msh");
  gmsh::initialize(0, nullptr, false);
  gmsh::option::setNumber("General.Terminal", 0);
  gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1);
  gmsh::model::occ::synchronize();
  gmsh::model::addPhysicalGroup(2, {1}, 1);
  gmsh::option::setNumber("Mesh.MeshSizeMax", 0.5);
  gmsh::model::mesh::generate(3);
  gmsh::write(path);
  gmsh::finalize();
  const std::string message = error_of([&] { read_gmsh_tet(path); });
  EXPECT_NE(message.find("'" + path + "' holds no tetrahedra"), std::string::npos) << message;
  EXPECT_NE(message.find("Mesh.SaveAll"), std::string::npos) << message;
}

// Two unit cubes side by side, meshed with or without fragmenting them into one conforming
// model; without, the common square is meshed twice with separate nodes.
void write_two_cubes(const std::string& path, bool fragment) {
  gmsh::initialize(0, nullptr, false);
  gmsh::option::setNumber("General.Terminal", 0);
  const int a = gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1);
  const int b = gmsh::model::occ::addBox(1, 0, 0, 1, 1, 1);
  if (fragment) {
    gmsh::vectorpair out;
    std::vector<gmsh::vectorpair> map;
    gmsh::model::occ::fragment({{3, a}}, {{3, b}}, out, map);
  }
  gmsh::model::occ::synchronize();
  gmsh::option::setNumber("Mesh.MeshSizeMax", 0.4);
  gmsh::model::mesh::generate(3);
  gmsh::write(path);
  gmsh::finalize();
}

TEST_F(GmshReader, UnfragmentedVolumesAreNotConforming) {
  const std::string glued = file("glued.msh");
  write_two_cubes(glued, false);
  const TetMesh bad = read_gmsh_tet(glued);
  const TetConnectivity bad_conn = connect(bad);
  const std::string message = error_of([&] { build_face_maps(bad, bad_conn, basis::make_tet_nodal(1)); });
  EXPECT_NE(message.find("'" + glued + "' is not conforming"), std::string::npos) << message;

  const std::string fused = file("fused.msh");
  write_two_cubes(fused, true);
  const TetMesh good = read_gmsh_tet(fused);
  const TetConnectivity conn = connect(good);
  const FaceMaps maps = build_face_maps(good, conn, basis::make_tet_nodal(2));
  EXPECT_EQ(static_cast<int>(maps.boundary_faces.size()), conn.num_boundary_faces);
  double volume = 0.0;
  for (double J : geometric_factors(good).J) volume += J * 4.0 / 3.0;
  EXPECT_NEAR(volume, 2.0, 1e-12);
  // The hull of the fused mesh is the 2 x 1 x 1 box: the same boundary area as its 10 squares.
  double area = 0.0;
  const TetGeometry geo = geometric_factors(good);
  for (int ef : maps.boundary_faces) area += 2.0 * geo.sJ[ef / 4][ef % 4];
  EXPECT_NEAR(area, 10.0, 1e-10);
}

// Two tetrahedra written by hand in MSH 2.2: element 11 is negatively oriented.
std::string hand_written(const std::string& second) {
  return "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
         "$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 0 0 -1\n6 1 1 0\n$EndNodes\n"
         "$Elements\n2\n"
         "10 4 2 0 1 1 2 3 4\n" +
         second + "$EndElements\n";
}

TEST_F(GmshReader, NegativeOrientationIsReordered) {
  const std::string path = file("oriented.msh");
  std::ofstream(path) << hand_written("11 4 2 0 1 1 2 3 5\n");
  const TetMesh mesh = read_gmsh_tet(path);
  ASSERT_EQ(mesh.num_elements(), 2);
  EXPECT_EQ(mesh.num_vertices(), 5);  // node 6 is no corner
  for (int e = 0; e < 2; ++e) EXPECT_NEAR(element_jacobian(mesh, e), 1.0 / 8.0, 1e-15);
  const TetConnectivity conn = connect(mesh);
  EXPECT_EQ(conn.num_interior_faces, 1);
  EXPECT_NO_THROW(build_face_maps(mesh, conn, basis::make_tet_nodal(2)));
}

TEST_F(GmshReader, GroupNamesAndRegions) {
  // Volume groups 3 and 4; surface groups 5 "boundary", 6 "wall", 8 and 9 unnamed.
  const std::string path = file("groups.msh");
  std::ofstream(path) << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
                         "$PhysicalNames\n3\n2 5 \"boundary\"\n2 6 \"wall\"\n"
                         "3 4 \"core\"\n$EndPhysicalNames\n"
                         "$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 0 0 -1\n$EndNodes\n"
                         "$Elements\n6\n"
                         "10 4 2 3 1 1 2 3 4\n"
                         "11 4 2 4 2 1 3 2 5\n"
                         "20 2 2 5 1 1 2 4\n"
                         "21 2 2 6 2 1 3 4\n"
                         "22 2 2 9 3 2 3 4\n"
                         "23 2 2 8 4 1 2 5\n"
                         "$EndElements\n";
  const TetMesh mesh = read_gmsh_tet(path);
  ASSERT_EQ(mesh.num_elements(), 2);
  EXPECT_EQ(mesh.region, (std::vector<int>{3, 4}));
  EXPECT_EQ(mesh.boundary_names, (std::vector<std::string>{"untagged", "boundary", "wall", "group8", "group9"}));
  const TetConnectivity conn = connect(mesh);
  std::map<int, int> per_tag;
  for (int e = 0; e < 2; ++e) {
    for (int f = 0; f < 4; ++f) {
      if (conn.EToE[e][f] < 0) ++per_tag[conn.bc_tag[e][f]];
    }
  }
  EXPECT_EQ(per_tag, (std::map<int, int>{{0, 2}, {1, 1}, {2, 1}, {3, 1}, {4, 1}}));
}

// Inputs found by fuzzing (tests/fuzz/regressions) that crashed Gmsh, corrupted its heap or made
// it run a script: each is now an error naming the file, and this process goes on.
TEST_F(GmshReader, FuzzRegressionsAreErrors) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::fuzz_regressions("fuzz_gmsh_reader"))) {
    ++count;
    const std::string file = entry.path().string();
    try {
      dgk::mesh::read_gmsh_tet(file);
      ADD_FAILURE() << "accepted " << file;
    } catch (const dgk::Error& e) {
      EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    }
  }
  EXPECT_GE(count, 13);
}

// A count a section declares is checked against the bytes after it before Gmsh allocates for it:
// the error names the file, the line and the value.
TEST_F(GmshReader, DeclaredCountsAreCheckedAgainstTheFileSize) {
  const std::string head = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n";
  const std::string block = "1 1 0 1\n1\n0 0 0\n";
  const std::vector<std::tuple<std::string, std::string, std::string>> files{
      {"nodes.msh", head + "$Nodes\n1 2147483647 1 1\n" + block + "$EndNodes\n", "line 5: declares 2147483647 nodes"},
      {"block.msh", head + "$Nodes\n1 1 1 1\n1 1 0 99999999\n1\n0 0 0\n$EndNodes\n",
       "line 6: declares 99999999 nodes"},
      {"elements.msh", head + "$Nodes\n1 1 1 1\n" + block + "$EndNodes\n$Elements\n1 -3 1 1\n3 1 4 1\n1 1 1 1 1\n$EndElements\n",
       "line 11: declares -3 elements"},
      {"tags.msh",
       "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n$Elements\n1\n"
       "7 15 40000 1 1\n$EndElements\n",
       "line 10: element 7 declares 40000 tags"}};
  for (const auto& [name, content, expected] : files) {
    const std::string path = file(name);
    std::ofstream(path) << content;
    const std::string message = error_of([&] { read_gmsh_tet(path); });
    EXPECT_NE(message.find("'" + path + "', " + expected), std::string::npos) << name << ": " << message;
  }
}

// The bytes of a binary MSH file: text, and numbers in this machine's byte order or swapped.
class MshBytes {
 public:
  explicit MshBytes(bool swap) : m_swap(swap) {}
  void text(const std::string& t) { m_data += t; }
  // Appends the numbers; returns the offset of the first.
  template <class T>
  std::size_t put(std::initializer_list<T> values) {
    const std::size_t at = m_data.size();
    for (T v : values) {
      std::string b(reinterpret_cast<const char*>(&v), sizeof v);
      if (m_swap) std::reverse(b.begin(), b.end());
      m_data += b;
    }
    return at;
  }
  const std::string& data() const { return m_data; }

 private:
  bool m_swap;
  std::string m_data;
};

// One tetrahedron in volume 1 (physical group 7) as binary MSH 4.1, declaring `physical_tags`
// physical tags for the volume and `block_nodes` nodes in its node block; where these two counts
// are goes to `at[0]` and `at[1]`.
std::string binary_tet_msh41(bool swap, std::uint64_t physical_tags, std::uint64_t block_nodes, std::size_t at[2]) {
  MshBytes b(swap);
  b.text("$MeshFormat\n4.1 1 8\n");
  b.put<std::int32_t>({1});
  b.text("\n$EndMeshFormat\n$Entities\n");
  b.put<std::uint64_t>({0, 0, 0, 1});  // points, curves, surfaces, volumes
  b.put<std::int32_t>({1});
  b.put<double>({0, 0, 0, 1, 1, 1});
  at[0] = b.put<std::uint64_t>({physical_tags});
  b.put<std::int32_t>({7});
  b.put<std::uint64_t>({0});  // bounding surfaces
  b.text("\n$EndEntities\n$Nodes\n");
  b.put<std::uint64_t>({1, 4, 1, 4});  // blocks, nodes, smallest and largest tag
  b.put<std::int32_t>({3, 1, 0});      // volume 1, not parametric
  at[1] = b.put<std::uint64_t>({block_nodes});
  b.put<std::uint64_t>({1, 2, 3, 4});
  b.put<double>({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1});
  b.text("\n$EndNodes\n$Elements\n");
  b.put<std::uint64_t>({1, 1, 1, 1});
  b.put<std::int32_t>({3, 1, 4});            // tetrahedra of volume 1
  b.put<std::uint64_t>({1, 1, 1, 2, 3, 4});  // one: its tag and nodes
  b.text("\n$EndElements\n");
  return b.data();
}

// The same in binary MSH 2.2, its element block declaring `tags` tags per element (at `at`).
std::string binary_tet_msh22(bool swap, std::int32_t tags, std::size_t& at) {
  MshBytes b(swap);
  b.text("$MeshFormat\n2.2 1 8\n");
  b.put<std::int32_t>({1});
  b.text("\n$EndMeshFormat\n$Nodes\n4\n");
  for (std::int32_t n = 0; n < 4; ++n) {
    b.put<std::int32_t>({n + 1});
    b.put<double>({n == 1 ? 1. : 0., n == 2 ? 1. : 0., n == 3 ? 1. : 0.});
  }
  b.text("\n$EndNodes\n$Elements\n1\n");
  at = b.put<std::int32_t>({4, 1}) + 8;  // tetrahedra, one
  b.put<std::int32_t>({tags, 1, 7, 1, 1, 2, 3, 4});
  b.text("\n$EndElements\n");
  return b.data();
}

// Binary files are walked as Gmsh reads them, in either byte order, and each count is checked
// against the bytes after it: the error names the file, the section, where the count is and the
// value.
TEST_F(GmshReader, BinaryCountsAreCheckedAgainstTheFileSize) {
  for (bool swap : {false, true}) {
    const std::string tag = swap ? "_swapped" : "";
    std::size_t at[2] = {0, 0}, tags_at = 0;
    const auto write = [&](const std::string& name, const std::string& bytes) {
      const std::string path = file(name + tag + ".msh");
      std::ofstream(path, std::ios::binary) << bytes;
      return path;
    };
    std::string path = write("good41", binary_tet_msh41(swap, 1, 4, at));
    EXPECT_EQ(read_gmsh_tet(path).num_elements(), 1) << path;
    path = write("good22", binary_tet_msh22(swap, 2, tags_at));
    EXPECT_EQ(read_gmsh_tet(path).num_elements(), 1) << path;

    path = write("physicals", binary_tet_msh41(swap, std::uint64_t(1) << 40, 4, at));
    std::string message = error_of([&] { read_gmsh_tet(path); });
    EXPECT_NE(message.find("'" + path + "', $Entities at byte " + std::to_string(at[0]) +
                           ": declares 1099511627776 physical tags, more than the"),
              std::string::npos)
        << message;
    path = write("nodes", binary_tet_msh41(swap, 1, std::uint64_t(1) << 31, at));
    message = error_of([&] { read_gmsh_tet(path); });
    EXPECT_NE(message.find("'" + path + "', $Nodes at byte " + std::to_string(at[1]) + ": declares 2147483648 nodes"),
              std::string::npos)
        << message;
    path = write("tags", binary_tet_msh22(swap, 40000, tags_at));
    message = error_of([&] { read_gmsh_tet(path); });
    EXPECT_NE(message.find("'" + path + "', $Elements at byte " + std::to_string(tags_at) +
                           ": declares 40000 tags per element"),
              std::string::npos)
        << message;
  }
}

TEST_F(GmshReader, DegenerateElementIsNamed) {
  const std::string path = file("flat.msh");
  std::ofstream(path) << hand_written("11 4 2 0 1 1 2 6 3\n");
  const std::string message = error_of([&] { read_gmsh_tet(path); });
  EXPECT_NE(message.find("'" + path + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("tetrahedron 11 (element 1)"), std::string::npos) << message;
  EXPECT_NE(message.find("degenerate"), std::string::npos) << message;
}

// --- Triangles (read_gmsh_tri) ---------------------------------------------------------------

// What Gmsh itself reports about the rectangle it meshed.
struct GmshRectangle {
  std::size_t triangles = 0;
  std::map<std::string, std::size_t> lines;  // per boundary group name
  int surface_group = 0;
};

// The rectangle [0.5, 1.5] x [-1, 1] (area 2) meshed by Gmsh, with a physical group per side
// (ymax left unnamed) and one surface group, written as MSH 4.1.
GmshRectangle write_gmsh_rectangle(const std::string& path, int order) {
  GmshRectangle rect;
  gmsh::initialize(0, nullptr, false);
  gmsh::option::setNumber("General.Terminal", 0);
  gmsh::model::add("rectangle");
  const int surface = gmsh::model::occ::addRectangle(0.5, -1.0, 0.0, 1.0, 2.0);
  gmsh::model::occ::synchronize();
  gmsh::vectorpair curves;
  gmsh::model::getEntities(curves, 1);
  EXPECT_EQ(curves.size(), 4u);
  std::map<int, std::string> group_of_curve;
  for (const auto& [dim, tag] : curves) {
    double lo[3], hi[3];
    gmsh::model::getBoundingBox(dim, tag, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    const int axis = hi[0] - lo[0] < hi[1] - lo[1] ? 0 : 1;  // the constant coordinate
    const bool is_min = std::abs(0.5 * (lo[axis] + hi[axis]) - (axis == 0 ? 0.5 : -1.0)) < 1e-6;
    const std::string name = std::string(1, "xy"[axis]) + (is_min ? "min" : "max");
    const int group = gmsh::model::addPhysicalGroup(1, {tag}, 10 + 2 * axis + (is_min ? 0 : 1));
    if (name != "ymax") gmsh::model::setPhysicalName(1, group, name);
    group_of_curve[tag] = name == "ymax" ? "group" + std::to_string(group) : name;
  }
  rect.surface_group = gmsh::model::addPhysicalGroup(2, {surface}, 7);
  gmsh::model::setPhysicalName(2, rect.surface_group, "plate");
  gmsh::option::setNumber("Mesh.MeshSizeMax", 0.3);
  gmsh::option::setNumber("Mesh.ElementOrder", order);
  gmsh::model::mesh::generate(2);

  rect.triangles = count_elements(2);
  for (const auto& [curve, name] : group_of_curve) rect.lines[name] += count_elements(1, curve);
  write_msh41(path);
  return rect;
}

void check_rectangle(const TriMesh& mesh, const GmshRectangle& rect) {
  ASSERT_GT(rect.triangles, 0u);
  EXPECT_EQ(static_cast<std::size_t>(mesh.num_elements()), rect.triangles);
  EXPECT_EQ(mesh.material.size(), rect.triangles);
  ASSERT_EQ(mesh.region.size(), rect.triangles);
  for (int r : mesh.region) EXPECT_EQ(r, rect.surface_group);
  EXPECT_TRUE(mesh.boundary_circles.empty());

  ASSERT_EQ(mesh.boundary_names.size(), 5u);
  EXPECT_EQ(mesh.boundary_names[0], "boundary");
  expect_group_counts(mesh, mesh.boundary_edges, rect.lines);
  EXPECT_GE(mesh.boundary_tag("group13"), 1);

  const TriConnectivity conn = connect(mesh);
  EXPECT_EQ(static_cast<std::size_t>(conn.num_boundary_edges), mesh.boundary_edges.size());
  for (int e = 0; e < mesh.num_elements(); ++e) {
    for (int f = 0; f < 3; ++f) {
      if (conn.EToE[e][f] >= 0) {
        EXPECT_EQ(conn.EToE[conn.EToE[e][f]][conn.EToF[e][f]], e);
      } else {
        EXPECT_GE(conn.bc_tag[e][f], 1);  // every hull edge belongs to a side group
      }
    }
  }
  const TriGeometry geo = geometric_factors(mesh);  // also: every triangle counter-clockwise
  double area = 0.0;
  for (double J : geo.J) area += 2.0 * J;
  EXPECT_NEAR(area, 2.0, 1e-12);
  const EdgeMaps maps = build_edge_maps(mesh, conn, basis::make_tri_nodal(3));
  EXPECT_EQ(maps.boundary_edges.size(), mesh.boundary_edges.size());
}

TEST_F(GmshReader, TriangleRoundTrip) {
  const std::string path = file("rectangle.msh");
  const GmshRectangle rect = write_gmsh_rectangle(path, 1);
  const TriMesh mesh = read_gmsh_tri(path);
  EXPECT_EQ(mesh.source, path);
  check_rectangle(mesh, rect);
  // Through the specification parser, and a second time in the same process.
  const TriMesh again = load_tri_mesh(path);
  EXPECT_EQ(again.source, path);
  EXPECT_EQ(again.vertices, mesh.vertices);
  EXPECT_EQ(again.elements, mesh.elements);
  // A 2D file is no tetrahedral mesh, and a 3D file no triangular one.
  EXPECT_NE(error_of([&] { read_gmsh_tet(path); }).find("holds no tetrahedra"), std::string::npos);
  const std::string box = file("box.msh");
  write_gmsh_box(box, 1);
  const std::string message = error_of([&] { read_gmsh_tri(box); });
  EXPECT_NE(message.find("Gmsh mesh '" + box + "' holds 3D elements (Tetrahedron 4)"), std::string::npos) << message;
}

TEST_F(GmshReader, SecondOrderTrianglesUseTheirCorners) {
  const std::string path = file("rectangle2.msh");
  const GmshRectangle rect = write_gmsh_rectangle(path, 2);
  const TriMesh mesh = read_gmsh_tri(path);
  check_rectangle(mesh, rect);
  // Edge midpoints are not vertices: about half as many vertices as triangles.
  EXPECT_LT(mesh.num_vertices(), mesh.num_elements());
}

// A triangle mesh written by hand in MSH 2.2: nodes "tag x y z" and elements, one per line.
std::string msh22(const std::vector<std::string>& nodes, const std::vector<std::string>& elements,
                  const std::string& names = "") {
  std::ostringstream out;
  out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n" << names << "$Nodes\n" << nodes.size() << "\n";
  for (const auto& n : nodes) out << n << "\n";
  out << "$EndNodes\n$Elements\n" << elements.size() << "\n";
  for (const auto& e : elements) out << e << "\n";
  out << "$EndElements\n";
  return out.str();
}

const std::vector<std::string> unit_square_nodes{"1 0 0 0", "2 1 0 0", "3 0 1 0", "4 1 1 0", "5 2 0 0", "6 2 1 0"};

TEST_F(GmshReader, TriangleGroupsRegionsAndOrientation) {
  // Surface groups 3 and 4; line groups 5 "boundary", 6 "wall", 9 unnamed. Triangle 11 is
  // clockwise; nodes 5 and 6 are no corners.
  const std::string path = file("triangles.msh");
  std::ofstream(path) << msh22(
      unit_square_nodes, {"10 2 2 3 1 1 2 3", "11 2 2 4 2 2 3 4", "20 1 2 5 1 1 2", "21 1 2 6 2 2 4", "22 1 2 9 3 4 3"},
      "$PhysicalNames\n3\n1 5 \"boundary\"\n1 6 \"wall\"\n2 4 \"core\"\n$EndPhysicalNames\n");
  const TriMesh mesh = read_gmsh_tri(path);
  ASSERT_EQ(mesh.num_elements(), 2);
  EXPECT_EQ(mesh.num_vertices(), 4);
  for (int e = 0; e < 2; ++e) EXPECT_NEAR(element_jacobian(mesh, e), 0.25, 1e-15) << "element " << e;
  EXPECT_EQ(mesh.region, (std::vector<int>{3, 4}));
  EXPECT_EQ(mesh.boundary_names, (std::vector<std::string>{"untagged", "boundary", "wall", "group9"}));
  const TriConnectivity conn = connect(mesh);
  EXPECT_EQ(conn.num_interior_edges, 1);
  std::map<int, int> per_tag;
  for (int e = 0; e < 2; ++e) {
    for (int f = 0; f < 3; ++f) {
      if (conn.EToE[e][f] < 0) ++per_tag[conn.bc_tag[e][f]];
    }
  }
  EXPECT_EQ(per_tag, (std::map<int, int>{{0, 1}, {1, 1}, {2, 1}, {3, 1}}));
  EXPECT_NO_THROW(build_edge_maps(mesh, conn, basis::make_tri_nodal(2)));
}

TEST_F(GmshReader, TriangleFileErrorsAreNamed) {
  const std::vector<std::pair<std::string, std::string>> cases{
      // Triangle 11 on a line.
      {msh22(unit_square_nodes, {"10 2 2 3 1 1 2 3", "11 2 2 4 2 1 2 5"}), "triangle 11 (element 1) is degenerate"},
      // A node off the plane z = 0.
      {msh22({"1 0 0 0", "2 1 0 0", "3 0 1 0.5"}, {"10 2 2 3 1 1 2 3"}), "is not planar: node 1 has z = 0"},
      // A quadrilateral next to the triangle.
      {msh22(unit_square_nodes, {"10 2 2 3 1 1 2 3", "11 3 2 4 2 2 5 6 4"}),
       "(Quadrilateral 4); dgk reads triangles only"},
      // Only lines.
      {msh22(unit_square_nodes, {"20 1 2 5 1 1 2"}), "holds no triangles; dgk needs a 2D triangular mesh"},
      // A boundary line away from every triangle.
      {msh22(unit_square_nodes, {"10 2 2 3 1 1 2 3", "22 1 2 9 3 5 6"}),
       "line 22 of boundary group 'group9' uses node 5, which is not a corner of any triangle"},
      // Point elements (of a physical group of dimension 0) are ignored.
      {msh22(unit_square_nodes, {"10 2 2 3 1 1 2 3", "11 2 2 4 2 2 4 3", "30 15 2 8 1 1"}), ""},
  };
  int k = 0;
  for (const auto& [content, part] : cases) {
    const std::string path = file("bad" + std::to_string(k++) + ".msh");
    std::ofstream(path) << content;
    if (part.empty()) {
      EXPECT_EQ(read_gmsh_tri(path).num_elements(), 2);
      continue;
    }
    const std::string message = error_of([&] { read_gmsh_tri(path); });
    EXPECT_NE(message.find("Gmsh mesh '" + path + "'"), std::string::npos) << message;
    EXPECT_NE(message.find(part), std::string::npos) << message;
  }
  const std::string missing = file("missing.msh");
  std::string message = error_of([&] { read_gmsh_tri(missing); });
  EXPECT_NE(message.find("Gmsh mesh '" + missing + "' does not exist"), std::string::npos) << message;
  message = error_of([&] { load_tri_mesh(missing); });
  EXPECT_NE(message.find("Gmsh mesh '" + missing + "' does not exist"), std::string::npos) << message;
  const std::string text = file("text.msh");
  std::ofstream(text) << "this is not a mesh\n";
  message = error_of([&] { read_gmsh_tri(text); });
  EXPECT_NE(message.find("'" + text + "' is not an MSH file"), std::string::npos) << message;
}

}  // namespace
}  // namespace dgk::mesh

#else  // !DGK_HAS_GMSH

#include "dgk/core/error.hpp"

TEST(GmshReader, UnavailableWithoutGmsh) {
  EXPECT_FALSE(dgk::mesh::gmsh_available());
  EXPECT_THROW(dgk::mesh::read_gmsh_tet("box.msh"), dgk::Error);
  EXPECT_THROW(dgk::mesh::read_gmsh_tri("square.msh"), dgk::Error);
  EXPECT_THROW(dgk::mesh::load_tri_mesh("square.msh"), dgk::Error);
}

#endif
