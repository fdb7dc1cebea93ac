// What a solver needs to run as one rank of a distributed run: its share of the partitioned
// mesh (owned elements, ghosts, trace links) and the ranks' communicator; plus the host-side
// collectives the solvers share (gathering per-element rows into the global element order,
// picking a rank's rows out of a global array). A solver without a Distribution is the whole
// problem on one rank.
#pragma once

#include <cstring>
#include <memory>
#include <vector>

#include "dgk/core/comm.hpp"
#include "dgk/core/error.hpp"
#include "dgk/mesh/partition.hpp"

namespace dgk::physics {

struct Distribution {
  mesh::LocalPart part;
  const Comm* comm = &Comm::self();

  /// Rows of this rank's owned elements (row_len values each, local order) gathered into all
  /// elements in global order, on every rank (collective).
  template <class T>
  std::vector<T> gather_rows(const T* owned_rows, std::size_t row_len) const {
    const std::size_t n = static_cast<std::size_t>(part.owned);
    std::vector<unsigned char> mine(n * sizeof(long long) + n * row_len * sizeof(T));
    for (std::size_t i = 0; i < n; ++i) {
      const long long g = part.global[i];
      std::memcpy(mine.data() + i * sizeof(long long), &g, sizeof(long long));
    }
    if (n > 0) std::memcpy(mine.data() + n * sizeof(long long), owned_rows, n * row_len * sizeof(T));
    const auto all = comm->all_gather_bytes(mine);
    std::vector<T> out(static_cast<std::size_t>(part.global_elements) * row_len);
    std::size_t at = 0;
    for (int r = 0; r < part.ranks; ++r) {
      const std::size_t m = static_cast<std::size_t>(part.elements_per_rank[static_cast<std::size_t>(r)]);
      DGK_THROW_IF(at + m * (sizeof(long long) + row_len * sizeof(T)) > all.size(),
                   "gather: rank " << r << " sent fewer rows than its " << m << " elements");
      const unsigned char* ids = all.data() + at;
      const unsigned char* rows = ids + m * sizeof(long long);
      for (std::size_t i = 0; i < m; ++i) {
        long long g;
        std::memcpy(&g, ids + i * sizeof(long long), sizeof(long long));
        std::memcpy(out.data() + static_cast<std::size_t>(g) * row_len, rows + i * row_len * sizeof(T), row_len * sizeof(T));
      }
      at += m * (sizeof(long long) + row_len * sizeof(T));
    }
    return out;
  }

  /// This rank's owned rows, in local order, of an array of all elements in global order.
  template <class T>
  std::vector<T> owned_rows(const T* global_rows, std::size_t row_len) const {
    std::vector<T> out(static_cast<std::size_t>(part.owned) * row_len);
    for (std::size_t i = 0; i < static_cast<std::size_t>(part.owned); ++i)
      std::memcpy(out.data() + i * row_len, global_rows + static_cast<std::size_t>(part.global[i]) * row_len,
                  row_len * sizeof(T));
    return out;
  }
};

/// Partitions `mesh` across the ranks of `comm` (or takes the given owner of every element),
/// returns this rank's Distribution and sets `local` to its part of the mesh (owned elements,
/// then ghosts). `face_nodes[f]` are the reference nodes on face f, np the nodes per element.
template <class Mesh, class Conn>
std::shared_ptr<const Distribution> distribute(const Mesh& mesh, const Conn& conn, const std::vector<int>& owner,
                                               const std::vector<std::vector<int>>& face_nodes, int np,
                                               const Comm& comm, Mesh& local) {
  std::vector<int> nb, nbf;
  mesh::flat_neighbours(conn, nb, nbf);
  auto d = std::make_shared<Distribution>();
  d->comm = &comm;
  d->part = mesh::make_local_part(owner, comm.rank(), comm.size(), nb, nbf, static_cast<int>(face_nodes.size()),
                                  face_nodes, np);
  local = mesh::extract_elements(mesh, conn, d->part.global);
  return d;
}
template <class Mesh, class Conn>
std::shared_ptr<const Distribution> distribute(const Mesh& mesh, const Conn& conn, mesh::PartitionMethod method,
                                               const std::vector<std::vector<int>>& face_nodes, int np,
                                               const Comm& comm, Mesh& local) {
  std::vector<int> nb, nbf;
  mesh::flat_neighbours(conn, nb, nbf);
  const auto owner =
      mesh::partition_elements(method, comm.size(), nb, static_cast<int>(face_nodes.size()), mesh::centroids(mesh));
  return distribute(mesh, conn, owner, face_nodes, np, comm, local);
}

/// "metis", "sfc", "block", or empty for the build's default.
inline mesh::PartitionMethod partition_method_of(const std::string& name) {
  return name.empty() ? mesh::default_partition_method() : mesh::parse_partition_method(name);
}

}  // namespace dgk::physics
