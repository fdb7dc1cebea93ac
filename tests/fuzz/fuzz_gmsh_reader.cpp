// Fuzzes the Gmsh MSH reader (read_gmsh_tet) and the processing of what it accepts: connect,
// geometric_factors and build_face_maps.
//
// Contract: a bad file throws dgk::Error or is read as a valid mesh. Only dgk::Error is caught
// here; any other exception, crash, exit or sanitizer report escapes to the fuzzer.
// DGK_FUZZ_VERBOSE=1 prints what became of each input (for triage).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dgk/basis/tetrahedron.hpp"
#include "dgk/core/error.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/mesh/tet_mesh.hpp"

namespace {

// Address space held back for AddressSanitizer's own reports. The reader runs Gmsh in a forked
// child whose address space it caps (cap_memory in mesh/src/gmsh_reader.cpp). When Gmsh has used
// up that margin and then makes ASan report (an allocation too large, or one the cap refuses),
// the report needs memory of its own (the symbolizer maps about 2 MB); failing to get it, ASan
// fails a CHECK, re-enters its symbolizer and deadlocks, and the fuzzer records a timeout instead
// of the child's death. The child inherits this reservation, counted in the address space the cap
// starts from, and __asan_on_error gives it back as a report starts. Reports are unchanged.
constexpr std::size_t kReportReserve = std::size_t(64) << 20;
void* report_reserve = nullptr;

void reserve_for_reports() {
  void* p = ::mmap(nullptr, kReportReserve, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  report_reserve = p == MAP_FAILED ? nullptr : p;
}

// One scratch file per process, rewritten for every input. The reader goes through Gmsh,
// which takes a file name, and Gmsh picks its parser by the ".msh" suffix.
class ScratchFile {
 public:
  ScratchFile() {
    const char* dir = std::getenv("TMPDIR");
    std::string name = std::string(dir && *dir ? dir : "/tmp") + "/dgk_fuzz_XXXXXX.msh";
    const int fd = ::mkstemps(name.data(), 4);
    if (fd < 0) {
      std::perror("fuzz_gmsh_reader: cannot create a scratch file");
      std::abort();
    }
    ::close(fd);
    m_path = name;
  }
  ~ScratchFile() { std::remove(m_path.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  const std::string& write(const std::uint8_t* data, std::size_t size) const {
    std::FILE* f = std::fopen(m_path.c_str(), "wb");
    if (!f || (size && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
      std::perror("fuzz_gmsh_reader: cannot write the scratch file");
      std::abort();
    }
    return m_path;
  }

 private:
  std::string m_path;
};

}  // namespace

// Called by AddressSanitizer when it finds an error, before it prints the report.
extern "C" void __asan_on_error() {  // NOLINT: the sanitizer's hook
  if (report_reserve != nullptr) ::munmap(report_reserve, kReportReserve);
  report_reserve = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  reserve_for_reports();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ScratchFile scratch;
  static const dgk::basis::TetNodal ref = dgk::basis::make_tet_nodal(1);
  static const bool verbose = std::getenv("DGK_FUZZ_VERBOSE") != nullptr;
  const std::string& path = scratch.write(data, size);
  try {
    const dgk::mesh::TetMesh mesh = dgk::mesh::read_gmsh_tet(path);
    const auto conn = dgk::mesh::connect(mesh);
    const auto geometry = dgk::mesh::geometric_factors(mesh);
    const auto maps = dgk::mesh::build_face_maps(mesh, conn, ref);
    (void)geometry;
    if (verbose) {
      std::fprintf(stderr, "accepted: %d elements, %d vertices, %zu boundary faces\n",
                   mesh.num_elements(), mesh.num_vertices(), maps.boundary_faces.size());
    }
  } catch (const dgk::Error& e) {
    // Rejected with an explanation: the contract holds.
    if (verbose) std::fprintf(stderr, "dgk::Error: %s\n", e.what());
  }
  return 0;
}
