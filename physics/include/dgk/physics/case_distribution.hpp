// How a case splits its mesh when the run has several ranks (shared by the nodal cases).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dgk/core/comm.hpp"
#include "dgk/physics/distribution.hpp"

namespace dgk::physics {

/// On one rank: null. On several: partitions `mesh` by the named method (see
/// partition_method_of), sets `local` to this rank's part and returns its Distribution.
/// `make_reference()` builds the reference element (its face nodes fmask and node count np).
template <class Mesh, class Conn, class MakeReference>
std::shared_ptr<const Distribution> distribute_over_ranks(const Mesh& mesh, const Conn& conn,
                                                          const std::string& partition,
                                                          MakeReference&& make_reference, Mesh& local) {
  const Comm& comm = Comm::world();
  if (!comm.distributed()) return nullptr;
  const auto ref = make_reference();
  return distribute(mesh, conn, partition_method_of(partition),
                    std::vector<std::vector<int>>(ref.fmask.begin(), ref.fmask.end()), ref.np, comm, local);
}

}  // namespace dgk::physics
