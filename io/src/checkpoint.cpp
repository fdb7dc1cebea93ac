#include "dgk/io/checkpoint.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "dgk/core/error.hpp"
#include "dgk/core/version.hpp"
#include "fnv1a.hpp"

#ifdef DGK_HAS_HDF5
#include "h5.hpp"
#endif

namespace dgk::io {

namespace {

constexpr const char* kFormatName = "dgk checkpoint";
constexpr const char* kPartFormatName = "dgk checkpoint part";

std::uint64_t hash_mesh(const mesh::TetMesh& m) {
  std::uint64_t h = fnv1a(m.vertices.data(), m.vertices.size() * sizeof(m.vertices[0]));
  h = fnv1a(m.elements.data(), m.elements.size() * sizeof(m.elements[0]), h);
  h = fnv1a(m.material.data(), m.material.size() * sizeof(m.material[0]), h);
  for (const auto& f : m.boundary_faces) {
    h = fnv1a(f.vertices.data(), sizeof(f.vertices), h);
    h = fnv1a(&f.tag, sizeof(f.tag), h);
  }
  return h;
}

std::uint64_t hash_mesh(const mesh::TriMesh& m) {
  std::uint64_t h = fnv1a(m.vertices.data(), m.vertices.size() * sizeof(m.vertices[0]));
  h = fnv1a(m.elements.data(), m.elements.size() * sizeof(m.elements[0]), h);
  h = fnv1a(m.material.data(), m.material.size() * sizeof(m.material[0]), h);
  for (const auto& f : m.boundary_edges) {
    h = fnv1a(f.vertices.data(), sizeof(f.vertices), h);
    h = fnv1a(&f.tag, sizeof(f.tag), h);
  }
  return h;
}

#ifdef DGK_HAS_HDF5
// The mesh arrays of either kind, written and read the same way: vertices (V x d), elements
// (K x d+1), material (K x 2), region (K), boundary facets (F x d+1: d vertices and the tag).
template <class Mesh>
void write_mesh(const h5::File& f, const Mesh& m, int d) {
  const auto V = static_cast<std::uint64_t>(m.vertices.size()), K = static_cast<std::uint64_t>(m.elements.size());
  const auto nv = static_cast<std::uint64_t>(d + 1);
  h5::write(f, "/mesh/vertices", h5::Type::Float64, m.vertices.data(), {V, static_cast<std::uint64_t>(d)});
  h5::write(f, "/mesh/elements", h5::Type::Int32, m.elements.data(), {K, nv});
  h5::write(f, "/mesh/material", h5::Type::Float64, m.material.data(), {K, 2});
  std::vector<int> region = m.region;
  region.resize(m.elements.size(), 0);
  h5::write(f, "/mesh/region", region, {K});
  std::vector<int> faces;
  std::uint64_t F = 0;
  auto add = [&](const auto& bf) {
    faces.insert(faces.end(), bf.vertices.begin(), bf.vertices.end());
    faces.push_back(bf.tag);
    ++F;
  };
  if constexpr (std::is_same_v<Mesh, mesh::TetMesh>) {
    for (const auto& bf : m.boundary_faces) add(bf);
  } else {
    for (const auto& bf : m.boundary_edges) add(bf);
  }
  h5::write(f, "/mesh/boundary_faces", faces, {F, nv});
  std::string names;
  for (const auto& n : m.boundary_names) names += (names.empty() ? "" : "\n") + n;
  h5::set_attr(f, "/mesh", "dimension", static_cast<long long>(d));
  h5::set_attr(f, "/mesh", "boundary_names", names);
  h5::set_attr(f, "/mesh", "source", m.source);
  h5::set_attr(f, "/mesh", "fingerprint", static_cast<long long>(hash_mesh(m)));
}

template <class Mesh>
void read_mesh(const h5::File& f, Mesh& m, int d, const std::string& path) {
  const std::size_t nv = static_cast<std::size_t>(d + 1), dd = static_cast<std::size_t>(d);
  h5::Shape s;
  const auto verts = h5::read<double>(f, "/mesh/vertices", &s, 2, d);
  m.vertices.resize(s.dims[0]);
  for (std::size_t i = 0; i < m.vertices.size(); ++i)
    for (std::size_t k = 0; k < dd; ++k) m.vertices[i][k] = verts[dd * i + k];
  const auto elems = h5::read<int>(f, "/mesh/elements", &s, 2, d + 1);
  const std::size_t K = s.dims[0];
  m.elements.resize(K);
  for (std::size_t e = 0; e < K; ++e)
    for (std::size_t k = 0; k < nv; ++k) {
      const int v = elems[nv * e + k];
      DGK_THROW_IF(v < 0 || v >= m.num_vertices(), "checkpoint '" << path << "': element " << e << " refers to vertex "
                                                                  << v << " of " << m.num_vertices());
      m.elements[e][k] = v;
    }
  const auto mat = h5::read<double>(f, "/mesh/material", &s, 2, 2);
  DGK_THROW_IF(s.dims[0] != K, "checkpoint '" << path << "': " << s.dims[0] << " materials for " << K << " elements");
  m.material.resize(K);
  for (std::size_t e = 0; e < K; ++e) m.material[e] = {mat[2 * e], mat[2 * e + 1]};
  m.region = h5::read<int>(f, "/mesh/region", &s, 1);
  DGK_THROW_IF(m.region.size() != K,
               "checkpoint '" << path << "': " << m.region.size() << " regions for " << K << " elements");
  std::istringstream names(h5::attr_string(f, "/mesh", "boundary_names"));
  m.boundary_names.clear();
  for (std::string line; std::getline(names, line);) m.boundary_names.push_back(line);
  const auto faces = h5::read<int>(f, "/mesh/boundary_faces", &s, 2, d + 1);
  const std::size_t F = s.dims[0];
  auto fill = [&](auto& list) {
    list.resize(F);
    for (std::size_t i = 0; i < F; ++i) {
      auto& bf = list[i];
      for (std::size_t k = 0; k < dd; ++k) {
        const int v = faces[nv * i + k];
        DGK_THROW_IF(v < 0 || v >= m.num_vertices(),
                     "checkpoint '" << path << "': boundary face " << i << " refers to vertex " << v);
        bf.vertices[k] = v;
      }
      bf.tag = faces[nv * i + dd];
      DGK_THROW_IF(bf.tag < 0 || bf.tag >= static_cast<int>(m.boundary_names.size()),
                   "checkpoint '" << path << "': boundary face " << i << " has tag " << bf.tag << " without a name");
    }
  };
  if constexpr (std::is_same_v<Mesh, mesh::TetMesh>)
    fill(m.boundary_faces);
  else
    fill(m.boundary_edges);
  m.source = h5::attr_string(f, "/mesh", "source");
  DGK_THROW_IF(static_cast<std::uint64_t>(h5::attr_int(f, "/mesh", "fingerprint")) != hash_mesh(m),
               "checkpoint '" << path << "': the stored mesh does not match its fingerprint (damaged file)");
}
#endif

}  // namespace

const std::string& Checkpoint::parameter(const std::string& name) const {
  for (const auto& kv : parameters)
    if (kv.first == name) return kv.second;
  DGK_THROW_IF(true, "checkpoint '" << path << "' has no parameter '" << name << "'");
}

std::uint64_t mesh_fingerprint(const mesh::TetMesh& mesh) {
  return hash_mesh(mesh);
}
std::uint64_t mesh_fingerprint(const mesh::TriMesh& mesh) {
  return hash_mesh(mesh);
}

std::string checkpoint_part_path(const std::string& path, const std::string& set, int part) {
  return path + "." + set + ".part" + std::to_string(part);
}

#ifdef DGK_HAS_HDF5

namespace {

void write_state(const h5::File& f, const Checkpoint& c) {
  h5::group(f, "/state", true);
  std::string order_of_arrays;
  for (const auto& a : c.state) {
    DGK_THROW_IF(a.value_bytes != 4 && a.value_bytes != 8,
                 "checkpoint: state array '" << a.name << "' has " << a.value_bytes << "-byte values");
    DGK_THROW_IF(c.parts > 1 && (a.dims.empty() || a.dims[0] != static_cast<long long>(c.elements.size())),
                 "checkpoint part " << c.part << ": state array '" << a.name << "' has "
                                    << (a.dims.empty() ? 0 : a.dims[0]) << " rows for " << c.elements.size()
                                    << " elements");
    std::vector<std::uint64_t> dims(a.dims.begin(), a.dims.end());
    const std::string p = "/state/" + a.name;
    h5::write(f, p, a.value_bytes == 4 ? h5::Type::Float32 : h5::Type::Float64, a.bytes.data(), dims);
    h5::set_attr(f, p, "fnv1a64", static_cast<long long>(fnv1a(a.bytes.data(), a.bytes.size())));
    order_of_arrays += (order_of_arrays.empty() ? "" : "\n") + a.name;
  }
  h5::set_attr(f, "/state", "arrays", order_of_arrays);
  if (c.parts > 1) {
    h5::write(f, "/state/elements", h5::Type::Int64, c.elements.data(), {c.elements.size()});
    h5::set_attr(f, "/", "parts", static_cast<long long>(c.parts));
    h5::set_attr(f, "/", "set", c.set);
  }
}

// The state arrays of one file, checked against their checksums.
std::vector<StateArray> read_state(const h5::File& f, const std::string& path) {
  std::vector<StateArray> out;
  std::istringstream arrays(h5::attr_string(f, "/state", "arrays"));
  for (std::string name; std::getline(arrays, name);) {
    StateArray a;
    a.name = name;
    const std::string p = "/state/" + name;
    h5::Shape sh;
    a.bytes = h5::read_raw_real(f, p, a.value_bytes, sh);
    a.dims.assign(sh.dims.begin(), sh.dims.end());
    const auto stored = static_cast<std::uint64_t>(h5::attr_int(f, p, "fnv1a64"));
    DGK_THROW_IF(stored != fnv1a(a.bytes.data(), a.bytes.size()),
                 "checkpoint '" << path << "': state array '" << name << "' fails its checksum (damaged file)");
    out.push_back(std::move(a));
  }
  return out;
}

void commit(const std::string& tmp, const std::string& path) {
  DGK_THROW_IF(std::rename(tmp.c_str(), path.c_str()) != 0,
               "cannot move the new checkpoint '" << tmp << "' to '" << path << "'");
}

}  // namespace

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  DGK_THROW_IF(c.parts < 1 || c.part < 0 || c.part >= c.parts,
               "checkpoint '" << path << "': part " << c.part << " of " << c.parts);
  if (c.part > 0) {
    const std::string target = checkpoint_part_path(path, c.set, c.part), tmp = target + ".writing";
    {
      h5::File f = h5::create(tmp);
      h5::set_attr(f, "/", "format", std::string(kPartFormatName));
      h5::set_attr(f, "/", "format_version", static_cast<long long>(c.format_version));
      h5::set_attr(f, "/", "part", static_cast<long long>(c.part));
      write_state(f, c);
      DGK_THROW_IF(H5Fflush(f.handle, H5F_SCOPE_GLOBAL) < 0, "cannot flush checkpoint '" << tmp << "' (disk full?)");
    }
    commit(tmp, target);
    return;
  }
  const std::string tmp = path + ".writing";
  {
    h5::File f = h5::create(tmp);
    h5::set_attr(f, "/", "format", std::string(kFormatName));
    h5::set_attr(f, "/", "format_version", static_cast<long long>(c.format_version));
    h5::set_attr(f, "/", "dgk_version", std::string(version_string()));
    h5::set_attr(f, "/", "case", c.case_name);
    h5::set_attr(f, "/", "basis", c.basis);
    h5::set_attr(f, "/", "order", static_cast<long long>(c.order));
    h5::set_attr(f, "/", "precision", c.precision);
    h5::set_attr(f, "/", "backend", c.backend);
    h5::set_attr(f, "/", "step", c.step);
    h5::set_attr(f, "/", "steps", c.steps);
    h5::set_attr(f, "/", "time", c.time);
    h5::set_attr(f, "/", "dt", c.dt);
    h5::set_attr(f, "/", "final_time", c.final_time);

    h5::group(f, "/parameters", true);
    for (const auto& kv : c.parameters) h5::set_attr(f, "/parameters", kv.first, kv.second);

    DGK_THROW_IF(c.dimension != 2 && c.dimension != 3, "checkpoint: dimension " << c.dimension);
    h5::group(f, "/mesh", true);
    if (c.dimension == 3)
      write_mesh(f, c.mesh, 3);
    else
      write_mesh(f, c.tri_mesh, 2);

    write_state(f, c);
    DGK_THROW_IF(H5Fflush(f.handle, H5F_SCOPE_GLOBAL) < 0, "cannot flush checkpoint '" << tmp << "' (disk full?)");
  }
  commit(tmp, path);
}

Checkpoint read_checkpoint(const std::string& path) {
  h5::File f = h5::open(path, false);
  Checkpoint c;
  c.path = path;
  DGK_THROW_IF(
      !h5::has_attr(f, "/", "format") || h5::attr_string(f, "/", "format") != kFormatName,
      "'" << path << "' is an HDF5 file but not a dgk checkpoint (no format attribute '" << kFormatName << "')");
  c.format_version = static_cast<int>(h5::attr_int(f, "/", "format_version"));
  DGK_THROW_IF(c.format_version != checkpoint_format_version,
               "checkpoint '" << path << "' has format version " << c.format_version << "; this dgk ("
                              << version_string() << ") reads version " << checkpoint_format_version);
  c.case_name = h5::attr_string(f, "/", "case");
  c.basis = h5::attr_string(f, "/", "basis");
  c.order = static_cast<int>(h5::attr_int(f, "/", "order"));
  c.precision = h5::attr_string(f, "/", "precision");
  c.backend = h5::attr_string(f, "/", "backend");
  c.step = h5::attr_int(f, "/", "step");
  c.steps = h5::attr_int(f, "/", "steps");
  c.time = h5::attr_double(f, "/", "time");
  c.dt = h5::attr_double(f, "/", "dt");
  c.final_time = h5::attr_double(f, "/", "final_time");
  DGK_THROW_IF(c.step < 0 || c.steps < c.step || !(c.dt >= 0) || !(c.time >= 0),
               "checkpoint '" << path << "': inconsistent progress (step " << c.step << " of " << c.steps
                              << ", t = " << c.time << ", dt = " << c.dt << ")");
  DGK_THROW_IF(c.precision != "double" && c.precision != "float",
               "checkpoint '" << path << "': unknown precision '" << c.precision << "'");
  for (const auto& name : h5::attr_names(f, "/parameters"))
    c.parameters.emplace_back(name, h5::attr_string(f, "/parameters", name));

  c.dimension = h5::has_attr(f, "/mesh", "dimension") ? static_cast<int>(h5::attr_int(f, "/mesh", "dimension")) : 3;
  DGK_THROW_IF(c.dimension != 2 && c.dimension != 3, "checkpoint '" << path << "': mesh dimension " << c.dimension);
  if (c.dimension == 3)
    read_mesh(f, c.mesh, 3, path);
  else
    read_mesh(f, c.tri_mesh, 2, path);

  c.state = read_state(f, path);
  const long long parts = h5::has_attr(f, "/", "parts") ? h5::attr_int(f, "/", "parts") : 1;
  if (parts == 1) return c;

  // A distributed run's checkpoint: the rows of every part, put in their global places.
  const long long K = c.dimension == 3 ? c.mesh.num_elements() : c.tri_mesh.num_elements();
  DGK_THROW_IF(parts < 1 || parts > K, "checkpoint '" << path << "': " << parts << " parts for " << K << " elements");
  const std::string set = h5::attr_string(f, "/", "set");
  std::vector<StateArray> whole = c.state;
  std::vector<std::size_t> row_bytes(whole.size());
  for (std::size_t k = 0; k < whole.size(); ++k) {
    auto& a = whole[k];
    DGK_THROW_IF(a.dims.empty(), "checkpoint '" << path << "': state array '" << a.name << "' has no rows");
    std::size_t row = static_cast<std::size_t>(a.value_bytes);
    for (std::size_t d = 1; d < a.dims.size(); ++d) row *= static_cast<std::size_t>(a.dims[d]);
    row_bytes[k] = row;
    a.dims[0] = K;
    a.bytes.assign(static_cast<std::size_t>(K) * row, 0);
  }
  std::vector<int> seen(static_cast<std::size_t>(K), -1);
  auto place = [&](const std::vector<StateArray>& part_state, const h5::File& pf, const std::string& ppath, int p) {
    h5::Shape sh;
    const auto ids = h5::read<long long>(pf, "/state/elements", &sh, 1);
    DGK_THROW_IF(part_state.size() != whole.size(),
                 "checkpoint part '" << ppath << "' has " << part_state.size() << " state arrays, the checkpoint "
                                     << whole.size());
    for (std::size_t k = 0; k < whole.size(); ++k) {
      const auto& a = part_state[k];
      DGK_THROW_IF(a.name != whole[k].name || a.value_bytes != whole[k].value_bytes || a.dims.empty() ||
                       a.dims[0] != static_cast<long long>(ids.size()) ||
                       a.bytes.size() != ids.size() * row_bytes[k],
                   "checkpoint part '" << ppath << "': state array '" << a.name << "' does not match '"
                                       << whole[k].name << "' of " << ids.size() << " rows");
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const long long g = ids[i];
      DGK_THROW_IF(g < 0 || g >= K, "checkpoint part '" << ppath << "' has element " << g << " outside the mesh's "
                                                         << K);
      DGK_THROW_IF(seen[static_cast<std::size_t>(g)] >= 0,
                   "checkpoint '" << path << "': element " << g << " is in part " << seen[static_cast<std::size_t>(g)]
                                  << " and in part " << p);
      seen[static_cast<std::size_t>(g)] = p;
      for (std::size_t k = 0; k < whole.size(); ++k)
        std::memcpy(whole[k].bytes.data() + static_cast<std::size_t>(g) * row_bytes[k],
                    part_state[k].bytes.data() + i * row_bytes[k], row_bytes[k]);
    }
  };
  place(c.state, f, path, 0);
  for (int p = 1; p < parts; ++p) {
    const std::string ppath = checkpoint_part_path(path, set, p);
    DGK_THROW_IF(!std::ifstream(ppath).good(), "checkpoint '" << path << "' of " << parts << " parts: part file '"
                                                              << ppath << "' is missing");
    h5::File pf = h5::open(ppath, false);
    DGK_THROW_IF(!h5::has_attr(pf, "/", "format") || h5::attr_string(pf, "/", "format") != kPartFormatName ||
                     h5::attr_string(pf, "/", "set") != set || h5::attr_int(pf, "/", "part") != p ||
                     h5::attr_int(pf, "/", "parts") != parts,
                 "'" << ppath << "' is not part " << p << " of " << parts << " of checkpoint '" << path << "' (set "
                     << set << ")");
    place(read_state(pf, ppath), pf, ppath, p);
  }
  for (long long g = 0; g < K; ++g)
    DGK_THROW_IF(seen[static_cast<std::size_t>(g)] < 0,
                 "checkpoint '" << path << "': no part holds the state of element " << g);
  c.state = std::move(whole);
  return c;
}

#else

void write_checkpoint(const std::string& path, const Checkpoint&) {
  DGK_THROW_IF(true, "cannot write checkpoint '" << path << "': this dgk was built without HDF5 (DGK_ENABLE_HDF5=OFF)");
}
Checkpoint read_checkpoint(const std::string& path) {
  DGK_THROW_IF(true, "cannot read checkpoint '" << path << "': this dgk was built without HDF5 (DGK_ENABLE_HDF5=OFF)");
}

#endif

}  // namespace dgk::io
