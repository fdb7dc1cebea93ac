// Visualization output: high-order fields on a sub-division of every element into linear cells
// at its nodes, in one HDF5 file with a time series, described by an XDMF file that ParaView
// and VisIt open. Layout (output version 1):
//   /                  attributes dgk_output_version, case, order, dimension
//   /mesh/points       float64 (P, 3): every element's nodes (discontinuous; z = 0 in 2D)
//   /mesh/cells        int32 (C, 4) sub-tetrahedra, or (C, 3) sub-triangles in 2D
//   /mesh/element      int32 (C) parent element     /mesh/partition int32 (C)
//   /mesh/<material>   float64 (C) per material coefficient (eps, mu, ...)
//   /boundary/points   float64 (B, 3)   /boundary/cells int32 (F, 3) (F, 2 in 2D)
//   /boundary/tag      int32 (F)        /boundary attribute names (newline separated)
//   /steps/NNNNNN      attributes time, step; one float64 (P) dataset per field
// The XDMF file (same name, .xdmf) is rewritten after each step, so that what was written so
// far can be opened while a run goes on or after it stopped.
//
// A distributed run writes one such HDF5 file per rank, with the rank's own elements (rank 0 at
// the given path, rank r at output_part_path(path, r)); /mesh/element holds global element
// numbers and /mesh/partition the rank. Rank 0's XDMF file describes every step as a spatial
// collection of the parts, so ParaView shows the whole mesh whatever the rank count.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/basis/triangle_nodal.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/mesh/tri_mesh.hpp"

namespace dgk::io {

constexpr int output_format_version = 1;

struct OutputMesh {
  int dimension = 3;
  int nodes_per_cell = 4;
  std::vector<double> points;                                          ///< P x 3
  std::vector<int> cells;                                              ///< C x nodes_per_cell
  std::vector<int> element;                                            ///< C
  std::vector<int> partition;                                          ///< C
  std::vector<std::pair<std::string, std::vector<double>>> cell_data;  ///< C values each
  std::vector<double> boundary_points;                                 ///< B x 3
  std::vector<int> boundary_cells;                                     ///< F x dimension
  std::vector<int> boundary_tag;                                       ///< F
  std::vector<std::string> boundary_names;
  long long num_points() const { return static_cast<long long>(points.size() / 3); }
  long long num_cells() const { return static_cast<long long>(cells.size()) / nodes_per_cell; }
};

/// Sub-tetrahedra of every element at the nodes of `ref` (point e*np + i is node i of element
/// e), material coefficients named `material_names` per sub-cell, partition 0 (or `partition`
/// per element when given), and the boundary faces with their tags: every face of the hull, or
/// with `listed_boundary_only` (one rank's part of a mesh) only those in mesh.boundary_faces.
OutputMesh make_output_mesh(const mesh::TetMesh& mesh, const basis::TetNodal& ref,
                            const std::vector<std::string>& material_names, const std::vector<int>& partition = {},
                            bool listed_boundary_only = false);

/// The same in 2D: N^2 sub-triangles per element, points with z = 0, boundary edges.
OutputMesh make_output_mesh(const mesh::TriMesh& mesh, const basis::TriNodal& ref,
                            const std::vector<std::string>& material_names, const std::vector<int>& partition = {},
                            bool listed_boundary_only = false);

/// One rank's file of a distributed output, as the XDMF file refers to it.
struct OutputPart {
  std::string h5_name;  ///< file name, relative to the XDMF file's folder
  long long points = 0, cells = 0, boundary_points = 0, boundary_faces = 0;
};

/// The part that `mesh` written to `h5_path` makes, or one of the given sizes.
OutputPart output_part(const std::string& h5_path, const OutputMesh& mesh);
OutputPart output_part(const std::string& h5_path, long long points, long long cells, long long boundary_points,
                       long long boundary_faces);

/// Where rank `part` (> 0) of a distributed output writes: name.h5 -> name.part<r>.h5.
std::string output_part_path(const std::string& h5_path, int part);

/// Writes a time series. Fields are given per element, field and node (the layout of
/// Simulation::host_fields), np nodes per element.
class OutputWriter {
 public:
  /// Creates `h5_path` (truncating) and writes the mesh; the XDMF file is h5_path with its
  /// extension replaced by .xdmf. In a distributed output, `parts` lists every rank's file in
  /// rank order, and only the writer with `writes_xdmf` (rank 0) writes the XDMF file.
  OutputWriter(std::string h5_path, OutputMesh mesh, std::string case_name, int order,
               std::vector<std::string> field_names, int nodes_per_element, std::vector<OutputPart> parts = {},
               bool writes_xdmf = true);
  void write(long long step, double time, const std::vector<double>& fields);
  const std::string& h5_path() const { return m_h5; }
  const std::string& xdmf_path() const { return m_xdmf; }
  int steps_written() const { return static_cast<int>(m_times.size()); }

 private:
  void write_xdmf() const;
  std::string m_h5, m_xdmf;
  OutputMesh m_mesh;
  std::vector<std::string> m_fields;
  int m_np;
  std::vector<std::pair<long long, double>> m_times;
  std::vector<OutputPart> m_parts;
  bool m_writes_xdmf = true;
};

/// An output file read back.
struct OutputFile {
  int version = 0, order = 0;
  std::string case_name;
  OutputMesh mesh;
  struct Step {
    long long step = 0;
    double time = 0;
    std::vector<std::pair<std::string, std::vector<double>>> fields;  ///< P values each
  };
  std::vector<Step> steps;
};

/// Reads an output file and checks its layout (shapes, indices in range). Throws dgk::Error.
OutputFile read_output(const std::string& h5_path);

/// The XDMF path that belongs to an HDF5 output path.
std::string xdmf_path_for(const std::string& h5_path);

}  // namespace dgk::io
