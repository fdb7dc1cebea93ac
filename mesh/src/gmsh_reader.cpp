// Gmsh MSH reader through the Gmsh C++ SDK.
#include <string>

#include "dgk/core/error.hpp"
#include "dgk/mesh/tet_mesh.hpp"

#ifdef DGK_HAS_GMSH

#include <gmsh.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dgk::mesh {

namespace {

// The Gmsh API is one global state: one reader at a time.
std::mutex gmsh_mutex;

// Initializes the Gmsh API quietly and finalizes it on every exit path.
class GmshSession {
 public:
  GmshSession() {
    gmsh::initialize(0, nullptr, /*readConfigFiles=*/false);
    try {
      gmsh::option::setNumber("General.Terminal", 0);
      gmsh::logger::start();
    } catch (...) {
      gmsh::finalize();
      throw;
    }
    m_active = true;
  }
  ~GmshSession() {
    if (!m_active) return;
    try {
      gmsh::logger::stop();
      gmsh::finalize();
    } catch (...) {
      // Nothing sensible to report from a destructor.
    }
  }
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;

 private:
  bool m_active = false;
};

// Gmsh's own explanation of the last failure: the thrown text, else the last logged error.
std::string gmsh_message(const std::string& thrown) {
  std::string message = thrown;
  if (message.empty()) {
    try {
      gmsh::logger::getLastError(message);
    } catch (...) {
    }
  }
  return message.empty() ? std::string("no message from Gmsh") : message;
}

// Runs a Gmsh call, turning whatever Gmsh throws into dgk::Error naming the file.
template <class F>
void gmsh_call(const std::string& path, const char* what, F&& f) {
  std::string thrown;
  bool failed = false;
  try {
    f();
  } catch (const std::string& s) {
    failed = true;
    thrown = s;
  } catch (const char* s) {
    failed = true;
    thrown = s ? s : "";
  } catch (const std::exception& e) {
    failed = true;
    thrown = e.what();
  } catch (...) {
    failed = true;
  }
  DGK_THROW_IF(failed, "Gmsh mesh '" << path << "' cannot be read (" << what
                                     << " failed): " << gmsh_message(thrown));
}

// Gmsh node tag -> contiguous vertex number, dense when the tags are (the usual case).
class NodeMap {
 public:
  void reserve(std::size_t max_tag, std::size_t count) {
    m_dense = max_tag <= 4 * count + 1024;
    if (m_dense) m_table.assign(max_tag + 1, -1);
  }
  void set(std::size_t tag, int index) {
    if (m_dense) {
      m_table[tag] = index;
    } else {
      m_map[tag] = index;
    }
  }
  int get(std::size_t tag) const {
    if (m_dense) return tag < m_table.size() ? m_table[tag] : -1;
    const auto it = m_map.find(tag);
    return it == m_map.end() ? -1 : it->second;
  }

 private:
  bool m_dense = true;
  std::vector<int> m_table;
  std::unordered_map<std::size_t, int> m_map;
};

struct ElementType {
  std::string name;
  int dim = 0, order = 0, num_nodes = 0, num_primary = 0;
};

ElementType element_type(const std::string& path, int type) {
  ElementType t;
  std::vector<double> local;
  gmsh_call(path, "reading element properties", [&] {
    gmsh::model::mesh::getElementProperties(type, t.name, t.dim, t.order, t.num_nodes, local,
                                            t.num_primary);
  });
  return t;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

TetMesh read_locked(const std::string& path) {
  // Gmsh silently ignores a missing file, so check the file before handing it over.
  std::error_code ec;
  DGK_THROW_IF(!std::filesystem::exists(path, ec), "Gmsh mesh '" << path << "' does not exist");
  DGK_THROW_IF(std::filesystem::is_directory(path, ec),
               "Gmsh mesh '" << path << "' is a directory, not a file");
  {
    std::ifstream probe(path);
    DGK_THROW_IF(!probe, "Gmsh mesh '" << path << "' cannot be opened for reading");
  }
  DGK_THROW_IF(std::filesystem::file_size(path, ec) == 0, "Gmsh mesh '" << path << "' is empty");
  GmshSession session;
  gmsh_call(path, "opening", [&] { gmsh::open(path); });

  TetMesh mesh;
  mesh.source = path;

  // Tetrahedra per volume entity, so that each carries its entity's physical group.
  gmsh::vectorpair volumes;
  gmsh_call(path, "listing volumes", [&] { gmsh::model::getEntities(volumes, 3); });
  std::vector<std::size_t> tet_nodes;  // 4 Gmsh node tags per element
  std::vector<std::size_t> tet_tags;   // Gmsh element tags
  for (const auto& dim_entity : volumes) {
    // Plain copies: lambdas may not capture structured bindings before C++20.
    const int dim = dim_entity.first, entity = dim_entity.second;
    std::vector<int> physical;
    gmsh_call(path, "reading volume physical groups",
              [&] { gmsh::model::getPhysicalGroupsForEntity(dim, entity, physical); });
    // An entity in several volume groups takes the lowest physical tag.
    const int region = physical.empty() ? 0 : *std::min_element(physical.begin(), physical.end());
    std::vector<int> types;
    gmsh_call(path, "listing element types",
              [&] { gmsh::model::mesh::getElementTypes(types, dim, entity); });
    for (int type : types) {
      const ElementType t = element_type(path, type);
      std::vector<std::size_t> tags, nodes;
      gmsh_call(path, "reading elements",
                [&] { gmsh::model::mesh::getElementsByType(type, tags, nodes, entity); });
      DGK_THROW_IF(!starts_with(t.name, "Tetrahedron"),
                   "Gmsh mesh '" << path << "': volume " << entity << " holds " << tags.size()
                                 << " elements of type " << type << " (" << t.name
                                 << "); dgk reads tetrahedra only");
      DGK_THROW_IF(nodes.size() != tags.size() * static_cast<std::size_t>(t.num_nodes),
                   "Gmsh mesh '" << path << "': element type " << type << " (" << t.name
                                 << ") of volume " << entity << " lists " << nodes.size()
                                 << " node tags for " << tags.size() << " elements");
      // Corner nodes come first in Gmsh's ordering of higher-order elements.
      for (std::size_t i = 0; i < tags.size(); ++i) {
        for (int q = 0; q < 4; ++q) tet_nodes.push_back(nodes[i * t.num_nodes + q]);
        tet_tags.push_back(tags[i]);
      }
      mesh.region.insert(mesh.region.end(), tags.size(), region);
    }
  }
  DGK_THROW_IF(
      tet_tags.empty(),
      "Gmsh mesh '" << path << "' holds no tetrahedra; dgk needs a 3D tetrahedral mesh ("
                    << (volumes.empty() ? "the file has no volumes: a 2D mesh?"
                                        : "its volumes hold no elements: once a model has physical "
                                          "groups, Gmsh saves only their elements, so add a volume "
                                          "physical group or set Mesh.SaveAll = 1")
                    << ")");
  DGK_THROW_IF(tet_tags.size() > static_cast<std::size_t>(INT_MAX),
               "Gmsh mesh '" << path << "' holds " << tet_tags.size()
                             << " tetrahedra, more than dgk's index range");

  // Vertices: the nodes used as tetrahedron corners, numbered in Gmsh's node order.
  std::vector<std::size_t> node_tags;
  std::vector<double> coords, parametric;
  gmsh_call(path, "reading nodes", [&] {
    gmsh::model::mesh::getNodes(node_tags, coords, parametric, -1, -1, false, false);
  });
  DGK_THROW_IF(coords.size() != 3 * node_tags.size(),
               "Gmsh mesh '" << path << "': " << coords.size() << " coordinates for "
                             << node_tags.size() << " nodes");
  const std::size_t max_tag =
      node_tags.empty() ? 0 : *std::max_element(node_tags.begin(), node_tags.end());
  NodeMap position;  // node tag -> position in node_tags
  position.reserve(max_tag, node_tags.size());
  for (std::size_t i = 0; i < node_tags.size(); ++i)
    position.set(node_tags[i], static_cast<int>(i));
  std::vector<char> used(node_tags.size(), 0);
  std::vector<int> corner(tet_nodes.size());
  for (std::size_t i = 0; i < tet_nodes.size(); ++i) {
    const int p = position.get(tet_nodes[i]);
    DGK_THROW_IF(p < 0, "Gmsh mesh '" << path << "': tetrahedron " << tet_tags[i / 4]
                                      << " uses node " << tet_nodes[i]
                                      << ", which the file does not define");
    corner[i] = p;
    used[p] = 1;
  }
  std::vector<int> vertex_of(node_tags.size(), -1);
  for (std::size_t i = 0; i < node_tags.size(); ++i) {
    if (!used[i]) continue;
    vertex_of[i] = static_cast<int>(mesh.vertices.size());
    mesh.vertices.push_back({coords[3 * i], coords[3 * i + 1], coords[3 * i + 2]});
  }

  const std::size_t num_tets = tet_tags.size();
  mesh.elements.resize(num_tets);
  for (std::size_t e = 0; e < num_tets; ++e) {
    for (int q = 0; q < 4; ++q) mesh.elements[e][q] = vertex_of[corner[4 * e + q]];
  }
  mesh.material.assign(num_tets, {1.0, 1.0});

  // Orientation: Gmsh files are not bound to dgk's convention, so reorder negative elements.
  for (std::size_t e = 0; e < num_tets; ++e) {
    const int ei = static_cast<int>(e);
    const double J = element_jacobian(mesh, ei);
    const double h = longest_edge(mesh, ei);
    DGK_THROW_IF(!(std::abs(J) > degenerate_tolerance * h * h * h),
                 "Gmsh mesh '" << path << "': tetrahedron " << tet_tags[e] << " (element " << e
                               << ") is degenerate: J = " << J << ", longest edge " << h);
    if (J < 0) std::swap(mesh.elements[e][2], mesh.elements[e][3]);
  }

  // Boundary faces: the triangles of the 2D physical groups, tags 1, 2, ... in group order.
  // Groups sharing a name share a tag.
  gmsh::vectorpair groups;
  gmsh_call(path, "listing physical groups", [&] { gmsh::model::getPhysicalGroups(groups, 2); });
  std::sort(groups.begin(), groups.end());
  std::vector<std::string> names(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    gmsh_call(path, "reading a physical name",
              [&] { gmsh::model::getPhysicalName(2, groups[g].second, names[g]); });
    if (names[g].empty()) names[g] = "group" + std::to_string(groups[g].second);
  }
  // A group called "boundary" takes that name from the untagged faces (tag 0).
  while (std::find(names.begin(), names.end(), mesh.boundary_names[0]) != names.end()) {
    mesh.boundary_names[0] = mesh.boundary_names[0] == "boundary" ? std::string("untagged")
                                                                  : mesh.boundary_names[0] + "_";
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const int dim = groups[g].first, group = groups[g].second;
    const std::string& name = names[g];
    int tag = mesh.boundary_tag(name);
    if (tag < 0) {
      tag = static_cast<int>(mesh.boundary_names.size());
      mesh.boundary_names.push_back(name);
    }
    std::vector<int> surfaces;
    gmsh_call(path, "reading a physical group",
              [&] { gmsh::model::getEntitiesForPhysicalGroup(dim, group, surfaces); });
    for (int surface : surfaces) {
      std::vector<int> types;
      gmsh_call(path, "listing element types",
                [&] { gmsh::model::mesh::getElementTypes(types, dim, surface); });
      for (int type : types) {
        const ElementType t = element_type(path, type);
        std::vector<std::size_t> tags, nodes;
        gmsh_call(path, "reading elements",
                  [&] { gmsh::model::mesh::getElementsByType(type, tags, nodes, surface); });
        DGK_THROW_IF(!starts_with(t.name, "Triangle"),
                     "Gmsh mesh '" << path << "': boundary group '" << name << "' (surface "
                                   << surface << ") holds " << tags.size() << " elements of type "
                                   << type << " (" << t.name
                                   << "); boundary faces of a tetrahedral mesh are triangles");
        DGK_THROW_IF(nodes.size() != tags.size() * static_cast<std::size_t>(t.num_nodes),
                     "Gmsh mesh '" << path << "': element type " << type << " (" << t.name
                                   << ") of surface " << surface << " lists " << nodes.size()
                                   << " node tags for " << tags.size() << " elements");
        for (std::size_t i = 0; i < tags.size(); ++i) {
          BoundaryFace face;
          face.tag = tag;
          for (int q = 0; q < 3; ++q) {
            const std::size_t node = nodes[i * t.num_nodes + q];
            const int p = position.get(node);
            const int v = p < 0 ? -1 : vertex_of[p];
            DGK_THROW_IF(v < 0, "Gmsh mesh '" << path << "': triangle " << tags[i]
                                              << " of boundary group '" << name << "' uses node "
                                              << node
                                              << ", which is not a corner of any tetrahedron");
            face.vertices[q] = v;
          }
          mesh.boundary_faces.push_back(face);
        }
      }
    }
  }
  return mesh;
}

}  // namespace

TetMesh read_gmsh_tet(const std::string& path) {
  std::lock_guard<std::mutex> lock(gmsh_mutex);
  return read_locked(path);
}

}  // namespace dgk::mesh

#else  // !DGK_HAS_GMSH

namespace dgk::mesh {

TetMesh read_gmsh_tet(const std::string& path) {
  DGK_THROW_IF(true, "cannot read the Gmsh mesh '" << path
                                                   << "': this build of dgk has no Gmsh support "
                                                      "(configure with DGK_ENABLE_GMSH=ON)");
  return {};
}

}  // namespace dgk::mesh

#endif
