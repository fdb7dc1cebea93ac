// Uniform refinement of triangular meshes: every triangle split into four through its edge
// midpoints; midpoints of edges on circular boundaries moved onto their circles.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dgk/core/error.hpp"
#include "dgk/mesh/tri_mesh.hpp"

namespace dgk::mesh {

namespace {

using Vec2 = std::array<double, 2>;

// Per-element data of the parent, four times over (each child inherits it); empty stays empty.
template <class T>
std::vector<T> inherit(const TriMesh& mesh, const std::vector<T>& parent, const char* what) {
  const std::size_t ne = mesh.elements.size();
  DGK_THROW_IF(!parent.empty() && parent.size() != ne, "refining mesh '" << mesh.source << "': " << parent.size() << " "
                                                                         << what << " entries for " << ne
                                                                         << " elements");
  std::vector<T> child;
  child.reserve(4 * parent.size());
  for (const T& value : parent) child.insert(child.end(), 4, value);
  return child;
}

TriMesh refine_once(const TriMesh& mesh) {
  const std::size_t nv = mesh.vertices.size(), ne = mesh.elements.size();
  TriMesh out;
  out.boundary_names = mesh.boundary_names;
  out.boundary_circles = mesh.boundary_circles;
  out.source = mesh.source;
  out.material = inherit(mesh, mesh.material, "material");
  out.region = inherit(mesh, mesh.region, "region");
  out.vertices = mesh.vertices;
  out.vertices.reserve(nv + ne * 3 / 2 + mesh.boundary_edges.size());

  // Midpoint vertex of each edge, keyed by its sorted vertex pair, numbered after the parent's
  // vertices in the order the elements reach them.
  std::unordered_map<std::uint64_t, int> midpoint;
  midpoint.reserve(ne * 3 / 2 + mesh.boundary_edges.size());
  auto key = [](int a, int b) {
    if (a > b) std::swap(a, b);
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32 | static_cast<std::uint32_t>(b);
  };
  auto mid = [&](int a, int b) {
    const auto [it, added] = midpoint.try_emplace(key(a, b), static_cast<int>(out.vertices.size()));
    if (added) {
      DGK_THROW_IF(out.vertices.size() >= static_cast<std::size_t>(INT_MAX),
                   "refining mesh '" << mesh.source << "': more than " << INT_MAX << " vertices");
      const Vec2 &pa = mesh.vertices[static_cast<std::size_t>(a)], &pb = mesh.vertices[static_cast<std::size_t>(b)];
      out.vertices.push_back({0.5 * (pa[0] + pb[0]), 0.5 * (pa[1] + pb[1])});
    }
    return it->second;
  };

  out.elements.reserve(4 * ne);
  for (std::size_t e = 0; e < ne; ++e) {
    const auto& el = mesh.elements[e];
    for (int v : el) {
      DGK_THROW_IF(v < 0 || static_cast<std::size_t>(v) >= nv, "refining mesh '" << mesh.source << "': element " << e
                                                                                 << " uses vertex " << v
                                                                                 << ", outside 0.." << nv - 1);
    }
    const int m01 = mid(el[0], el[1]), m12 = mid(el[1], el[2]), m20 = mid(el[2], el[0]);
    // Three corner children and the middle one, all with the parent's orientation.
    out.elements.push_back({el[0], m01, m20});
    out.elements.push_back({m01, el[1], m12});
    out.elements.push_back({m20, m12, el[2]});
    out.elements.push_back({m01, m12, m20});
  }

  // Boundary edges split in two with their tag; on a circle the midpoint moves onto it.
  std::vector<char> moved(out.vertices.size(), 0);
  out.boundary_edges.reserve(2 * mesh.boundary_edges.size());
  for (std::size_t k = 0; k < mesh.boundary_edges.size(); ++k) {
    const BoundaryEdge& be = mesh.boundary_edges[k];
    const auto found = midpoint.find(key(be.vertices[0], be.vertices[1]));
    DGK_THROW_IF(found == midpoint.end(), "refining mesh '" << mesh.source << "': boundary edge " << k << " (vertices "
                                                            << be.vertices[0] << " " << be.vertices[1] << ", tag "
                                                            << be.tag << ") is not an edge of any element");
    const int m = found->second;
    out.boundary_edges.push_back({{be.vertices[0], m}, be.tag});
    out.boundary_edges.push_back({{m, be.vertices[1]}, be.tag});
    const auto circle = std::find_if(mesh.boundary_circles.begin(), mesh.boundary_circles.end(),
                                     [&](const BoundaryCircle& c) { return c.tag == be.tag; });
    if (circle == mesh.boundary_circles.end()) continue;
    Vec2& x = out.vertices[static_cast<std::size_t>(m)];
    const Vec2 d{x[0] - circle->center[0], x[1] - circle->center[1]};
    const double r = std::hypot(d[0], d[1]);
    DGK_THROW_IF(!(r > 0.0), "refining mesh '" << mesh.source << "': the midpoint of boundary edge " << k
                                               << " (vertices " << be.vertices[0] << " " << be.vertices[1]
                                               << ") is the center of the circle of tag " << be.tag);
    x = {circle->center[0] + circle->radius * d[0] / r, circle->center[1] + circle->radius * d[1] / r};
    moved[static_cast<std::size_t>(m)] = 1;
  }

  // A child touching a moved midpoint must keep its orientation.
  for (std::size_t c = 0; c < out.elements.size(); ++c) {
    const auto& el = out.elements[c];
    if (!moved[static_cast<std::size_t>(el[0])] && !moved[static_cast<std::size_t>(el[1])] &&
        !moved[static_cast<std::size_t>(el[2])]) {
      continue;
    }
    const Vec2 &a = out.vertices[static_cast<std::size_t>(el[0])], &b = out.vertices[static_cast<std::size_t>(el[1])],
               &p = out.vertices[static_cast<std::size_t>(el[2])];
    const double area2 = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    DGK_THROW_IF(!(area2 > 0.0), "refining mesh '" << mesh.source << "': moving the boundary midpoints onto their "
                                                   << "circles inverts child " << c % 4 << " of element " << c / 4
                                                   << " (signed area " << 0.5 * area2
                                                   << "); the mesh is too coarse along the arc");
  }
  return out;
}

}  // namespace

TriMesh refine_tri_mesh(const TriMesh& mesh, int times) {
  DGK_THROW_IF(times < 0, "refining mesh '" << mesh.source << "': " << times << " refinements (must be 0 or more)");
  long long elements = static_cast<long long>(mesh.elements.size());
  for (int t = 0; t < times; ++t) {
    elements *= 4;
    DGK_THROW_IF(elements > INT_MAX, "refining mesh '" << mesh.source << "' " << times
                                                       << " times: " << mesh.elements.size()
                                                       << " elements become more than " << INT_MAX);
  }
  TriMesh out = mesh;
  for (int t = 0; t < times; ++t) out = refine_once(out);
  if (times > 0) out.source = mesh.source + ",refine=" + std::to_string(times);
  return out;
}

}  // namespace dgk::mesh
