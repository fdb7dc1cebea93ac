// Triangular meshes: the rectangle generator, the mesh-specification parser, connectivity (also
// across periodic boundaries), geometric factors, node coordinates and edge-node maps.
#include "dgk/mesh/tri_mesh.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dgk/core/error.hpp"
#include "dgk/core/host_memory.hpp"
#include "dgk/core/parse.hpp"

namespace dgk::mesh {

namespace {

using Vec2 = std::array<double, 2>;
using basis::tri_edge_vertices;

Vec2 sub(const Vec2& a, const Vec2& b) {
  return {a[0] - b[0], a[1] - b[1]};
}
double dot(const Vec2& a, const Vec2& b) {
  return a[0] * b[0] + a[1] * b[1];
}
double cross(const Vec2& a, const Vec2& b) {
  return a[0] * b[1] - a[1] * b[0];
}
double norm(const Vec2& a) {
  return std::sqrt(dot(a, a));
}

// SplitMix64: a small, fully specified generator, so that a seed gives the same jittered mesh
// with every standard library (the distributions of <random> are implementation-defined).
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform in [0, 1) from the top 53 bits.
double unit_uniform(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

// Strict positive integer: digits only (no sign, blanks or trailing text), within int range.
bool parse_positive(const std::string& text, int& value) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  value = std::stoi(text);
  return value > 0;
}

std::array<int, 2> edge_vertices(const TriMesh& mesh, int e, int f) {
  const auto& el = mesh.elements[static_cast<std::size_t>(e)];
  return {el[tri_edge_vertices[f][0]], el[tri_edge_vertices[f][1]]};
}

std::array<int, 2> sorted(std::array<int, 2> v) {
  if (v[0] > v[1]) std::swap(v[0], v[1]);
  return v;
}

std::string list(const std::array<int, 2>& v) {
  return std::to_string(v[0]) + " " + std::to_string(v[1]);
}

void check_elements(const TriMesh& mesh) {
  const int nv = mesh.num_vertices();
  for (int e = 0; e < mesh.num_elements(); ++e) {
    const auto& el = mesh.elements[static_cast<std::size_t>(e)];
    for (int q = 0; q < 3; ++q) {
      DGK_THROW_IF(el[q] < 0 || el[q] >= nv, "mesh '" << mesh.source << "': element " << e << " uses vertex " << el[q]
                                                      << ", outside 0.." << nv - 1);
      for (int p = 0; p < q; ++p) {
        DGK_THROW_IF(el[p] == el[q],
                     "mesh '" << mesh.source << "': element " << e << " uses vertex " << el[q] << " twice");
      }
    }
  }
}

// The connectivity must belong to the mesh.
void check_sizes(const TriMesh& mesh, const TriConnectivity& conn, const char* what) {
  const std::size_t num_elements = mesh.elements.size();
  DGK_THROW_IF(
      conn.EToE.size() != num_elements || conn.EToF.size() != num_elements || conn.bc_tag.size() != num_elements,
      what << " of mesh '" << mesh.source << "': the connectivity has " << conn.EToE.size() << " elements, the mesh "
           << num_elements);
}

// Barycentric coordinates (l0, l1, l2) of the reference nodes.
std::vector<std::array<double, 3>> barycentrics(const basis::TriNodal& ref) {
  std::vector<std::array<double, 3>> l(static_cast<std::size_t>(ref.np));
  for (int i = 0; i < ref.np; ++i) {
    const double r = ref.r(i), s = ref.s(i);
    l[static_cast<std::size_t>(i)] = {-0.5 * (r + s), 0.5 * (1.0 + r), 0.5 * (1.0 + s)};
  }
  return l;
}

TriMesh load_rectangle(const std::string& spec) {
  std::vector<std::string> parts;
  const std::string args = spec.substr(5);
  std::string::size_type start = 0;
  while (true) {
    const auto comma = args.find(',', start);
    parts.push_back(args.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  RectangleSpec rect;
  std::vector<int> counts;
  bool have_jitter = false, have_seed = false;
  for (const std::string& part : parts) {
    const auto eq = part.find('=');
    if (eq == std::string::npos) {
      DGK_THROW_IF(have_jitter || have_seed, "mesh specification '"
                                                 << spec << "': cell count '" << part << "' after an option; expected "
                                                 << "'rect:n' or 'rect:nx,ny' followed by jitter=J or seed=S");
      int n = 0;
      DGK_THROW_IF(!parse_positive(part, n),
                   "mesh specification '" << spec << "': cell count '" << part << "' is not a positive integer");
      counts.push_back(n);
      continue;
    }
    const std::string key = part.substr(0, eq), value = part.substr(eq + 1);
    if (key == "jitter") {
      DGK_THROW_IF(have_jitter, "mesh specification '" << spec << "': jitter is given twice");
      rect.jitter = parse_number(value, "mesh specification '" + spec + "': jitter");
      have_jitter = true;
    } else if (key == "seed") {
      DGK_THROW_IF(have_seed, "mesh specification '" << spec << "': seed is given twice");
      int seed = 0;
      DGK_THROW_IF(!parse_positive(value, seed),
                   "mesh specification '" << spec << "': seed '" << value << "' is not a positive integer");
      rect.seed = static_cast<std::uint64_t>(seed);
      have_seed = true;
    } else {
      DGK_THROW_IF(true,
                   "mesh specification '" << spec << "': unknown option '" << key << "' (expected jitter or seed)");
    }
  }
  DGK_THROW_IF(counts.size() != 1 && counts.size() != 2, "mesh specification '"
                                                             << spec << "': expected 'rect:n' or 'rect:nx,ny', got "
                                                             << counts.size() << " cell counts");
  rect.cells = {counts[0], counts.back()};
  TriMesh mesh = make_rectangle(rect);
  mesh.source = spec;
  return mesh;
}

// An untagged hull edge, flattened for the overlap search.
struct HullEdge {
  int e, f;
  std::array<Vec2, 2> p;
  Vec2 lo, hi;    // bounding box, widened by the tolerance
  double length;  // edge length
};

// Whether two hull edges are collinear and their interiors overlap (with a tolerance, so edges
// that only touch at a vertex do not count).
bool edges_overlap(const HullEdge& a, const HullEdge& b) {
  const double size = std::max(a.length, b.length);
  const double tol = 1e-8 * size;
  const Vec2 t{(a.p[1][0] - a.p[0][0]) / a.length, (a.p[1][1] - a.p[0][1]) / a.length};
  for (const auto& q : b.p) {
    if (std::abs(cross(t, sub(q, a.p[0]))) > tol) return false;
  }
  // Both on a's line: compare the intervals along it.
  const double b0 = dot(sub(b.p[0], a.p[0]), t), b1 = dot(sub(b.p[1], a.p[0]), t);
  const double bmin = std::min(b0, b1), bmax = std::max(b0, b1);
  return bmax > tol && bmin < a.length - tol;
}

}  // namespace

int TriMesh::boundary_tag(const std::string& name) const {
  for (std::size_t i = 0; i < boundary_names.size(); ++i) {
    if (boundary_names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

double element_jacobian(const TriMesh& mesh, int e) {
  const auto& el = mesh.elements[static_cast<std::size_t>(e)];
  const Vec2& x0 = mesh.vertices[static_cast<std::size_t>(el[0])];
  const Vec2 a = sub(mesh.vertices[static_cast<std::size_t>(el[1])], x0);
  const Vec2 b = sub(mesh.vertices[static_cast<std::size_t>(el[2])], x0);
  // dx/dr = (x1 - x0) / 2, dx/ds = (x2 - x0) / 2: J is the edge determinant over 4.
  return cross(a, b) / 4.0;
}

double longest_edge(const TriMesh& mesh, int e) {
  const auto& el = mesh.elements[static_cast<std::size_t>(e)];
  double longest = 0.0;
  for (int i = 0; i < 3; ++i) {
    const Vec2 d =
        sub(mesh.vertices[static_cast<std::size_t>(el[i])], mesh.vertices[static_cast<std::size_t>(el[(i + 1) % 3])]);
    longest = std::max(longest, dot(d, d));
  }
  return std::sqrt(longest);
}

TriMesh make_rectangle(const RectangleSpec& spec) {
  const auto& n = spec.cells;
  for (int d = 0; d < 2; ++d) {
    DGK_THROW_IF(n[d] < 1, "rectangle: cell count along axis " << d << " is " << n[d] << ", must be at least 1");
    DGK_THROW_IF(!std::isfinite(spec.lower[d]) || !std::isfinite(spec.upper[d]) || !(spec.upper[d] > spec.lower[d]),
                 "rectangle: upper corner " << spec.upper[d] << " along axis " << d << " is not above the lower corner "
                                            << spec.lower[d]);
  }
  DGK_THROW_IF(!(spec.jitter >= 0.0 && spec.jitter <= max_rectangle_jitter),
               "rectangle: jitter " << spec.jitter << " is outside [0, " << max_rectangle_jitter
                                    << "] (the fraction of the cell size a vertex may move without inverting "
                                       "an element)");
  // Divisions, not a product, so the check itself cannot overflow; the vertex count
  // (n0 + 1)(n1 + 1) <= 2 n0 n1 + 2 fits as well.
  const bool too_many = n[0] > (INT_MAX - 2) / 2 / n[1];
  DGK_THROW_IF(too_many,
               "rectangle: " << n[0] << " x " << n[1] << " cells give more than " << INT_MAX - 2 << " elements");
  const long long num_cells = static_cast<long long>(n[0]) * n[1];
  // The host mesh takes about 80 bytes per element (vertices, connectivity, materials, regions,
  // boundary edges) before anything is derived from it; refuse what cannot fit.
  const double need = 80.0 * 2.0 * static_cast<double>(num_cells);
  const double avail = host_available_bytes();
  DGK_THROW_IF(avail > 0 && need > avail, "rectangle: " << n[0] << " x " << n[1] << " cells (" << 2 * num_cells
                                                        << " elements) need about " << need / (1 << 30)
                                                        << " GiB of host memory, " << avail / (1 << 30)
                                                        << " GiB are available");

  TriMesh mesh;
  std::ostringstream source;
  source << "rect:" << n[0] << "," << n[1];
  if (spec.jitter > 0) source << ",jitter=" << spec.jitter << ",seed=" << spec.seed;
  mesh.source = source.str();
  mesh.boundary_names = {"boundary", "xmin", "xmax", "ymin", "ymax"};

  const int nvx = n[0] + 1, nvy = n[1] + 1;
  auto vertex = [nvx](int i, int j) { return i + nvx * j; };
  mesh.vertices.resize(static_cast<std::size_t>(nvx) * static_cast<std::size_t>(nvy));
  const double pi = std::acos(-1.0);
  for (int j = 0; j < nvy; ++j) {
    for (int i = 0; i < nvx; ++i) {
      const int ij[2] = {i, j};
      Vec2 x;
      for (int d = 0; d < 2; ++d) {
        // Exact end points: the last vertex is `upper`, not lower + n * h.
        const double a = static_cast<double>(ij[d]) / n[d];
        x[d] = (1.0 - a) * spec.lower[d] + a * spec.upper[d];
      }
      if (spec.jitter > 0 && i > 0 && i < n[0] && j > 0 && j < n[1]) {
        // Uniform in a disc of radius jitter in cell-normalized coordinates: the bound on the
        // area change in the header holds in those coordinates, and the affine scaling to the
        // rectangle keeps the sign of every area.
        const std::uint64_t key = splitmix64(spec.seed) ^ static_cast<std::uint64_t>(vertex(i, j));
        const std::uint64_t b1 = splitmix64(key), b2 = splitmix64(b1);
        const double radius = spec.jitter * std::sqrt(unit_uniform(b1)), angle = 2.0 * pi * unit_uniform(b2);
        x[0] += radius * std::cos(angle) * (spec.upper[0] - spec.lower[0]) / n[0];
        x[1] += radius * std::sin(angle) * (spec.upper[1] - spec.lower[1]) / n[1];
      }
      mesh.vertices[static_cast<std::size_t>(vertex(i, j))] = x;
    }
  }

  mesh.elements.reserve(static_cast<std::size_t>(2 * num_cells));
  for (int j = 0; j < n[1]; ++j) {
    for (int i = 0; i < n[0]; ++i) {
      const int v00 = vertex(i, j), v10 = vertex(i + 1, j), v01 = vertex(i, j + 1), v11 = vertex(i + 1, j + 1);
      mesh.elements.push_back({v00, v10, v11});
      mesh.elements.push_back({v00, v11, v01});
    }
  }
  mesh.material.assign(mesh.elements.size(), {1.0, 1.0});
  mesh.region.assign(mesh.elements.size(), 0);

  mesh.boundary_edges.reserve(2 * static_cast<std::size_t>(n[0] + n[1]));
  for (int j = 0; j < n[1]; ++j) {
    mesh.boundary_edges.push_back({{vertex(0, j), vertex(0, j + 1)}, 1});
    mesh.boundary_edges.push_back({{vertex(n[0], j), vertex(n[0], j + 1)}, 2});
  }
  for (int i = 0; i < n[0]; ++i) {
    mesh.boundary_edges.push_back({{vertex(i, 0), vertex(i + 1, 0)}, 3});
    mesh.boundary_edges.push_back({{vertex(i, n[1]), vertex(i + 1, n[1])}, 4});
  }
  return mesh;
}

TriMesh load_tri_mesh(const std::string& spec) {
  const std::string msh = ".msh";
  if (spec.size() > msh.size() && spec.compare(spec.size() - msh.size(), msh.size(), msh) == 0) {
    return read_gmsh_tri(spec);
  }
  DGK_THROW_IF(spec.compare(0, 5, "rect:") != 0, "unknown 2D mesh specification '"
                                                     << spec
                                                     << "': expected 'rect:n' or 'rect:nx,ny', optionally followed by "
                                                        ",jitter=J (0.."
                                                     << max_rectangle_jitter
                                                     << ") and ,seed=S, or a Gmsh file ending in .msh");
  return load_rectangle(spec);
}

TriConnectivity connect(const TriMesh& mesh) {
  check_elements(mesh);
  const int num_elements = mesh.num_elements();
  TriConnectivity conn;
  conn.EToE.assign(static_cast<std::size_t>(num_elements), {-1, -1, -1});
  conn.EToF.assign(static_cast<std::size_t>(num_elements), {-1, -1, -1});
  conn.bc_tag.assign(static_cast<std::size_t>(num_elements), {-1, -1, -1});

  // (smaller vertex, larger vertex, e * 3 + f), sorted: equal edges end up adjacent.
  std::vector<std::tuple<int, int, int>> edges;
  edges.reserve(3 * static_cast<std::size_t>(num_elements));
  for (int e = 0; e < num_elements; ++e) {
    for (int f = 0; f < 3; ++f) {
      const auto v = sorted(edge_vertices(mesh, e, f));
      edges.emplace_back(v[0], v[1], 3 * e + f);
    }
  }
  std::sort(edges.begin(), edges.end());
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i + 1;
    while (j < edges.size() && std::get<0>(edges[j]) == std::get<0>(edges[i]) &&
           std::get<1>(edges[j]) == std::get<1>(edges[i])) {
      ++j;
    }
    if (j - i > 2) {
      std::ostringstream who;
      for (std::size_t k = i; k < j; ++k) {
        who << (k > i ? ", " : "") << "element " << std::get<2>(edges[k]) / 3 << " edge " << std::get<2>(edges[k]) % 3;
      }
      DGK_THROW_IF(true, "mesh '" << mesh.source << "': the edge with vertices " << std::get<0>(edges[i]) << " "
                                  << std::get<1>(edges[i]) << " is shared by " << j - i << " elements (" << who.str()
                                  << ")");
    }
    const int e0 = std::get<2>(edges[i]) / 3, f0 = std::get<2>(edges[i]) % 3;
    if (j - i == 2) {
      const int e1 = std::get<2>(edges[i + 1]) / 3, f1 = std::get<2>(edges[i + 1]) % 3;
      conn.EToE[static_cast<std::size_t>(e0)][f0] = e1, conn.EToF[static_cast<std::size_t>(e0)][f0] = f1;
      conn.EToE[static_cast<std::size_t>(e1)][f1] = e0, conn.EToF[static_cast<std::size_t>(e1)][f1] = f0;
      ++conn.num_interior_edges;
    } else {
      conn.bc_tag[static_cast<std::size_t>(e0)][f0] = 0;
      ++conn.num_boundary_edges;
    }
    i = j;
  }

  // Tagged boundary edges must be hull edges; an edge listed twice must keep one tag.
  std::vector<char> tagged(3 * static_cast<std::size_t>(num_elements), 0);
  const int num_tags = static_cast<int>(mesh.boundary_names.size());
  for (std::size_t k = 0; k < mesh.boundary_edges.size(); ++k) {
    const auto& be = mesh.boundary_edges[k];
    DGK_THROW_IF(be.tag < 0 || be.tag >= num_tags,
                 "mesh '" << mesh.source << "': boundary edge " << k << " (vertices " << list(be.vertices)
                          << ") has tag " << be.tag << ", outside 0.." << num_tags - 1 << " (the boundary names)");
    for (int q = 0; q < 2; ++q) {
      DGK_THROW_IF(be.vertices[q] < 0 || be.vertices[q] >= mesh.num_vertices(),
                   "mesh '" << mesh.source << "': boundary edge " << k << " (vertices " << list(be.vertices)
                            << ") uses a vertex outside 0.." << mesh.num_vertices() - 1);
    }
    const auto v = sorted(be.vertices);
    DGK_THROW_IF(v[0] == v[1], "mesh '" << mesh.source << "': boundary edge " << k << " (vertices " << list(be.vertices)
                                        << ") repeats a vertex");
    const auto key = std::make_tuple(v[0], v[1], std::numeric_limits<int>::min());
    const auto begin = std::lower_bound(edges.begin(), edges.end(), key);
    auto end = begin;
    while (end != edges.end() && std::get<0>(*end) == v[0] && std::get<1>(*end) == v[1]) ++end;
    DGK_THROW_IF(begin == end, "mesh '" << mesh.source << "': boundary edge " << k << " (vertices " << list(be.vertices)
                                        << ", tag '" << mesh.boundary_names[static_cast<std::size_t>(be.tag)]
                                        << "') is not an edge of any element");
    const int e = std::get<2>(*begin) / 3, f = std::get<2>(*begin) % 3;
    const auto ue = static_cast<std::size_t>(e);
    DGK_THROW_IF(end - begin > 1, "mesh '" << mesh.source << "': boundary edge " << k << " (vertices "
                                           << list(be.vertices) << ", tag '"
                                           << mesh.boundary_names[static_cast<std::size_t>(be.tag)]
                                           << "') is not on the hull: it is shared by element " << e << " edge " << f
                                           << " and element " << conn.EToE[ue][f] << " edge " << conn.EToF[ue][f]);
    const std::size_t ef = std::get<2>(*begin);
    DGK_THROW_IF(tagged[ef] && conn.bc_tag[ue][f] != be.tag,
                 "mesh '" << mesh.source << "': boundary edge with vertices " << list(be.vertices)
                          << " is listed with two tags, '"
                          << mesh.boundary_names[static_cast<std::size_t>(conn.bc_tag[ue][f])] << "' and '"
                          << mesh.boundary_names[static_cast<std::size_t>(be.tag)] << "'");
    tagged[ef] = 1;
    conn.bc_tag[ue][f] = be.tag;
  }
  return conn;
}

void connect_periodic(const TriMesh& mesh, TriConnectivity& conn, int from, int to, const Vec2& shift) {
  check_sizes(mesh, conn, "periodic pairing");
  const int num_tags = static_cast<int>(mesh.boundary_names.size());
  for (int tag : {from, to}) {
    DGK_THROW_IF(tag < 0 || tag >= num_tags, "periodic pairing of mesh '" << mesh.source << "': tag " << tag
                                                                          << " is outside 0.." << num_tags - 1
                                                                          << " (the boundary names)");
  }
  const std::string& from_name = mesh.boundary_names[static_cast<std::size_t>(from)];
  const std::string& to_name = mesh.boundary_names[static_cast<std::size_t>(to)];
  DGK_THROW_IF(from == to, "periodic pairing of mesh '" << mesh.source << "': boundary '" << from_name
                                                        << "' cannot be paired with itself");
  DGK_THROW_IF(!std::isfinite(shift[0]) || !std::isfinite(shift[1]), "periodic pairing of mesh '"
                                                                         << mesh.source << "': the shift (" << shift[0]
                                                                         << ", " << shift[1] << ") is not finite");

  // The still unpaired boundary edges of a tag, with their end points and midpoints.
  struct Side {
    int e, f;
    std::array<Vec2, 2> p;
    Vec2 mid;
    double length;
  };
  auto sides = [&](int tag) {
    std::vector<Side> out;
    for (int e = 0; e < mesh.num_elements(); ++e) {
      for (int f = 0; f < 3; ++f) {
        const auto ue = static_cast<std::size_t>(e);
        if (conn.EToE[ue][f] >= 0 || conn.bc_tag[ue][f] != tag) continue;
        const auto v = edge_vertices(mesh, e, f);
        const Vec2 &a = mesh.vertices[static_cast<std::size_t>(v[0])],
                   &b = mesh.vertices[static_cast<std::size_t>(v[1])];
        out.push_back({e, f, {a, b}, {0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])}, norm(sub(b, a))});
      }
    }
    return out;
  };
  auto describe = [](const Side& s) {
    std::ostringstream out;
    out << "element " << s.e << " edge " << s.f << " (midpoint (" << s.mid[0] << ", " << s.mid[1] << "))";
    return out.str();
  };
  const std::vector<Side> origin = sides(from);
  std::vector<Side> target = sides(to);
  DGK_THROW_IF(origin.empty(), "periodic pairing of mesh '" << mesh.source << "': no unpaired boundary edge has tag '"
                                                            << from_name << "'");

  // Targets sorted along the axis on which their midpoints spread most; a query scans the
  // window of its tolerance along that axis.
  Vec2 lo{target.empty() ? 0.0 : target[0].mid[0], target.empty() ? 0.0 : target[0].mid[1]}, hi = lo;
  for (const Side& t : target) {
    for (int d = 0; d < 2; ++d) lo[d] = std::min(lo[d], t.mid[d]), hi[d] = std::max(hi[d], t.mid[d]);
  }
  const int axis = hi[1] - lo[1] > hi[0] - lo[0] ? 1 : 0;
  std::sort(target.begin(), target.end(), [axis](const Side& a, const Side& b) { return a.mid[axis] < b.mid[axis]; });

  std::vector<int> partner(target.size(), -1);  // origin index paired with each target
  for (std::size_t k = 0; k < origin.size(); ++k) {
    const Side& s = origin[k];
    const double tol = 1e-9 * s.length;
    const Vec2 q{s.mid[0] + shift[0], s.mid[1] + shift[1]};
    auto it = std::lower_bound(target.begin(), target.end(), q[axis] - tol,
                               [axis](const Side& t, double value) { return t.mid[axis] < value; });
    std::size_t match = target.size();
    for (; it != target.end() && it->mid[axis] <= q[axis] + tol; ++it) {
      if (norm(sub(it->mid, q)) <= tol) {
        match = static_cast<std::size_t>(it - target.begin());
        break;
      }
    }
    DGK_THROW_IF(match == target.size(), "periodic pairing of mesh '"
                                             << mesh.source << "': " << describe(s) << " on '" << from_name
                                             << "' has no partner on '" << to_name << "' at (" << q[0] << ", " << q[1]
                                             << ") (shift (" << shift[0] << ", " << shift[1] << "), tolerance " << tol
                                             << ")");
    const Side& t = target[match];
    DGK_THROW_IF(partner[match] >= 0, "periodic pairing of mesh '"
                                          << mesh.source
                                          << "': " << describe(origin[static_cast<std::size_t>(partner[match])])
                                          << " and " << describe(s) << " on '" << from_name << "' both match "
                                          << describe(t) << " on '" << to_name << "'");
    // The end points must coincide too (in either order), or the two edges differ in length.
    bool ends = false;
    for (int flip = 0; flip < 2 && !ends; ++flip) {
      ends = true;
      for (int q2 = 0; q2 < 2; ++q2) {
        const Vec2& a = s.p[static_cast<std::size_t>(q2)];
        const Vec2& b = t.p[static_cast<std::size_t>(flip ? 1 - q2 : q2)];
        ends = ends && norm(sub(b, Vec2{a[0] + shift[0], a[1] + shift[1]})) <= tol;
      }
    }
    DGK_THROW_IF(!ends, "periodic pairing of mesh '" << mesh.source << "': " << describe(s) << " on '" << from_name
                                                     << "' and " << describe(t) << " on '" << to_name
                                                     << "' share their shifted midpoint but not their end points "
                                                        "(lengths "
                                                     << s.length << " and " << t.length << ")");
    partner[match] = static_cast<int>(k);
  }
  for (std::size_t m = 0; m < target.size(); ++m) {
    DGK_THROW_IF(partner[m] < 0, "periodic pairing of mesh '" << mesh.source << "': " << describe(target[m]) << " on '"
                                                              << to_name << "' has no partner on '" << from_name
                                                              << "' (" << target.size() << " edges there, "
                                                              << origin.size() << " on '" << from_name << "')");
  }

  // All matched: link the pairs.
  for (std::size_t m = 0; m < target.size(); ++m) {
    const Side& s = origin[static_cast<std::size_t>(partner[m])];
    const Side& t = target[m];
    const auto es = static_cast<std::size_t>(s.e), et = static_cast<std::size_t>(t.e);
    conn.EToE[es][s.f] = t.e, conn.EToF[es][s.f] = t.f, conn.bc_tag[es][s.f] = -1;
    conn.EToE[et][t.f] = s.e, conn.EToF[et][t.f] = s.f, conn.bc_tag[et][t.f] = -1;
  }
  const int pairs = static_cast<int>(target.size());
  conn.num_interior_edges += pairs;
  conn.num_boundary_edges -= 2 * pairs;
}

void check_conforming(const TriMesh& mesh, const TriConnectivity& conn) {
  check_sizes(mesh, conn, "conformity check");
  std::vector<HullEdge> hull;
  for (int e = 0; e < mesh.num_elements(); ++e) {
    for (int f = 0; f < 3; ++f) {
      const auto ue = static_cast<std::size_t>(e);
      if (conn.EToE[ue][f] >= 0 || conn.bc_tag[ue][f] != 0) continue;
      HullEdge h;
      h.e = e, h.f = f;
      const auto v = edge_vertices(mesh, e, f);
      for (int q = 0; q < 2; ++q) h.p[q] = mesh.vertices[static_cast<std::size_t>(v[q])];
      h.length = norm(sub(h.p[1], h.p[0]));
      if (h.length == 0.0) continue;  // degenerate; geometric_factors reports it
      for (int d = 0; d < 2; ++d) {
        h.lo[d] = std::min(h.p[0][d], h.p[1][d]) - 1e-8 * h.length;
        h.hi[d] = std::max(h.p[0][d], h.p[1][d]) + 1e-8 * h.length;
      }
      hull.push_back(h);
    }
  }
  if (hull.size() < 2) return;

  // Multi-level grid: an edge lives at the finest level whose cells are at least as large as its
  // bounding box (so it touches at most 4 cells there); a query visits its own and all coarser
  // levels. Cost O(edges * levels) also on strongly graded meshes.
  double hmin = std::numeric_limits<double>::max();
  Vec2 origin{hmin, hmin};
  for (const auto& h : hull) {
    hmin = std::min(hmin, h.length);
    for (int d = 0; d < 2; ++d) origin[d] = std::min(origin[d], h.lo[d]);
  }
  auto level_of = [&](const HullEdge& h) {
    int level = 0;
    while (hmin * std::ldexp(1.0, level) < 1.01 * h.length + 2e-8 * h.length) ++level;
    return level;
  };
  using Cell = std::array<long long, 3>;  // level, i, j
  auto cells_of = [&](const HullEdge& h, int level, std::vector<Cell>& out) {
    out.clear();
    const double width = hmin * std::ldexp(1.0, level);
    long long lo[2], hi[2];
    for (int d = 0; d < 2; ++d) {
      lo[d] = static_cast<long long>(std::floor((h.lo[d] - origin[d]) / width));
      hi[d] = static_cast<long long>(std::floor((h.hi[d] - origin[d]) / width));
    }
    for (long long i = lo[0]; i <= hi[0]; ++i) {
      for (long long j = lo[1]; j <= hi[1]; ++j) out.push_back({level, i, j});
    }
  };
  std::vector<std::pair<Cell, int>> grid;
  std::vector<int> levels(hull.size());
  int max_level = 0;
  std::vector<Cell> cells;
  for (std::size_t n = 0; n < hull.size(); ++n) {
    levels[n] = level_of(hull[n]);
    max_level = std::max(max_level, levels[n]);
    cells_of(hull[n], levels[n], cells);
    for (const auto& c : cells) grid.emplace_back(c, static_cast<int>(n));
  }
  std::sort(grid.begin(), grid.end());

  for (std::size_t n = 0; n < hull.size(); ++n) {
    const HullEdge& a = hull[n];
    for (int level = levels[n]; level <= max_level; ++level) {
      cells_of(a, level, cells);
      for (const auto& c : cells) {
        auto it = std::lower_bound(grid.begin(), grid.end(), std::make_pair(c, -1));
        for (; it != grid.end() && it->first == c; ++it) {
          if (it->second == static_cast<int>(n)) continue;
          const HullEdge& b = hull[static_cast<std::size_t>(it->second)];
          if (!edges_overlap(a, b)) continue;
          DGK_THROW_IF(true, "mesh '" << mesh.source << "' is not conforming: boundary edge " << a.f << " of element "
                                      << a.e << " (vertices " << list(edge_vertices(mesh, a.e, a.f))
                                      << ") overlaps boundary edge " << b.f << " of element " << b.e << " (vertices "
                                      << list(edge_vertices(mesh, b.e, b.f))
                                      << "): the elements do not share vertices across this interface (a hanging "
                                         "vertex or duplicated vertices)");
        }
      }
    }
  }
}

TriGeometry geometric_factors(const TriMesh& mesh) {
  check_elements(mesh);
  const auto num_elements = static_cast<std::size_t>(mesh.num_elements());
  DGK_THROW_IF(mesh.material.size() != num_elements, "mesh '" << mesh.source << "' has " << mesh.material.size()
                                                              << " material entries for " << num_elements
                                                              << " elements");
  TriGeometry g;
  g.drdx.resize(num_elements);
  g.J.resize(num_elements);
  g.normal.resize(num_elements);
  g.sJ.resize(num_elements);
  g.fscale.resize(num_elements);
  for (std::size_t e = 0; e < num_elements; ++e) {
    const auto& el = mesh.elements[e];
    const Vec2& x0 = mesh.vertices[static_cast<std::size_t>(el[0])];
    // x = l0 x0 + l1 x1 + l2 x2 with l1 = (1 + r) / 2, l2 = (1 + s) / 2: dx/dr = (x1 - x0) / 2.
    Vec2 xr = sub(mesh.vertices[static_cast<std::size_t>(el[1])], x0);
    Vec2 xs = sub(mesh.vertices[static_cast<std::size_t>(el[2])], x0);
    for (int d = 0; d < 2; ++d) xr[d] *= 0.5, xs[d] *= 0.5;
    const double J = cross(xr, xs);
    const double h = longest_edge(mesh, static_cast<int>(e));
    DGK_THROW_IF(J <= 0.0 && std::abs(J) > tri_degenerate_tolerance * h * h,
                 "mesh '" << mesh.source << "': element " << e << " (vertices " << el[0] << " " << el[1] << " " << el[2]
                          << ") is inverted (clockwise): J = " << J);
    DGK_THROW_IF(!(J > tri_degenerate_tolerance * h * h),
                 "mesh '" << mesh.source << "': element " << e << " (vertices " << el[0] << " " << el[1] << " " << el[2]
                          << ") is degenerate: J = " << J << ", longest edge " << h);
    for (int c = 0; c < 2; ++c) {
      DGK_THROW_IF(!(mesh.material[e][c] > 0) || !std::isfinite(mesh.material[e][c]),
                   "mesh '" << mesh.source << "': element " << e << " has material coefficient " << c << " = "
                            << mesh.material[e][c] << ", which must be positive and finite");
    }
    // Inverse of [[xr, xs], [yr, ys]]: rx = ys / J, ry = -xs / J, sx = -yr / J, sy = xr / J.
    const double rx = xs[1] / J, ry = -xs[0] / J, sx = -xr[1] / J, sy = xr[0] / J;
    g.drdx[e] = {rx, sx, ry, sy};
    g.J[e] = J;
    // Outward normals of the reference edges mapped to the element (Normals2D): the gradients
    // of -s, r + s and -r.
    const std::array<Vec2, 3> n{Vec2{-sx, -sy}, Vec2{rx + sx, ry + sy}, Vec2{-rx, -ry}};
    for (int f = 0; f < 3; ++f) {
      const double len = norm(n[f]);
      g.normal[e][f] = {n[f][0] / len, n[f][1] / len};
      g.sJ[e][f] = len * J;
      g.fscale[e][f] = len;  // sJ / J
    }
  }
  return g;
}

TriNodeCoordinates node_coordinates(const TriMesh& mesh, const basis::TriNodal& ref) {
  DGK_THROW_IF(ref.np != ref.r.size() || ref.np != ref.s.size(),
               "node coordinates: the reference element has np = " << ref.np << " but " << ref.r.size() << " nodes");
  const auto l = barycentrics(ref);
  const auto np = static_cast<std::size_t>(ref.np);
  TriNodeCoordinates x;
  const std::size_t total = static_cast<std::size_t>(mesh.num_elements()) * np;
  x.x.resize(total);
  x.y.resize(total);
  for (std::size_t e = 0; e < static_cast<std::size_t>(mesh.num_elements()); ++e) {
    const auto& el = mesh.elements[e];
    for (std::size_t i = 0; i < np; ++i) {
      double px = 0, py = 0;
      for (int q = 0; q < 3; ++q) {
        const Vec2& v = mesh.vertices[static_cast<std::size_t>(el[q])];
        px += l[i][q] * v[0];
        py += l[i][q] * v[1];
      }
      x.x[e * np + i] = px;
      x.y[e * np + i] = py;
    }
  }
  return x;
}

EdgeMaps build_edge_maps(const TriMesh& mesh, const TriConnectivity& conn, const basis::TriNodal& ref) {
  const int num_elements = mesh.num_elements();
  const int np = ref.np, nfp = ref.nfp;
  check_sizes(mesh, conn, "edge maps");
  DGK_THROW_IF(static_cast<long long>(num_elements) * np > std::numeric_limits<int>::max(),
               "edge maps of mesh '" << mesh.source << "': " << num_elements << " elements of " << np
                                     << " nodes exceed the int range of the node maps");
  DGK_THROW_IF(np != ref.r.size() || np != ref.s.size(),
               "edge maps: the reference element has np = " << np << " but " << ref.r.size() << " nodes");
  for (int f = 0; f < 3; ++f) {
    DGK_THROW_IF(static_cast<int>(ref.fmask[f].size()) != nfp,
                 "edge maps: reference edge " << f << " has " << ref.fmask[f].size() << " nodes, nfp is " << nfp);
  }
  check_conforming(mesh, conn);

  // Position of each edge node along its edge: the barycentric of the edge's second vertex.
  const auto l = barycentrics(ref);
  std::array<std::vector<double>, 3> mu;
  for (int f = 0; f < 3; ++f) {
    mu[f].resize(static_cast<std::size_t>(nfp));
    for (int i = 0; i < nfp; ++i) {
      mu[f][static_cast<std::size_t>(i)] =
          l[static_cast<std::size_t>(ref.fmask[f][static_cast<std::size_t>(i)])][tri_edge_vertices[f][1]];
    }
  }
  // table[f][g][flip][i]: position in edge g of the node matching node i of edge f, when the
  // edges run the same way (flip 0) or opposite ways (flip 1).
  std::vector<int> table(static_cast<std::size_t>(3 * 3 * 2) * static_cast<std::size_t>(nfp));
  auto entry = [&](int f, int g, int flip) {
    return table.data() + static_cast<std::size_t>((f * 3 + g) * 2 + flip) * static_cast<std::size_t>(nfp);
  };
  for (int f = 0; f < 3; ++f) {
    for (int g = 0; g < 3; ++g) {
      for (int flip = 0; flip < 2; ++flip) {
        for (int i = 0; i < nfp; ++i) {
          const double target = flip ? 1.0 - mu[f][static_cast<std::size_t>(i)] : mu[f][static_cast<std::size_t>(i)];
          int best = -1;
          double best_dist = 1e300;
          for (int j = 0; j < nfp; ++j) {
            const double dist = std::abs(mu[g][static_cast<std::size_t>(j)] - target);
            if (dist < best_dist) best = j, best_dist = dist;
          }
          DGK_THROW_IF(best_dist > 1e-8, "edge maps: the order-" << ref.order << " reference nodes are not symmetric: "
                                                                 << "node " << i << " of edge " << f
                                                                 << " has no image on edge " << g
                                                                 << " (closest differs by " << best_dist << ")");
          entry(f, g, flip)[i] = best;
        }
      }
    }
  }

  EdgeMaps maps;
  maps.nfp = nfp;
  const std::size_t total = 3 * static_cast<std::size_t>(num_elements) * static_cast<std::size_t>(nfp);
  maps.vmapM.resize(total);
  maps.vmapP.resize(total);
  for (int e = 0; e < num_elements; ++e) {
    const auto ue = static_cast<std::size_t>(e);
    for (int f = 0; f < 3; ++f) {
      const std::size_t base = (ue * 3 + static_cast<std::size_t>(f)) * static_cast<std::size_t>(nfp);
      const int* fmask = ref.fmask[f].data();
      for (int i = 0; i < nfp; ++i) maps.vmapM[base + static_cast<std::size_t>(i)] = e * np + fmask[i];
      const int e2 = conn.EToE[ue][f], f2 = conn.EToF[ue][f];
      if (e2 < 0) {
        for (int i = 0; i < nfp; ++i) maps.vmapP[base + static_cast<std::size_t>(i)] = e * np + fmask[i];
        maps.boundary_edges.push_back(e * 3 + f);
        continue;
      }
      DGK_THROW_IF(e2 >= num_elements || f2 < 0 || f2 > 2,
                   "edge maps of mesh '" << mesh.source << "': element " << e << " edge " << f << " has neighbour "
                                         << e2 << " edge " << f2 << ", outside the mesh");
      const auto v = edge_vertices(mesh, e, f), w = edge_vertices(mesh, e2, f2);
      const bool same = v[0] == w[0] && v[1] == w[1];
      const bool flipped = v[0] == w[1] && v[1] == w[0];
      DGK_THROW_IF(!same && !flipped, "edge maps of mesh '"
                                          << mesh.source << "': element " << e << " edge " << f << " (vertices "
                                          << list(v) << ") and its neighbour element " << e2 << " edge " << f2
                                          << " (vertices " << list(w) << ") do not share their vertices");
      const int* match = entry(f, f2, flipped ? 1 : 0);
      const int* fmask2 = ref.fmask[f2].data();
      for (int i = 0; i < nfp; ++i) maps.vmapP[base + static_cast<std::size_t>(i)] = e2 * np + fmask2[match[i]];
      if (e2 < e) continue;  // the pair was verified from the other side

      // Matched nodes must coincide; a distance here means the two edges differ geometrically.
      const Vec2 &a0 = mesh.vertices[static_cast<std::size_t>(v[0])],
                 &a1 = mesh.vertices[static_cast<std::size_t>(v[1])];
      const Vec2 &b0 = mesh.vertices[static_cast<std::size_t>(w[0])],
                 &b1 = mesh.vertices[static_cast<std::size_t>(w[1])];
      const double tol = 1e-8 * norm(sub(a1, a0));
      for (int i = 0; i < nfp; ++i) {
        const double ta = mu[f][static_cast<std::size_t>(i)], tb = mu[f2][static_cast<std::size_t>(match[i])];
        double dist2 = 0.0;
        for (int d = 0; d < 2; ++d) {
          const double xm = (1.0 - ta) * a0[d] + ta * a1[d];
          const double xp = (1.0 - tb) * b0[d] + tb * b1[d];
          dist2 += (xm - xp) * (xm - xp);
        }
        DGK_THROW_IF(!(dist2 <= tol * tol), "edge maps of mesh '" << mesh.source << "': node " << i << " of element "
                                                                  << e << " edge " << f << " lies " << std::sqrt(dist2)
                                                                  << " from its match on element " << e2 << " edge "
                                                                  << f2 << " (tolerance " << tol
                                                                  << "): the mesh is not conforming");
      }
    }
  }
  return maps;
}

}  // namespace dgk::mesh
