// Gmsh MSH reader through the Gmsh C++ SDK.
#include <string>

#include "dgk/core/error.hpp"
#include "dgk/mesh/tet_mesh.hpp"

#ifdef DGK_HAS_GMSH

#include <gmsh.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <cmath>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

// Present only when a sanitizer runtime is linked in (weak otherwise).
extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

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
    gmsh_call(path, "reading elements",
              [&] { gmsh::model::mesh::getElementsByType(type, tags, nodes, entity); });
    DGK_THROW_IF(!starts_with(t.name, expected), "Gmsh mesh '" << path << "': " << where << " holds " << tags.size()
                                                               << " elements of type " << type << " (" << t.name
                                                               << "); " << hint);
    DGK_THROW_IF(nodes.size() != tags.size() * static_cast<std::size_t>(t.num_nodes),
                 "Gmsh mesh '" << path << "': element type " << type << " (" << t.name << ") of " << where
                               << " lists " << nodes.size() << " node tags for " << tags.size() << " elements");
    f(tags, nodes, t.num_nodes);
  }
}

// Reads `open_path` (a private copy of the user's file) and names `path` in every message.
TetMesh read_locked(const std::string& path, const std::string& open_path) {
  GmshSession session;
  gmsh_call(path, "opening", [&] { gmsh::open(open_path); });

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
    const std::string where = "volume " + std::to_string(entity);
    for_each_element_block(path, dim, entity, where, "Tetrahedron", "dgk reads tetrahedra only",
                           [&](const std::vector<std::size_t>& tags, const std::vector<std::size_t>& nodes,
                               int num_nodes) {
                             // Corner nodes come first in Gmsh's ordering of higher-order elements.
                             for (std::size_t i = 0; i < tags.size(); ++i) {
                               for (int q = 0; q < 4; ++q) tet_nodes.push_back(nodes[i * num_nodes + q]);
                               tet_tags.push_back(tags[i]);
                             }
                             mesh.region.insert(mesh.region.end(), tags.size(), region);
                           });
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
      const std::string where = "boundary group '" + name + "' (surface " + std::to_string(surface) + ")";
      for_each_element_block(
          path, dim, surface, where, "Triangle", "boundary faces of a tetrahedral mesh are triangles",
          [&](const std::vector<std::size_t>& tags, const std::vector<std::size_t>& nodes, int num_nodes) {
            for (std::size_t i = 0; i < tags.size(); ++i) {
              BoundaryFace face;
              face.tag = tag;
              for (int q = 0; q < 3; ++q) {
                const std::size_t node = nodes[i * num_nodes + q];
                const int p = position.get(node);
                const int v = p < 0 ? -1 : vertex_of[p];
                DGK_THROW_IF(v < 0, "Gmsh mesh '" << path << "': triangle " << tags[i] << " of boundary group '"
                                                  << name << "' uses node " << node
                                                  << ", which is not a corner of any tetrahedron");
                face.vertices[q] = v;
              }
              mesh.boundary_faces.push_back(face);
            }
          });
    }
  }
  return mesh;
}

// --- Isolation --------------------------------------------------------------------------------
// Gmsh 4.8 runs any file that does not start like an MSH file as a script (which can execute
// shell commands), reads a neighbouring "<file>.opt" as a script, and crashes on some malformed
// MSH files (see tests/fuzz). So dgk (1) requires the MSH header, (2) hands Gmsh a private copy
// of the file in a fresh temporary folder, and (3) reads it in a child process, turning a crash
// there into an error instead of taking the program down.

void require_msh_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string first;
  std::getline(in, first);
  if (!first.empty() && first.back() == '\r') first.pop_back();
  DGK_THROW_IF(first != "$MeshFormat", "Gmsh mesh '" << path
                                                     << "' is not an MSH file: its first line must be "
                                                        "'$MeshFormat'");
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

// Flat binary form of a TetMesh for the pipe between child and parent.
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
    std::copy(m_buf.begin() + static_cast<std::ptrdiff_t>(m_pos), m_buf.begin() + static_cast<std::ptrdiff_t>(m_pos + n), out);
    m_pos += n;
  }
  const std::vector<char>& m_buf;
  const std::string& m_path;
  std::size_t m_pos = 0;
};

std::vector<char> serialize(const TetMesh& m) {
  Writer w;
  w.vec(m.vertices);
  w.vec(m.elements);
  w.vec(m.material);
  w.vec(m.region);
  w.vec(m.boundary_faces);
  w.pod(static_cast<std::uint64_t>(m.boundary_names.size()));
  for (const auto& n : m.boundary_names) w.str(n);
  return w.bytes();
}

TetMesh deserialize(const std::vector<char>& buf, const std::string& path) {
  Reader r(buf, path);
  TetMesh m;
  m.vertices = r.vec<std::array<double, 3>>();
  m.elements = r.vec<std::array<int, 4>>();
  m.material = r.vec<std::array<double, 2>>();
  m.region = r.vec<int>();
  m.boundary_faces = r.vec<BoundaryFace>();
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
TetMesh read_isolated(const std::string& path, const std::string& open_path) {
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
    char status = 1;
    std::vector<char> payload;
    try {
      payload = serialize(read_locked(path, open_path));
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
    if (k > 0) buf.insert(buf.end(), chunk, chunk + k);
    else if (k == 0 || errno != EINTR) break;
  }
  close(fds[0]);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  const bool clean_exit = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
  if (!clean_exit || buf.empty()) {
    std::ostringstream why;
    if (WIFSIGNALED(wstatus)) why << "signal " << WTERMSIG(wstatus) << ", " << strsignal(WTERMSIG(wstatus));
    else why << "exit status " << (WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    DGK_THROW_IF(true, "Gmsh failed while reading mesh '" << path << "' (" << why.str()
                                                           << "): the file is malformed or not supported");
  }
  const std::vector<char> payload(buf.begin() + 1, buf.end());
  DGK_THROW_IF(buf[0] != 0, std::string(payload.begin(), payload.end()));
  return deserialize(payload, path);
}

}  // namespace

TetMesh read_gmsh_tet(const std::string& path) {
  std::lock_guard<std::mutex> lock(gmsh_mutex);
  // Cheap checks first, in this process, with their own messages.
  std::error_code ec;
  DGK_THROW_IF(!std::filesystem::exists(path, ec), "Gmsh mesh '" << path << "' does not exist");
  DGK_THROW_IF(std::filesystem::is_directory(path, ec), "Gmsh mesh '" << path << "' is a directory, not a file");
  {
    std::ifstream probe(path);
    DGK_THROW_IF(!probe, "Gmsh mesh '" << path << "' cannot be opened for reading");
  }
  DGK_THROW_IF(std::filesystem::file_size(path, ec) == 0, "Gmsh mesh '" << path << "' is empty");
  require_msh_header(path);
  PrivateCopy copy(path);
  return read_isolated(path, copy.file());
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
