// Triangular meshes: the rectangle generator (also jittered), mesh specifications,
// connectivity, geometric factors, edge maps and the errors for invalid input; the quarter
// annulus (structured and through Gmsh), the Gmsh rectangle, refinement and periodic pairing.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/core/error.hpp"
#include "dgk/mesh/tet_mesh.hpp"  // gmsh_available
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
      {"square.msh", "Gmsh mesh 'square.msh'"},  // a file name: read (or refused without Gmsh)
      {"rect:100000,100000", "elements"},
  };
  for (const auto& [text, part] : bad) {
    const std::string& input = text;  // a lambda may not capture a structured binding in C++17
    const std::string m = error_of([&] { load_tri_mesh(input); });
    EXPECT_TRUE(contains(m, part)) << input << ": " << m;
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

// --- Quarter annulus, refinement, periodic pairing, Gmsh generators ---------------------------

constexpr double pi = 3.14159265358979323846;

double total_area(const TriMesh& mesh) {
  double area = 0.0;
  for (int e = 0; e < mesh.num_elements(); ++e) area += signed_area(mesh, e);
  return area;
}

// Number of boundary edges per tag.
std::map<int, int> edges_per_tag(const TriMesh& mesh) {
  std::map<int, int> count;
  for (const auto& be : mesh.boundary_edges) ++count[be.tag];
  return count;
}

// Largest distance of the vertices of the edges of `tag` from the circle |x| = r.
double off_circle(const TriMesh& mesh, int tag, double r) {
  double worst = 0.0;
  for (const auto& be : mesh.boundary_edges) {
    if (be.tag != tag) continue;
    for (int v : be.vertices) {
      const auto& x = mesh.vertices[static_cast<std::size_t>(v)];
      worst = std::max(worst, std::abs(std::hypot(x[0], x[1]) - r));
    }
  }
  return worst;
}

// The conventions every annulus shares: names, circles, straight sides on the axes, all hull edges
// tagged, valid geometry.
void expect_annulus(const TriMesh& mesh, double r_inner, double r_outer, double circle_tolerance) {
  EXPECT_EQ(mesh.boundary_names, (std::vector<std::string>{"boundary", "inner", "outer", "inflow", "outflow"}));
  ASSERT_EQ(mesh.boundary_circles.size(), 2u);
  EXPECT_EQ(mesh.boundary_circles[0].tag, 1);
  EXPECT_EQ(mesh.boundary_circles[0].radius, r_inner);
  EXPECT_FALSE(mesh.boundary_circles[0].inside);
  EXPECT_EQ(mesh.boundary_circles[1].tag, 2);
  EXPECT_EQ(mesh.boundary_circles[1].radius, r_outer);
  EXPECT_TRUE(mesh.boundary_circles[1].inside);
  for (const auto& c : mesh.boundary_circles) EXPECT_EQ(c.center, (std::array<double, 2>{0.0, 0.0}));
  EXPECT_LE(off_circle(mesh, 1, r_inner), circle_tolerance);
  EXPECT_LE(off_circle(mesh, 2, r_outer), circle_tolerance);
  for (const auto& be : mesh.boundary_edges) {
    for (int v : be.vertices) {
      const auto& x = mesh.vertices[static_cast<std::size_t>(v)];
      if (be.tag == 3) {
        EXPECT_EQ(x[1], 0.0) << "inflow vertex " << v;
      }
      if (be.tag == 4) {
        EXPECT_EQ(x[0], 0.0) << "outflow vertex " << v;
      }
    }
  }
  const TriConnectivity conn = connect(mesh);
  expect_symmetric(mesh, conn);
  EXPECT_EQ(static_cast<std::size_t>(conn.num_boundary_edges), mesh.boundary_edges.size());
  for (const auto& tags : conn.bc_tag)
    for (int t : tags) EXPECT_NE(t, 0) << "every hull edge of the annulus is tagged";
  EXPECT_NO_THROW(geometric_factors(mesh));
  EXPECT_NO_THROW(build_edge_maps(mesh, conn, basis::make_tri_nodal(3)));
}

TEST(QuarterAnnulus, StructuredMeshHasItsTagsCirclesAndSides) {
  const TriMesh mesh = make_quarter_annulus(AnnulusSpec{});
  EXPECT_EQ(mesh.source, "annulus:8,2");
  EXPECT_EQ(mesh.num_elements(), 2 * 2 * 8);
  EXPECT_EQ(mesh.num_vertices(), 3 * 9);
  EXPECT_EQ(edges_per_tag(mesh), (std::map<int, int>{{1, 8}, {2, 8}, {3, 2}, {4, 2}}));
  expect_annulus(mesh, 1.0, 1.384, 1e-14);
  for (int e = 0; e < mesh.num_elements(); ++e) EXPECT_GT(signed_area(mesh, e), 0.0) << "element " << e;
  // Every vertex is on one of the 3 circles of the radial grid.
  for (const auto& x : mesh.vertices) {
    const double r = std::hypot(x[0], x[1]);
    EXPECT_NEAR(std::min({std::abs(r - 1.0), std::abs(r - 1.192), std::abs(r - 1.384)}), 0.0, 1e-14);
  }

  // Jitter moves interior vertices only; other radii and counts.
  AnnulusSpec spec;
  spec.radial = 4;
  spec.angular = 12;
  spec.r_inner = 0.5;
  spec.r_outer = 2.0;
  spec.jitter = max_rectangle_jitter;
  spec.seed = 7;
  const TriMesh jittered = make_quarter_annulus(spec);
  EXPECT_EQ(jittered.source, "annulus:12,4,r_inner=0.5,r_outer=2,jitter=0.2,seed=7");
  EXPECT_EQ(jittered.num_elements(), 2 * 4 * 12);
  expect_annulus(jittered, 0.5, 2.0, 1e-14);
  int moved = 0;
  for (const auto& x : jittered.vertices) {
    const double r = std::hypot(x[0], x[1]);
    moved += std::abs((r - 0.5) / 0.375 - std::round((r - 0.5) / 0.375)) > 1e-6;
  }
  EXPECT_GE(moved, 10);

  const std::vector<std::pair<AnnulusSpec, std::string>> bad{
      {AnnulusSpec{0, 8, 1.0, 2.0, 0.0, 1}, "at least 1"},
      {AnnulusSpec{2, 8, 2.0, 1.0, 0.0, 1}, "0 < r_inner < r_outer"},
      {AnnulusSpec{2, 8, 0.0, 1.0, 0.0, 1}, "0 < r_inner < r_outer"},
      {AnnulusSpec{2, 8, 1.0, 2.0, 0.3, 1}, "jitter 0.3"},
  };
  for (const auto& item : bad) {
    const std::string m = error_of([&] { make_quarter_annulus(item.first); });
    EXPECT_TRUE(contains(m, item.second)) << m;
  }
}

TEST(QuarterAnnulus, RefinementOntoTheCirclesConvergesToTheArea) {
  const double exact = 0.25 * pi * (1.384 * 1.384 - 1.0);
  const TriMesh coarse = make_quarter_annulus(AnnulusSpec{});
  double previous = 0.0;
  for (int r = 0; r <= 4; ++r) {
    const TriMesh mesh = refine_tri_mesh(coarse, r);
    ASSERT_EQ(mesh.num_elements(), coarse.num_elements() << (2 * r));
    EXPECT_EQ(mesh.source, r == 0 ? "annulus:8,2" : "annulus:8,2,refine=" + std::to_string(r));
    expect_annulus(mesh, 1.0, 1.384, 1e-12);
    EXPECT_EQ(edges_per_tag(mesh), (std::map<int, int>{{1, 8 << r}, {2, 8 << r}, {3, 2 << r}, {4, 2 << r}}));
    // The chords of the outer arc cut off more than those of the inner arc add: n equal chords
    // of angle t on each arc leave n (r_o^2 - r_i^2) (t - sin t) / 2.
    const double error = exact - total_area(mesh);
    const int n = 8 << r;
    const double t = 0.5 * pi / n;
    EXPECT_NEAR(error, 0.5 * n * (1.384 * 1.384 - 1.0) * (t - std::sin(t)), 2e-13) << "refinement " << r;
    if (r > 0) {
      EXPECT_GT(previous / error, 3.8) << "refinement " << r;
      EXPECT_LT(previous / error, 4.2) << "refinement " << r;
    }
    previous = error;
  }
  EXPECT_LT(previous, 2e-5);

  // Without the circles the midpoints stay on the chords: the area does not change.
  TriMesh straight = coarse;
  straight.boundary_circles.clear();
  EXPECT_NEAR(total_area(refine_tri_mesh(straight, 3)), total_area(coarse), 1e-13);
}

TEST(RefineTriMesh, SplitsIntoFourAndKeepsEverythingElse) {
  RectangleSpec spec;
  spec.cells = {3, 2};
  spec.lower = {-1.0, 0.5};
  spec.upper = {2.0, 1.5};
  spec.jitter = max_rectangle_jitter;
  TriMesh mesh = make_rectangle(spec);
  mesh.source = "jittered";
  for (int e = 0; e < mesh.num_elements(); ++e) {
    mesh.region[static_cast<std::size_t>(e)] = e % 3;
    mesh.material[static_cast<std::size_t>(e)] = {1.0 + e, 2.0};
  }
  const TriConnectivity conn0 = connect(mesh);
  EXPECT_EQ(refine_tri_mesh(mesh, 0).vertices, mesh.vertices);
  EXPECT_EQ(refine_tri_mesh(mesh, 0).source, "jittered");
  for (int times = 1; times <= 3; ++times) {
    const TriMesh fine = refine_tri_mesh(mesh, times);
    const int factor = 1 << (2 * times);
    EXPECT_EQ(fine.source, "jittered,refine=" + std::to_string(times));
    ASSERT_EQ(fine.num_elements(), factor * mesh.num_elements());
    EXPECT_NEAR(total_area(fine), 3.0, 1e-13);
    // Euler: V - E + F = 1 with E = (3F + boundary) / 2.
    const int boundary = (2 * (3 + 2)) << times;
    EXPECT_EQ(fine.num_vertices() - (3 * fine.num_elements() + boundary) / 2 + fine.num_elements(), 1);
    for (int e = 0; e < fine.num_elements(); ++e) {
      const int parent = e / factor;
      const auto ue = static_cast<std::size_t>(e);
      EXPECT_EQ(fine.region[ue], parent % 3);
      EXPECT_EQ(fine.material[ue], (std::array<double, 2>{1.0 + parent, 2.0}));
      EXPECT_NEAR(signed_area(fine, e), signed_area(mesh, parent) / factor, 1e-15) << "child " << e;
    }
    const TriConnectivity conn = connect(fine);
    expect_symmetric(fine, conn);
    EXPECT_EQ(conn.num_boundary_edges, conn0.num_boundary_edges << times);
    std::map<int, int> expected;
    for (const auto& [tag, count] : edges_per_tag(mesh)) expected[tag] = count << times;
    EXPECT_EQ(edges_per_tag(fine), expected);
    for (const auto& tags : conn.bc_tag)
      for (int t : tags) EXPECT_NE(t, 0) << "every hull edge stays tagged";
    EXPECT_NO_THROW(build_edge_maps(fine, conn, basis::make_tri_nodal(2)));
    EXPECT_EQ(fine.boundary_names, mesh.boundary_names);
  }

  EXPECT_TRUE(contains(error_of([&] { refine_tri_mesh(mesh, -1); }), "-1 refinements"));
  EXPECT_TRUE(contains(error_of([&] { refine_tri_mesh(mesh, 14); }), "more than 2147483647"));
  TriMesh loose = mesh;
  loose.boundary_edges.push_back({{0, 11}, 1});
  std::string m = error_of([&] { refine_tri_mesh(loose, 1); });
  EXPECT_TRUE(contains(m, "'jittered'") && contains(m, "vertices 0 11") && contains(m, "not an edge")) << m;
  TriMesh short_material = mesh;
  short_material.material.pop_back();
  m = error_of([&] { refine_tri_mesh(short_material, 1); });
  EXPECT_TRUE(contains(m, "11 material entries for 12 elements")) << m;
}

// Pairs xmin with xmax and ymin with ymax; afterwards no boundary edge is left.
void expect_fully_periodic(const TriMesh& mesh, const std::array<double, 2>& size) {
  TriConnectivity conn = connect(mesh);
  const int interior = conn.num_interior_edges, boundary = conn.num_boundary_edges;
  connect_periodic(mesh, conn, mesh.boundary_tag("xmin"), mesh.boundary_tag("xmax"), {size[0], 0.0});
  connect_periodic(mesh, conn, mesh.boundary_tag("ymin"), mesh.boundary_tag("ymax"), {0.0, size[1]});
  EXPECT_EQ(conn.num_boundary_edges, 0);
  EXPECT_EQ(conn.num_interior_edges, interior + boundary / 2);
  EXPECT_EQ(2 * conn.num_interior_edges, 3 * mesh.num_elements());
  expect_symmetric(mesh, conn);
  // Partners: the same edge shifted by one period.
  for (int e = 0; e < mesh.num_elements(); ++e) {
    for (int f = 0; f < 3; ++f) {
      const auto ue = static_cast<std::size_t>(e);
      ASSERT_GE(conn.EToE[ue][f], 0);
      EXPECT_EQ(conn.bc_tag[ue][f], -1);
      auto midpoint = [&](int el, int edge) {
        const auto& v = mesh.elements[static_cast<std::size_t>(el)];
        const auto& a = mesh.vertices[static_cast<std::size_t>(v[basis::tri_edge_vertices[edge][0]])];
        const auto& b = mesh.vertices[static_cast<std::size_t>(v[basis::tri_edge_vertices[edge][1]])];
        return std::array<double, 2>{0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])};
      };
      const auto m = midpoint(e, f), p = midpoint(conn.EToE[ue][f], conn.EToF[ue][f]);
      for (int d = 0; d < 2; ++d) {
        const double gap = std::abs(p[d] - m[d]);
        EXPECT_TRUE(gap < 1e-12 || std::abs(gap - size[d]) < 1e-12) << "element " << e << " edge " << f;
      }
    }
  }
}

TEST(PeriodicPairing, RectanglesBecomeTori) {
  expect_fully_periodic(load_tri_mesh("rect:4"), {1.0, 1.0});
  RectangleSpec spec;
  spec.cells = {5, 3};
  spec.lower = {-1.0, 0.5};
  spec.upper = {2.0, 1.5};
  spec.jitter = max_rectangle_jitter;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    spec.seed = seed;
    expect_fully_periodic(make_rectangle(spec), {3.0, 1.0});
    expect_fully_periodic(refine_tri_mesh(make_rectangle(spec), 1), {3.0, 1.0});
  }
}

TEST(PeriodicPairing, UnmatchedEdgesAreNamed) {
  const TriMesh mesh = load_tri_mesh("rect:4,3");
  const TriConnectivity conn = connect(mesh);
  TriConnectivity c = conn;
  // A wrong period: the first edge of xmin (element 1 edge 2, midpoint (0, 1/6)) has no partner.
  std::string m = error_of([&] { connect_periodic(mesh, c, 1, 2, {0.9, 0.0}); });
  EXPECT_TRUE(contains(m, "'rect:4,3'") && contains(m, "element 1 edge 2") && contains(m, "midpoint (0, 0.166667)") &&
              contains(m, "'xmin'") && contains(m, "no partner on 'xmax'"))
      << m;
  // Nothing changed on failure.
  EXPECT_EQ(c.EToE, conn.EToE);
  EXPECT_EQ(c.num_boundary_edges, conn.num_boundary_edges);
  // Sides of different lengths.
  m = error_of([&] { connect_periodic(mesh, c, 1, 4, {0.0, 1.0}); });
  EXPECT_TRUE(contains(m, "no partner")) << m;
  m = error_of([&] { connect_periodic(mesh, c, 1, 1, {0.0, 0.0}); });
  EXPECT_TRUE(contains(m, "'xmin' cannot be paired with itself")) << m;
  m = error_of([&] { connect_periodic(mesh, c, 1, 7, {1.0, 0.0}); });
  EXPECT_TRUE(contains(m, "tag 7 is outside 0..4")) << m;
  // Once paired, a tag has no unpaired edges left.
  connect_periodic(mesh, c, 1, 2, {1.0, 0.0});
  m = error_of([&] { connect_periodic(mesh, c, 1, 2, {1.0, 0.0}); });
  EXPECT_TRUE(contains(m, "no unpaired boundary edge has tag 'xmin'")) << m;
  // More edges on the target side: the left-over one is named.
  TriMesh fine = refine_tri_mesh(mesh, 1);
  TriConnectivity fc = connect(fine);
  TriMesh half = fine;  // drop the tags of the upper half of xmin: 3 of 6 edges stay
  half.boundary_edges.erase(std::remove_if(half.boundary_edges.begin(), half.boundary_edges.end(),
                                           [&](const BoundaryEdge& be) {
                                             return be.tag == 1 &&
                                                    fine.vertices[static_cast<std::size_t>(be.vertices[0])][1] +
                                                            fine.vertices[static_cast<std::size_t>(be.vertices[1])][1] >
                                                        1.0;
                                           }),
                            half.boundary_edges.end());
  fc = connect(half);
  m = error_of([&] { connect_periodic(half, fc, 1, 2, {1.0, 0.0}); });
  EXPECT_TRUE(contains(m, "on 'xmax' has no partner on 'xmin' (6 edges there, 3 on 'xmin')")) << m;
}

TEST(GmshGenerators, UnavailableWithoutGmsh) {
  if (gmsh_available()) GTEST_SKIP() << "this build has Gmsh";
  EXPECT_TRUE(contains(error_of([] { generate_quarter_annulus(1.0, 1.384, 0.1); }), "no Gmsh support"));
  EXPECT_TRUE(contains(error_of([] { generate_rectangle({0, 0}, {1, 1}, 0.1); }), "no Gmsh support"));
}

TEST(GmshGenerators, QuarterAnnulusLiesOnItsCircles) {
  if (!gmsh_available()) GTEST_SKIP() << "this build has no Gmsh";
  const double exact = 0.25 * pi * (1.384 * 1.384 - 1.0);
  const TriMesh mesh = generate_quarter_annulus(1.0, 1.384, 0.096);
  std::cout << "generate_quarter_annulus(1, 1.384, 0.096): " << mesh.num_elements() << " triangles, "
            << mesh.num_vertices() << " vertices\n";
  EXPECT_EQ(mesh.source, "gmsh-annulus:h=0.096");
  EXPECT_GT(mesh.num_elements(), 120);
  EXPECT_LT(mesh.num_elements(), 260);
  expect_annulus(mesh, 1.0, 1.384, 1e-12);
  const auto per_tag = edges_per_tag(mesh);
  EXPECT_EQ(per_tag.size(), 4u);
  // About pi/2 r / h edges on each arc, 0.384 / h on each straight side.
  EXPECT_NEAR(per_tag.at(1), 0.5 * pi / 0.096, 3);
  EXPECT_NEAR(per_tag.at(2), 0.5 * pi * 1.384 / 0.096, 3);
  EXPECT_NEAR(per_tag.at(3), 0.384 / 0.096, 1);
  EXPECT_NEAR(per_tag.at(4), 0.384 / 0.096, 1);
  for (const auto& x : mesh.vertices) {
    const double r = std::hypot(x[0], x[1]);
    EXPECT_TRUE(r > 1.0 - 1e-12 && r < 1.384 + 1e-12 && x[0] >= 0.0 && x[1] >= 0.0);
  }
  const double error = std::abs(total_area(mesh) - exact);
  EXPECT_LT(error, 2e-3 * exact);
  // Refined onto the circles, the area error falls by about 4 per step.
  const double fine_error = std::abs(total_area(refine_tri_mesh(mesh, 2)) - exact);
  EXPECT_LT(fine_error, error / 8);
  expect_annulus(refine_tri_mesh(mesh, 2), 1.0, 1.384, 1e-12);

  std::string m = error_of([] { generate_quarter_annulus(1.0, 1.384, 0.0); });
  EXPECT_TRUE(contains(m, "'gmsh-annulus:h=0'") && contains(m, "positive")) << m;
  m = error_of([] { generate_quarter_annulus(2.0, 1.0, 0.1); });
  EXPECT_TRUE(contains(m, "0 < r_inner < r_outer")) << m;
  m = error_of([] { generate_quarter_annulus(1.0, 2.0, 1e-6); });
  EXPECT_TRUE(contains(m, "index range")) << m;
}

TEST(GmshGenerators, RectangleHasVerticesAtTheBottomPoints) {
  if (!gmsh_available()) GTEST_SKIP() << "this build has no Gmsh";
  const std::vector<double> points{1.0 / 6.0, 2.5};
  const TriMesh mesh = generate_rectangle({0.0, 0.0}, {4.0, 1.0}, 0.1, points);
  EXPECT_EQ(mesh.source, "gmsh-rect:h=0.1,lower=0,0,upper=4,1,bottom=0.166667,2.5");
  EXPECT_NEAR(total_area(mesh), 4.0, 1e-12);
  EXPECT_NO_THROW(geometric_factors(mesh));
  EXPECT_EQ(mesh.boundary_names, (std::vector<std::string>{"boundary", "xmin", "xmax", "ymin", "ymax"}));
  for (double x : points) {
    const bool found = std::any_of(mesh.vertices.begin(), mesh.vertices.end(),
                                   [x](const std::array<double, 2>& v) { return v[0] == x && v[1] == 0.0; });
    EXPECT_TRUE(found) << "no vertex at (" << x << ", 0)";
  }
  // Each tagged edge lies on its side.
  const std::array<double, 4> side{0.0, 4.0, 0.0, 1.0};
  for (const auto& be : mesh.boundary_edges) {
    ASSERT_TRUE(be.tag >= 1 && be.tag <= 4);
    for (int v : be.vertices)
      EXPECT_EQ(mesh.vertices[static_cast<std::size_t>(v)][static_cast<std::size_t>((be.tag - 1) / 2)],
                side[static_cast<std::size_t>(be.tag - 1)]);
  }
  const TriConnectivity conn = connect(mesh);
  expect_symmetric(mesh, conn);
  for (const auto& tags : conn.bc_tag)
    for (int t : tags) EXPECT_NE(t, 0) << "every hull edge of the rectangle is tagged";
  EXPECT_NO_THROW(build_edge_maps(mesh, conn, basis::make_tri_nodal(2)));

  const TriMesh unit = generate_rectangle({0.0, 0.0}, {1.0, 1.0}, 0.25);
  EXPECT_EQ(unit.source, "gmsh-rect:h=0.25");
  EXPECT_NEAR(total_area(unit), 1.0, 1e-13);

  std::string m = error_of([] { generate_rectangle({0, 0}, {4, 1}, 0.1, {4.5}); });
  EXPECT_TRUE(contains(m, "bottom point x = 4.5 is not inside (0, 4)")) << m;
  m = error_of([] { generate_rectangle({0, 0}, {4, 1}, 0.1, {1, 1}); });
  EXPECT_TRUE(contains(m, "given twice")) << m;
  m = error_of([] { generate_rectangle({0, 0}, {0, 1}, 0.1); });
  EXPECT_TRUE(contains(m, "axis 0")) << m;
  m = error_of([] { generate_rectangle({0, 0}, {1, 1}, -1.0); });
  EXPECT_TRUE(contains(m, "positive")) << m;
}

}  // namespace
}  // namespace dgk::mesh
