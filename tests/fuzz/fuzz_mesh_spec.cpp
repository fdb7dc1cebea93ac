// Fuzzes the mesh-specification parser (load_tet_mesh with "box:..." strings) and the
// connectivity and geometry of the boxes it generates.
//
// Contract: a bad specification throws dgk::Error; an accepted one yields a valid conforming
// mesh, so connect, geometric_factors and build_face_maps must not throw on it. Strings that
// do not start with "box:" are skipped: the parser would open them as file names.
// DGK_FUZZ_VERBOSE=1 prints the rejections (for triage).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/core/error.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/mesh/tet_mesh.hpp"

namespace {

// Largest box generated per input, in cubes: keeps every execution in the millisecond range.
constexpr double max_cubes = 20.0 * 20.0 * 20.0;
// Beyond this the generator promises to refuse before allocating (elements would overflow int).
constexpr double refused_cubes = 2147483647.0 / 6.0;

// Whether the specification could make the generator build a box too large to fuzz quickly.
// Mirrors the parser loosely: anything that is not one or three plain decimal counts cannot
// reach the generator, so only all-digit fields are weighed.
bool too_large(const std::string& spec) {
  std::vector<double> counts;
  std::string::size_type start = 4;
  while (true) {
    const auto comma = spec.find(',', start);
    const std::string field = spec.substr(start, comma - start);
    if (field.empty()) return false;
    double value = 0.0;
    for (char c : field) {
      if (c < '0' || c > '9') return false;
      value = value * 10.0 + (c - '0');
    }
    counts.push_back(value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  double cubes = 0.0;
  if (counts.size() == 1) {
    cubes = counts[0] * counts[0] * counts[0];
  } else if (counts.size() == 3) {
    cubes = counts[0] * counts[1] * counts[2];
  } else {
    return false;
  }
  return cubes > max_cubes && cubes <= refused_cubes;
}

[[noreturn]] void fail(const std::string& spec, const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_mesh_spec: '%s': %s: %s\n", spec.c_str(), what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  if (spec.compare(0, 4, "box:") != 0 || too_large(spec)) return 0;

  dgk::mesh::TetMesh mesh;
  try {
    mesh = dgk::mesh::load_tet_mesh(spec);
  } catch (const dgk::Error& e) {
    // Rejected with an explanation: the contract holds.
    if (std::getenv("DGK_FUZZ_VERBOSE")) std::fprintf(stderr, "dgk::Error: %s\n", e.what());
    return 0;
  }

  // The generator promises a valid, conforming box: anything thrown from here on is a bug.
  static const dgk::basis::TetNodal ref = dgk::basis::make_tet_nodal(1);
  try {
    if (mesh.num_elements() <= 0 || mesh.num_elements() % 6 != 0) {
      fail(spec, "bad element count", std::to_string(mesh.num_elements()));
    }
    const auto conn = dgk::mesh::connect(mesh);
    const auto geometry = dgk::mesh::geometric_factors(mesh);
    const auto maps = dgk::mesh::build_face_maps(mesh, conn, ref);
    if (maps.boundary_faces.size() != mesh.boundary_faces.size()) {
      fail(spec, "tagged boundary faces differ from the hull",
           std::to_string(mesh.boundary_faces.size()) + " tagged, " +
               std::to_string(maps.boundary_faces.size()) + " on the hull");
    }
    (void)geometry;
  } catch (const dgk::Error& e) {
    fail(spec, "generated box rejected", e.what());
  }
  return 0;
}
