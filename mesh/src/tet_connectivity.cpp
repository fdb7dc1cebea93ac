// Connectivity, geometric factors and face-node maps of tetrahedral meshes.
#include "dgk/mesh/tet_connectivity.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "dgk/core/error.hpp"

namespace dgk::mesh {

namespace {

using Vec3 = std::array<double, 3>;
using basis::tet_face_vertices;

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double norm(const Vec3& a) { return std::sqrt(dot(a, a)); }

// The 6 permutations of a face's three vertices.
constexpr int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

std::array<int, 3> face_vertices(const TetMesh& mesh, int e, int f) {
  const auto& el = mesh.elements[e];
  const auto& fv = tet_face_vertices[f];
  return {el[fv[0]], el[fv[1]], el[fv[2]]};
}

std::array<int, 3> sorted(std::array<int, 3> v) {
  if (v[0] > v[1]) std::swap(v[0], v[1]);
  if (v[1] > v[2]) std::swap(v[1], v[2]);
  if (v[0] > v[1]) std::swap(v[0], v[1]);
  return v;
}

std::string list(const std::array<int, 3>& v) {
  return std::to_string(v[0]) + " " + std::to_string(v[1]) + " " + std::to_string(v[2]);
}

double longest_face_edge(const TetMesh& mesh, const std::array<int, 3>& v) {
  double longest = 0.0;
  for (int q = 0; q < 3; ++q) {
    longest = std::max(longest, norm(sub(mesh.vertices[v[q]], mesh.vertices[v[(q + 1) % 3]])));
  }
  return longest;
}

// Faces bucketed by their smallest vertex (a counting sort), each bucket sorted by the other two
// vertices: equal faces end up adjacent without a global sort or a hash table.
struct FaceIndex {
  struct Entry {
    int b, c, ef;  // two largest vertices, e * 4 + f
  };
  std::vector<int> offset;  // bucket of vertex a: [offset[a], offset[a + 1])
  std::vector<Entry> entries;

  static bool less(const Entry& x, const Entry& y) {
    return std::tie(x.b, x.c, x.ef) < std::tie(y.b, y.c, y.ef);
  }

  explicit FaceIndex(const TetMesh& mesh) {
    const int num_elements = mesh.num_elements();
    offset.assign(mesh.num_vertices() + 1, 0);
    for (int e = 0; e < num_elements; ++e) {
      for (int f = 0; f < 4; ++f) ++offset[sorted(face_vertices(mesh, e, f))[0] + 1];
    }
    for (int a = 0; a < mesh.num_vertices(); ++a) offset[a + 1] += offset[a];
    entries.resize(4 * static_cast<std::size_t>(num_elements));
    std::vector<int> fill(offset.begin(), offset.end() - 1);
    for (int e = 0; e < num_elements; ++e) {
      for (int f = 0; f < 4; ++f) {
        const auto v = sorted(face_vertices(mesh, e, f));
        entries[fill[v[0]]++] = {v[1], v[2], 4 * e + f};
      }
    }
    for (int a = 0; a < mesh.num_vertices(); ++a) {
      std::sort(entries.begin() + offset[a], entries.begin() + offset[a + 1], less);
    }
  }

  // Range of entries holding the face with sorted vertices v.
  std::pair<int, int> find(const std::array<int, 3>& v) const {
    const auto first = entries.begin() + offset[v[0]];
    const auto last = entries.begin() + offset[v[0] + 1];
    const Entry lo{v[1], v[2], std::numeric_limits<int>::min()};
    const Entry hi{v[1], v[2], std::numeric_limits<int>::max()};
    const auto begin = std::lower_bound(first, last, lo, less);
    const auto end = std::upper_bound(begin, last, hi, less);
    return {static_cast<int>(begin - entries.begin()), static_cast<int>(end - entries.begin())};
  }
};

void check_elements(const TetMesh& mesh) {
  const int nv = mesh.num_vertices();
  for (int e = 0; e < mesh.num_elements(); ++e) {
    const auto& el = mesh.elements[e];
    for (int q = 0; q < 4; ++q) {
      DGK_THROW_IF(el[q] < 0 || el[q] >= nv, "mesh '" << mesh.source << "': element " << e
                                                      << " uses vertex " << el[q] << ", outside 0.."
                                                      << nv - 1);
      for (int p = 0; p < q; ++p) {
        DGK_THROW_IF(el[p] == el[q], "mesh '" << mesh.source << "': element " << e
                                              << " uses vertex " << el[q] << " twice");
      }
    }
  }
}

// The connectivity must belong to the mesh.
void check_sizes(const TetMesh& mesh, const TetConnectivity& conn, const char* what) {
  const std::size_t num_elements = mesh.elements.size();
  DGK_THROW_IF(conn.EToE.size() != num_elements || conn.EToF.size() != num_elements ||
                   conn.bc_tag.size() != num_elements,
               what << " of mesh '" << mesh.source << "': the connectivity has " << conn.EToE.size()
                    << " elements, the mesh " << num_elements);
}

// Barycentric coordinates (l0..l3) of the reference nodes.
std::vector<std::array<double, 4>> barycentrics(const basis::TetNodal& ref) {
  std::vector<std::array<double, 4>> l(ref.np);
  for (int i = 0; i < ref.np; ++i) {
    const double r = ref.r(i), s = ref.s(i), t = ref.t(i);
    l[i] = {-0.5 * (1.0 + r + s + t), 0.5 * (1.0 + r), 0.5 * (1.0 + s), 0.5 * (1.0 + t)};
  }
  return l;
}

Vec3 map_node(const TetMesh& mesh, int e, const std::array<double, 4>& l) {
  const auto& el = mesh.elements[e];
  Vec3 x{0.0, 0.0, 0.0};
  for (int q = 0; q < 4; ++q) {
    const auto& v = mesh.vertices[el[q]];
    for (int d = 0; d < 3; ++d) x[d] += l[q] * v[d];
  }
  return x;
}

// An untagged hull face, flattened for the overlap search.
struct HullFace {
  int e, f;
  std::array<Vec3, 3> p;
  Vec3 normal;  // outward unit normal
  Vec3 lo, hi;  // bounding box
  double size;  // longest edge
};

// Whether two hull faces are coplanar and their interiors overlap (with a tolerance, so faces
// touching along an edge or at a vertex do not count).
bool faces_overlap(const HullFace& a, const HullFace& b) {
  const double size = std::max(a.size, b.size);
  const double tol = 1e-8 * size;
  if (norm(cross(a.normal, b.normal)) > 1e-6) return false;
  for (const auto& q : b.p) {
    if (std::abs(dot(sub(q, a.p[0]), a.normal)) > tol) return false;
  }
  // Separating axes in the plane: the in-plane normals of the six edges.
  for (const HullFace* t : {&a, &b}) {
    for (int k = 0; k < 3; ++k) {
      Vec3 axis = cross(a.normal, sub(t->p[(k + 1) % 3], t->p[k]));
      const double len = norm(axis);
      if (len == 0.0) continue;
      for (double& c : axis) c /= len;
      double amin = 1e300, amax = -1e300, bmin = 1e300, bmax = -1e300;
      for (int q = 0; q < 3; ++q) {
        const double pa = dot(a.p[q], axis), pb = dot(b.p[q], axis);
        amin = std::min(amin, pa), amax = std::max(amax, pa);
        bmin = std::min(bmin, pb), bmax = std::max(bmax, pb);
      }
      if (amax <= bmin + tol || bmax <= amin + tol) return false;
    }
  }
  return true;
}

}  // namespace

TetConnectivity connect(const TetMesh& mesh) {
  check_elements(mesh);
  const int num_elements = mesh.num_elements();
  TetConnectivity conn;
  conn.EToE.assign(num_elements, {-1, -1, -1, -1});
  conn.EToF.assign(num_elements, {-1, -1, -1, -1});
  conn.bc_tag.assign(num_elements, {-1, -1, -1, -1});

  const FaceIndex index(mesh);
  const auto& entries = index.entries;
  for (int a = 0; a < mesh.num_vertices(); ++a) {
    for (int i = index.offset[a]; i < index.offset[a + 1];) {
      int j = i + 1;
      while (j < index.offset[a + 1] && entries[j].b == entries[i].b &&
             entries[j].c == entries[i].c) {
        ++j;
      }
      if (j - i > 2) {
        std::ostringstream who;
        for (int k = i; k < j; ++k) {
          who << (k > i ? ", " : "") << "element " << entries[k].ef / 4 << " face "
              << entries[k].ef % 4;
        }
        DGK_THROW_IF(true, "mesh '" << mesh.source << "': the face with vertices " << a << " "
                                    << entries[i].b << " " << entries[i].c << " is shared by "
                                    << j - i << " elements (" << who.str() << ")");
      }
      const int e0 = entries[i].ef / 4, f0 = entries[i].ef % 4;
      if (j - i == 2) {
        const int e1 = entries[i + 1].ef / 4, f1 = entries[i + 1].ef % 4;
        conn.EToE[e0][f0] = e1, conn.EToF[e0][f0] = f1;
        conn.EToE[e1][f1] = e0, conn.EToF[e1][f1] = f0;
        ++conn.num_interior_faces;
      } else {
        conn.bc_tag[e0][f0] = 0;
        ++conn.num_boundary_faces;
      }
      i = j;
    }
  }

  // Tagged boundary faces must be hull faces; a face listed twice must keep one tag.
  std::vector<char> tagged(4 * static_cast<std::size_t>(num_elements), 0);
  const int num_tags = static_cast<int>(mesh.boundary_names.size());
  for (std::size_t k = 0; k < mesh.boundary_faces.size(); ++k) {
    const auto& bf = mesh.boundary_faces[k];
    DGK_THROW_IF(bf.tag < 0 || bf.tag >= num_tags,
                 "mesh '" << mesh.source << "': boundary face " << k << " (vertices "
                          << list(bf.vertices) << ") has tag " << bf.tag << ", outside 0.."
                          << num_tags - 1 << " (the boundary names)");
    for (int q = 0; q < 3; ++q) {
      DGK_THROW_IF(bf.vertices[q] < 0 || bf.vertices[q] >= mesh.num_vertices(),
                   "mesh '" << mesh.source << "': boundary face " << k << " (vertices "
                            << list(bf.vertices) << ") uses a vertex outside 0.."
                            << mesh.num_vertices() - 1);
    }
    const auto v = sorted(bf.vertices);
    DGK_THROW_IF(v[0] == v[1] || v[1] == v[2], "mesh '" << mesh.source << "': boundary face " << k
                                                        << " (vertices " << list(bf.vertices)
                                                        << ") repeats a vertex");
    const auto [begin, end] = index.find(v);
    DGK_THROW_IF(begin == end, "mesh '" << mesh.source << "': boundary face " << k << " (vertices "
                                        << list(bf.vertices) << ", tag '"
                                        << mesh.boundary_names[bf.tag]
                                        << "') is not a face of any element");
    const int e = entries[begin].ef / 4, f = entries[begin].ef % 4;
    DGK_THROW_IF(end - begin > 1,
                 "mesh '" << mesh.source << "': boundary face " << k << " (vertices "
                          << list(bf.vertices) << ", tag '" << mesh.boundary_names[bf.tag]
                          << "') is not on the hull: it is shared by element " << e << " face " << f
                          << " and element " << conn.EToE[e][f] << " face " << conn.EToF[e][f]);
    const std::size_t ef = entries[begin].ef;
    DGK_THROW_IF(tagged[ef] && conn.bc_tag[e][f] != bf.tag,
                 "mesh '" << mesh.source << "': boundary face with vertices " << list(bf.vertices)
                          << " is listed with two tags, '" << mesh.boundary_names[conn.bc_tag[e][f]]
                          << "' and '" << mesh.boundary_names[bf.tag] << "'");
    tagged[ef] = 1;
    conn.bc_tag[e][f] = bf.tag;
  }
  return conn;
}

void check_conforming(const TetMesh& mesh, const TetConnectivity& conn) {
  check_sizes(mesh, conn, "conformity check");
  std::vector<HullFace> faces;
  for (int e = 0; e < mesh.num_elements(); ++e) {
    for (int f = 0; f < 4; ++f) {
      if (conn.EToE[e][f] >= 0 || conn.bc_tag[e][f] != 0) continue;
      HullFace h;
      h.e = e, h.f = f;
      const auto v = face_vertices(mesh, e, f);
      for (int q = 0; q < 3; ++q) h.p[q] = mesh.vertices[v[q]];
      h.normal = cross(sub(h.p[1], h.p[0]), sub(h.p[2], h.p[0]));
      const double len = norm(h.normal);
      if (len == 0.0) continue;  // degenerate; geometric_factors reports it
      // The vertex opposite face f lies inside: orient the normal away from it.
      const int opposite =
          6 - tet_face_vertices[f][0] - tet_face_vertices[f][1] - tet_face_vertices[f][2];
      const double side = dot(h.normal, sub(mesh.vertices[mesh.elements[e][opposite]], h.p[0]));
      for (double& c : h.normal) c /= (side > 0 ? -len : len);
      h.size = longest_face_edge(mesh, v);
      for (int d = 0; d < 3; ++d) {
        h.lo[d] = std::min({h.p[0][d], h.p[1][d], h.p[2][d]}) - 1e-8 * h.size;
        h.hi[d] = std::max({h.p[0][d], h.p[1][d], h.p[2][d]}) + 1e-8 * h.size;
      }
      faces.push_back(h);
    }
  }
  if (faces.size() < 2) return;

  // Multi-level grid: a face lives at the finest level whose cells are at least as large as its
  // bounding box (so it touches at most 8 cells there); a query visits its own and all coarser
  // levels. Cost O(faces * levels) also on strongly graded meshes.
  double hmin = std::numeric_limits<double>::max();
  Vec3 origin{hmin, hmin, hmin};
  for (const auto& h : faces) {
    hmin = std::min(hmin, h.size);
    for (int d = 0; d < 3; ++d) origin[d] = std::min(origin[d], h.lo[d]);
  }
  auto level_of = [&](const HullFace& h) {
    int level = 0;
    while (hmin * std::ldexp(1.0, level) < 1.01 * h.size + 2e-8 * h.size) ++level;
    return level;
  };
  using Cell = std::array<long long, 4>;  // level, i, j, k
  auto cells_of = [&](const HullFace& h, int level, std::vector<Cell>& out) {
    out.clear();
    const double width = hmin * std::ldexp(1.0, level);
    long long lo[3], hi[3];
    for (int d = 0; d < 3; ++d) {
      lo[d] = static_cast<long long>(std::floor((h.lo[d] - origin[d]) / width));
      hi[d] = static_cast<long long>(std::floor((h.hi[d] - origin[d]) / width));
    }
    for (long long i = lo[0]; i <= hi[0]; ++i) {
      for (long long j = lo[1]; j <= hi[1]; ++j) {
        for (long long k = lo[2]; k <= hi[2]; ++k) out.push_back({level, i, j, k});
      }
    }
  };
  std::vector<std::pair<Cell, int>> grid;
  std::vector<int> levels(faces.size());
  int max_level = 0;
  std::vector<Cell> cells;
  for (std::size_t n = 0; n < faces.size(); ++n) {
    levels[n] = level_of(faces[n]);
    max_level = std::max(max_level, levels[n]);
    cells_of(faces[n], levels[n], cells);
    for (const auto& c : cells) grid.emplace_back(c, static_cast<int>(n));
  }
  std::sort(grid.begin(), grid.end());

  for (std::size_t n = 0; n < faces.size(); ++n) {
    const HullFace& a = faces[n];
    for (int level = levels[n]; level <= max_level; ++level) {
      cells_of(a, level, cells);
      for (const auto& c : cells) {
        auto it = std::lower_bound(grid.begin(), grid.end(), std::make_pair(c, -1));
        for (; it != grid.end() && it->first == c; ++it) {
          if (it->second == static_cast<int>(n)) continue;
          const HullFace& b = faces[it->second];
          if (!(faces_overlap(a, b))) continue;
          Vec3 ca{0, 0, 0}, cb{0, 0, 0};
          for (int q = 0; q < 3; ++q) {
            for (int d = 0; d < 3; ++d) ca[d] += a.p[q][d] / 3, cb[d] += b.p[q][d] / 3;
          }
          DGK_THROW_IF(true, "mesh '" << mesh.source << "' is not conforming: boundary face " << a.f
                                      << " of element " << a.e << " (vertices "
                                      << list(face_vertices(mesh, a.e, a.f))
                                      << ") overlaps boundary face " << b.f << " of element " << b.e
                                      << " (vertices " << list(face_vertices(mesh, b.e, b.f))
                                      << "; centroid distance " << norm(sub(ca, cb))
                                      << "): the elements do not share vertices across this "
                                         "interface (a hanging vertex or duplicated vertices)");
        }
      }
    }
  }
}

TetGeometry geometric_factors(const TetMesh& mesh) {
  check_elements(mesh);
  const int num_elements = mesh.num_elements();
  TetGeometry g;
  g.drdx.resize(num_elements);
  g.J.resize(num_elements);
  g.normal.resize(num_elements);
  g.sJ.resize(num_elements);
  g.fscale.resize(num_elements);
  for (int e = 0; e < num_elements; ++e) {
    const auto& el = mesh.elements[e];
    const Vec3& x0 = mesh.vertices[el[0]];
    // x = l0 x0 + l1 x1 + l2 x2 + l3 x3 with l1 = (1 + r) / 2 etc.: dx/dr = (x1 - x0) / 2.
    Vec3 xr = sub(mesh.vertices[el[1]], x0), xs = sub(mesh.vertices[el[2]], x0),
         xt = sub(mesh.vertices[el[3]], x0);
    for (int d = 0; d < 3; ++d) xr[d] *= 0.5, xs[d] *= 0.5, xt[d] *= 0.5;
    const double J = dot(xr, cross(xs, xt));
    const double h = longest_edge(mesh, e);
    DGK_THROW_IF(J <= 0.0 && std::abs(J) > degenerate_tolerance * h * h * h,
                 "mesh '" << mesh.source << "': element " << e << " (vertices " << el[0] << " "
                          << el[1] << " " << el[2] << " " << el[3] << ") is inverted: J = " << J);
    DGK_THROW_IF(!(J > degenerate_tolerance * h * h * h),
                 "mesh '" << mesh.source << "': element " << e << " (vertices " << el[0] << " "
                          << el[1] << " " << el[2] << " " << el[3] << ") is degenerate: J = " << J
                          << ", longest edge " << h);
    // Rows of the inverse Jacobian are the cross products of the columns over J.
    const Vec3 gr = cross(xs, xt), gs = cross(xt, xr), gt = cross(xr, xs);
    Vec3 grad_r, grad_s, grad_t;
    for (int d = 0; d < 3; ++d) grad_r[d] = gr[d] / J, grad_s[d] = gs[d] / J, grad_t[d] = gt[d] / J;
    auto& m = g.drdx[e];
    for (int d = 0; d < 3; ++d) {
      m[3 * d + 0] = grad_r[d];
      m[3 * d + 1] = grad_s[d];
      m[3 * d + 2] = grad_t[d];
    }
    g.J[e] = J;
    // Outward normals of the reference faces mapped to the element (Normals3D).
    std::array<Vec3, 4> n;
    for (int d = 0; d < 3; ++d) {
      n[0][d] = -grad_t[d];
      n[1][d] = -grad_s[d];
      n[2][d] = grad_r[d] + grad_s[d] + grad_t[d];
      n[3][d] = -grad_r[d];
    }
    for (int f = 0; f < 4; ++f) {
      const double len = norm(n[f]);
      for (int d = 0; d < 3; ++d) g.normal[e][f][d] = n[f][d] / len;
      g.sJ[e][f] = len * J;
      g.fscale[e][f] = len;  // sJ / J
    }
  }
  return g;
}

NodeCoordinates node_coordinates(const TetMesh& mesh, const basis::TetNodal& ref) {
  DGK_THROW_IF(ref.np != ref.r.size() || ref.np != ref.s.size() || ref.np != ref.t.size(),
               "node coordinates: the reference element has np = " << ref.np << " but "
                                                                   << ref.r.size() << " nodes");
  const auto l = barycentrics(ref);
  const int np = ref.np;
  NodeCoordinates x;
  const std::size_t total = static_cast<std::size_t>(mesh.num_elements()) * np;
  x.x.resize(total);
  x.y.resize(total);
  x.z.resize(total);
  for (int e = 0; e < mesh.num_elements(); ++e) {
    for (int i = 0; i < np; ++i) {
      const Vec3 p = map_node(mesh, e, l[i]);
      const std::size_t k = static_cast<std::size_t>(e) * np + i;
      x.x[k] = p[0], x.y[k] = p[1], x.z[k] = p[2];
    }
  }
  return x;
}

FaceMaps build_face_maps(const TetMesh& mesh, const TetConnectivity& conn,
                         const basis::TetNodal& ref) {
  const int num_elements = mesh.num_elements();
  const int np = ref.np, nfp = ref.nfp;
  check_sizes(mesh, conn, "face maps");
  DGK_THROW_IF(static_cast<long long>(num_elements) * np > std::numeric_limits<int>::max(),
               "face maps of mesh '" << mesh.source << "': " << num_elements << " elements of "
                                     << np << " nodes exceed the int range of the node maps");
  DGK_THROW_IF(
      np != ref.r.size() || np != ref.s.size() || np != ref.t.size(),
      "face maps: the reference element has np = " << np << " but " << ref.r.size() << " nodes");
  for (int f = 0; f < 4; ++f) {
    DGK_THROW_IF(static_cast<int>(ref.fmask[f].size()) != nfp,
                 "face maps: reference face " << f << " has " << ref.fmask[f].size()
                                              << " nodes, nfp is " << nfp);
  }
  check_conforming(mesh, conn);

  // Barycentrics of the face nodes with respect to the face's own three vertices.
  const auto l = barycentrics(ref);
  std::array<std::vector<Vec3>, 4> mu;
  for (int f = 0; f < 4; ++f) {
    mu[f].resize(nfp);
    for (int i = 0; i < nfp; ++i) {
      for (int q = 0; q < 3; ++q) mu[f][i][q] = l[ref.fmask[f][i]][tet_face_vertices[f][q]];
    }
  }
  // table[f][g][p][i]: position in face g of the node matching node i of face f when face
  // vertex q of f is face vertex perms[p][q] of g. Built once per reference element (96 tables
  // of nfp^2 work).
  std::vector<int> table(static_cast<std::size_t>(4 * 4 * 6) * nfp);
  auto entry = [&](int f, int g, int p) {
    return table.data() + static_cast<std::size_t>((f * 4 + g) * 6 + p) * nfp;
  };
  for (int f = 0; f < 4; ++f) {
    for (int g = 0; g < 4; ++g) {
      for (int p = 0; p < 6; ++p) {
        for (int i = 0; i < nfp; ++i) {
          Vec3 target;
          for (int q = 0; q < 3; ++q) target[perms[p][q]] = mu[f][i][q];
          int best = -1;
          double best_dist = 1e300;
          for (int j = 0; j < nfp; ++j) {
            const double dist =
                std::max({std::abs(mu[g][j][0] - target[0]), std::abs(mu[g][j][1] - target[1]),
                          std::abs(mu[g][j][2] - target[2])});
            if (dist < best_dist) best = j, best_dist = dist;
          }
          DGK_THROW_IF(best_dist > 1e-8, "face maps: the order-"
                                             << ref.order << " reference nodes are not "
                                             << "symmetric: node " << i << " of face " << f
                                             << " has no image on face " << g
                                             << " (closest differs by " << best_dist << ")");
          entry(f, g, p)[i] = best;
        }
      }
    }
  }

  FaceMaps maps;
  maps.nfp = nfp;
  const std::size_t total = 4 * static_cast<std::size_t>(num_elements) * nfp;
  maps.vmapM.resize(total);
  maps.vmapP.resize(total);
  for (int e = 0; e < num_elements; ++e) {
    for (int f = 0; f < 4; ++f) {
      const std::size_t base = (static_cast<std::size_t>(e) * 4 + f) * nfp;
      const int* fmask = ref.fmask[f].data();
      for (int i = 0; i < nfp; ++i) maps.vmapM[base + i] = e * np + fmask[i];
      const int e2 = conn.EToE[e][f], f2 = conn.EToF[e][f];
      if (e2 < 0) {
        for (int i = 0; i < nfp; ++i) maps.vmapP[base + i] = e * np + fmask[i];
        maps.boundary_faces.push_back(e * 4 + f);
        continue;
      }
      DGK_THROW_IF(e2 >= num_elements || f2 < 0 || f2 > 3,
                   "face maps of mesh '" << mesh.source << "': element " << e << " face " << f
                                         << " has neighbour " << e2 << " face " << f2
                                         << ", outside the mesh");
      const auto v = face_vertices(mesh, e, f), w = face_vertices(mesh, e2, f2);
      int p = 0;
      while (p < 6 &&
             !(w[perms[p][0]] == v[0] && w[perms[p][1]] == v[1] && w[perms[p][2]] == v[2])) {
        ++p;
      }
      DGK_THROW_IF(p == 6, "face maps of mesh '" << mesh.source << "': element " << e << " face "
                                                 << f << " (vertices " << list(v)
                                                 << ") and its neighbour element " << e2 << " face "
                                                 << f2 << " (vertices " << list(w)
                                                 << ") do not share their vertices");
      const int* match = entry(f, f2, p);
      const int* fmask2 = ref.fmask[f2].data();
      for (int i = 0; i < nfp; ++i) maps.vmapP[base + i] = e2 * np + fmask2[match[i]];
      if (e2 < e) continue;  // the pair was verified from the other side

      // Matched nodes must coincide; a distance here means the two faces differ geometrically.
      std::array<Vec3, 3> xv, xw;
      for (int q = 0; q < 3; ++q) xv[q] = mesh.vertices[v[q]], xw[q] = mesh.vertices[w[q]];
      double longest2 = 0.0;
      for (int q = 0; q < 3; ++q) {
        const Vec3 edge = sub(xv[q], xv[(q + 1) % 3]);
        longest2 = std::max(longest2, dot(edge, edge));
      }
      const double tol = 1e-8 * std::sqrt(longest2);
      for (int i = 0; i < nfp; ++i) {
        const Vec3& a = mu[f][i];
        const Vec3& b = mu[f2][match[i]];
        double dist2 = 0.0;
        for (int d = 0; d < 3; ++d) {
          const double xm = a[0] * xv[0][d] + a[1] * xv[1][d] + a[2] * xv[2][d];
          const double xp = b[0] * xw[0][d] + b[1] * xw[1][d] + b[2] * xw[2][d];
          dist2 += (xm - xp) * (xm - xp);
        }
        DGK_THROW_IF(!(dist2 <= tol * tol), "face maps of mesh '"
                                                << mesh.source << "': node " << i << " of element "
                                                << e << " face " << f << " lies "
                                                << std::sqrt(dist2) << " from its match on element "
                                                << e2 << " face " << f2 << " (tolerance " << tol
                                                << "): the mesh is not conforming");
      }
    }
  }
  return maps;
}

FaceCodes face_codes(const std::vector<int>& vmapP, int np, int nfp, int elements) {
  FaceCodes out;
  constexpr int mp = FaceCodes::max_patterns;
  DGK_THROW_IF(np <= 0 || nfp <= 0 || vmapP.size() % (4 * static_cast<std::size_t>(nfp)) != 0,
               "face codes: a neighbour map of " << vmapP.size() << " entries is not 4 x " << nfp
                                                  << " face nodes per element");
  if (static_cast<long long>(elements) * mp > std::numeric_limits<int>::max()) return out;
  const std::size_t faces = vmapP.size() / static_cast<std::size_t>(nfp);
  std::vector<int> code(faces), row(static_cast<std::size_t>(nfp));
  for (std::size_t face = 0; face < faces; ++face) {
    const int* nodes = vmapP.data() + face * static_cast<std::size_t>(nfp);
    const int ep = nodes[0] / np;
    for (int i = 0; i < nfp; ++i) {
      DGK_THROW_IF(nodes[i] / np != ep, "face codes: element " << face / 4 << " face " << face % 4 << ": face node "
                                                               << i << " has its neighbour in element "
                                                               << nodes[i] / np << ", face node 0 in " << ep);
      DGK_THROW_IF(nodes[i] < 0 || ep >= elements, "face codes: element " << face / 4 << " face " << face % 4
                                                                          << ": neighbour node " << nodes[i]
                                                                          << " is outside the " << elements
                                                                          << " elements");
      row[static_cast<std::size_t>(i)] = nodes[i] % np;
    }
    auto it = std::find(out.patterns.begin(), out.patterns.end(), row);
    if (it == out.patterns.end()) {
      if (static_cast<int>(out.patterns.size()) == mp) return {};
      out.patterns.push_back(row);
      it = out.patterns.end() - 1;
    }
    code[face] = ep * mp + static_cast<int>(it - out.patterns.begin());
  }
  out.code = std::move(code);
  return out;
}

}  // namespace dgk::mesh
