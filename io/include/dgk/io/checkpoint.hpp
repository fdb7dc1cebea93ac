// Checkpoints: everything a run needs to continue bitwise as if it had not stopped, in one
// HDF5 file. Layout (format version 1):
//   /                 attributes format ("dgk checkpoint"), format_version, case, basis, order,
//                     precision, backend, step, steps, time, dt, final_time, dgk_version
//   /parameters       one string attribute per case parameter (cfl, initial, boundary, ...)
//   /mesh/vertices    float64 (V, d)      /mesh/elements int32 (K, d + 1)   (d = dimension)
//   /mesh/material    float64 (K, 2)      /mesh/region   int32 (K)
//   /mesh/boundary_faces int32 (F, d + 1): the face's d vertices and its tag
//   /mesh             attributes dimension, source, boundary_names (newline separated), fingerprint
//   /state/<name>     the solver's arrays in the run's precision, attribute fnv1a64 (checksum)
// The file is written next to its destination and renamed over it, so an interrupted write
// leaves the previous checkpoint intact.
//
// A distributed run writes one file per rank, each with the state rows of the rank's own
// elements and their global numbers (/state/elements, int64), so no rank gathers the whole
// state: rank 0's file at the checkpoint's path holds everything above plus the attributes
// parts (the rank count) and set (an identifier of the files written together); rank r's file
// is checkpoint_part_path(path, set, r), attributes format ("dgk checkpoint part"), set, part,
// parts. The part files are written first and rank 0's file last, so a run stopped in between
// leaves the previous checkpoint (whose parts have other names) whole. Reading assembles the
// rows of all parts into the whole state, so a checkpoint restarts on any number of ranks.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dgk/core/simulation.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/mesh/tri_mesh.hpp"

namespace dgk::io {

/// The checkpoint format this dgk writes and reads.
constexpr int checkpoint_format_version = 1;

struct Checkpoint {
  int format_version = checkpoint_format_version;
  std::string case_name;  ///< e.g. "maxwell3d"
  std::string basis = "nodal";
  int order = 0;
  std::string precision;  ///< "double" | "float"
  std::string backend;    ///< where it was written (informative: any backend may restart it)
  long long step = 0;     ///< steps done
  long long steps = 0;    ///< steps of the whole run
  double time = 0, dt = 0, final_time = 0;
  /// Case parameters as text, in a fixed order chosen by the case.
  std::vector<std::pair<std::string, std::string>> parameters;
  /// The mesh: tetrahedra (dimension 3) or triangles (dimension 2).
  int dimension = 3;
  mesh::TetMesh mesh;
  mesh::TriMesh tri_mesh;
  std::vector<StateArray> state;
  /// A distributed run's file: part `part` of `parts`, with the state rows of the elements
  /// listed in `elements` (global numbers), written together with the other parts of `set`.
  /// read_checkpoint returns the whole state (parts = 1, elements empty).
  int parts = 1, part = 0;
  std::vector<long long> elements;
  std::string set;

  /// The value of a parameter; throws dgk::Error naming the file when it is missing.
  const std::string& parameter(const std::string& name) const;
  std::string path;  ///< set by read_checkpoint, for messages
};

/// Writes `c` to `path` (atomically: a temporary file renamed over it), or for part r > 0 of a
/// distributed checkpoint to checkpoint_part_path(path, c.set, r). Throws dgk::Error.
void write_checkpoint(const std::string& path, const Checkpoint& c);
/// Where part `part` (> 0) of the checkpoint set `set` at `path` lives.
std::string checkpoint_part_path(const std::string& path, const std::string& set, int part);
/// Reads and checks a checkpoint: format name and version, every array's shape, type and
/// checksum, and the mesh's consistency. Throws dgk::Error saying what is wrong.
Checkpoint read_checkpoint(const std::string& path);

/// A hash of the mesh's vertices, elements, materials and boundary faces: two meshes with the
/// same fingerprint are the same mesh.
std::uint64_t mesh_fingerprint(const mesh::TetMesh& mesh);
std::uint64_t mesh_fingerprint(const mesh::TriMesh& mesh);

}  // namespace dgk::io
