#include "dgk/io/output.hpp"

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <algorithm>
#include <array>
#include <set>
#include <sstream>

#include "dgk/core/error.hpp"
#include "dgk/mesh/tet_connectivity.hpp"

#ifdef DGK_HAS_HDF5
#include "h5.hpp"
#endif

namespace dgk::io {

std::string xdmf_path_for(const std::string& h5_path) {
  const auto slash = h5_path.find_last_of('/');
  const auto dot = h5_path.find_last_of('.');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (has_ext ? h5_path.substr(0, dot) : h5_path) + ".xdmf";
}

namespace {

// Sub-cells of every element at its nodes, materials and partitions per sub-cell, and the
// boundary facets (faces of tetrahedra, edges of triangles) with their tags. `sub` lists the
// sub-cells of the reference element, `facet_vertices` the local vertices of each facet.
template <int D, class Mesh, class Ref, class Nodes, class Sub, class FacetVertices>
OutputMesh build_output_mesh(const Mesh& mesh, const Ref& ref, const Nodes& nodes, const Sub& sub,
                             const FacetVertices& facet_vertices, const std::vector<std::string>& material_names,
                             const std::vector<int>& partition, bool listed_boundary_only) {
  DGK_THROW_IF(material_names.size() > 2, "make_output_mesh: at most two material coefficients per element");
  DGK_THROW_IF(!partition.empty() && partition.size() != mesh.elements.size(),
               "make_output_mesh: " << partition.size() << " partition ids for " << mesh.num_elements() << " elements");
  OutputMesh out;
  out.dimension = D;
  out.nodes_per_cell = D + 1;
  const int K = mesh.num_elements(), np = ref.np;
  out.points.assign(static_cast<std::size_t>(K) * np * 3, 0.0);
  for (std::size_t g = 0; g < nodes.x.size(); ++g) {
    out.points[3 * g] = nodes.x[g];
    out.points[3 * g + 1] = nodes.y[g];
    if constexpr (D == 3) out.points[3 * g + 2] = nodes.z[g];
  }
  const std::size_t C = static_cast<std::size_t>(K) * sub.size();
  out.cells.reserve(C * (D + 1));
  out.element.reserve(C);
  out.partition.reserve(C);
  out.cell_data.resize(material_names.size());
  for (std::size_t m = 0; m < material_names.size(); ++m) {
    out.cell_data[m].first = material_names[m];
    out.cell_data[m].second.reserve(C);
  }
  for (int e = 0; e < K; ++e)
    for (const auto& c : sub) {
      for (int v : c) out.cells.push_back(e * np + v);
      out.element.push_back(e);
      out.partition.push_back(partition.empty() ? 0 : partition[static_cast<std::size_t>(e)]);
      for (std::size_t m = 0; m < material_names.size(); ++m)
        out.cell_data[m].second.push_back(mesh.material[static_cast<std::size_t>(e)][m]);
    }
  const auto conn = mesh::connect(mesh);
  // The facets the mesh lists as boundary (vertex numbers sorted), where only those count.
  std::set<std::array<int, D>> listed;
  if (listed_boundary_only) {
    auto add = [&](const auto& list) {
      for (const auto& bf : list) {
        std::array<int, D> v;
        for (int k = 0; k < D; ++k) v[static_cast<std::size_t>(k)] = bf.vertices[static_cast<std::size_t>(k)];
        std::sort(v.begin(), v.end());
        listed.insert(v);
      }
    };
    if constexpr (D == 3)
      add(mesh.boundary_faces);
    else
      add(mesh.boundary_edges);
  }
  for (int e = 0; e < K; ++e)
    for (int f = 0; f < D + 1; ++f) {
      const auto ue = static_cast<std::size_t>(e), uf = static_cast<std::size_t>(f);
      if (conn.EToE[ue][uf] >= 0) continue;
      if (listed_boundary_only) {
        std::array<int, D> v;
        for (int k = 0; k < D; ++k)
          v[static_cast<std::size_t>(k)] =
              mesh.elements[ue][static_cast<std::size_t>(facet_vertices[uf][static_cast<std::size_t>(k)])];
        std::sort(v.begin(), v.end());
        if (!listed.count(v)) continue;  // a face between two ranks' parts
      }
      for (int k = 0; k < D; ++k) {
        const auto v = static_cast<std::size_t>(
            mesh.elements[ue][static_cast<std::size_t>(facet_vertices[uf][static_cast<std::size_t>(k)])]);
        out.boundary_cells.push_back(static_cast<int>(out.boundary_points.size() / 3));
        for (int d = 0; d < 3; ++d)
          out.boundary_points.push_back(d < D ? mesh.vertices[v][static_cast<std::size_t>(d)] : 0.0);
      }
      out.boundary_tag.push_back(conn.bc_tag[ue][uf]);
    }
  out.boundary_names = mesh.boundary_names;
  return out;
}

}  // namespace

OutputMesh make_output_mesh(const mesh::TetMesh& mesh, const basis::TetNodal& ref,
                            const std::vector<std::string>& material_names, const std::vector<int>& partition,
                            bool listed_boundary_only) {
  return build_output_mesh<3>(mesh, ref, mesh::node_coordinates(mesh, ref), basis::tet_sub_cells(ref.order),
                              basis::tet_face_vertices, material_names, partition,
                              listed_boundary_only);
}

OutputMesh make_output_mesh(const mesh::TriMesh& mesh, const basis::TriNodal& ref,
                            const std::vector<std::string>& material_names, const std::vector<int>& partition,
                            bool listed_boundary_only) {
  return build_output_mesh<2>(mesh, ref, mesh::node_coordinates(mesh, ref), basis::tri_sub_cells(ref.order),
                              basis::tri_edge_vertices, material_names, partition,
                              listed_boundary_only);
}

namespace {
std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

OutputPart output_part(const std::string& h5_path, long long points, long long cells, long long boundary_points,
                       long long boundary_faces) {
  return {base_name(h5_path), points, cells, boundary_points, boundary_faces};
}

OutputPart output_part(const std::string& h5_path, const OutputMesh& mesh) {
  return output_part(h5_path, mesh.num_points(), mesh.num_cells(),
                     static_cast<long long>(mesh.boundary_points.size() / 3),
                     static_cast<long long>(mesh.boundary_tag.size()));
}

std::string output_part_path(const std::string& h5_path, int part) {
  const std::string stem = h5_path.size() > 3 && h5_path.compare(h5_path.size() - 3, 3, ".h5") == 0
                               ? h5_path.substr(0, h5_path.size() - 3)
                               : h5_path;
  return stem + ".part" + std::to_string(part) + ".h5";
}

#ifdef DGK_HAS_HDF5

namespace {

std::string step_group(int index) {
  std::ostringstream s;
  s << "/steps/" << std::setw(6) << std::setfill('0') << index;
  return s.str();
}

// XML-escaped text for attribute values.
std::string xml(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

}  // namespace

OutputWriter::OutputWriter(std::string h5_path, OutputMesh mesh, std::string case_name, int order,
                           std::vector<std::string> field_names, int nodes_per_element, std::vector<OutputPart> parts,
                           bool writes_xdmf)
    : m_h5(std::move(h5_path)),
      m_mesh(std::move(mesh)),
      m_fields(std::move(field_names)),
      m_np(nodes_per_element),
      m_parts(std::move(parts)),
      m_writes_xdmf(writes_xdmf) {
  m_xdmf = xdmf_path_for(m_h5);
  if (m_parts.empty()) m_parts.push_back(output_part(m_h5, m_mesh));
  DGK_THROW_IF(m_xdmf == m_h5, "output file '" << m_h5 << "' must not end in .xdmf: give the .h5 name");
  const auto& m = m_mesh;
  const auto P = static_cast<std::uint64_t>(m.num_points()), C = static_cast<std::uint64_t>(m.num_cells());
  h5::File f = h5::create(m_h5);
  h5::set_attr(f, "/", "dgk_output_version", static_cast<long long>(output_format_version));
  h5::set_attr(f, "/", "case", case_name);
  h5::set_attr(f, "/", "order", static_cast<long long>(order));
  h5::set_attr(f, "/", "dimension", static_cast<long long>(m.dimension));
  std::string names;
  for (const auto& n : m_fields) names += (names.empty() ? "" : "\n") + n;
  h5::set_attr(f, "/", "fields", names);
  h5::group(f, "/mesh", true);
  h5::write(f, "/mesh/points", m.points, {P, 3});
  h5::write(f, "/mesh/cells", m.cells, {C, static_cast<std::uint64_t>(m.nodes_per_cell)});
  h5::write(f, "/mesh/element", m.element, {C});
  h5::write(f, "/mesh/partition", m.partition, {C});
  for (const auto& [name, values] : m.cell_data) h5::write(f, "/mesh/" + name, values, {C});
  h5::group(f, "/boundary", true);
  const auto F = static_cast<std::uint64_t>(m.boundary_tag.size()),
             B = static_cast<std::uint64_t>(m.boundary_points.size() / 3);
  h5::write(f, "/boundary/points", m.boundary_points, {B, 3});
  h5::write(f, "/boundary/cells", m.boundary_cells, {F, static_cast<std::uint64_t>(m.dimension)});
  h5::write(f, "/boundary/tag", m.boundary_tag, {F});
  std::string bnames;
  for (const auto& n : m.boundary_names) bnames += (bnames.empty() ? "" : "\n") + n;
  h5::set_attr(f, "/boundary", "names", bnames);
  h5::group(f, "/steps", true);
  write_xdmf();
}

void OutputWriter::write(long long step, double time, const std::vector<double>& fields) {
  const std::size_t nf = m_fields.size();
  const auto P = static_cast<std::size_t>(m_mesh.num_points());
  DGK_THROW_IF(fields.size() != nf * P, "output '" << m_h5 << "': " << fields.size() << " field values for " << nf
                                                   << " fields at " << P << " points");
  const std::size_t K = P / static_cast<std::size_t>(m_np), np = static_cast<std::size_t>(m_np);
  h5::File f = h5::open(m_h5, true);
  const std::string g = step_group(steps_written());
  h5::group(f, g, true);
  h5::set_attr(f, g, "time", time);
  h5::set_attr(f, g, "step", step);
  std::vector<double> v(P);
  for (std::size_t c = 0; c < nf; ++c) {
    for (std::size_t e = 0; e < K; ++e)
      for (std::size_t i = 0; i < np; ++i) v[e * np + i] = fields[(e * nf + c) * np + i];
    h5::write(f, g + "/" + m_fields[c], v, {P});
  }
  DGK_THROW_IF(H5Fflush(f.handle, H5F_SCOPE_GLOBAL) < 0, "cannot flush output '" << m_h5 << "' (disk full?)");
  m_times.emplace_back(step, time);
  write_xdmf();
}

void OutputWriter::write_xdmf() const {
  if (!m_writes_xdmf) return;
  const auto& m = m_mesh;
  const char* topo = m.dimension == 3 ? "Tetrahedron" : "Triangle";
  const char* btopo = m.dimension == 3 ? "Triangle" : "Polyline";
  // The part being described (the whole mesh, or one rank's file).
  std::string h5;
  long long P = 0, C = 0, F = 0, B = 0;
  auto select = [&](const OutputPart& p) {
    h5 = xml(p.h5_name);
    P = p.points;
    C = p.cells;
    F = p.boundary_faces;
    B = p.boundary_points;
  };
  const bool several = m_parts.size() > 1;
  auto item = [&](std::ostream& o, const std::string& dims, const char* type, int prec, const std::string& path) {
    o << "<DataItem Dimensions=\"" << dims << "\" NumberType=\"" << type << "\" Precision=\"" << prec
      << "\" Format=\"HDF\">" << h5 << ":" << path << "</DataItem>";
  };
  auto mesh_part = [&](std::ostream& o, const std::string& ind) {
    o << ind << "<Topology TopologyType=\"" << topo << "\" NumberOfElements=\"" << C << "\">";
    item(o, std::to_string(C) + " " + std::to_string(m.nodes_per_cell), "Int", 4, "/mesh/cells");
    o << "</Topology>\n" << ind << "<Geometry GeometryType=\"XYZ\">";
    item(o, std::to_string(P) + " 3", "Float", 8, "/mesh/points");
    o << "</Geometry>\n";
    auto cell_attr = [&](const std::string& name, const char* type, int prec, const std::string& path) {
      o << ind << "<Attribute Name=\"" << xml(name) << "\" AttributeType=\"Scalar\" Center=\"Cell\">";
      item(o, std::to_string(C), type, prec, path);
      o << "</Attribute>\n";
    };
    cell_attr("element", "Int", 4, "/mesh/element");
    cell_attr("partition", "Int", 4, "/mesh/partition");
    for (const auto& cd : m.cell_data) cell_attr(cd.first, "Float", 8, "/mesh/" + cd.first);
  };
  std::ostringstream o;
  o << "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n  <Domain>\n";
  // The boundary faces with their tags (names in the Information element).
  std::string bnames;
  for (std::size_t t = 0; t < m.boundary_names.size(); ++t)
    bnames += (t ? ", " : "") + std::to_string(t) + "=" + m.boundary_names[t];
  if (several) o << "    <Grid Name=\"boundary\" GridType=\"Collection\" CollectionType=\"Spatial\">\n";
  for (std::size_t r = 0; r < m_parts.size(); ++r) {
    select(m_parts[r]);
    o << "    <Grid Name=\"boundary" << (several ? " " + std::to_string(r) : std::string()) << "\" GridType=\"Uniform\">\n"
      << "      <Information Name=\"boundary_tags\" Value=\"" << xml(bnames) << "\"/>\n"
      << "      <Topology TopologyType=\"" << btopo << "\" NumberOfElements=\"" << F << "\"";
    if (m.dimension == 2) o << " NodesPerElement=\"2\"";
    o << ">";
    item(o, std::to_string(F) + " " + std::to_string(m.dimension), "Int", 4, "/boundary/cells");
    o << "</Topology>\n      <Geometry GeometryType=\"XYZ\">";
    item(o, std::to_string(B) + " 3", "Float", 8, "/boundary/points");
    o << "</Geometry>\n      <Attribute Name=\"tag\" AttributeType=\"Scalar\" Center=\"Cell\">";
    item(o, std::to_string(F), "Int", 4, "/boundary/tag");
    o << "</Attribute>\n    </Grid>\n";
  }
  if (several) o << "    </Grid>\n";
  o << "    <Grid Name=\"solution\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  if (m_times.empty()) {
    // The mesh alone until the first step is written.
    if (several) o << "      <Grid Name=\"mesh\" GridType=\"Collection\" CollectionType=\"Spatial\">\n";
    for (std::size_t r = 0; r < m_parts.size(); ++r) {
      select(m_parts[r]);
      o << "      <Grid Name=\"mesh" << (several ? " " + std::to_string(r) : std::string()) << "\" GridType=\"Uniform\">\n";
      mesh_part(o, "        ");
      o << "      </Grid>\n";
    }
    if (several) o << "      </Grid>\n";
  }
  for (std::size_t s = 0; s < m_times.size(); ++s) {
    const std::string g = step_group(static_cast<int>(s));
    const std::string name_of_step = "step " + std::to_string(m_times[s].first);
    if (several)
      o << "      <Grid Name=\"" << name_of_step << "\" GridType=\"Collection\" CollectionType=\"Spatial\">\n"
        << "        <Time Value=\"" << std::setprecision(17) << m_times[s].second << "\"/>\n";
    for (std::size_t r = 0; r < m_parts.size(); ++r) {
      select(m_parts[r]);
      o << "      <Grid Name=\"" << name_of_step << (several ? " part " + std::to_string(r) : std::string())
        << "\" GridType=\"Uniform\">\n";
      if (!several) o << "        <Time Value=\"" << std::setprecision(17) << m_times[s].second << "\"/>\n";
      mesh_part(o, "        ");
      for (const auto& name : m_fields) {
        o << "        <Attribute Name=\"" << xml(name) << "\" AttributeType=\"Scalar\" Center=\"Node\">";
        item(o, std::to_string(P), "Float", 8, g + "/" + name);
        o << "</Attribute>\n";
      }
      o << "      </Grid>\n";
    }
    if (several) o << "      </Grid>\n";
  }
  o << "    </Grid>\n  </Domain>\n</Xdmf>\n";
  // Written aside and renamed, so a reader never sees half a file.
  const std::string tmp = m_xdmf + ".writing";
  {
    std::ofstream out(tmp);
    out << o.str();
    DGK_THROW_IF(!out.good(), "cannot write '" << tmp << "' (is the folder writable?)");
  }
  DGK_THROW_IF(std::rename(tmp.c_str(), m_xdmf.c_str()) != 0, "cannot move '" << tmp << "' to '" << m_xdmf << "'");
}

OutputFile read_output(const std::string& h5_path) {
  h5::File f = h5::open(h5_path, false);
  OutputFile out;
  DGK_THROW_IF(!h5::has_attr(f, "/", "dgk_output_version"),
               "'" << h5_path << "' is an HDF5 file but not a dgk output file (no dgk_output_version)");
  out.version = static_cast<int>(h5::attr_int(f, "/", "dgk_output_version"));
  DGK_THROW_IF(out.version != output_format_version, "output file '" << h5_path << "' has version " << out.version
                                                                     << "; this dgk reads version "
                                                                     << output_format_version);
  out.case_name = h5::attr_string(f, "/", "case");
  out.order = static_cast<int>(h5::attr_int(f, "/", "order"));
  auto& m = out.mesh;
  m.dimension = static_cast<int>(h5::attr_int(f, "/", "dimension"));
  DGK_THROW_IF(m.dimension != 2 && m.dimension != 3, "output file '" << h5_path << "': dimension " << m.dimension);
  m.nodes_per_cell = m.dimension + 1;
  h5::Shape s;
  m.points = h5::read<double>(f, "/mesh/points", &s, 2, 3);
  const long long P = static_cast<long long>(s.dims[0]);
  m.cells = h5::read<int>(f, "/mesh/cells", &s, 2, m.nodes_per_cell);
  const auto C = s.dims[0];
  for (std::size_t i = 0; i < m.cells.size(); ++i)
    DGK_THROW_IF(m.cells[i] < 0 || m.cells[i] >= P,
                 "output file '" << h5_path << "': cell " << i / static_cast<std::size_t>(m.nodes_per_cell)
                                 << " refers to point " << m.cells[i] << " of " << P);
  m.element = h5::read<int>(f, "/mesh/element", &s, 1);
  DGK_THROW_IF(s.dims[0] != C,
               "output file '" << h5_path << "': /mesh/element has " << s.dims[0] << " values for " << C << " cells");
  m.partition = h5::read<int>(f, "/mesh/partition", &s, 1);
  DGK_THROW_IF(s.dims[0] != C,
               "output file '" << h5_path << "': /mesh/partition has " << s.dims[0] << " values for " << C << " cells");
  for (const auto& name : h5::members(f, "/mesh")) {
    if (name == "points" || name == "cells" || name == "element" || name == "partition") continue;
    auto v = h5::read<double>(f, "/mesh/" + name, &s, 1);
    DGK_THROW_IF(s.dims[0] != C, "output file '" << h5_path << "': /mesh/" << name << " has " << s.dims[0]
                                                 << " values for " << C << " cells");
    m.cell_data.emplace_back(name, std::move(v));
  }
  m.boundary_points = h5::read<double>(f, "/boundary/points", &s, 2, 3);
  const long long B = static_cast<long long>(s.dims[0]);
  m.boundary_cells = h5::read<int>(f, "/boundary/cells", &s, 2, m.dimension);
  for (int v : m.boundary_cells)
    DGK_THROW_IF(v < 0 || v >= B,
                 "output file '" << h5_path << "': boundary cell refers to point " << v << " of " << B);
  m.boundary_tag = h5::read<int>(f, "/boundary/tag", &s, 1);
  std::istringstream bn(h5::attr_string(f, "/boundary", "names"));
  for (std::string line; std::getline(bn, line);) m.boundary_names.push_back(line);
  std::vector<std::string> fields;
  std::istringstream fn(h5::attr_string(f, "/", "fields"));
  for (std::string line; std::getline(fn, line);) fields.push_back(line);
  for (const auto& g : h5::members(f, "/steps")) {
    OutputFile::Step st;
    const std::string path = "/steps/" + g;
    st.time = h5::attr_double(f, path, "time");
    st.step = h5::attr_int(f, path, "step");
    for (const auto& name : fields) {
      auto v = h5::read<double>(f, path + "/" + name, &s, 1);
      DGK_THROW_IF(static_cast<long long>(s.dims[0]) != P, "output file '" << h5_path << "': " << path << "/" << name
                                                                           << " has " << s.dims[0] << " values for "
                                                                           << P << " points");
      st.fields.emplace_back(name, std::move(v));
    }
    out.steps.push_back(std::move(st));
  }
  return out;
}

#else

OutputWriter::OutputWriter(std::string h5_path, OutputMesh, std::string, int, std::vector<std::string>, int,
                           std::vector<OutputPart>, bool)
    : m_np(0) {
  DGK_THROW_IF(true, "cannot write output '" << h5_path << "': this dgk was built without HDF5 (DGK_ENABLE_HDF5=OFF)");
}
void OutputWriter::write(long long, double, const std::vector<double>&) {}
void OutputWriter::write_xdmf() const {}
OutputFile read_output(const std::string& h5_path) {
  DGK_THROW_IF(true, "cannot read output '" << h5_path << "': this dgk was built without HDF5 (DGK_ENABLE_HDF5=OFF)");
}

#endif

}  // namespace dgk::io
