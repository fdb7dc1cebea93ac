// Triangle-mesh generators beyond the rectangle: the structured quarter annulus (the rectangle
// generator under the polar map) and the unstructured quarter annulus and rectangle meshed by
// the Gmsh SDK.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "dgk/core/error.hpp"
#include "dgk/mesh/tri_mesh.hpp"

#ifdef DGK_HAS_GMSH
#include <gmsh.h>

#include <mutex>

#include "gmsh_session.hpp"
#endif

namespace dgk::mesh {

namespace {

constexpr double quarter_turn = 1.57079632679489661923;  // pi / 2

void check_radii(const std::string& what, double r_inner, double r_outer) {
  DGK_THROW_IF(!(std::isfinite(r_inner) && std::isfinite(r_outer) && r_inner > 0.0 && r_outer > r_inner),
               what << ": radii " << r_inner << " and " << r_outer << " must satisfy 0 < r_inner < r_outer");
}

// Tags 1 "inner", 2 "outer", 3 "inflow", 4 "outflow", and the two arcs.
void name_annulus(TriMesh& mesh, double r_inner, double r_outer) {
  mesh.boundary_names = {"boundary", "inner", "outer", "inflow", "outflow"};
  mesh.boundary_circles = {BoundaryCircle{1, {0.0, 0.0}, r_inner, false}, BoundaryCircle{2, {0.0, 0.0}, r_outer, true}};
}

// ",r_inner=..,r_outer=.." for other radii than AnnulusSpec's, for the source string.
std::string radii_suffix(double r_inner, double r_outer) {
  const AnnulusSpec defaults;
  std::ostringstream out;
  if (r_inner != defaults.r_inner || r_outer != defaults.r_outer) {
    out << ",r_inner=" << r_inner << ",r_outer=" << r_outer;
  }
  return out.str();
}

#ifdef DGK_HAS_GMSH

// Target edge length h of a Gmsh mesh of a domain of this area: positive, and small enough
// neither to round away nor to exceed dgk's index range (an equilateral mesh of edge h has
// about 2.31 area / h^2 triangles).
void check_edge_length(const std::string& name, double h, double area) {
  DGK_THROW_IF(!(std::isfinite(h) && h > 0.0),
               "cannot mesh '" << name << "': edge length h = " << h << " must be positive and finite");
  const double estimate = 2.31 * area / (h * h);
  DGK_THROW_IF(!(estimate < 0.5 * INT_MAX), "cannot mesh '" << name << "': edge length h = " << h << " gives about "
                                                            << estimate << " triangles, beyond dgk's index range");
}

// Meshes the geometry that `build` adds (Gmsh's built-in kernel, points of mesh size h,
// synchronized, physical groups of dimension 1 for the boundary tags) in a session of its own and reads the triangles
// back with the conventions of read_gmsh_tri; `name` becomes the mesh's source.
template <class F>
TriMesh gmsh_generate(const std::string& name, F&& build) {
  std::lock_guard<std::mutex> lock(detail::gmsh_mutex());
  detail::GmshSession session;
  const std::string context = "Gmsh cannot mesh '" + name + "'";
  detail::gmsh_try(context, "building the geometry", [&] {
    gmsh::model::add("dgk");
    build();
  });
  detail::gmsh_try(context, "meshing", [&] {
    // Frontal-Delaunay: well-shaped triangles and, in Gmsh 4.8, also the fastest of the 2D
    // algorithms on one large surface (about 26 s for 10^6 triangles; Delaunay 31 s, MeshAdapt
    // far slower). Gmsh meshes one surface on one thread, so more threads would not help.
    gmsh::option::setNumber("Mesh.Algorithm", 6);
    gmsh::option::setNumber("General.NumThreads", 1);
    gmsh::model::mesh::generate(2);
  });
  return detail::tri_mesh_from_gmsh_model(name);
}

// A named physical group of curves with a given tag (the boundary tag it becomes).
void add_boundary_group(const std::vector<int>& curves, int tag, const std::string& name) {
  gmsh::model::addPhysicalGroup(1, curves, tag);
  gmsh::model::setPhysicalName(1, tag, name);
}

#else

void require_gmsh(const std::string& name) {
  DGK_THROW_IF(true, "cannot mesh '" << name
                                     << "': this build of dgk has no Gmsh support (configure with "
                                        "DGK_ENABLE_GMSH=ON)");
}

#endif

}  // namespace

TriMesh make_quarter_annulus(const AnnulusSpec& spec) {
  DGK_THROW_IF(spec.radial < 1 || spec.angular < 1, "quarter annulus: " << spec.radial << " radial and " << spec.angular
                                                                        << " angular cells; both must be at least 1");
  check_radii("quarter annulus", spec.r_inner, spec.r_outer);
  DGK_THROW_IF(!(spec.jitter >= 0.0 && spec.jitter <= max_rectangle_jitter),
               "quarter annulus: jitter " << spec.jitter << " is outside [0, " << max_rectangle_jitter << "]");

  // The rectangle [r_inner, r_outer] x [0, pi/2] in (r, theta): its tags 1..4 (xmin, xmax,
  // ymin, ymax) are the annulus's inner, outer, inflow and outflow sides.
  RectangleSpec rect;
  rect.cells = {spec.radial, spec.angular};
  rect.lower = {spec.r_inner, 0.0};
  rect.upper = {spec.r_outer, quarter_turn};
  rect.jitter = spec.jitter;
  rect.seed = spec.seed;
  TriMesh mesh = make_rectangle(rect);
  for (auto& x : mesh.vertices) {
    const double r = x[0], theta = x[1];
    // The straight sides exactly on the axes (cos(pi/2) is not 0 in floating point).
    if (theta == 0.0) {
      x = {r, 0.0};
    } else if (theta == quarter_turn) {
      x = {0.0, r};
    } else {
      x = {r * std::cos(theta), r * std::sin(theta)};
    }
  }
  // The polar map keeps the orientation of small triangles; check the large ones.
  for (int e = 0; e < mesh.num_elements(); ++e) {
    const double J = element_jacobian(mesh, e);
    DGK_THROW_IF(!(J > 0.0), "quarter annulus: element " << e << " is inverted by the polar map (J = " << J
                                                         << "); use more angular cells or less jitter");
  }
  name_annulus(mesh, spec.r_inner, spec.r_outer);
  std::ostringstream source;
  source << "annulus:" << spec.angular << "," << spec.radial << radii_suffix(spec.r_inner, spec.r_outer);
  if (spec.jitter > 0.0) source << ",jitter=" << spec.jitter << ",seed=" << spec.seed;
  mesh.source = source.str();
  return mesh;
}

TriMesh generate_quarter_annulus(double r_inner, double r_outer, double h) {
  std::ostringstream source;
  source << "gmsh-annulus:h=" << h << radii_suffix(r_inner, r_outer);
  const std::string name = source.str();
#ifdef DGK_HAS_GMSH
  check_radii("cannot mesh '" + name + "'", r_inner, r_outer);
  check_edge_length(name, h, 0.5 * quarter_turn * (r_outer * r_outer - r_inner * r_inner));
  TriMesh mesh = gmsh_generate(name, [&] {
    namespace geo = gmsh::model::geo;
    const int center = geo::addPoint(0, 0, 0, h);
    const int a = geo::addPoint(r_inner, 0, 0, h), b = geo::addPoint(r_outer, 0, 0, h);
    const int c = geo::addPoint(0, r_outer, 0, h), d = geo::addPoint(0, r_inner, 0, h);
    const int inflow = geo::addLine(a, b), outer = geo::addCircleArc(b, center, c);
    const int outflow = geo::addLine(c, d), inner = geo::addCircleArc(d, center, a);
    geo::addPlaneSurface({geo::addCurveLoop({inflow, outer, outflow, inner})});
    geo::synchronize();
    add_boundary_group({inner}, 1, "inner");
    add_boundary_group({outer}, 2, "outer");
    add_boundary_group({inflow}, 3, "inflow");
    add_boundary_group({outflow}, 4, "outflow");
  });
  name_annulus(mesh, r_inner, r_outer);
  return mesh;
#else
  require_gmsh(name);
  return {};
#endif
}

TriMesh generate_rectangle(const std::array<double, 2>& lower, const std::array<double, 2>& upper, double h,
                           const std::vector<double>& bottom_points) {
  std::ostringstream source;
  source << "gmsh-rect:h=" << h;
  if (lower != std::array<double, 2>{0.0, 0.0} || upper != std::array<double, 2>{1.0, 1.0}) {
    source << ",lower=" << lower[0] << "," << lower[1] << ",upper=" << upper[0] << "," << upper[1];
  }
  for (std::size_t i = 0; i < bottom_points.size(); ++i) source << (i ? "," : ",bottom=") << bottom_points[i];
  const std::string name = source.str();
#ifdef DGK_HAS_GMSH
  for (int d = 0; d < 2; ++d) {
    DGK_THROW_IF(!std::isfinite(lower[d]) || !std::isfinite(upper[d]) || !(upper[d] > lower[d]),
                 "cannot mesh '" << name << "': upper corner " << upper[d] << " along axis " << d
                                 << " is not above the lower corner " << lower[d]);
  }
  std::vector<double> bottom = bottom_points;
  std::sort(bottom.begin(), bottom.end());
  for (std::size_t i = 0; i < bottom.size(); ++i) {
    DGK_THROW_IF(!(bottom[i] > lower[0] && bottom[i] < upper[0]),
                 "cannot mesh '" << name << "': bottom point x = " << bottom[i] << " is not inside (" << lower[0]
                                 << ", " << upper[0] << ")");
    DGK_THROW_IF(i > 0 && bottom[i] == bottom[i - 1],
                 "cannot mesh '" << name << "': bottom point x = " << bottom[i] << " is given twice");
  }
  check_edge_length(name, h, (upper[0] - lower[0]) * (upper[1] - lower[1]));
  return gmsh_generate(name, [&] {
    namespace geo = gmsh::model::geo;
    // Bottom side left to right through the extra points, then counter-clockwise around.
    std::vector<int> points{geo::addPoint(lower[0], lower[1], 0, h)};
    for (double x : bottom) points.push_back(geo::addPoint(x, lower[1], 0, h));
    const int p10 = geo::addPoint(upper[0], lower[1], 0, h), p11 = geo::addPoint(upper[0], upper[1], 0, h);
    const int p01 = geo::addPoint(lower[0], upper[1], 0, h);
    points.push_back(p10);
    std::vector<int> ymin, loop;
    for (std::size_t i = 0; i + 1 < points.size(); ++i) ymin.push_back(geo::addLine(points[i], points[i + 1]));
    const int xmax = geo::addLine(p10, p11), ymax = geo::addLine(p11, p01), xmin = geo::addLine(p01, points[0]);
    loop = ymin;
    loop.insert(loop.end(), {xmax, ymax, xmin});
    geo::addPlaneSurface({geo::addCurveLoop(loop)});
    geo::synchronize();
    add_boundary_group({xmin}, 1, "xmin");
    add_boundary_group({xmax}, 2, "xmax");
    add_boundary_group(ymin, 3, "ymin");
    add_boundary_group({ymax}, 4, "ymax");
  });
#else
  require_gmsh(name);
  return {};
#endif
}

}  // namespace dgk::mesh
