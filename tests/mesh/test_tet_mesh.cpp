// Box generator, mesh specifications, connectivity, geometric factors and face maps.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/core/error.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "mesh_test_util.hpp"

namespace dgk::mesh {
namespace {

using test::error_of;

// Equispaced reference nodes: a second, independent node set for the face maps.
basis::TetNodal equispaced_reference(int n) {
  basis::TetNodal ref;
  ref.order = n;
  ref.np = basis::tet_np(n);
  ref.nfp = basis::tet_nfp(n);
  basis::tet_equispaced_nodes(n, ref.r, ref.s, ref.t);
  for (int k = 0; k < ref.np; ++k) {
    const double r = ref.r(k), s = ref.s(k), t = ref.t(k);
    if (std::abs(1 + t) < 1e-10) ref.fmask[0].push_back(k);
    if (std::abs(1 + s) < 1e-10) ref.fmask[1].push_back(k);
    if (std::abs(1 + r + s + t) < 1e-10) ref.fmask[2].push_back(k);
    if (std::abs(1 + r) < 1e-10) ref.fmask[3].push_back(k);
  }
  return ref;
}

double triangle_area(const TetMesh& mesh, int e, int f) {
  const auto& el = mesh.elements[e];
  const auto& fv = basis::tet_face_vertices[f];
  const auto& a = mesh.vertices[el[fv[0]]];
  const auto& b = mesh.vertices[el[fv[1]]];
  const auto& c = mesh.vertices[el[fv[2]]];
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                       u[0] * v[1] - u[1] * v[0]};
  return 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

// ---------------------------------------------------------------------------------------------
// Box generator

TEST(BoxMesh, CountsAndBoundaryTags) {
  const std::vector<std::array<int, 3>> all_cells{{1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {2, 3, 4}, {1, 5, 2}};
  for (const std::array<int, 3>& cells : all_cells) {
    BoxSpec spec;
    spec.cells = cells;
    const TetMesh mesh = make_box(spec);
    const int nx = cells[0], ny = cells[1], nz = cells[2];
    EXPECT_EQ(mesh.num_elements(), 6 * nx * ny * nz);
    EXPECT_EQ(mesh.num_vertices(), (nx + 1) * (ny + 1) * (nz + 1));
    EXPECT_EQ(mesh.material.size(), mesh.elements.size());
    EXPECT_EQ(mesh.region.size(), mesh.elements.size());
    for (const auto& m : mesh.material) {
      EXPECT_EQ(m[0], 1.0);
      EXPECT_EQ(m[1], 1.0);
    }
    ASSERT_EQ(mesh.boundary_names.size(), 7u);
    const char* names[7] = {"boundary", "xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
    for (int tag = 0; tag < 7; ++tag) EXPECT_EQ(mesh.boundary_tag(names[tag]), tag);
    EXPECT_EQ(mesh.boundary_tag("nowhere"), -1);

    const int per_side[7] = {0,           2 * ny * nz, 2 * ny * nz, 2 * nx * nz,
                             2 * nx * nz, 2 * nx * ny, 2 * nx * ny};
    std::array<int, 7> count{};
    for (const auto& bf : mesh.boundary_faces) {
      ASSERT_GE(bf.tag, 1);
      ASSERT_LE(bf.tag, 6);
      ++count[bf.tag];
      // The face lies in the plane of its side.
      const int axis = (bf.tag - 1) / 2;
      const double plane = bf.tag % 2 == 1 ? 0.0 : 1.0;
      for (int v : bf.vertices) EXPECT_EQ(mesh.vertices[v][axis], plane);
    }
    for (int tag = 1; tag <= 6; ++tag) EXPECT_EQ(count[tag], per_side[tag]) << names[tag];
    EXPECT_EQ(mesh.boundary_faces.size(), 4u * (nx * ny + ny * nz + nx * nz));
  }
  // The cube: 12 n^2 boundary faces, split equally.
  const TetMesh cube = load_tet_mesh("box:3");
  EXPECT_EQ(cube.num_elements(), 6 * 27);
  EXPECT_EQ(cube.boundary_faces.size(), 12u * 9);
}

TEST(BoxMesh, PositiveJacobiansAndVolume) {
  BoxSpec spec;
  spec.cells = {3, 2, 4};
  spec.lower = {-1.0, 0.25, 2.0};
  spec.upper = {1.0, 0.75, 5.0};
  const TetMesh mesh = make_box(spec);
  for (int e = 0; e < mesh.num_elements(); ++e) EXPECT_GT(element_jacobian(mesh, e), 0.0);
  const TetGeometry geo = geometric_factors(mesh);
  double volume = 0.0;
  for (int e = 0; e < mesh.num_elements(); ++e) {
    ASSERT_GT(geo.J[e], 0.0) << "element " << e;
    EXPECT_NEAR(geo.J[e], element_jacobian(mesh, e), 1e-14);
    volume += geo.J[e] * 4.0 / 3.0;
  }
  EXPECT_NEAR(volume, 2.0 * 0.5 * 3.0, 1e-12);
}

TEST(BoxMesh, ConnectivityIsSymmetric) {
  for (int n = 1; n <= 4; ++n) {
    const TetMesh mesh = load_tet_mesh("box:" + std::to_string(n));
    const TetConnectivity conn = connect(mesh);
    const int K = mesh.num_elements();
    EXPECT_EQ(conn.num_boundary_faces, 12 * n * n);
    EXPECT_EQ(2 * conn.num_interior_faces + conn.num_boundary_faces, 4 * K);
    std::array<int, 7> per_tag{};
    for (int e = 0; e < K; ++e) {
      for (int f = 0; f < 4; ++f) {
        const int e2 = conn.EToE[e][f], f2 = conn.EToF[e][f];
        if (e2 < 0) {
          EXPECT_EQ(f2, -1);
          ASSERT_GE(conn.bc_tag[e][f], 1) << "untagged hull face, element " << e << " face " << f;
          ++per_tag[conn.bc_tag[e][f]];
          continue;
        }
        EXPECT_EQ(conn.bc_tag[e][f], -1);
        EXPECT_NE(e2, e);
        EXPECT_EQ(conn.EToE[e2][f2], e);
        EXPECT_EQ(conn.EToF[e2][f2], f);
      }
    }
    for (int tag = 1; tag <= 6; ++tag) EXPECT_EQ(per_tag[tag], 2 * n * n);
  }
}

TEST(BoxMesh, NormalsAreOutwardAndCloseEachElement) {
  BoxSpec spec;
  spec.cells = {2, 3, 2};
  spec.upper = {1.0, 2.0, 0.5};
  const TetMesh mesh = make_box(spec);
  const TetGeometry geo = geometric_factors(mesh);
  const TetConnectivity conn = connect(mesh);
  for (int e = 0; e < mesh.num_elements(); ++e) {
    const auto& el = mesh.elements[e];
    std::array<double, 3> sum{0, 0, 0};
    for (int f = 0; f < 4; ++f) {
      const auto& n = geo.normal[e][f];
      EXPECT_NEAR(n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 1.0, 1e-13);
      // The reference face has area 2 in its (two-coordinate) parametrization.
      EXPECT_NEAR(2.0 * geo.sJ[e][f], triangle_area(mesh, e, f), 1e-13);
      EXPECT_NEAR(geo.fscale[e][f], geo.sJ[e][f] / geo.J[e], 1e-10);
      for (int d = 0; d < 3; ++d) sum[d] += n[d] * geo.sJ[e][f] * 2.0;
      // Outward: away from the vertex opposite the face.
      const auto& fv = basis::tet_face_vertices[f];
      const int opposite = 6 - fv[0] - fv[1] - fv[2];
      double side = 0.0;
      for (int d = 0; d < 3; ++d) {
        side += n[d] * (mesh.vertices[el[opposite]][d] - mesh.vertices[el[fv[0]]][d]);
      }
      EXPECT_LT(side, 0.0);
      // Neighbours see opposite normals.
      const int e2 = conn.EToE[e][f], f2 = conn.EToF[e][f];
      if (e2 >= 0) {
        for (int d = 0; d < 3; ++d) EXPECT_NEAR(geo.normal[e2][f2][d], -n[d], 1e-13);
      }
    }
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(sum[d], 0.0, 1e-13) << "element " << e;
  }
}

void check_face_maps(const TetMesh& mesh, const basis::TetNodal& ref) {
  const TetConnectivity conn = connect(mesh);
  const FaceMaps maps = build_face_maps(mesh, conn, ref);
  const NodeCoordinates x = node_coordinates(mesh, ref);
  const int K = mesh.num_elements(), np = ref.np, nfp = ref.nfp;
  ASSERT_EQ(maps.nfp, nfp);
  ASSERT_EQ(maps.vmapM.size(), static_cast<std::size_t>(4 * K * nfp));
  ASSERT_EQ(maps.vmapP.size(), maps.vmapM.size());
  ASSERT_EQ(static_cast<int>(maps.boundary_faces.size()), conn.num_boundary_faces);
  for (int ef : maps.boundary_faces) EXPECT_LT(conn.EToE[ef / 4][ef % 4], 0);
  for (int e = 0; e < K; ++e) {
    for (int f = 0; f < 4; ++f) {
      const int e2 = conn.EToE[e][f], f2 = conn.EToF[e][f];
      for (int i = 0; i < nfp; ++i) {
        const int idx = (e * 4 + f) * nfp + i;
        const int m = maps.vmapM[idx], p = maps.vmapP[idx];
        ASSERT_EQ(m, e * np + ref.fmask[f][i]);
        if (e2 < 0) {
          EXPECT_EQ(p, m);
          continue;
        }
        ASSERT_EQ(p / np, e2);
        const double dist = std::hypot(x.x[m] - x.x[p], x.y[m] - x.y[p], x.z[m] - x.z[p]);
        ASSERT_LT(dist, 1e-12) << "element " << e << " face " << f << " node " << i;
        // The neighbour's map points back.
        int back = -1;
        for (int j = 0; j < nfp; ++j) {
          if (maps.vmapM[(e2 * 4 + f2) * nfp + j] == p) back = (e2 * 4 + f2) * nfp + j;
        }
        ASSERT_GE(back, 0);
        EXPECT_EQ(maps.vmapP[back], m);
      }
    }
  }
}

TEST(BoxMesh, FaceMapsMatchNodeCoordinates) {
  BoxSpec spec;
  spec.cells = {2, 3, 2};
  spec.lower = {-1.0, 0.0, 0.0};
  spec.upper = {1.0, 3.0, 0.5};
  const TetMesh mesh = make_box(spec);
  for (int n = 1; n <= 4; ++n) {
    SCOPED_TRACE("order " + std::to_string(n));
    check_face_maps(mesh, basis::make_tet_nodal(n));
    check_face_maps(mesh, equispaced_reference(n));
  }
  const basis::TetNodal ref = basis::make_tet_nodal(7);
  check_face_maps(load_tet_mesh("box:1"), ref);
}

// Face codes: per face, the neighbour element and one of a few node patterns, which give back
// every entry of the per-node map. The elements' vertices are turned by even permutations (the
// orientation kept) so that faces meet in every relative turn.
TEST(FaceCodes, GiveBackTheNeighbourMap) {
  BoxSpec spec;
  spec.cells = {3, 2, 2};
  TetMesh mesh = make_box(spec);
  const std::array<std::array<int, 4>, 12> even = {{{0, 1, 2, 3}, {1, 2, 0, 3}, {2, 0, 1, 3}, {0, 2, 3, 1},
                                                     {2, 3, 0, 1}, {3, 0, 2, 1}, {0, 3, 1, 2}, {3, 1, 0, 2},
                                                     {1, 0, 3, 2}, {1, 3, 2, 0}, {3, 2, 1, 0}, {2, 1, 3, 0}}};
  for (int e = 0; e < mesh.num_elements(); ++e) {
    const auto v = mesh.elements[static_cast<std::size_t>(e)];
    const auto& p = even[static_cast<std::size_t>((7 * e + 3) % 12)];
    for (int k = 0; k < 4; ++k) mesh.elements[static_cast<std::size_t>(e)][static_cast<std::size_t>(k)] = v[static_cast<std::size_t>(p[static_cast<std::size_t>(k)])];
  }
  const TetConnectivity conn = connect(mesh);
  for (int n = 1; n <= 5; ++n) {
    SCOPED_TRACE("order " + std::to_string(n));
    const basis::TetNodal ref = basis::make_tet_nodal(n);
    const FaceMaps maps = build_face_maps(mesh, conn, ref);
    const int K = mesh.num_elements();
    const FaceCodes codes = face_codes(maps.vmapP, ref.np, ref.nfp, K);
    ASSERT_EQ(codes.code.size(), 4 * static_cast<std::size_t>(K));
    // At most 4 neighbour faces x 6 turns; the boundary's patterns are among them.
    EXPECT_LE(codes.patterns.size(), 24u);
    EXPECT_GT(codes.patterns.size(), 4u);
    for (std::size_t face = 0; face < codes.code.size(); ++face) {
      const int ep = codes.code[face] / FaceCodes::max_patterns, p = codes.code[face] % FaceCodes::max_patterns;
      ASSERT_LT(p, static_cast<int>(codes.patterns.size()));
      for (int i = 0; i < ref.nfp; ++i)
        ASSERT_EQ(ep * ref.np + codes.patterns[static_cast<std::size_t>(p)][static_cast<std::size_t>(i)],
                  maps.vmapP[face * static_cast<std::size_t>(ref.nfp) + static_cast<std::size_t>(i)])
            << "element " << face / 4 << " face " << face % 4 << " node " << i;
    }
    // Too many elements for an int code: none, and the gathers take the map.
    EXPECT_TRUE(face_codes(maps.vmapP, ref.np, ref.nfp, (1 << 26)).code.empty());
    EXPECT_FALSE(face_codes(maps.vmapP, ref.np, ref.nfp, (1 << 26) - 1).code.empty());
    // A face whose nodes have neighbours in two elements is named.
    std::vector<int> broken = maps.vmapP;
    const std::size_t at = (4 * 2 + 1) * static_cast<std::size_t>(ref.nfp) + static_cast<std::size_t>(ref.nfp - 1);
    broken[at] = (broken[at] / ref.np + 1) % K * ref.np;
    if (ref.nfp > 1) {
      const std::string why = error_of([&] { (void)face_codes(broken, ref.np, ref.nfp, K); });
      EXPECT_NE(why.find("element 2 face 1"), std::string::npos) << why;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Mesh specifications

TEST(LoadTetMesh, BoxSpecifications) {
  const TetMesh a = load_tet_mesh("box:2");
  EXPECT_EQ(a.num_elements(), 48);
  EXPECT_EQ(a.source, "box:2");
  const TetMesh b = load_tet_mesh("box:1,2,3");
  EXPECT_EQ(b.num_elements(), 36);
  EXPECT_EQ(b.source, "box:1,2,3");
  EXPECT_EQ(b.vertices.back()[2], 1.0);
}

TEST(LoadTetMesh, BadSpecificationsAreNamed) {
  for (const std::string spec : {"box:0", "box:x", "box:", "box:-2", "box:2.5", "box:1,2",
                                 "box:1,2,3,4", "box:1,,2", "box:3x", "box:99999999999"}) {
    const std::string message = error_of([&] { load_tet_mesh(spec); });
    EXPECT_NE(message.find("'" + spec + "'"), std::string::npos) << message;
  }
  EXPECT_NE(error_of([] { load_tet_mesh("box:0"); }).find("positive integer"), std::string::npos);
  for (const std::string spec : {"foo", "", "mesh.vtk"}) {
    const std::string message = error_of([&] { load_tet_mesh(spec); });
    EXPECT_NE(message.find("unknown mesh specification '" + spec + "'"), std::string::npos)
        << message;
  }
  EXPECT_NE(error_of([] { load_tet_mesh("box:2000"); }).find("elements"), std::string::npos);
  if (!gmsh_available()) {
    EXPECT_NE(error_of([] { load_tet_mesh("a.msh"); }).find("'a.msh'"), std::string::npos);
  }
}

TEST(BoxMesh, RejectsBadSpec) {
  BoxSpec spec;
  spec.cells = {2, 0, 2};
  EXPECT_NE(error_of([&] { make_box(spec); }).find("axis 1"), std::string::npos);
  spec.cells = {2, 2, 2};
  spec.upper = {1.0, 1.0, -1.0};
  EXPECT_NE(error_of([&] { make_box(spec); }).find("axis 2"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Hand-built meshes

TEST(GeometricFactors, ReferenceElement) {
  TetMesh mesh;
  mesh.vertices = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  mesh.elements = {{0, 1, 2, 3}};
  const TetGeometry geo = geometric_factors(mesh);
  EXPECT_NEAR(geo.J[0], 1.0, 1e-15);
  const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(geo.drdx[0][k], identity[k], 1e-15);
  const double s3 = 1.0 / std::sqrt(3.0);
  const std::array<std::array<double, 3>, 4> normals{
      {{0, 0, -1}, {0, -1, 0}, {s3, s3, s3}, {-1, 0, 0}}};
  const double sJ[4] = {1, 1, std::sqrt(3.0), 1};
  for (int f = 0; f < 4; ++f) {
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(geo.normal[0][f][d], normals[f][d], 1e-15);
    EXPECT_NEAR(geo.sJ[0][f], sJ[f], 1e-14);
    EXPECT_NEAR(geo.fscale[0][f], sJ[f], 1e-14);
  }
  const basis::TetNodal ref = basis::make_tet_nodal(3);
  const NodeCoordinates x = node_coordinates(mesh, ref);
  for (int i = 0; i < ref.np; ++i) {
    EXPECT_NEAR(x.x[i], ref.r(i), 1e-15);
    EXPECT_NEAR(x.y[i], ref.s(i), 1e-15);
    EXPECT_NEAR(x.z[i], ref.t(i), 1e-15);
  }
}

TEST(GeometricFactors, AffineElementDerivatives) {
  // drdx must invert dx/dr: check d(r,s,t)/dx applied to the vertex differences.
  TetMesh mesh;
  mesh.vertices = {{0.1, 0.2, 0.3}, {1.3, 0.1, 0.2}, {0.4, 1.1, -0.2}, {0.2, 0.5, 0.9}};
  mesh.elements = {{0, 1, 2, 3}};
  const TetGeometry geo = geometric_factors(mesh);
  const auto& m = geo.drdx[0];
  for (int k = 0; k < 3; ++k) {  // dx/d(r,s,t)_k = (x_{k+1} - x_0) / 2
    double dxk[3];
    for (int d = 0; d < 3; ++d) dxk[d] = 0.5 * (mesh.vertices[k + 1][d] - mesh.vertices[0][d]);
    for (int j = 0; j < 3; ++j) {  // (d r_j / dx) . (dx / d r_k) = delta_jk
      const double v = m[j] * dxk[0] + m[3 + j] * dxk[1] + m[6 + j] * dxk[2];
      EXPECT_NEAR(v, j == k ? 1.0 : 0.0, 1e-13);
    }
  }
}

TEST(GeometricFactors, InvertedAndDegenerateElementsAreNamed) {
  TetMesh mesh;
  mesh.source = "hand";
  mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}};
  mesh.elements = {{0, 1, 2, 3}, {0, 2, 1, 3}};
  std::string message = error_of([&] { geometric_factors(mesh); });
  EXPECT_NE(message.find("element 1 "), std::string::npos) << message;
  EXPECT_NE(message.find("inverted"), std::string::npos) << message;
  mesh.elements = {{0, 1, 2, 3}, {1, 2, 0, 3}, {0, 1, 4, 2}};  // element 2 is flat
  message = error_of([&] { geometric_factors(mesh); });
  EXPECT_NE(message.find("element 2 "), std::string::npos) << message;
  EXPECT_NE(message.find("degenerate"), std::string::npos) << message;
  mesh.elements = {{0, 1, 2, 2}};
  message = error_of([&] { geometric_factors(mesh); });
  EXPECT_NE(message.find("element 0 uses vertex 2 twice"), std::string::npos) << message;
}

// Two tetrahedra on either side of the triangle 0 1 2.
TetMesh two_tets() {
  TetMesh mesh;
  mesh.source = "two";
  mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.2, 0.3, 1}, {0.3, 0.2, -1}};
  mesh.elements = {{0, 1, 2, 3}, {0, 2, 1, 4}};
  return mesh;
}

TEST(Connect, TwoElements) {
  TetMesh mesh = two_tets();
  mesh.boundary_names = {"boundary", "top"};
  mesh.boundary_faces = {{{3, 1, 0}, 1}};
  const TetConnectivity conn = connect(mesh);
  EXPECT_EQ(conn.num_interior_faces, 1);
  EXPECT_EQ(conn.num_boundary_faces, 6);
  EXPECT_EQ(conn.EToE[0][0], 1);
  EXPECT_EQ(conn.EToF[0][0], 0);
  EXPECT_EQ(conn.EToE[1][0], 0);
  EXPECT_EQ(conn.bc_tag[0][1], 1);  // face 1 = vertices 0 1 3
  EXPECT_EQ(conn.bc_tag[0][2], 0);
  for (int n = 1; n <= 3; ++n) check_face_maps(mesh, basis::make_tet_nodal(n));
}

TEST(Connect, FaceSharedByThreeElements) {
  TetMesh mesh = two_tets();
  mesh.vertices.push_back({0.1, 0.1, 2});
  mesh.elements.push_back({0, 1, 2, 5});
  const std::string message = error_of([&] { connect(mesh); });
  EXPECT_NE(message.find("vertices 0 1 2 is shared by 3 elements"), std::string::npos) << message;
  EXPECT_NE(message.find("element 2 face 0"), std::string::npos) << message;
}

TEST(Connect, TaggedFacesMustBeOnTheHull) {
  TetMesh mesh = two_tets();
  mesh.boundary_names = {"boundary", "wall"};
  mesh.boundary_faces = {{{2, 0, 1}, 1}};
  std::string message = error_of([&] { connect(mesh); });
  EXPECT_NE(message.find("vertices 2 0 1"), std::string::npos) << message;
  EXPECT_NE(message.find("not on the hull"), std::string::npos) << message;
  mesh.boundary_faces = {{{3, 4, 0}, 1}};
  message = error_of([&] { connect(mesh); });
  EXPECT_NE(message.find("vertices 3 4 0"), std::string::npos) << message;
  EXPECT_NE(message.find("not a face of any element"), std::string::npos) << message;
  mesh.boundary_faces = {{{0, 1, 3}, 7}};
  message = error_of([&] { connect(mesh); });
  EXPECT_NE(message.find("tag 7"), std::string::npos) << message;
  mesh.boundary_faces = {{{0, 1, 3}, 1}, {{3, 0, 1}, 0}};
  message = error_of([&] { connect(mesh); });
  EXPECT_NE(message.find("two tags"), std::string::npos) << message;
}

TEST(FaceMaps, HangingVertexIsNotConforming) {
  // Element 0 sits on the triangle 0 1 2; below it, elements 1 and 2 split that triangle at the
  // midpoint 5 of edge 0 1, so no face is shared across z = 0.
  TetMesh mesh;
  mesh.source = "hanging";
  mesh.vertices = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0.3, 0.3, 1}, {0.5, 0.5, -1}, {1, 0, 0}};
  mesh.elements = {{0, 1, 2, 3}, {0, 2, 5, 4}, {5, 2, 1, 4}};
  for (int e = 0; e < 3; ++e) ASSERT_GT(element_jacobian(mesh, e), 0.0) << e;
  const TetConnectivity conn = connect(mesh);
  EXPECT_EQ(conn.num_interior_faces, 1);  // only 2 4 5 between elements 1 and 2
  const std::string message =
      error_of([&] { build_face_maps(mesh, conn, basis::make_tet_nodal(2)); });
  EXPECT_NE(message.find("not conforming"), std::string::npos) << message;
  EXPECT_NE(message.find("element 0"), std::string::npos) << message;
  EXPECT_NE(message.find("'hanging'"), std::string::npos) << message;
}

TEST(FaceMaps, DuplicatedVerticesAreNotConforming) {
  TetMesh mesh = two_tets();
  mesh.source = "duplicated";
  // Element 1 uses copies 5 6 7 of vertices 0 1 2.
  for (int v = 0; v < 3; ++v) mesh.vertices.push_back(mesh.vertices[v]);
  mesh.elements[1] = {5, 7, 6, 4};
  const TetConnectivity conn = connect(mesh);
  EXPECT_EQ(conn.num_interior_faces, 0);
  std::string message = error_of([&] { build_face_maps(mesh, conn, basis::make_tet_nodal(1)); });
  EXPECT_NE(message.find("not conforming"), std::string::npos) << message;
  EXPECT_NE(message.find("element 0"), std::string::npos) << message;
  EXPECT_NE(message.find("element 1"), std::string::npos) << message;

  // Tagged on both sides it is a deliberate internal boundary (a thin sheet) and passes.
  mesh.boundary_names = {"boundary", "sheet"};
  mesh.boundary_faces = {{{0, 1, 2}, 1}, {{5, 6, 7}, 1}};
  const TetConnectivity tagged = connect(mesh);
  const FaceMaps maps = build_face_maps(mesh, tagged, basis::make_tet_nodal(1));
  EXPECT_EQ(maps.boundary_faces.size(), 8u);
}

TEST(FaceMaps, NeighboursTouchingAtAnEdgeAreFine) {
  // Two tetrahedra that share only the edge 0 1 and lie side by side: their untagged hull faces
  // are coplanar and touch along the edge, which is not an overlap.
  TetMesh mesh;
  mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, -1, 0}, {0, 0, -1}};
  mesh.elements = {{0, 1, 2, 3}, {0, 1, 4, 5}};
  for (int e = 0; e < 2; ++e) ASSERT_GT(element_jacobian(mesh, e), 0.0) << e;
  const TetConnectivity conn = connect(mesh);
  EXPECT_NO_THROW(build_face_maps(mesh, conn, basis::make_tet_nodal(2)));
}

}  // namespace
}  // namespace dgk::mesh

namespace {

// Box specifications found by fuzzing (tests/fuzz/regressions/fuzz_mesh_spec) whose size check
// overflowed: each must be refused with dgk::Error.
TEST(LoadTetMesh, FuzzRegressionsAreErrors) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dgk::mesh::test::fuzz_regressions("fuzz_mesh_spec"))) {
    std::ifstream in(entry.path());
    const std::string spec((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ++count;
    EXPECT_THROW(dgk::mesh::load_tet_mesh(spec), dgk::Error) << spec;
  }
  EXPECT_GE(count, 3);
}

}  // namespace
