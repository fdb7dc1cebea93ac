// Triangular meshes: the rectangle generator (also jittered), mesh specifications,
// connectivity, geometric factors, edge maps and the errors for invalid input.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/core/error.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "mesh_test_util.hpp"

namespace dgk::mesh {
namespace {

using test::error_of;

double signed_area(const TriMesh& mesh, int e) {
  const auto& el = mesh.elements[static_cast<std::size_t>(e)];
  const auto& a = mesh.vertices[static_cast<std::size_t>(el[0])];
  const auto& b = mesh.vertices[static_cast<std::size_t>(el[1])];
  const auto& c = mesh.vertices[static_cast<std::size_t>(el[2])];
  return 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every edge's neighbour points back to it.
void expect_symmetric(const TriMesh& mesh, const TriConnectivity& conn) {
  for (int e = 0; e < mesh.num_elements(); ++e) {
    for (int f = 0; f < 3; ++f) {
      const auto ue = static_cast<std::size_t>(e);
      const int e2 = conn.EToE[ue][f], f2 = conn.EToF[ue][f];
      if (e2 < 0) {
        EXPECT_GE(conn.bc_tag[ue][f], 0) << "element " << e << " edge " << f;
        continue;
      }
      EXPECT_EQ(conn.bc_tag[ue][f], -1);
      ASSERT_LT(e2, mesh.num_elements());
      EXPECT_EQ(conn.EToE[static_cast<std::size_t>(e2)][f2], e) << "element " << e << " edge " << f;
      EXPECT_EQ(conn.EToF[static_cast<std::size_t>(e2)][f2], f) << "element " << e << " edge " << f;
    }
  }
}

TEST(RectangleMesh, CountsAreasAndBoundaryTags) {
  for (const std::array<int, 2>& cells : std::vector<std::array<int, 2>>{{1, 1}, {2, 3}, {4, 4}, {5, 2}}) {
    RectangleSpec spec;
    spec.cells = cells;
    spec.lower = {-1.0, 0.5};
    spec.upper = {2.0, 1.5};
    const TriMesh mesh = make_rectangle(spec);
    const int nx = cells[0], ny = cells[1];
    ASSERT_EQ(mesh.num_elements(), 2 * nx * ny);
    EXPECT_EQ(mesh.num_vertices(), (nx + 1) * (ny + 1));
    EXPECT_EQ(mesh.material.size(), mesh.elements.size());
    double area = 0.0;
    for (int e = 0; e < mesh.num_elements(); ++e) {
      const double a = signed_area(mesh, e);
      EXPECT_NEAR(a, 0.5 * 3.0 / nx * 1.0 / ny, 1e-14) << "element " << e;
      EXPECT_NEAR(element_jacobian(mesh, e), a / 2.0, 1e-14);
      area += a;
    }
    EXPECT_NEAR(area, 3.0, 1e-13);

    // Boundary edges lie on their named side.
    ASSERT_EQ(static_cast<int>(mesh.boundary_edges.size()), 2 * (nx + ny));
    std::array<int, 5> per_tag{};
    for (const auto& be : mesh.boundary_edges) {
      ASSERT_TRUE(be.tag >= 1 && be.tag <= 4);
      ++per_tag[static_cast<std::size_t>(be.tag)];
      const int axis = (be.tag - 1) / 2;
      const double side =
          be.tag % 2 == 1 ? spec.lower[static_cast<std::size_t>(axis)] : spec.upper[static_cast<std::size_t>(axis)];
      for (int v : be.vertices)
        EXPECT_EQ(mesh.vertices[static_cast<std::size_t>(v)][static_cast<std::size_t>(axis)], side);
    }
    EXPECT_EQ(per_tag[1], ny);
    EXPECT_EQ(per_tag[2], ny);
    EXPECT_EQ(per_tag[3], nx);
    EXPECT_EQ(per_tag[4], nx);
    EXPECT_EQ(mesh.boundary_tag("xmin"), 1);
    EXPECT_EQ(mesh.boundary_tag("ymax"), 4);
    EXPECT_EQ(mesh.boundary_tag("zmin"), -1);

    const TriConnectivity conn = connect(mesh);
    EXPECT_EQ(conn.num_boundary_edges, 2 * (nx + ny));
    EXPECT_EQ(conn.num_interior_edges, (3 * 2 * nx * ny - 2 * (nx + ny)) / 2);
    expect_symmetric(mesh, conn);
    for (const auto& tags : conn.bc_tag)
      for (int t : tags) EXPECT_NE(t, 0) << "every hull edge of the rectangle is tagged";
  }
}

TEST(RectangleMesh, JitteredMeshIsValidUnstructuredAndReproducible) {
  RectangleSpec spec;
  spec.cells = {6, 4};
  spec.jitter = max_rectangle_jitter;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    spec.seed = seed;
    const TriMesh mesh = make_rectangle(spec);
    const double cell_area = 1.0 / 24.0;
    double area = 0.0, min_ratio = 1e300;
    for (int e = 0; e < mesh.num_elements(); ++e) {
      const double a = signed_area(mesh, e);
      min_ratio = std::min(min_ratio, a / (0.5 * cell_area));
      area += a;
    }
    // The bound of the header: 1 - (2 + sqrt 2) j - 4 j^2 of the original area.
    const double j = spec.jitter;
    EXPECT_GE(min_ratio, 1.0 - (2.0 + std::sqrt(2.0)) * j - 4.0 * j * j) << "seed " << seed;
    EXPECT_NEAR(area, 1.0, 1e-13) << "seed " << seed;
    EXPECT_NO_THROW(geometric_factors(mesh));
    const TriConnectivity conn = connect(mesh);
    expect_symmetric(mesh, conn);
    // Interior vertices moved (by at most jitter h), boundary vertices did not.
    int moved = 0;
    for (int jy = 0; jy <= 4; ++jy)
      for (int ix = 0; ix <= 6; ++ix) {
        const auto& x = mesh.vertices[static_cast<std::size_t>(ix + 7 * jy)];
        const double dx = (x[0] - ix / 6.0) * 6.0, dy = (x[1] - jy / 4.0) * 4.0;
        const bool interior = ix > 0 && ix < 6 && jy > 0 && jy < 4;
        if (!interior) {
          EXPECT_EQ(dx, 0.0);
          EXPECT_EQ(dy, 0.0);
        }
        EXPECT_LE(std::hypot(dx, dy), j * (1 + 1e-12));
        moved += interior && std::hypot(dx, dy) > 1e-3;
      }
    EXPECT_GE(moved, 10) << "seed " << seed;
  }
  // Same seed, same mesh; another seed, another mesh.
  spec.seed = 5;
  const TriMesh a = make_rectangle(spec), b = make_rectangle(spec);
  spec.seed = 6;
  const TriMesh c = make_rectangle(spec);
  EXPECT_EQ(a.vertices, b.vertices);
  EXPECT_NE(a.vertices, c.vertices);
}

TEST(RectangleMesh, SpecificationsAreParsedStrictly) {
  EXPECT_EQ(load_tri_mesh("rect:3").num_elements(), 18);
  EXPECT_EQ(load_tri_mesh("rect:2,5").num_elements(), 20);
  const TriMesh j = load_tri_mesh("rect:4,jitter=0.15");
  EXPECT_EQ(j.num_elements(), 32);
  EXPECT_EQ(j.source, "rect:4,jitter=0.15");
  EXPECT_NE(j.vertices, load_tri_mesh("rect:4").vertices);
  EXPECT_EQ(j.vertices, load_tri_mesh("rect:4,4,jitter=0.15,seed=1").vertices);
  EXPECT_NE(j.vertices, load_tri_mesh("rect:4,jitter=0.15,seed=2").vertices);

  const std::vector<std::pair<std::string, std::string>> bad{
      {"rect:", "''"},
      {"rect:0", "'0'"},
      {"rect:-2", "'-2'"},
      {"rect:2,3,4", "3 cell counts"},
      {"rect:a", "'a'"},
      {"rect:2.5", "'2.5'"},
      {"rect:2,jitter=0.5", "jitter 0.5"},
      {"rect:2,jitter=-0.1", "jitter -0.1"},
      {"rect:2,jitter=abc", "'abc'"},
      {"rect:2,jitter=nan", "'nan'"},
      {"rect:2,foo=1", "unknown option 'foo'"},
      {"rect:2,jitter=0.1,jitter=0.1", "twice"},
      {"rect:2,jitter=0.1,3", "after an option"},
      {"rect:2,seed=0", "seed '0'"},
      {"box:2", "unknown 2D mesh specification 'box:2'"},
      {"square.msh", "unknown 2D mesh specification"},
      {"rect:100000,100000", "elements"},
  };
  for (const auto& [spec, part] : bad) {
    const std::string m = error_of([&] { load_tri_mesh(spec); });
    EXPECT_TRUE(contains(m, part)) << spec << ": " << m;
  }

  RectangleSpec spec;
  spec.cells = {0, 2};
  EXPECT_TRUE(contains(error_of([&] { make_rectangle(spec); }), "axis 0 is 0"));
  spec.cells = {2, 2};
  spec.upper = {1.0, 0.0};
  EXPECT_TRUE(contains(error_of([&] { make_rectangle(spec); }), "axis 1"));
}

TEST(TriGeometry, FactorsNormalsAndEdgeJacobians) {
  const TriMesh mesh = load_tri_mesh("rect:3,2,jitter=0.2,seed=3");
  const TriGeometry g = geometric_factors(mesh);
  for (int e = 0; e < mesh.num_elements(); ++e) {
    const auto ue = static_cast<std::size_t>(e);
    const auto& el = mesh.elements[ue];
    std::array<std::array<double, 2>, 3> x;
    for (int q = 0; q < 3; ++q)
      x[static_cast<std::size_t>(q)] = mesh.vertices[static_cast<std::size_t>(el[static_cast<std::size_t>(q)])];
    EXPECT_NEAR(g.J[ue], signed_area(mesh, e) / 2.0, 1e-15);
    // [rx sx; ry sy]^T is the inverse of [xr xs; yr ys] = [(x1 - x0)/2, (x2 - x0)/2].
    const double xr = 0.5 * (x[1][0] - x[0][0]), xs = 0.5 * (x[2][0] - x[0][0]);
    const double yr = 0.5 * (x[1][1] - x[0][1]), ys = 0.5 * (x[2][1] - x[0][1]);
    const auto& d = g.drdx[ue];  // rx, sx, ry, sy
    EXPECT_NEAR(d[0] * xr + d[2] * yr, 1.0, 1e-12);
    EXPECT_NEAR(d[0] * xs + d[2] * ys, 0.0, 1e-12);
    EXPECT_NEAR(d[1] * xr + d[3] * yr, 0.0, 1e-12);
    EXPECT_NEAR(d[1] * xs + d[3] * ys, 1.0, 1e-12);
    const std::array<double, 2> centroid{(x[0][0] + x[1][0] + x[2][0]) / 3, (x[0][1] + x[1][1] + x[2][1]) / 3};
    for (int f = 0; f < 3; ++f) {
      const auto& a = x[static_cast<std::size_t>(basis::tri_edge_vertices[static_cast<std::size_t>(f)][0])];
      const auto& b = x[static_cast<std::size_t>(basis::tri_edge_vertices[static_cast<std::size_t>(f)][1])];
      const auto& n = g.normal[ue][static_cast<std::size_t>(f)];
      EXPECT_NEAR(std::hypot(n[0], n[1]), 1.0, 1e-14);
      // Perpendicular to the edge, pointing away from the centroid.
      EXPECT_NEAR(n[0] * (b[0] - a[0]) + n[1] * (b[1] - a[1]), 0.0, 1e-14);
      EXPECT_GT(n[0] * (a[0] - centroid[0]) + n[1] * (a[1] - centroid[1]), 0.0);
      // The edge parameter runs over [-1, 1]: sJ is half the length.
      EXPECT_NEAR(g.sJ[ue][static_cast<std::size_t>(f)], 0.5 * std::hypot(b[0] - a[0], b[1] - a[1]), 1e-14);
      EXPECT_NEAR(g.fscale[ue][static_cast<std::size_t>(f)], g.sJ[ue][static_cast<std::size_t>(f)] / g.J[ue], 1e-12);
    }
  }
}

TEST(TriEdgeMaps, MatchedNodesCoincideOnJitteredMeshes) {
  for (int n = 1; n <= 6; ++n) {
    const basis::TriNodal ref = basis::make_tri_nodal(n);
    const TriMesh mesh = load_tri_mesh("rect:4,3,jitter=0.2,seed=" + std::to_string(n));
    const TriConnectivity conn = connect(mesh);
    const EdgeMaps maps = build_edge_maps(mesh, conn, ref);
    const TriNodeCoordinates x = node_coordinates(mesh, ref);
    ASSERT_EQ(maps.nfp, n + 1);
    ASSERT_EQ(maps.vmapM.size(), static_cast<std::size_t>(mesh.num_elements() * 3 * (n + 1)));
    EXPECT_EQ(static_cast<int>(maps.boundary_edges.size()), 2 * (4 + 3));
    for (std::size_t k = 0; k < maps.vmapM.size(); ++k) {
      const auto m = static_cast<std::size_t>(maps.vmapM[k]), p = static_cast<std::size_t>(maps.vmapP[k]);
      EXPECT_NEAR(x.x[m], x.x[p], 1e-14) << "n = " << n << ", trace node " << k;
      EXPECT_NEAR(x.y[m], x.y[p], 1e-14) << "n = " << n << ", trace node " << k;
      const int e = static_cast<int>(k) / (3 * (n + 1)), f = static_cast<int>(k) / (n + 1) % 3;
      const bool boundary = conn.EToE[static_cast<std::size_t>(e)][f] < 0;
      EXPECT_EQ(boundary, m == p) << "n = " << n << ", trace node " << k;
    }
  }
}

// Two triangles sharing the edge 1-2, unit right triangles on the unit square.
TriMesh two_triangles() {
  TriMesh mesh;
  mesh.source = "two triangles";
  mesh.vertices = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
  mesh.elements = {{0, 1, 2}, {1, 3, 2}};
  mesh.material.assign(2, {1.0, 1.0});
  return mesh;
}

TEST(TriMeshErrors, InvalidElementsAreNamed) {
  TriMesh mesh = two_triangles();
  EXPECT_NO_THROW(geometric_factors(mesh));
  const TriConnectivity conn = connect(mesh);
  EXPECT_EQ(conn.num_interior_edges, 1);
  EXPECT_EQ(conn.num_boundary_edges, 4);

  TriMesh inverted = mesh;
  std::swap(inverted.elements[1][0], inverted.elements[1][1]);
  std::string m = error_of([&] { geometric_factors(inverted); });
  EXPECT_TRUE(contains(m, "element 1") && contains(m, "inverted")) << m;

  TriMesh degenerate = mesh;
  degenerate.vertices.push_back({2, 0});
  degenerate.elements[1] = {0, 1, 4};
  m = error_of([&] { geometric_factors(degenerate); });
  EXPECT_TRUE(contains(m, "element 1") && contains(m, "degenerate")) << m;

  TriMesh twice = mesh;
  twice.elements[0] = {0, 1, 1};
  m = error_of([&] { connect(twice); });
  EXPECT_TRUE(contains(m, "element 0") && contains(m, "twice")) << m;

  TriMesh missing = mesh;
  missing.elements[1] = {1, 7, 2};
  m = error_of([&] { connect(missing); });
  EXPECT_TRUE(contains(m, "element 1") && contains(m, "vertex 7")) << m;

  TriMesh material = mesh;
  material.material[1] = {0.0, 1.0};
  m = error_of([&] { geometric_factors(material); });
  EXPECT_TRUE(contains(m, "element 1") && contains(m, "material")) << m;
}

TEST(TriMeshErrors, NonConformingInputIsNamed) {
  // An edge shared by three elements.
  TriMesh fan = two_triangles();
  fan.vertices.push_back({-1, 1});
  fan.elements.push_back({1, 2, 4});
  fan.material.push_back({1.0, 1.0});
  std::string m = error_of([&] { connect(fan); });
  EXPECT_TRUE(contains(m, "shared by 3 elements") && contains(m, "element 2")) << m;

  // A hanging vertex: the left triangle's edge (1,0)-(1,2) meets two right triangles that split
  // it at (1,1). connect() sees only boundary edges there; the overlap check finds them.
  TriMesh hanging;
  hanging.source = "hanging";
  hanging.vertices = {{0, 0}, {1, 0}, {1, 2}, {1, 1}, {2, 0}, {2, 2}};
  hanging.elements = {{0, 1, 2}, {1, 4, 3}, {3, 4, 5}, {3, 5, 2}};
  hanging.material.assign(4, {1.0, 1.0});
  EXPECT_NO_THROW(geometric_factors(hanging));
  const TriConnectivity conn = connect(hanging);
  m = error_of([&] { build_edge_maps(hanging, conn, basis::make_tri_nodal(2)); });
  EXPECT_TRUE(contains(m, "not conforming") && contains(m, "element 0") && contains(m, "overlaps")) << m;

  // Tagged boundary edges must be edges of the hull.
  TriMesh tagged = two_triangles();
  tagged.boundary_names = {"boundary", "wall"};
  tagged.boundary_edges = {{{1, 2}, 1}};
  m = error_of([&] { connect(tagged); });
  EXPECT_TRUE(contains(m, "not on the hull")) << m;
  tagged.boundary_edges = {{{0, 3}, 1}};
  m = error_of([&] { connect(tagged); });
  EXPECT_TRUE(contains(m, "not an edge of any element")) << m;
  tagged.boundary_edges = {{{0, 1}, 2}};
  m = error_of([&] { connect(tagged); });
  EXPECT_TRUE(contains(m, "tag 2")) << m;
  tagged.boundary_edges = {{{0, 1}, 1}};
  const TriConnectivity tc = connect(tagged);
  EXPECT_EQ(tc.bc_tag[0][0], 1);  // edge 0 of element 0 is (0, 1)
}

}  // namespace
}  // namespace dgk::mesh
