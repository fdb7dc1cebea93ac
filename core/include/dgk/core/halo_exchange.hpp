// Exchange of face traces between the ranks of a distributed run, split so that it overlaps
// with computation:
//   start():  post the receives, pack the values this rank sends into one device buffer (a
//             kernel) and queue its copy to pinned host memory (unless the MPI takes device
//             pointers); on the host backends the sends are posted here;
//   ... the caller launches work that needs no ghost values (volume, interior faces) ...
//   finish(): on the GPU, wait for the packed values alone (a CUDA event recorded after the
//             copy, not the kernels queued behind it) and post the sends; then wait for the
//             messages, copy the received values to the device and unpack them into the ghosts.
// While the host waits for the messages, the GPU runs the work queued between the two calls.
// The slots of a link are element * np + node in the rank's local numbering; the fields View is
// indexed q(element, field, node) whatever its layout, and every field of a slot travels.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <Kokkos_Core.hpp>

#include "dgk/core/comm.hpp"
#include "dgk/core/error.hpp"

namespace dgk {

template <class ExecutionSpace, class Real>
class HaloExchange {
 public:
  using Mem = typename ExecutionSpace::memory_space;
  using Buffer = Kokkos::View<Real*, Mem>;
#ifdef KOKKOS_ENABLE_CUDA
  static constexpr bool cuda = std::is_same<ExecutionSpace, Kokkos::Cuda>::value;
  // Page-locked staging: the copies run at the link's speed and asynchronously.
  using StagingSpace = std::conditional_t<cuda, Kokkos::CudaHostPinnedSpace, Kokkos::HostSpace>;
#else
  static constexpr bool cuda = false;
  using StagingSpace = Kokkos::HostSpace;
#endif
  using Staging = Kokkos::View<Real*, StagingSpace>;

  HaloExchange() = default;
  HaloExchange(const Comm& comm, const std::vector<HaloLink>& links, int num_fields, int np)
      : m_comm(&comm), m_nf(num_fields), m_np(np) {
    std::vector<int> send, recv;
    for (const auto& l : links) {
      m_links.push_back({l.rank, send.size(), l.send.size(), recv.size(), l.recv.size()});
      send.insert(send.end(), l.send.begin(), l.send.end());
      recv.insert(recv.end(), l.recv.begin(), l.recv.end());
    }
    m_send_slots = to_device("dgk::halo::send_slots", send);
    m_recv_slots = to_device("dgk::halo::recv_slots", recv);
    m_send = Buffer("dgk::halo::send", send.size() * static_cast<std::size_t>(m_nf));
    m_recv = Buffer("dgk::halo::recv", recv.size() * static_cast<std::size_t>(m_nf));
    m_direct = host_accessible || comm.device_aware();
    if (!m_direct) {
      m_host_send = Staging("dgk::halo::host_send", m_send.extent(0));
      m_host_recv = Staging("dgk::halo::host_recv", m_recv.extent(0));
    }
#ifdef KOKKOS_ENABLE_CUDA
    if (cuda && !m_links.empty()) {
      cudaEvent_t e = nullptr;
      cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
      m_event.reset(e);
    }
#endif
  }

  bool active() const { return !m_links.empty(); }
  int num_links() const { return static_cast<int>(m_links.size()); }
  /// Values sent and received per exchange (every field of every slot).
  std::size_t values_sent() const { return m_send.extent(0); }
  std::size_t values_received() const { return m_recv.extent(0); }
  /// Whether MPI reads and writes the device buffers directly (host memory, or a CUDA-aware MPI).
  bool direct() const { return m_direct; }

  template <class Fields>
  void start(const ExecutionSpace& space, const Fields& q) {
    if (m_links.empty()) return;
    DGK_THROW_IF(m_pending, "HaloExchange::start called twice without finish");
    const auto slots = m_send_slots;
    const auto buf = m_send;
    const int nf = m_nf, np = m_np;
    Kokkos::parallel_for(
        "dgk::halo::pack", Kokkos::RangePolicy<ExecutionSpace>(space, 0, m_send.extent(0)), KOKKOS_LAMBDA(const std::size_t i) {
          const int s = slots(i / nf);
          buf(i) = q(s / np, static_cast<int>(i % nf), s % np);
        });
    Real* in = m_direct ? m_recv.data() : m_host_recv.data();
    for (const auto& l : m_links)
      m_comm->irecv(in + l.recv_offset * m_nf, l.recv_count * m_nf * sizeof(Real), l.rank, tag, m_requests);
    if (!m_direct) Kokkos::deep_copy(space, m_host_send, m_send);
    m_pending = true;
    m_sends_posted = false;
#ifdef KOKKOS_ENABLE_CUDA
    if (cuda) {
      // The sends wait for this event in finish(), not for the kernels queued after it.
      cudaEventRecord(m_event.get(), stream_of(space));
      return;
    }
#endif
    space.fence();
    post_sends();
  }

  template <class Fields>
  void finish(const ExecutionSpace& space, const Fields& q) {
    if (m_links.empty()) return;
    DGK_THROW_IF(!m_pending, "HaloExchange::finish called without start");
#ifdef KOKKOS_ENABLE_CUDA
    if (!m_sends_posted) {
      cudaEventSynchronize(m_event.get());
      post_sends();
    }
#endif
    m_comm->wait(m_requests);
    m_pending = false;
    if (!m_direct) Kokkos::deep_copy(space, m_recv, m_host_recv);
    const auto slots = m_recv_slots;
    const auto buf = m_recv;
    const int nf = m_nf, np = m_np;
    Kokkos::parallel_for(
        "dgk::halo::unpack", Kokkos::RangePolicy<ExecutionSpace>(space, 0, m_recv.extent(0)),
        KOKKOS_LAMBDA(const std::size_t i) {
          const int s = slots(i / nf);
          q(s / np, static_cast<int>(i % nf), s % np) = buf(i);
        });
  }

  /// Runs `before` (work that needs no ghost values) while the traces travel, then `after`;
  /// without links, simply before() then after().
  template <class Fields, class Before, class After>
  void overlap(const ExecutionSpace& space, const Fields& q, Before&& before, After&& after) {
    start(space, q);
    before();
    finish(space, q);
    after();
  }

  /// start() and finish() back to back: a whole exchange with nothing overlapped.
  template <class Fields>
  void exchange(const ExecutionSpace& space, const Fields& q) {
    start(space, q);
    finish(space, q);
  }

 private:
  static constexpr bool host_accessible =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecutionSpace::memory_space>::accessible;
  static constexpr int tag = 4242;
  struct Link {
    int rank;
    std::size_t send_offset, send_count, recv_offset, recv_count;
  };
  void post_sends() {
    const Real* out = m_direct ? m_send.data() : m_host_send.data();
    for (const auto& l : m_links)
      m_comm->isend(out + l.send_offset * m_nf, l.send_count * m_nf * sizeof(Real), l.rank, tag, m_requests);
    m_sends_posted = true;
  }
#ifdef KOKKOS_ENABLE_CUDA
  static cudaStream_t stream_of(const ExecutionSpace& space) {
    if constexpr (cuda)
      return space.cuda_stream();
    else
      return nullptr;
  }
  struct DestroyEvent {
    void operator()(cudaEvent_t e) const { cudaEventDestroy(e); }
  };
  // The event the sends wait for; owned, so the exchange moves like its other members.
  std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, DestroyEvent> m_event;
#endif
  static Kokkos::View<int*, Mem> to_device(const char* label, const std::vector<int>& v) {
    Kokkos::View<int*, Mem> d(std::string(label), v.size());
    auto h = Kokkos::create_mirror_view(d);
    for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
    Kokkos::deep_copy(d, h);
    return d;
  }

  const Comm* m_comm = nullptr;
  int m_nf = 0, m_np = 0;
  std::vector<Link> m_links;
  Kokkos::View<int*, Mem> m_send_slots, m_recv_slots;
  Buffer m_send, m_recv;
  Staging m_host_send, m_host_recv;
  Comm::Requests m_requests;
  bool m_direct = false, m_pending = false, m_sends_posted = false;
};

}  // namespace dgk
