// TetMesh helpers and the mesh-specification parser.
#include "dgk/mesh/tet_mesh.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "dgk/core/error.hpp"

namespace dgk::mesh {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
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

TetMesh load_box(const std::string& spec) {
  const std::string args = spec.substr(4);
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    const auto comma = args.find(',', start);
    parts.push_back(args.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  DGK_THROW_IF(parts.size() != 1 && parts.size() != 3,
               "mesh specification '" << spec << "': expected 'box:n' or 'box:nx,ny,nz', got "
                                      << parts.size() << " numbers");
  BoxSpec box;
  for (int d = 0; d < 3; ++d) {
    const std::string& text = parts[parts.size() == 1 ? 0 : d];
    int n = 0;
    DGK_THROW_IF(!parse_positive(text, n), "mesh specification '" << spec << "': cube count '"
                                                                  << text
                                                                  << "' is not a positive integer");
    box.cells[d] = n;
  }
  TetMesh mesh = make_box(box);
  mesh.source = spec;
  return mesh;
}

}  // namespace

int TetMesh::boundary_tag(const std::string& name) const {
  for (std::size_t i = 0; i < boundary_names.size(); ++i) {
    if (boundary_names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

double element_jacobian(const TetMesh& mesh, int e) {
  const auto& el = mesh.elements[e];
  const auto& x0 = mesh.vertices[el[0]];
  double a[3][3];
  for (int k = 0; k < 3; ++k) {
    const auto& xk = mesh.vertices[el[k + 1]];
    for (int d = 0; d < 3; ++d) a[k][d] = xk[d] - x0[d];
  }
  const double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                     a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                     a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  // dx/dr = (x1 - x0) / 2 etc., so J is the edge determinant over 8.
  return det / 8.0;
}

double longest_edge(const TetMesh& mesh, int e) {
  const auto& el = mesh.elements[e];
  double longest = 0.0;
  for (int i = 0; i < 4; ++i) {
    for (int j = i + 1; j < 4; ++j) {
      const auto& a = mesh.vertices[el[i]];
      const auto& b = mesh.vertices[el[j]];
      const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
      longest = std::max(longest, dx * dx + dy * dy + dz * dz);
    }
  }
  return std::sqrt(longest);
}

TetMesh load_tet_mesh(const std::string& spec) {
  if (spec.compare(0, 4, "box:") == 0) return load_box(spec);
  DGK_THROW_IF(!ends_with(spec, ".msh"),
               "unknown mesh specification '"
                   << spec << "': expected 'box:n', 'box:nx,ny,nz' or a Gmsh file ending in .msh");
  DGK_THROW_IF(!gmsh_available(), "cannot read the Gmsh mesh '"
                                      << spec
                                      << "': this build of dgk has no Gmsh support "
                                         "(configure with DGK_ENABLE_GMSH=ON)");
  return read_gmsh_tet(spec);
}

bool gmsh_available() {
#ifdef DGK_HAS_GMSH
  return true;
#else
  return false;
#endif
}

}  // namespace dgk::mesh
