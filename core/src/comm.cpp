#include "dgk/core/comm.hpp"

#include <climits>
#include <cstdlib>
#include <cstring>

#include "dgk/core/error.hpp"

#ifdef DGK_HAVE_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

namespace dgk {

bool mpi_built() {
#ifdef DGK_HAVE_MPI
  return true;
#else
  return false;
#endif
}

#ifdef DGK_HAVE_MPI
namespace {
bool mpi_running() {
  int init = 0, done = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&done);
  return init && !done;
}
void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  DGK_THROW_IF(true, "MPI " << what << " failed: " << std::string(text, static_cast<std::size_t>(len)));
}
int count_of(std::size_t bytes, const char* what) {
  DGK_THROW_IF(bytes > static_cast<std::size_t>(INT_MAX),
               "MPI " << what << ": " << bytes << " bytes in one message exceed the int count of MPI");
  return static_cast<int>(bytes);
}
}  // namespace
#endif

MpiSession::MpiSession(int& argc, char**& argv) {
#ifdef DGK_HAVE_MPI
  int init = 0;
  MPI_Initialized(&init);
  if (!init) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    m_owner = true;
  }
#else
  (void)argc;
  (void)argv;
#endif
}

MpiSession::~MpiSession() {
#ifdef DGK_HAVE_MPI
  if (m_owner && mpi_running()) MPI_Finalize();
#endif
}

const Comm& Comm::self() {
  static const Comm one(0, 1, false, false);
  return one;
}

const Comm& Comm::world() {
#ifdef DGK_HAVE_MPI
  if (!mpi_running()) return self();
  static const Comm world = [] {
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bool aware = false;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    aware = MPIX_Query_cuda_support() == 1;
#endif
    return Comm(rank, size, true, aware);
  }();
  return world;
#else
  return self();
#endif
}

struct Comm::Requests::Impl {
#ifdef DGK_HAVE_MPI
  std::vector<MPI_Request> r;
#else
  std::vector<int> r;
#endif
};
Comm::Requests::Requests() : m_impl(std::make_unique<Impl>()) {}
Comm::Requests::~Requests() = default;
Comm::Requests::Requests(Requests&&) noexcept = default;
Comm::Requests& Comm::Requests::operator=(Requests&&) noexcept = default;
std::size_t Comm::Requests::size() const { return m_impl->r.size(); }

#ifdef DGK_HAVE_MPI
#define DGK_ALLREDUCE(TYPE, MPITYPE, OP)                                                   \
  if (!m_mpi) return v;                                                                    \
  TYPE out = v;                                                                            \
  check(MPI_Allreduce(&v, &out, 1, MPITYPE, OP, MPI_COMM_WORLD), "reduction");             \
  return out;
#else
#define DGK_ALLREDUCE(TYPE, MPITYPE, OP) return v;
#endif

double Comm::sum(double v) const { DGK_ALLREDUCE(double, MPI_DOUBLE, MPI_SUM) }
double Comm::max(double v) const { DGK_ALLREDUCE(double, MPI_DOUBLE, MPI_MAX) }
long long Comm::sum(long long v) const { DGK_ALLREDUCE(long long, MPI_LONG_LONG, MPI_SUM) }
long long Comm::min(long long v) const { DGK_ALLREDUCE(long long, MPI_LONG_LONG, MPI_MIN) }
long long Comm::max(long long v) const { DGK_ALLREDUCE(long long, MPI_LONG_LONG, MPI_MAX) }
#undef DGK_ALLREDUCE

bool Comm::any(bool v) const { return max(static_cast<long long>(v)) != 0; }

void Comm::barrier() const {
#ifdef DGK_HAVE_MPI
  if (m_mpi) check(MPI_Barrier(MPI_COMM_WORLD), "barrier");
#endif
}

void Comm::abort(int code) const {
#ifdef DGK_HAVE_MPI
  if (m_mpi) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

std::vector<long long> Comm::all_gather(long long v) const {
  std::vector<long long> out(static_cast<std::size_t>(m_size), v);
#ifdef DGK_HAVE_MPI
  if (m_mpi) check(MPI_Allgather(&v, 1, MPI_LONG_LONG, out.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD), "all-gather");
#endif
  return out;
}

std::vector<unsigned char> Comm::all_gather_bytes(const std::vector<unsigned char>& mine) const {
  if (!m_mpi) return mine;
  std::vector<unsigned char> out;
#ifdef DGK_HAVE_MPI
  const auto sizes = all_gather(static_cast<long long>(mine.size()));
  std::vector<int> counts(sizes.size()), displs(sizes.size());
  long long total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    DGK_THROW_IF(total > INT_MAX, "MPI all-gather: " << total << " bytes exceed the int displacements of MPI");
    displs[r] = static_cast<int>(total);
    counts[r] = count_of(static_cast<std::size_t>(sizes[r]), "all-gather");
    total += sizes[r];
  }
  DGK_THROW_IF(total > INT_MAX, "MPI all-gather: " << total << " bytes exceed the int displacements of MPI");
  out.resize(static_cast<std::size_t>(total));
  check(MPI_Allgatherv(mine.data(), counts[static_cast<std::size_t>(m_rank)], MPI_BYTE, out.data(), counts.data(),
                       displs.data(), MPI_BYTE, MPI_COMM_WORLD),
        "all-gather");
#endif
  return out;
}

std::string Comm::broadcast(const std::string& s) const {
  if (!m_mpi) return s;
  std::string out = s;
#ifdef DGK_HAVE_MPI
  long long n = static_cast<long long>(s.size());
  check(MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD), "broadcast");
  out.resize(static_cast<std::size_t>(n));
  check(MPI_Bcast(out.data(), count_of(out.size(), "broadcast"), MPI_BYTE, 0, MPI_COMM_WORLD), "broadcast");
#endif
  return out;
}

void Comm::isend(const void* data, std::size_t bytes, int dest, int tag, Requests& r) const {
  DGK_THROW_IF(!m_mpi, "Comm::isend needs MPI (rank " << dest << ")");
#ifdef DGK_HAVE_MPI
  r.m_impl->r.emplace_back();
  check(MPI_Isend(data, count_of(bytes, "send"), MPI_BYTE, dest, tag, MPI_COMM_WORLD, &r.m_impl->r.back()), "send");
#endif
}

void Comm::irecv(void* data, std::size_t bytes, int source, int tag, Requests& r) const {
  DGK_THROW_IF(!m_mpi, "Comm::irecv needs MPI (rank " << source << ")");
#ifdef DGK_HAVE_MPI
  r.m_impl->r.emplace_back();
  check(MPI_Irecv(data, count_of(bytes, "receive"), MPI_BYTE, source, tag, MPI_COMM_WORLD, &r.m_impl->r.back()),
        "receive");
#endif
}

void Comm::wait(Requests& r) const {
#ifdef DGK_HAVE_MPI
  if (!r.m_impl->r.empty())
    check(MPI_Waitall(static_cast<int>(r.m_impl->r.size()), r.m_impl->r.data(), MPI_STATUSES_IGNORE), "wait");
#endif
  r.m_impl->r.clear();
}

}  // namespace dgk
