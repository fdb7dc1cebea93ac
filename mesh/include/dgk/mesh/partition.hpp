// Partitioning a mesh across the ranks of a distributed run, and one rank's share of it: the
// elements it owns, one layer of ghost elements (the owners' neighbours across partition
// faces), and per neighbouring rank the face-trace node slots it sends and receives, listed in
// the same order on both sides. Works on any simplex mesh through its face-neighbour table, so
// tetrahedra and triangles share it.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "dgk/core/comm.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/mesh/tri_mesh.hpp"

namespace dgk::mesh {

enum class PartitionMethod {
  Metis,              ///< METIS k-way on the dual graph (fewest cut faces); needs DGK_ENABLE_METIS
  SpaceFillingCurve,  ///< equal runs of the elements sorted along a Morton curve of centroids
  Block,              ///< equal runs of the elements in their numbering
};

/// "metis", "sfc", "block"; throws dgk::Error naming the choices (and when METIS is not built).
PartitionMethod parse_partition_method(const std::string& name);
const char* partition_method_name(PartitionMethod m);
/// METIS where it is built, else the space-filling curve.
PartitionMethod default_partition_method();
bool metis_available();

/// The owning rank (0 .. parts-1) of every element. `neighbours` holds nfaces entries per
/// element (the neighbour across each face, or -1), `centroids` the element centroids (z = 0 in
/// 2D). Every rank gets at least one element; throws dgk::Error when parts exceeds the element
/// count, or when METIS leaves a rank empty (naming the rank and the other methods).
std::vector<int> partition_elements(PartitionMethod method, int parts, const std::vector<int>& neighbours, int nfaces,
                                    const std::vector<std::array<double, 3>>& centroids);

/// One rank's share of a partitioned mesh, in its local element numbering:
///   [0, interior)        owned elements without a face on another rank,
///   [interior, owned)    owned elements with at least one such face,
///   [owned, size)        ghost elements (owned elsewhere, neighbours of owned elements),
/// each group in increasing global number. Node slots are local element * np + node.
struct LocalPart {
  int rank = 0, ranks = 1;
  int owned = 0, interior = 0;
  std::vector<int> global;  ///< global element number of each local element
  std::vector<HaloLink> links;  ///< face-trace slots per neighbouring rank, in increasing rank
  std::vector<int> owner;  ///< the owning rank of every element, in global numbering
  // Statistics of the whole partition (the same on every rank).
  std::vector<long long> elements_per_rank;
  std::vector<long long> shared_faces_per_rank;  ///< faces of each rank's elements on another rank
  long long shared_faces = 0;                    ///< partition faces, each counted once
  long long global_elements = 0;
};

/// Builds rank `rank`'s share. `neighbours` / `neighbour_faces` hold nfaces entries per element
/// (the element and its local face across each face, -1 on the boundary); `face_nodes[f]` are
/// the reference node numbers on face f, np the nodes per element.
LocalPart make_local_part(const std::vector<int>& owner, int rank, int ranks, const std::vector<int>& neighbours,
                          const std::vector<int>& neighbour_faces, int nfaces,
                          const std::vector<std::vector<int>>& face_nodes, int np);

/// The sub-mesh of the listed elements (in that order), keeping vertex order within each
/// element, materials, regions and boundary names; its tagged boundary faces are the original
/// mesh's boundary faces of those elements. Faces of the listed elements whose neighbour is
/// not listed become untagged hull faces.
TetMesh extract_elements(const TetMesh& mesh, const TetConnectivity& conn, const std::vector<int>& elements);

TriMesh extract_elements(const TriMesh& mesh, const TriConnectivity& conn, const std::vector<int>& elements);

/// The connectivity of a part's elements in its local numbering, taken from the whole mesh's
/// (periodic pairs included, which geometric matching on the sub-mesh would lose). A face
/// towards an element outside the part (only ghosts have one) gets neighbour -1 and boundary
/// tag -1: it is neither an interior nor a boundary face, and the solvers never compute it.
TriConnectivity restrict_connectivity(const TriConnectivity& conn, const LocalPart& part);

/// Neighbour tables of a mesh in the flat form of partition_elements.
void flat_neighbours(const TetConnectivity& conn, std::vector<int>& neighbours, std::vector<int>& neighbour_faces);
void flat_neighbours(const TriConnectivity& conn, std::vector<int>& neighbours, std::vector<int>& neighbour_faces);
std::vector<std::array<double, 3>> centroids(const TetMesh& mesh);
std::vector<std::array<double, 3>> centroids(const TriMesh& mesh);

/// Multi-line text of the partition statistics (elements and shared faces per rank).
std::string partition_summary(const LocalPart& part);

}  // namespace dgk::mesh
