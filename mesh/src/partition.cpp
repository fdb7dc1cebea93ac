#include "dgk/mesh/partition.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>
#include <unordered_map>

#include "dgk/core/error.hpp"
#include "dgk/mesh/reorder.hpp"

#ifdef DGK_HAS_METIS
#include <metis.h>
#endif

namespace dgk::mesh {

bool metis_available() {
#ifdef DGK_HAS_METIS
  return true;
#else
  return false;
#endif
}

PartitionMethod default_partition_method() {
  return metis_available() ? PartitionMethod::Metis : PartitionMethod::SpaceFillingCurve;
}

const char* partition_method_name(PartitionMethod m) {
  switch (m) {
    case PartitionMethod::Metis: return "metis";
    case PartitionMethod::SpaceFillingCurve: return "sfc";
    case PartitionMethod::Block: return "block";
  }
  return "?";
}

PartitionMethod parse_partition_method(const std::string& name) {
  if (name == "metis") {
    DGK_THROW_IF(!metis_available(), "--partition metis: this dgk was built without METIS (use sfc or block)");
    return PartitionMethod::Metis;
  }
  if (name == "sfc") return PartitionMethod::SpaceFillingCurve;
  if (name == "block") return PartitionMethod::Block;
  DGK_THROW_IF(true, "--partition '" << name << "': expected metis, sfc or block");
}

namespace {

// Owner of each element when `order` (a permutation) is cut into `parts` equal runs.
std::vector<int> equal_runs(const std::vector<int>& order, int parts) {
  const long long K = static_cast<long long>(order.size());
  std::vector<int> owner(order.size());
  for (long long i = 0; i < K; ++i) owner[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = static_cast<int>(i * parts / K);
  return owner;
}

}  // namespace

std::vector<int> partition_elements(PartitionMethod method, int parts, const std::vector<int>& neighbours, int nfaces,
                                    const std::vector<std::array<double, 3>>& centroids) {
  const int K = static_cast<int>(centroids.size());
  DGK_THROW_IF(parts < 1, "cannot partition into " << parts << " ranks");
  DGK_THROW_IF(parts > K, "cannot give each of " << parts << " ranks an element of a mesh of " << K
                                                 << " elements; run on at most " << K << " ranks");
  DGK_THROW_IF(neighbours.size() != static_cast<std::size_t>(K) * static_cast<std::size_t>(nfaces),
               "partition: " << neighbours.size() << " neighbour entries for " << K << " elements of " << nfaces
                             << " faces");
  if (parts == 1) return std::vector<int>(static_cast<std::size_t>(K), 0);
  std::vector<int> order(static_cast<std::size_t>(K));
  std::iota(order.begin(), order.end(), 0);
  switch (method) {
    case PartitionMethod::Block: return equal_runs(order, parts);
    case PartitionMethod::SpaceFillingCurve:
      return equal_runs(element_order(ElementOrder::SpaceFillingCurve, centroids), parts);
    case PartitionMethod::Metis: {
#ifdef DGK_HAS_METIS
      std::vector<idx_t> xadj(static_cast<std::size_t>(K) + 1, 0), adjncy;
      adjncy.reserve(neighbours.size());
      for (int e = 0; e < K; ++e) {
        for (int f = 0; f < nfaces; ++f) {
          const int n = neighbours[static_cast<std::size_t>(e) * nfaces + f];
          if (n >= 0 && n != e) adjncy.push_back(n);
        }
        xadj[static_cast<std::size_t>(e) + 1] = static_cast<idx_t>(adjncy.size());
      }
      idx_t nv = K, ncon = 1, np = parts, cut = 0;
      idx_t options[METIS_NOPTIONS];
      METIS_SetDefaultOptions(options);
      options[METIS_OPTION_SEED] = 1;  // the same partition on every rank and every run
      options[METIS_OPTION_CONTIG] = 0;
      std::vector<idx_t> part(static_cast<std::size_t>(K));
      const int rc = METIS_PartGraphKway(&nv, &ncon, xadj.data(), adjncy.data(), nullptr, nullptr, nullptr, &np, nullptr,
                                         nullptr, options, &cut, part.data());
      DGK_THROW_IF(rc != METIS_OK, "METIS_PartGraphKway failed (code " << rc << ") on " << K << " elements into "
                                                                      << parts << " parts");
      std::vector<int> owner(part.begin(), part.end());
      std::vector<int> count(static_cast<std::size_t>(parts), 0);
      for (int o : owner) ++count[static_cast<std::size_t>(o)];
      for (int r = 0; r < parts; ++r)
        DGK_THROW_IF(count[static_cast<std::size_t>(r)] == 0,
                     "METIS left rank " << r << " of " << parts << " without elements (" << K
                                        << " elements); use --partition sfc or block, or fewer ranks");
      return owner;
#else
      DGK_THROW_IF(true, "partition: this dgk was built without METIS (use sfc or block)");
#endif
    }
  }
  return {};
}

LocalPart make_local_part(const std::vector<int>& owner, int rank, int ranks, const std::vector<int>& neighbours,
                          const std::vector<int>& neighbour_faces, int nfaces,
                          const std::vector<std::vector<int>>& face_nodes, int np) {
  const int K = static_cast<int>(owner.size());
  DGK_THROW_IF(rank < 0 || rank >= ranks, "rank " << rank << " outside 0.." << ranks - 1);
  DGK_THROW_IF(neighbours.size() != static_cast<std::size_t>(K) * nfaces || neighbour_faces.size() != neighbours.size(),
               "make_local_part: neighbour tables do not match " << K << " elements of " << nfaces << " faces");
  LocalPart p;
  p.rank = rank;
  p.ranks = ranks;
  p.global_elements = K;
  p.owner = owner;
  p.elements_per_rank.assign(static_cast<std::size_t>(ranks), 0);
  p.shared_faces_per_rank.assign(static_cast<std::size_t>(ranks), 0);
  auto nb = [&](int e, int f) { return neighbours[static_cast<std::size_t>(e) * nfaces + f]; };
  for (int e = 0; e < K; ++e) {
    const int o = owner[static_cast<std::size_t>(e)];
    DGK_THROW_IF(o < 0 || o >= ranks, "element " << e << " has owner " << o << " outside 0.." << ranks - 1);
    ++p.elements_per_rank[static_cast<std::size_t>(o)];
    for (int f = 0; f < nfaces; ++f) {
      const int n = nb(e, f);
      if (n >= 0 && owner[static_cast<std::size_t>(n)] != o) {
        ++p.shared_faces_per_rank[static_cast<std::size_t>(o)];
        if (e < n) ++p.shared_faces;
      }
    }
  }
  for (int r = 0; r < ranks; ++r)
    DGK_THROW_IF(p.elements_per_rank[static_cast<std::size_t>(r)] == 0,
                 "rank " << r << " of " << ranks << " owns no element");

  // Local numbering: interior owned, boundary owned, ghosts; each in global order.
  std::vector<int> boundary, ghosts;
  std::vector<char> is_ghost(static_cast<std::size_t>(K), 0);
  for (int e = 0; e < K; ++e) {
    if (owner[static_cast<std::size_t>(e)] != rank) continue;
    bool shared = false;
    for (int f = 0; f < nfaces; ++f) {
      const int n = nb(e, f);
      if (n >= 0 && owner[static_cast<std::size_t>(n)] != rank) {
        shared = true;
        if (!is_ghost[static_cast<std::size_t>(n)]) {
          is_ghost[static_cast<std::size_t>(n)] = 1;
          ghosts.push_back(n);
        }
      }
    }
    (shared ? boundary : p.global).push_back(e);
  }
  p.interior = static_cast<int>(p.global.size());
  p.global.insert(p.global.end(), boundary.begin(), boundary.end());
  p.owned = static_cast<int>(p.global.size());
  std::sort(ghosts.begin(), ghosts.end());
  p.global.insert(p.global.end(), ghosts.begin(), ghosts.end());
  std::unordered_map<int, int> local;
  for (std::size_t i = 0; i < p.global.size(); ++i) local[p.global[i]] = static_cast<int>(i);

  // Links. The faces between ranks a and b, listed as (element of a, face) in increasing order,
  // carry the traces a sends to b; both ranks enumerate the same list.
  std::map<int, HaloLink> links;
  for (int e = 0; e < K; ++e) {
    const int o = owner[static_cast<std::size_t>(e)];
    for (int f = 0; f < nfaces; ++f) {
      const int n = nb(e, f);
      if (n < 0) continue;
      const int on = owner[static_cast<std::size_t>(n)];
      if (on == o) continue;
      // e (on rank o) sends its face-f nodes to rank on.
      if (o == rank) {
        auto& l = links[on];
        l.rank = on;
        const int le = local.at(e);
        for (int node : face_nodes[static_cast<std::size_t>(f)]) l.send.push_back(le * np + node);
      } else if (on == rank) {
        auto& l = links[o];
        l.rank = o;
        const int le = local.at(e);  // a ghost here
        for (int node : face_nodes[static_cast<std::size_t>(f)]) l.recv.push_back(le * np + node);
      }
    }
  }
  for (auto& [r, l] : links) p.links.push_back(std::move(l));
  return p;
}

namespace {
template <class Mesh, class Conn, class Vertices, class BoundaryList, class AddBoundary>
Mesh extract_common(const Mesh& mesh, const Conn& conn, const std::vector<int>& elements, int nfaces,
                    const Vertices& face_vertices, BoundaryList Mesh::*list, AddBoundary add) {
  Mesh out;
  out.boundary_names = mesh.boundary_names;
  out.source = mesh.source;
  std::unordered_map<int, int> vmap;
  for (int e : elements) {
    DGK_THROW_IF(e < 0 || e >= mesh.num_elements(), "extract_elements: element " << e << " outside the mesh of "
                                                                                 << mesh.num_elements());
    auto el = mesh.elements[static_cast<std::size_t>(e)];
    for (auto& v : el) {
      auto it = vmap.find(v);
      if (it == vmap.end()) {
        it = vmap.emplace(v, out.num_vertices()).first;
        out.vertices.push_back(mesh.vertices[static_cast<std::size_t>(v)]);
      }
      v = it->second;
    }
    out.elements.push_back(el);
    if (!mesh.material.empty()) out.material.push_back(mesh.material[static_cast<std::size_t>(e)]);
    if (!mesh.region.empty()) out.region.push_back(mesh.region[static_cast<std::size_t>(e)]);
    for (int f = 0; f < nfaces; ++f) {
      const int tag = conn.bc_tag[static_cast<std::size_t>(e)][static_cast<std::size_t>(f)];
      if (tag < 0) continue;
      const auto& fv = face_vertices[static_cast<std::size_t>(f)];
      add(out.*list, el, fv, tag);
    }
  }
  return out;
}
}  // namespace

TetMesh extract_elements(const TetMesh& mesh, const TetConnectivity& conn, const std::vector<int>& elements) {
  return extract_common(mesh, conn, elements, 4, basis::tet_face_vertices, &TetMesh::boundary_faces,
                        [](std::vector<BoundaryFace>& l, const std::array<int, 4>& el, const std::array<int, 3>& fv, int tag) {
                          l.push_back({{el[static_cast<std::size_t>(fv[0])], el[static_cast<std::size_t>(fv[1])],
                                        el[static_cast<std::size_t>(fv[2])]},
                                       tag});
                        });
}

TriMesh extract_elements(const TriMesh& mesh, const TriConnectivity& conn, const std::vector<int>& elements) {
  TriMesh out = extract_common(mesh, conn, elements, 3, basis::tri_edge_vertices, &TriMesh::boundary_edges,
                               [](std::vector<BoundaryEdge>& l, const std::array<int, 3>& el, const std::array<int, 2>& fv,
                                  int tag) {
                                 l.push_back({{el[static_cast<std::size_t>(fv[0])], el[static_cast<std::size_t>(fv[1])]}, tag});
                               });
  out.boundary_circles = mesh.boundary_circles;
  return out;
}

TriConnectivity restrict_connectivity(const TriConnectivity& conn, const LocalPart& part) {
  std::unordered_map<int, int> local;
  for (std::size_t i = 0; i < part.global.size(); ++i) local[part.global[i]] = static_cast<int>(i);
  TriConnectivity out;
  const std::size_t n = part.global.size();
  out.EToE.resize(n);
  out.EToF.resize(n);
  out.bc_tag.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto g = static_cast<std::size_t>(part.global[i]);
    DGK_THROW_IF(g >= conn.EToE.size(), "restrict_connectivity: element " << g << " outside the connectivity of "
                                                                          << conn.EToE.size() << " elements");
    for (std::size_t f = 0; f < 3; ++f) {
      const int nb = conn.EToE[g][f];
      const auto it = nb >= 0 ? local.find(nb) : local.end();
      if (nb >= 0 && it != local.end()) {
        out.EToE[i][f] = it->second;
        out.EToF[i][f] = conn.EToF[g][f];
        out.bc_tag[i][f] = -1;
        ++out.num_interior_edges;
      } else {
        out.EToE[i][f] = -1;
        out.EToF[i][f] = -1;
        out.bc_tag[i][f] = nb >= 0 ? -1 : conn.bc_tag[g][f];
        if (nb < 0) ++out.num_boundary_edges;
      }
    }
  }
  out.num_interior_edges /= 2;
  return out;
}

namespace {
template <class Conn>
void flat_common(const Conn& conn, int nfaces, std::vector<int>& neighbours, std::vector<int>& neighbour_faces) {
  neighbours.clear();
  neighbour_faces.clear();
  neighbours.reserve(conn.EToE.size() * static_cast<std::size_t>(nfaces));
  neighbour_faces.reserve(neighbours.capacity());
  for (std::size_t e = 0; e < conn.EToE.size(); ++e)
    for (int f = 0; f < nfaces; ++f) {
      neighbours.push_back(conn.EToE[e][static_cast<std::size_t>(f)]);
      neighbour_faces.push_back(conn.EToF[e][static_cast<std::size_t>(f)]);
    }
}
}  // namespace

void flat_neighbours(const TetConnectivity& conn, std::vector<int>& neighbours, std::vector<int>& neighbour_faces) {
  flat_common(conn, 4, neighbours, neighbour_faces);
}
void flat_neighbours(const TriConnectivity& conn, std::vector<int>& neighbours, std::vector<int>& neighbour_faces) {
  flat_common(conn, 3, neighbours, neighbour_faces);
}

std::vector<std::array<double, 3>> centroids(const TetMesh& mesh) {
  std::vector<std::array<double, 3>> c(mesh.elements.size(), {0.0, 0.0, 0.0});
  for (std::size_t e = 0; e < mesh.elements.size(); ++e)
    for (int v : mesh.elements[e])
      for (int d = 0; d < 3; ++d) c[e][static_cast<std::size_t>(d)] += mesh.vertices[static_cast<std::size_t>(v)][static_cast<std::size_t>(d)] / 4;
  return c;
}

std::vector<std::array<double, 3>> centroids(const TriMesh& mesh) {
  std::vector<std::array<double, 3>> c(mesh.elements.size(), {0.0, 0.0, 0.0});
  for (std::size_t e = 0; e < mesh.elements.size(); ++e)
    for (int v : mesh.elements[e])
      for (int d = 0; d < 2; ++d) c[e][static_cast<std::size_t>(d)] += mesh.vertices[static_cast<std::size_t>(v)][static_cast<std::size_t>(d)] / 3;
  return c;
}

std::string partition_summary(const LocalPart& p) {
  std::ostringstream s;
  long long lo = std::numeric_limits<long long>::max(), hi = 0;
  for (auto n : p.elements_per_rank) {
    lo = std::min(lo, n);
    hi = std::max(hi, n);
  }
  s << p.ranks << " ranks, " << lo << ".." << hi << " elements per rank (imbalance "
    << (p.global_elements > 0 ? double(hi) * p.ranks / double(p.global_elements) : 1.0) << "), " << p.shared_faces
    << " shared faces";
  return s.str();
}

}  // namespace dgk::mesh
