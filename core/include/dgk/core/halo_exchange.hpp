// Exchange of face traces between the ranks of a distributed run, split so that it overlaps
// with computation:
//   start():  pack the values this rank sends into one device buffer (a kernel), copy it to the
//             host unless the MPI takes device pointers, post the receives and sends;
//   ... the caller launches work that needs no ghost values (volume, interior faces) ...
//   finish(): wait, copy the received values to the device, unpack them into the ghost elements.
// The slots of a link are element * np + node in the rank's local numbering; the fields View is
// indexed q(element, field, node) whatever its layout, and every field of a slot travels.
#pragma once

#include <cstddef>
#include <string>
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
    m_host_send = Kokkos::create_mirror_view(m_send);
    m_host_recv = Kokkos::create_mirror_view(m_recv);
    m_direct = host_accessible || comm.device_aware();
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
    const Real* out = m_send.data();
    Real* in = m_recv.data();
    if (!m_direct) {
      Kokkos::deep_copy(space, m_host_send, m_send);
      out = m_host_send.data();
      in = m_host_recv.data();
    }
    space.fence();
    for (const auto& l : m_links)
      m_comm->irecv(in + l.recv_offset * m_nf, l.recv_count * m_nf * sizeof(Real), l.rank, tag, m_requests);
    for (const auto& l : m_links)
      m_comm->isend(out + l.send_offset * m_nf, l.send_count * m_nf * sizeof(Real), l.rank, tag, m_requests);
    m_pending = true;
  }

  template <class Fields>
  void finish(const ExecutionSpace& space, const Fields& q) {
    if (m_links.empty()) return;
    DGK_THROW_IF(!m_pending, "HaloExchange::finish called without start");
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
  typename Buffer::HostMirror m_host_send, m_host_recv;
  Comm::Requests m_requests;
  bool m_direct = false, m_pending = false;
};

}  // namespace dgk
