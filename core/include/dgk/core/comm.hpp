// The ranks of a distributed run: a thin layer over MPI (MPI_COMM_WORLD) that the solvers use for
// reductions, gathers and the non-blocking exchange of face traces. In a build without MPI, or
// a run of one rank, it is a stand-in of one rank whose collectives return their input, so the
// solvers need no second code path. Only comm.cpp includes <mpi.h>.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace dgk {

/// Whether this dgk was built with MPI.
bool mpi_built();

/// For programs: initializes MPI (when built with it and not yet initialized) before Kokkos,
/// and finalizes it at exit of the returned guard's scope. The library never initializes MPI.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool m_owner = false;
};

/// Values exchanged with one neighbouring rank each time: slots (element * np + node, local
/// numbering) whose values this rank sends, and slots of its ghost elements that receive, in an
/// order both sides agree on.
struct HaloLink {
  int rank = 0;
  std::vector<int> send, recv;
};

class Comm {
 public:
  /// MPI_COMM_WORLD when MPI is built and initialized, else the one-rank stand-in.
  static const Comm& world();
  /// The one-rank stand-in, whatever the build.
  static const Comm& self();

  int rank() const { return m_rank; }
  int size() const { return m_size; }
  bool distributed() const { return m_size > 1; }
  bool root() const { return m_rank == 0; }

  double sum(double v) const;
  double max(double v) const;
  long long sum(long long v) const;
  long long min(long long v) const;
  long long max(long long v) const;
  /// Whether any rank passes true.
  bool any(bool v) const;
  void barrier() const;
  /// Ends every rank of the run with this exit code (MPI_Abort); a plain exit on one rank.
  [[noreturn]] void abort(int code) const;

  /// Every rank's value, in rank order.
  std::vector<long long> all_gather(long long v) const;
  /// The concatenation, in rank order, of every rank's bytes (sizes may differ per rank), on
  /// every rank.
  std::vector<unsigned char> all_gather_bytes(const std::vector<unsigned char>& mine) const;
  /// Root's string on every rank.
  std::string broadcast(const std::string& s) const;

  /// Non-blocking point-to-point transfers of raw bytes, completed by wait().
  class Requests {
   public:
    Requests();
    ~Requests();
    Requests(Requests&&) noexcept;
    Requests& operator=(Requests&&) noexcept;
    std::size_t size() const;

   private:
    friend class Comm;
    struct Impl;
    std::unique_ptr<Impl> m_impl;
  };
  void isend(const void* data, std::size_t bytes, int dest, int tag, Requests& r) const;
  void irecv(void* data, std::size_t bytes, int source, int tag, Requests& r) const;
  /// Waits for every request in r and empties it.
  void wait(Requests& r) const;

  /// Whether device pointers may be passed to isend/irecv (a CUDA-aware MPI, as reported by
  /// the library at run time). False without MPI or when the library cannot say.
  bool device_aware() const { return m_device_aware; }

 private:
  Comm(int rank, int size, bool mpi, bool device_aware)
      : m_rank(rank), m_size(size), m_mpi(mpi), m_device_aware(device_aware) {}
  int m_rank = 0, m_size = 1;
  bool m_mpi = false, m_device_aware = false;
};

}  // namespace dgk
