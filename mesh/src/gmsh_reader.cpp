// Gmsh MSH readers (tetrahedra and triangles) through the Gmsh C++ SDK, and the Gmsh session
// they share with the Gmsh mesh generators.
#include <string>

#include "dgk/core/error.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/mesh/tri_mesh.hpp"

#ifdef DGK_HAS_GMSH

#include <gmsh.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gmsh_session.hpp"

// Present only when a sanitizer runtime is linked in (weak otherwise).
extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

namespace dgk::mesh {

namespace detail {

std::mutex& gmsh_mutex() {
  static std::mutex mutex;
  return mutex;
}

GmshSession::GmshSession() {
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

GmshSession::~GmshSession() {
  if (!m_active) return;
  try {
    gmsh::logger::stop();
    gmsh::finalize();
  } catch (...) {
    // Nothing sensible to report from a destructor.
  }
}

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

}  // namespace detail

namespace {

using detail::GmshSession;

// Runs a Gmsh call, turning whatever Gmsh throws into dgk::Error naming the file.
template <class F>
void gmsh_call(const std::string& path, const char* what, F&& f) {
  detail::gmsh_try("Gmsh mesh '" + path + "' cannot be read", what, std::forward<F>(f));
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
    gmsh::model::mesh::getElementProperties(type, t.name, t.dim, t.order, t.num_nodes, local, t.num_primary);
  });
  return t;
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

// Reads every block of elements (one per element type) of one entity, checks that the type is
// the expected kind and that the node list has the right length, then hands the block to f.
template <class F>
void for_each_element_block(const std::string& path, int dim, int entity, const std::string& where,
                            const char* expected, const char* hint, F&& f) {
  std::vector<int> types;
  gmsh_call(path, "listing element types", [&] { gmsh::model::mesh::getElementTypes(types, dim, entity); });
  for (int type : types) {
    const ElementType t = element_type(path, type);
    std::vector<std::size_t> tags, nodes;
    gmsh_call(path, "reading elements", [&] { gmsh::model::mesh::getElementsByType(type, tags, nodes, entity); });
    DGK_THROW_IF(!starts_with(t.name, expected), "Gmsh mesh '" << path << "': " << where << " holds " << tags.size()
                                                               << " elements of type " << type << " (" << t.name
                                                               << "); " << hint);
    DGK_THROW_IF(nodes.size() != tags.size() * static_cast<std::size_t>(t.num_nodes),
                 "Gmsh mesh '" << path << "': element type " << type << " (" << t.name << ") of " << where << " lists "
                               << nodes.size() << " node tags for " << tags.size() << " elements");
    f(tags, nodes, t.num_nodes);
  }
}

// What differs between reading tetrahedra and reading triangles: the element and boundary kinds,
// the words of the messages, the coordinates kept and the orientation fix.
struct TetKind {
  using Mesh = TetMesh;
  using Boundary = BoundaryFace;
  static constexpr int dim = 3, corners = 4, boundary_corners = 3;
  static constexpr const char* type = "Tetrahedron";  // prefix of Gmsh's element-type name
  static constexpr const char* element = "tetrahedron";
  static constexpr const char* elements = "tetrahedra";
  static constexpr const char* entity = "volume";
  static constexpr const char* need = "a 3D tetrahedral mesh";
  static constexpr const char* no_entities = "the file has no volumes: a 2D mesh?";
  static constexpr const char* boundary_type = "Triangle";
  static constexpr const char* boundary_element = "triangle";
  static constexpr const char* boundary_entity = "surface";
  static constexpr const char* boundary_hint = "boundary faces of a tetrahedral mesh are triangles";
  static std::vector<Boundary>& boundary(Mesh& m) { return m.boundary_faces; }
  static std::array<double, 3> vertex(const double* x) { return {x[0], x[1], x[2]}; }
  static void check_coordinates(const std::string&, const std::vector<std::size_t>&, const std::vector<double>&,
                                const std::vector<char>&) {}
  static double degenerate(double h) { return degenerate_tolerance * h * h * h; }
  static void reorder(std::array<int, 4>& el) { std::swap(el[2], el[3]); }
};

struct TriKind {
  using Mesh = TriMesh;
  using Boundary = BoundaryEdge;
  static constexpr int dim = 2, corners = 3, boundary_corners = 2;
  static constexpr const char* type = "Triangle";
  static constexpr const char* element = "triangle";
  static constexpr const char* elements = "triangles";
  static constexpr const char* entity = "surface";
  static constexpr const char* need = "a 2D triangular mesh";
  static constexpr const char* no_entities = "the file has no surfaces";
  static constexpr const char* boundary_type = "Line";
  static constexpr const char* boundary_element = "line";
  static constexpr const char* boundary_entity = "curve";
  static constexpr const char* boundary_hint = "boundary edges of a triangular mesh are lines";
  static std::vector<Boundary>& boundary(Mesh& m) { return m.boundary_edges; }
  static std::array<double, 2> vertex(const double* x) { return {x[0], x[1]}; }
  // z is dropped: the used nodes must share it, to a tolerance relative to the extent in x, y.
  static void check_coordinates(const std::string& path, const std::vector<std::size_t>& node_tags,
                                const std::vector<double>& coords, const std::vector<char>& used) {
    double lo[3], hi[3];
    std::size_t low = 0, high = 0;  // nodes of the lowest and highest z
    bool first = true;
    for (std::size_t i = 0; i < node_tags.size(); ++i) {
      if (!used[i]) continue;
      const double* x = &coords[3 * i];
      if (first || x[2] < lo[2]) low = i;
      if (first || x[2] > hi[2]) high = i;
      for (int d = 0; d < 3; ++d) {
        lo[d] = first ? x[d] : std::min(lo[d], x[d]);
        hi[d] = first ? x[d] : std::max(hi[d], x[d]);
      }
      first = false;
    }
    if (first) return;
    const double extent = std::max(hi[0] - lo[0], hi[1] - lo[1]);
    DGK_THROW_IF(!(hi[2] - lo[2] <= 1e-10 * extent),
                 "Gmsh mesh '" << path << "' is not planar: node " << node_tags[low] << " has z = " << lo[2]
                               << " and node " << node_tags[high] << " z = " << hi[2]
                               << "; dgk reads 2D meshes in a plane z = const (extent in x and y: " << extent << ")");
  }
  static double degenerate(double h) { return tri_degenerate_tolerance * h * h; }
  static void reorder(std::array<int, 3>& el) { std::swap(el[1], el[2]); }
};

// Reads the elements of the current model (opened from a file or generated) with the
// conventions of read_gmsh_tet and read_gmsh_tri; names `path` in every message.
template <class K>
typename K::Mesh read_model(const std::string& path) {
  constexpr int nc = K::corners;
  typename K::Mesh mesh;
  mesh.source = path;

  // A mesh of a higher dimension would be read as its boundary: refuse it.
  if constexpr (K::dim < 3) {
    std::vector<int> types;
    gmsh_call(path, "listing element types", [&] { gmsh::model::mesh::getElementTypes(types, K::dim + 1); });
    DGK_THROW_IF(!types.empty(), "Gmsh mesh '" << path << "' holds " << K::dim + 1 << "D elements ("
                                               << element_type(path, types[0]).name << "); dgk needs " << K::need
                                               << " here");
  }

  // Elements per entity of the top dimension, so that each carries its entity's physical group.
  gmsh::vectorpair entities;
  gmsh_call(path, "listing entities", [&] { gmsh::model::getEntities(entities, K::dim); });
  std::vector<std::size_t> cell_nodes;  // nc Gmsh node tags per element
  std::vector<std::size_t> cell_tags;   // Gmsh element tags
  for (const auto& dim_entity : entities) {
    // Plain copies: lambdas may not capture structured bindings before C++20.
    const int dim = dim_entity.first, entity = dim_entity.second;
    std::vector<int> physical;
    gmsh_call(path, "reading physical groups", [&] { gmsh::model::getPhysicalGroupsForEntity(dim, entity, physical); });
    // An entity in several groups takes the lowest physical tag.
    const int region = physical.empty() ? 0 : *std::min_element(physical.begin(), physical.end());
    const std::string where = std::string(K::entity) + " " + std::to_string(entity);
    const std::string hint = std::string("dgk reads ") + K::elements + " only";
    for_each_element_block(
        path, dim, entity, where, K::type, hint.c_str(),
        [&](const std::vector<std::size_t>& tags, const std::vector<std::size_t>& nodes, int num_nodes) {
          // Corner nodes come first in Gmsh's ordering of higher-order elements.
          for (std::size_t i = 0; i < tags.size(); ++i) {
            for (int q = 0; q < nc; ++q) cell_nodes.push_back(nodes[i * num_nodes + q]);
            cell_tags.push_back(tags[i]);
          }
          mesh.region.insert(mesh.region.end(), tags.size(), region);
        });
  }
  DGK_THROW_IF(cell_tags.empty(),
               "Gmsh mesh '" << path << "' holds no " << K::elements << "; dgk needs " << K::need << " ("
                             << (entities.empty() ? std::string(K::no_entities)
                                                  : std::string("its ") + K::entity +
                                                        "s hold no elements: once a model has physical groups, Gmsh "
                                                        "saves only their elements, so add a " +
                                                        K::entity + " physical group or set Mesh.SaveAll = 1")
                             << ")");
  DGK_THROW_IF(
      cell_tags.size() > static_cast<std::size_t>(INT_MAX),
      "Gmsh mesh '" << path << "' holds " << cell_tags.size() << " " << K::elements << ", more than dgk's index range");

  // Vertices: the nodes used as element corners, numbered in Gmsh's node order.
  std::vector<std::size_t> node_tags;
  std::vector<double> coords, parametric;
  gmsh_call(path, "reading nodes",
            [&] { gmsh::model::mesh::getNodes(node_tags, coords, parametric, -1, -1, false, false); });
  DGK_THROW_IF(coords.size() != 3 * node_tags.size(),
               "Gmsh mesh '" << path << "': " << coords.size() << " coordinates for " << node_tags.size() << " nodes");
  const std::size_t max_tag = node_tags.empty() ? 0 : *std::max_element(node_tags.begin(), node_tags.end());
  NodeMap position;  // node tag -> position in node_tags
  position.reserve(max_tag, node_tags.size());
  for (std::size_t i = 0; i < node_tags.size(); ++i) position.set(node_tags[i], static_cast<int>(i));
  std::vector<char> used(node_tags.size(), 0);
  std::vector<int> corner(cell_nodes.size());
  for (std::size_t i = 0; i < cell_nodes.size(); ++i) {
    const int p = position.get(cell_nodes[i]);
    DGK_THROW_IF(p < 0, "Gmsh mesh '" << path << "': " << K::element << " " << cell_tags[i / nc] << " uses node "
                                      << cell_nodes[i] << ", which the file does not define");
    corner[i] = p;
    used[p] = 1;
  }
  K::check_coordinates(path, node_tags, coords, used);
  std::vector<int> vertex_of(node_tags.size(), -1);
  for (std::size_t i = 0; i < node_tags.size(); ++i) {
    if (!used[i]) continue;
    vertex_of[i] = static_cast<int>(mesh.vertices.size());
    mesh.vertices.push_back(K::vertex(&coords[3 * i]));
  }

  const std::size_t num_cells = cell_tags.size();
  mesh.elements.resize(num_cells);
  for (std::size_t e = 0; e < num_cells; ++e) {
    for (int q = 0; q < nc; ++q) mesh.elements[e][q] = vertex_of[corner[nc * e + q]];
  }
  mesh.material.assign(num_cells, {1.0, 1.0});

  // Orientation: Gmsh files are not bound to dgk's convention, so reorder negative elements.
  for (std::size_t e = 0; e < num_cells; ++e) {
    const int ei = static_cast<int>(e);
    const double J = element_jacobian(mesh, ei);
    const double h = longest_edge(mesh, ei);
    DGK_THROW_IF(!(std::abs(J) > K::degenerate(h)), "Gmsh mesh '" << path << "': " << K::element << " " << cell_tags[e]
                                                                  << " (element " << e << ") is degenerate: J = " << J
                                                                  << ", longest edge " << h);
    if (J < 0) K::reorder(mesh.elements[e]);
  }

  // Boundary: the elements of the physical groups one dimension down, tags 1, 2, ... in group
  // order. Groups sharing a name share a tag.
  constexpr int bdim = K::dim - 1;
  gmsh::vectorpair groups;
  gmsh_call(path, "listing physical groups", [&] { gmsh::model::getPhysicalGroups(groups, bdim); });
  std::sort(groups.begin(), groups.end());
  std::vector<std::string> names(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    gmsh_call(path, "reading a physical name", [&] { gmsh::model::getPhysicalName(bdim, groups[g].second, names[g]); });
    if (names[g].empty()) names[g] = "group" + std::to_string(groups[g].second);
  }
  // A group called "boundary" takes that name from the untagged boundary (tag 0).
  while (std::find(names.begin(), names.end(), mesh.boundary_names[0]) != names.end()) {
    mesh.boundary_names[0] =
        mesh.boundary_names[0] == "boundary" ? std::string("untagged") : mesh.boundary_names[0] + "_";
  }
  auto& boundary = K::boundary(mesh);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const int group = groups[g].second;
    const std::string& name = names[g];
    int tag = mesh.boundary_tag(name);
    if (tag < 0) {
      tag = static_cast<int>(mesh.boundary_names.size());
      mesh.boundary_names.push_back(name);
    }
    std::vector<int> members;
    gmsh_call(path, "reading a physical group",
              [&] { gmsh::model::getEntitiesForPhysicalGroup(bdim, group, members); });
    for (int member : members) {
      const std::string where =
          "boundary group '" + name + "' (" + K::boundary_entity + " " + std::to_string(member) + ")";
      for_each_element_block(
          path, bdim, member, where, K::boundary_type, K::boundary_hint,
          [&](const std::vector<std::size_t>& tags, const std::vector<std::size_t>& nodes, int num_nodes) {
            for (std::size_t i = 0; i < tags.size(); ++i) {
              typename K::Boundary item;
              item.tag = tag;
              for (int q = 0; q < K::boundary_corners; ++q) {
                const std::size_t node = nodes[i * num_nodes + q];
                const int p = position.get(node);
                const int v = p < 0 ? -1 : vertex_of[p];
                DGK_THROW_IF(v < 0, "Gmsh mesh '" << path << "': " << K::boundary_element << " " << tags[i]
                                                  << " of boundary group '" << name << "' uses node " << node
                                                  << ", which is not a corner of any " << K::element);
                item.vertices[q] = v;
              }
              boundary.push_back(item);
            }
          });
    }
  }
  return mesh;
}

// Reads `open_path` (a private copy of the user's file) and names `path` in every message.
template <class K>
typename K::Mesh read_locked(const std::string& path, const std::string& open_path) {
  GmshSession session;
  gmsh_call(path, "opening", [&] { gmsh::open(open_path); });
  return read_model<K>(path);
}

// --- Isolation --------------------------------------------------------------------------------
// Gmsh 4.8 runs any file that does not start like an MSH file as a script (which can execute
// shell commands), reads a neighbouring "<file>.opt" as a script, and crashes on some malformed
// MSH files (see tests/fuzz). So dgk (1) requires the MSH header, (2) checks the counts the file
// declares against its size, (3) hands Gmsh a private copy of the file in a fresh temporary
// folder, and (4) reads it in a child process with a cap on its memory, turning a crash there
// into an error instead of taking the program down.

void require_msh_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string first;
  std::getline(in, first);
  if (!first.empty() && first.back() == '\r') first.pop_back();
  DGK_THROW_IF(first != "$MeshFormat", "Gmsh mesh '" << path
                                                     << "' is not an MSH file: its first line must be "
                                                        "'$MeshFormat'");
}

// Gmsh allocates what a section header declares before it reads the items, so a corrupted count
// (a 1 KB file declaring 2^31 nodes, found by fuzzing) would make it take gigabytes. Such a file
// is refused here, naming the section, where the count is and its value.
//
// ASCII files: every item takes at least two bytes (a number and a separator), so a count larger
// than half the bytes after its line cannot be right. Checked: the counts of $PhysicalNames,
// $Entities, $Nodes and $Elements and of each node and element block (MSH 4), and the tag count
// of each element line (MSH 2).
//
// Binary files (MSH 4.1 and MSH 2.2) are walked as Gmsh 4.8 reads them (BinaryCountCheck), and
// every count is checked against the bytes after it divided by the fewest bytes one item takes.
// Gmsh 4.8 itself refuses binary MSH 4.0 files before reading any section. MSH 3 files and what
// is not checked here are left to Gmsh, under the memory cap of read_isolated.

// Nodes per element of the MSH element types 1 to 31 (the table of the MSH format, as Gmsh 4.8's
// MElement::getInfoMSH gives them); 0 for other types.
int msh_element_nodes(std::int64_t type) {
  static constexpr std::array<int, 32> nodes{0, 2,  3,  4,  4, 8,  6,  5,  3,  6,  9, 10, 27, 18, 14, 1,
                                             8, 20, 15, 13, 9, 10, 12, 15, 15, 21, 4, 5,  6,  20, 35, 56};
  return type > 0 && type < static_cast<std::int64_t>(nodes.size()) ? nodes[static_cast<std::size_t>(type)] : 0;
}

// Binary MSH files, walked the way Gmsh 4.8 reads them so that each count is checked where Gmsh
// reads it:
// - sections are found line by line as Gmsh's fgets finds them: a line ends after its line break
//   or after 1023 bytes (MSH 4) or 255 bytes (MSH 2), and a section starts on a line that starts
//   with '$' and the section's name (a prefix, as Gmsh compares);
// - the binary data of $Entities, $PartitionedEntities, $Nodes and $Elements is stepped over item
//   by item, in the byte order the int 1 after the format line gives (Gmsh swaps the bytes of
//   every number when it reads anything else there);
// - after a section, Gmsh skips lines up to one that holds, after its first byte, "End" and the
//   section's header line without its '$' (MSH 4), or up to the next line that starts with '$'
//   (MSH 2); so does the walk, also over the sections it does not read.
// Where the walk cannot follow Gmsh (an element type missing from msh_element_nodes, parametric
// MSH 2 nodes, a field that does not parse, a value Gmsh stops at) it stops, and Gmsh reads the
// rest under the memory cap.
class BinaryCountCheck {
 public:
  BinaryCountCheck(const std::string& path, std::uintmax_t size) : m_path(path), m_size(size) {
    m_file.open(path, std::ios::in | std::ios::binary);
  }

  void run() {
    if (!m_file.is_open() || !line(kLine2) || !line(kLine2)) return;
    // Gmsh picks its reader by the version after the first line ($MeshFormat), then rereads the
    // file from its start.
    double version = 0;
    int type = 0, size = 0;
    if (std::sscanf(m_line.c_str(), "%lf %d %d", &version, &type, &size) != 3) return;
    m_pos = 0;
    if (m_file.pubseekpos(0) != std::streampos(0)) return;
    if (version >= 4 && version < 5) {
      msh4();
    } else if (version < 3) {
      msh2();
    }
  }

 private:
  static constexpr std::size_t kLine4 = 1024;  // Gmsh's line buffers: MSH 4 reader,
  static constexpr std::size_t kLine2 = 256;   // MSH 2 reader

  // GModel::_readMSH4: from each section's header line to its end line.
  void msh4() {
    for (;;) {
      if (!section(kLine4)) return;
      const std::string end = "End" + std::string(m_line.c_str() + 1);
      bool go_on = true;
      if (is("MeshFormat")) {
        go_on = format4();
      } else if (is("PhysicalNames")) {
        go_on = names(kLine4);
      } else if (is("Entities")) {
        go_on = entities("$Entities", false);
      } else if (is("PartitionedEntities")) {
        go_on = entities("$PartitionedEntities", true);
      } else if (is("Nodes")) {
        go_on = nodes4();
      } else if (is("Elements")) {
        go_on = elements4();
      }
      if (!go_on) return;
      while (std::strncmp(m_line.c_str() + 1, end.c_str(), end.size()) != 0)
        if (!line(kLine4)) return;
    }
  }

  // GModel::_readMSH2: from line to line that starts with '$' (the end lines included), up to the
  // first post-processing section, where Gmsh's mesh reader stops.
  void msh2() {
    for (;;) {
      if (!section(kLine2)) return;
      bool go_on = true;
      if (is("MeshFormat")) {
        go_on = format2();
      } else if (is("PhysicalNames")) {
        go_on = names(kLine2);
      } else if (is("NO") || is("Nodes") || is("ParametricNodes")) {
        go_on = nodes2(is("ParametricNodes"));
      } else if (is("ELM") || is("Elements")) {
        go_on = elements2();
      } else if (is("NodeData") || is("ElementData") || is("ElementNodeData")) {
        go_on = false;
      }
      if (!go_on) return;
    }
  }

  // The next line that starts with '$' (at least one line on); false at the end of the file.
  bool section(std::size_t buffer) {
    do {
      if (!line(buffer)) return false;
    } while (m_line.empty() || m_line[0] != '$');
    return true;
  }

  // "version file-type data-size", then in a binary file the int 1 as its writer stored it.
  bool format4() {
    if (!line(kLine4)) return false;
    double version = 0;
    int type = 0;
    unsigned long size = 0;
    if (std::sscanf(m_line.c_str(), "%lf %d %lu", &version, &type, &size) != 3) return false;
    if (type != 0 && !endianness()) return false;
    // Gmsh reads binary MSH 4 files of version 4.1 and later with its own sizeof(size_t) only.
    return m_binary && version >= 4.1 && size == sizeof(std::uint64_t);
  }
  bool format2() {
    if (!line(kLine2)) return false;
    double version = 0;
    int type = 0, size = 0;
    if (std::sscanf(m_line.c_str(), "%lf %d %d", &version, &type, &size) != 3) return false;
    return type == 0 || endianness();
  }
  bool endianness() {
    m_binary = true;
    std::int32_t one = 0;
    if (m_file.sgetn(reinterpret_cast<char*>(&one), sizeof one) != static_cast<std::streamsize>(sizeof one))
      return false;
    m_pos += sizeof one;
    if (one != 1) m_swap = true;  // never reset, as in Gmsh
    return true;
  }

  // $PhysicalNames, text in binary files too: a line with the count, then a line per name.
  bool names(std::size_t buffer) {
    m_section = "$PhysicalNames";
    const std::uint64_t at = m_pos;
    if (!line(buffer)) return false;
    int count = 0;
    if (std::sscanf(m_line.c_str(), "%d", &count) != 1) return false;
    check(count, at, 2, "physical names");
    return true;
  }

  // MSH 4.1 $Entities and $PartitionedEntities (readMSH4Entities): when partitioned, the number
  // of partitions and the ghost entities (a count and per entity its tag and partition, ints);
  // the numbers of points, curves, surfaces and volumes; per entity its tag (int), when
  // partitioned its parent's dimension and tag (ints) and its partitions (a count and ints), its
  // point or bounding box (3 or 6 doubles), its physical tags (a count and ints) and, but for
  // points, its bounding entities (a count and ints). Counts are size_t.
  bool entities(const char* section, bool partitioned) {
    m_section = section;
    if (partitioned) {
      std::uint64_t partitions = 0;
      if (!get(partitions) || !list(8, "ghost entities")) return false;
    }
    static const char* const kinds[4] = {"points", "curves", "surfaces", "volumes"};
    static const char* const bounds[4] = {"", "bounding points", "bounding curves", "bounding surfaces"};
    std::array<std::uint64_t, 4> count{};
    for (int dim = 0; dim < 4; ++dim) {
      const std::uint64_t least = (partitioned ? 20 : 4) + (dim > 0 ? 48 + 16 : 24 + 8);
      if (!counted(count[static_cast<std::size_t>(dim)], least, kinds[dim])) return false;
    }
    for (int dim = 0; dim < 4; ++dim) {
      for (std::uint64_t i = 0; i < count[static_cast<std::size_t>(dim)]; ++i) {
        if (!skip(partitioned ? 12 : 4)) return false;
        if (partitioned && !list(4, "partitions")) return false;
        if (!skip(dim > 0 ? 48 : 24) || !list(4, "physical tags")) return false;
        if (dim > 0 && !list(4, bounds[dim])) return false;
      }
    }
    return true;
  }

  // MSH 4.1 $Nodes (readMSH4Nodes): block count, node count, smallest and largest tag (size_t);
  // per block its entity's dimension and tag and whether it is parametric (ints), its node count
  // (size_t), the node tags (size_t) and per node 3 coordinates and, if parametric, as many
  // parameters as the entity's dimension (doubles).
  bool nodes4() {
    m_section = "$Nodes";
    std::uint64_t blocks = 0;
    if (!blocks_header(blocks, "node blocks", 32, "nodes")) return false;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      std::int32_t dim = 0, tag = 0, parametric = 0;
      if (!get(dim) || !get(tag) || !get(parametric)) return false;
      if (dim < 0 || dim > 3) return false;  // Gmsh stops: no entity of that dimension
      if (!list(8 * (4 + static_cast<std::uint64_t>(parametric != 0 ? dim : 0)), "nodes")) return false;
    }
    return true;
  }

  // MSH 4.1 $Elements (readMSH4Elements): block count, element count, smallest and largest tag
  // (size_t); per block its entity's dimension and tag and the element type (ints), its element
  // count (size_t), and per element its tag and nodes (size_t).
  bool elements4() {
    m_section = "$Elements";
    std::uint64_t blocks = 0;
    // An element has a tag and at least one node.
    if (!blocks_header(blocks, "element blocks", 16, "elements")) return false;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      std::int32_t dim = 0, tag = 0, type = 0;
      if (!get(dim) || !get(tag) || !get(type)) return false;
      const int nodes = msh_element_nodes(type);
      if (!list(8 * (1 + static_cast<std::uint64_t>(nodes > 0 ? nodes : 1)), "elements")) return false;
      if (nodes == 0) return false;  // the walk cannot step over the block
    }
    return true;
  }

  // MSH 2.2 $Nodes: a line with the count, then per node its number (int) and coordinates
  // (doubles); a parametric node also the dimension and tag of its entity (ints) and 0 to 2
  // parameters (doubles).
  bool nodes2(bool parametric) {
    m_section = parametric ? "$ParametricNodes" : "$Nodes";
    const std::uint64_t at = m_pos;
    if (!line(kLine2)) return false;
    int count = 0;
    if (std::sscanf(m_line.c_str(), "%d", &count) != 1 || !m_binary) return false;
    check(count, at, parametric ? 36 : 28, "nodes");
    return !parametric && skip(28 * static_cast<std::uint64_t>(count));
  }

  // MSH 2.2 $Elements: a line with the count, then blocks of elements of one type: the type,
  // element count and tag count (ints), and per element its number, tags and nodes (ints).
  bool elements2() {
    m_section = "$Elements";
    const std::uint64_t at = m_pos;
    if (!line(kLine2)) return false;
    int count = 0;
    if (std::sscanf(m_line.c_str(), "%d", &count) != 1 || !m_binary) return false;
    check(count, at, 8, "elements");  // a number and at least one node
    for (long long read = 0; read < count;) {
      std::int32_t type = 0, elements = 0, tags = 0;
      const std::uint64_t block = m_pos;
      if (!get(type) || !get(elements) || !get(tags)) return false;
      check(tags, block + 8, 4, "tags per element");
      const int nodes = msh_element_nodes(type);
      const std::uint64_t bytes = 4 * (1 + static_cast<std::uint64_t>(tags) + (nodes > 0 ? nodes : 1));
      check(elements, block + 4, bytes, "elements");
      if (nodes == 0 || !skip(bytes * static_cast<std::uint64_t>(elements))) return false;
      read += elements;
    }
    return true;
  }

  // MSH 4.1 $Nodes and $Elements: the block count (a block header takes at least 20 bytes), the
  // item count (an item at least `item_bytes`), the smallest and largest tag (size_t).
  bool blocks_header(std::uint64_t& blocks, const char* blocks_of, std::uint64_t item_bytes, const char* what) {
    std::uint64_t items = 0, tags[2];
    return counted(blocks, 20, blocks_of) && counted(items, item_bytes, what) && get(tags[0]) && get(tags[1]);
  }

  // A count (size_t), checked for items of at least `bytes` bytes; false at the end of the file.
  bool counted(std::uint64_t& count, std::uint64_t bytes, const char* what) {
    const std::uint64_t at = m_pos;
    if (!get(count)) return false;
    check(count, at, bytes, what);
    return true;
  }

  // A count (size_t) and as many items of `bytes` bytes, stepped over.
  bool list(std::uint64_t bytes, const char* what) {
    std::uint64_t count = 0;
    return counted(count, bytes, what) && skip(count * bytes);
  }

  // Refuses a count, read at byte `at`, of items of at least `bytes` bytes that the rest of the
  // file cannot hold. A negative count converts to a huge one.
  template <class T>
  void check(T count, std::uint64_t at, std::uint64_t bytes, const char* what) const {
    DGK_THROW_IF(static_cast<std::uint64_t>(count) > rest() / bytes,
                 "Gmsh mesh '" << m_path << "', " << m_section << " at byte " << at << ": declares " << count << " "
                               << what << ", more than the " << rest()
                               << " bytes after it can hold: the file is truncated or corrupted");
  }

  // Gmsh's `!fgets(str, buffer, fp) || feof(fp)`: the next line (at most buffer - 1 bytes, with
  // its line break); false at the end of the file.
  bool line(std::size_t buffer) {
    m_line.clear();
    while (m_line.size() + 1 < buffer) {
      const auto c = m_file.sbumpc();
      if (c == std::char_traits<char>::eof()) return false;
      ++m_pos;
      m_line.push_back(std::char_traits<char>::to_char_type(c));
      if (c == '\n') break;
    }
    return true;
  }
  // Whether the current line starts with '$' and `name` (compared as C strings, as Gmsh does).
  bool is(const char* name) const { return std::strncmp(m_line.c_str() + 1, name, std::strlen(name)) == 0; }

  template <class T>
  bool get(T& value) {
    std::array<char, sizeof(T)> bytes{};
    if (m_file.sgetn(bytes.data(), bytes.size()) != static_cast<std::streamsize>(bytes.size())) return false;
    m_pos += bytes.size();
    if (m_swap) std::reverse(bytes.begin(), bytes.end());
    std::memcpy(&value, bytes.data(), bytes.size());
    return true;
  }
  bool skip(std::uint64_t bytes) {
    if (bytes > rest()) return false;
    m_pos += bytes;
    const auto to = static_cast<std::streamoff>(m_pos);
    return m_file.pubseekpos(to) == std::streampos(to);
  }
  std::uint64_t rest() const { return m_pos < m_size ? m_size - m_pos : 0; }

  const std::string& m_path;
  std::uint64_t m_size;
  std::filebuf m_file;
  std::uint64_t m_pos = 0;  // of the next byte
  std::string m_line;
  const char* m_section = "";
  bool m_binary = false;
  bool m_swap = false;
};

class CountCheck {
 public:
  explicit CountCheck(const std::string& path)
      : m_path(path), m_in(path, std::ios::binary), m_size(std::filesystem::file_size(path)) {}

  void run() {
    if (!next() || !next()) return;  // $MeshFormat, then "version file-type data-size"
    double version = 0;
    int file_type = -1;
    std::istringstream(m_line) >> version >> file_type;
    if (file_type != 0) {  // binary, or a malformed line Gmsh reports
      BinaryCountCheck(m_path, m_size).run();
      return;
    }
    const bool msh4 = version >= 4;
    while (next()) {
      if (m_line == "$PhysicalNames") {
        if (!counts(1, "physical names")) return;
      } else if (m_line == "$Entities" && msh4) {
        if (!counts(4, "entities")) return;
      } else if (m_line == "$Nodes") {
        // MSH 4.1 writes a block's node tags, then its coordinates; 4.0 a line per node.
        if (msh4 ? !blocks("nodes", "node blocks", version >= 4.1 ? 2 : 1) : !counts(1, "nodes")) return;
      } else if (m_line == "$Elements") {
        if (msh4 ? !blocks("elements", "element blocks", 1) : !elements2()) return;
      }
    }
  }

 private:
  // The next line without its line break; false at the end of the file.
  bool next() {
    if (!std::getline(m_in, m_line)) return false;
    ++m_number;
    if (!m_line.empty() && m_line.back() == '\r') m_line.pop_back();
    return true;
  }
  std::uintmax_t rest() {
    const auto at = m_in.tellg();
    return at < 0 ? 0 : m_size - static_cast<std::uintmax_t>(at);
  }
  // The numbers of the current line (as many as parse).
  std::vector<long long> numbers() const {
    std::istringstream in(m_line);
    std::vector<long long> v;
    long long x;
    while (in >> x) v.push_back(x);
    return v;
  }
  void check(long long count, const char* what) {
    DGK_THROW_IF(count < 0 || static_cast<std::uintmax_t>(count) > rest() / 2,
                 "Gmsh mesh '" << m_path << "', line " << m_number << ": declares " << count << " " << what
                               << ", more than the " << rest()
                               << " bytes after it can hold: the file is truncated or corrupted");
  }
  // A header line of n counts (the first n numbers); false when it does not parse.
  bool counts(int n, const char* what) {
    if (!next()) return false;
    const auto v = numbers();
    if (static_cast<int>(v.size()) < n) return false;
    for (int i = 0; i < n; ++i) check(v[static_cast<std::size_t>(i)], what);
    return true;
  }
  // MSH 4 $Nodes / $Elements: "blocks items min-tag max-tag", then per block a header whose
  // fourth number is its item count, followed by lines_per_item lines per item.
  bool blocks(const char* what, const char* blocks_of, int lines_per_item) {
    if (!next()) return false;
    const auto head = numbers();
    if (head.size() < 2) return false;
    check(head[0], blocks_of);
    check(head[1], what);
    for (long long b = 0; b < head[0]; ++b) {
      if (!next()) return false;
      const auto block = numbers();
      if (block.size() < 4) return false;
      check(block[3], what);
      for (long long i = 0; i < block[3] * lines_per_item; ++i)
        if (!next()) return false;
    }
    return true;
  }
  // MSH 2 $Elements: the count, then per element "number type tags tag... node...".
  bool elements2() {
    if (!counts(1, "elements")) return false;
    const long long n = numbers()[0];
    for (long long e = 0; e < n; ++e) {
      if (!next()) return false;
      const auto v = numbers();
      if (v.size() < 3) return false;
      DGK_THROW_IF(v[2] < 0 || v[2] > static_cast<long long>(v.size()) - 3,
                   "Gmsh mesh '" << m_path << "', line " << m_number << ": element " << v[0] << " declares "
                                 << v[2] << " tags, but the line has " << v.size() - 3
                                 << " numbers after the count: the file is corrupted");
    }
    return true;
  }

  const std::string& m_path;
  std::ifstream m_in;
  std::uintmax_t m_size;
  std::string m_line;
  long long m_number = 0;
};

// The child's address space may grow by at most this much: what a mesh file can need (Gmsh holds
// some hundred bytes per node or element, the file takes tens) with a wide margin, so that
// whatever a corrupted file makes Gmsh allocate fails in the child (an error here) instead of
// taking the machine's memory.
void cap_memory(std::uintmax_t file_bytes) {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  if (!(statm >> pages)) return;
  const std::uint64_t now = pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  const std::uint64_t want = now + (std::uint64_t(1) << 30) + 64 * static_cast<std::uint64_t>(file_bytes);
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) != 0) return;
  if (r.rlim_max != RLIM_INFINITY && want > r.rlim_max) return;
  if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur <= want) return;
  r.rlim_cur = static_cast<rlim_t>(want);
  setrlimit(RLIMIT_AS, &r);
}

class PrivateCopy {
 public:
  explicit PrivateCopy(const std::string& path) {
    std::string base = (std::filesystem::temp_directory_path() / "dgk-msh-XXXXXX").string();
    std::vector<char> buf(base.begin(), base.end());
    buf.push_back('\0');
    DGK_THROW_IF(mkdtemp(buf.data()) == nullptr, "cannot create a temporary folder to read Gmsh mesh '" << path << "'");
    m_dir = buf.data();
    m_file = m_dir + "/mesh.msh";
    std::error_code ec;
    std::filesystem::copy_file(path, m_file, ec);
    DGK_THROW_IF(ec, "cannot copy Gmsh mesh '" << path << "' to a temporary folder: " << ec.message());
  }
  ~PrivateCopy() {
    std::error_code ec;
    std::filesystem::remove_all(m_dir, ec);
  }
  PrivateCopy(const PrivateCopy&) = delete;
  PrivateCopy& operator=(const PrivateCopy&) = delete;
  const std::string& file() const { return m_file; }

 private:
  std::string m_dir, m_file;
};

// Byte buffer of the pipe between child and parent, and its reader.
class Writer {
 public:
  template <class T>
  void pod(const T& v) {
    const char* p = reinterpret_cast<const char*>(&v);
    m_buf.insert(m_buf.end(), p, p + sizeof(T));
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    pod(static_cast<std::uint64_t>(v.size()));
    const char* p = reinterpret_cast<const char*>(v.data());
    m_buf.insert(m_buf.end(), p, p + v.size() * sizeof(T));
  }
  void str(const std::string& s) {
    pod(static_cast<std::uint64_t>(s.size()));
    m_buf.insert(m_buf.end(), s.begin(), s.end());
  }
  const std::vector<char>& bytes() const { return m_buf; }

 private:
  std::vector<char> m_buf;
};

class Reader {
 public:
  Reader(const std::vector<char>& buf, const std::string& path) : m_buf(buf), m_path(path) {}
  template <class T>
  T pod() {
    T v;
    take(reinterpret_cast<char*>(&v), sizeof(T));
    return v;
  }
  template <class T>
  std::vector<T> vec() {
    const auto n = pod<std::uint64_t>();
    DGK_THROW_IF(n > (m_buf.size() - m_pos) / sizeof(T), "reading Gmsh mesh '" << m_path << "': truncated result");
    std::vector<T> v(static_cast<std::size_t>(n));
    take(reinterpret_cast<char*>(v.data()), v.size() * sizeof(T));
    return v;
  }
  std::string str() {
    const auto v = vec<char>();
    return std::string(v.begin(), v.end());
  }

 private:
  void take(char* out, std::size_t n) {
    DGK_THROW_IF(n > m_buf.size() - m_pos, "reading Gmsh mesh '" << m_path << "': truncated result");
    std::copy(m_buf.begin() + static_cast<std::ptrdiff_t>(m_pos),
              m_buf.begin() + static_cast<std::ptrdiff_t>(m_pos + n), out);
    m_pos += n;
  }
  const std::vector<char>& m_buf;
  const std::string& m_path;
  std::size_t m_pos = 0;
};

// Flat binary form of a mesh (TetMesh or TriMesh) for the pipe between child and parent.
template <class K>
std::vector<char> serialize(typename K::Mesh& m) {
  Writer w;
  w.vec(m.vertices);
  w.vec(m.elements);
  w.vec(m.material);
  w.vec(m.region);
  w.vec(K::boundary(m));
  w.pod(static_cast<std::uint64_t>(m.boundary_names.size()));
  for (const auto& n : m.boundary_names) w.str(n);
  return w.bytes();
}

template <class K>
typename K::Mesh deserialize(const std::vector<char>& buf, const std::string& path) {
  using Mesh = typename K::Mesh;
  Reader r(buf, path);
  Mesh m;
  m.vertices = r.vec<typename decltype(Mesh::vertices)::value_type>();
  m.elements = r.vec<typename decltype(Mesh::elements)::value_type>();
  m.material = r.vec<typename decltype(Mesh::material)::value_type>();
  m.region = r.vec<int>();
  K::boundary(m) = r.vec<typename K::Boundary>();
  const auto names = r.pod<std::uint64_t>();
  DGK_THROW_IF(names > buf.size(), "reading Gmsh mesh '" << path << "': truncated result");
  m.boundary_names.clear();
  for (std::uint64_t i = 0; i < names; ++i) m.boundary_names.push_back(r.str());
  m.source = path;
  return m;
}

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t k = write(fd, p, n);
    if (k <= 0) return;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
}

// Runs the read in a child process. The child sends one status byte (0: mesh follows, 1: error
// message follows) and the payload, then leaves with _exit so no parent state is torn down twice.
template <class K>
typename K::Mesh read_isolated(const std::string& path, const std::string& open_path) {
  int fds[2];
  DGK_THROW_IF(pipe(fds) != 0, "cannot create a pipe to read Gmsh mesh '" << path << "'");
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    DGK_THROW_IF(true, "cannot start a process to read Gmsh mesh '" << path << "'");
  }
  if (pid == 0) {
    close(fds[0]);
    // The child must die plainly if Gmsh crashes: a fuzzer's or sanitizer's crash handling
    // inherited from the parent would otherwise report the child's crash as the parent's.
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) std::signal(sig, SIG_DFL);
    if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(nullptr);
    std::error_code ec;
    cap_memory(std::filesystem::file_size(open_path, ec));
    char status = 1;
    std::vector<char> payload;
    try {
      auto mesh = read_locked<K>(path, open_path);
      payload = serialize<K>(mesh);
      status = 0;
    } catch (const std::exception& e) {
      const std::string msg = e.what();
      payload.assign(msg.begin(), msg.end());
    }
    write_all(fds[1], &status, 1);
    write_all(fds[1], payload.data(), payload.size());
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::vector<char> buf;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t k = read(fds[0], chunk, sizeof chunk);
    if (k > 0)
      buf.insert(buf.end(), chunk, chunk + k);
    else if (k == 0 || errno != EINTR)
      break;
  }
  close(fds[0]);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  const bool clean_exit = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
  if (!clean_exit || buf.empty()) {
    std::ostringstream why;
    if (WIFSIGNALED(wstatus))
      why << "signal " << WTERMSIG(wstatus) << ", " << strsignal(WTERMSIG(wstatus));
    else
      why << "exit status " << (WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    DGK_THROW_IF(true, "Gmsh failed while reading mesh '" << path << "' (" << why.str()
                                                          << "): the file is malformed or not supported");
  }
  const std::vector<char> payload(buf.begin() + 1, buf.end());
  DGK_THROW_IF(buf[0] != 0, std::string(payload.begin(), payload.end()));
  return deserialize<K>(payload, path);
}

// Cheap checks first, in this process, with their own messages; then the read in a child on a
// private copy.
template <class K>
typename K::Mesh read_file(const std::string& path) {
  std::lock_guard<std::mutex> lock(detail::gmsh_mutex());
  std::error_code ec;
  DGK_THROW_IF(!std::filesystem::exists(path, ec), "Gmsh mesh '" << path << "' does not exist");
  DGK_THROW_IF(std::filesystem::is_directory(path, ec), "Gmsh mesh '" << path << "' is a directory, not a file");
  {
    std::ifstream probe(path);
    DGK_THROW_IF(!probe, "Gmsh mesh '" << path << "' cannot be opened for reading");
  }
  DGK_THROW_IF(std::filesystem::file_size(path, ec) == 0, "Gmsh mesh '" << path << "' is empty");
  require_msh_header(path);
  CountCheck(path).run();
  PrivateCopy copy(path);
  return read_isolated<K>(path, copy.file());
}

}  // namespace

TriMesh detail::tri_mesh_from_gmsh_model(const std::string& name) {
  return read_model<TriKind>(name);
}

TetMesh read_gmsh_tet(const std::string& path) {
  return read_file<TetKind>(path);
}

TriMesh read_gmsh_tri(const std::string& path) {
  return read_file<TriKind>(path);
}

}  // namespace dgk::mesh

#else  // !DGK_HAS_GMSH

namespace dgk::mesh {

namespace {

void no_gmsh(const std::string& path) {
  DGK_THROW_IF(true, "cannot read the Gmsh mesh '" << path
                                                   << "': this build of dgk has no Gmsh support "
                                                      "(configure with DGK_ENABLE_GMSH=ON)");
}

}  // namespace

TetMesh read_gmsh_tet(const std::string& path) {
  no_gmsh(path);
  return {};
}

TriMesh read_gmsh_tri(const std::string& path) {
  no_gmsh(path);
  return {};
}

}  // namespace dgk::mesh

#endif
