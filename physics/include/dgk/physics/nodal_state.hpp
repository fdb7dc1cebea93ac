// Host-side state handling shared by the solvers, whose fields are Views q(element, field,
// node or mode) of any layout, owned elements first and (in a distributed run) ghost elements
// after them: the first non-finite value, copies to the host, and the
// solver state of a checkpoint in global element order, so that it restarts on any number of
// ranks. Every function here is collective when a Distribution is given.
#pragma once

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Kokkos_Core.hpp>

#include "dgk/core/comm.hpp"
#include "dgk/core/error.hpp"
#include "dgk/core/math.hpp"
#include "dgk/core/simulation.hpp"
#include "dgk/physics/distribution.hpp"

namespace dgk::physics::nodal_state {

inline const Comm& comm_of(const Distribution* d) { return d ? *d->comm : Comm::self(); }
inline long long global_elements(const Distribution* d, long long owned) {
  return d ? d->part.global_elements : owned;
}

/// A solver's share of its elements: owned [0, owned) (the first `interior` of them without a
/// ghost neighbour), ghosts after them, and the global number of each owned element on the
/// device (empty on one rank, where local and global numbers agree).
template <class Mem>
struct Ownership {
  int owned = 0, interior = 0;
  Kokkos::View<long long*, Mem> global;
};

/// The ownership of a solver built on `local_elements` elements (with `d`: its part, owned and
/// ghosts); throws dgk::Error when the mesh does not match the part.
template <class Mem>
Ownership<Mem> ownership(const Distribution* d, int local_elements) {
  Ownership<Mem> o;
  o.owned = o.interior = local_elements;
  if (!d) return o;
  DGK_THROW_IF(static_cast<int>(d->part.global.size()) != local_elements,
               "rank " << d->part.rank << ": mesh of " << local_elements << " elements for a part of "
                       << d->part.global.size() << " (owned and ghost) elements");
  o.owned = d->part.owned;
  o.interior = d->part.interior;
  o.global = Kokkos::View<long long*, Mem>("dgk::state::global_elements", static_cast<std::size_t>(o.owned));
  auto h = Kokkos::create_mirror_view(o.global);
  for (int e = 0; e < o.owned; ++e) h(e) = d->part.global[static_cast<std::size_t>(e)];
  Kokkos::deep_copy(o.global, h);
  return o;
}

/// The lowest (global element, field, node) whose value is not finite, among the first `owned`
/// elements of q on every rank; `global` as in Ownership.
template <class ExecutionSpace, class View>
std::optional<NonFinite> find_non_finite(const ExecutionSpace& space, const View& q, long long owned, int nf, int np,
                                         const Distribution* d,
                                         const Kokkos::View<long long*, typename View::memory_space>& global) {
  using Real = typename View::non_const_value_type;
  using Mem = typename View::memory_space;
  const long long row = static_cast<long long>(nf) * np;
  const long long n = owned * row;
  const long long none = std::numeric_limits<long long>::max();
  // The lowest global index through an atomic minimum: order independent, hence deterministic,
  // and free of the shared-memory tree of a general reduction.
  Kokkos::View<long long, Mem> lowest("dgk::state::first_non_finite");
  Kokkos::deep_copy(space, lowest, none);
  Kokkos::parallel_for(
      "dgk::state::find_non_finite", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n), KOKKOS_LAMBDA(const long long i) {
        // Local order is not global order: the minimum is taken over global numbers.
        const long long e = i / row, g = global.extent(0) > 0 ? global(e) : e;
        if (!math::isfinite(q(e, i % row / np, i % np))) Kokkos::atomic_fetch_min(lowest.data(), g * row + i % row);
      });
  long long mine = none;
  Kokkos::deep_copy(space, mine, lowest);
  space.fence();
  const Comm& comm = comm_of(d);
  const long long all = comm.min(mine);
  if (all == none) return std::nullopt;
  double value = 0.0;
  if (mine == all) {
    long long e = all / row;
    if (d) e = std::find(d->part.global.begin(), d->part.global.begin() + owned, e) - d->part.global.begin();
    Real v;
    Kokkos::deep_copy(v, Kokkos::subview(q, e, all % row / np, all % np));
    value = static_cast<double>(v);
  }
  NonFinite bad;
  bad.element = all / row;
  bad.field = static_cast<int>(all / np % nf);
  bad.node = static_cast<int>(all % np);
  bad.value = comm.sum(value);  // the owner's value; NaN and Inf survive the sum with zeros
  return bad;
}

/// The largest |a - b| over the first `owned` elements of a and b (same extents), on every rank;
/// with b empty (extent 0), the largest |a|.
template <class ExecutionSpace, class View>
double max_abs_difference(const ExecutionSpace& space, const View& a, const View& b, long long owned,
                          const Distribution* d) {
  const long long row = static_cast<long long>(a.extent(1)) * a.extent(2), np = a.extent(2);
  const bool minus = b.extent(0) > 0;
  double largest = 0.0;
  Kokkos::parallel_reduce(
      "dgk::state::max_abs_difference", Kokkos::RangePolicy<ExecutionSpace>(space, 0, owned * row),
      KOKKOS_LAMBDA(const long long i, double& m) {
        const long long e = i / row;
        const int f = static_cast<int>(i % row / np), k = static_cast<int>(i % np);
        const double x = static_cast<double>(a(e, f, k)) - (minus ? static_cast<double>(b(e, f, k)) : 0.0);
        const double ax = x < 0 ? -x : x;
        if (ax > m) m = ax;
      },
      Kokkos::Max<double>(largest));
  space.fence();
  return comm_of(d).max(largest);
}

/// The first `owned` elements of q on the host, in double: [element][field][node].
template <class View>
std::vector<double> owned_values(const View& q, long long owned) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  std::vector<double> out(static_cast<std::size_t>(owned) * q.extent(1) * q.extent(2));
  std::size_t i = 0;
  for (std::size_t e = 0; e < static_cast<std::size_t>(owned); ++e)
    for (std::size_t c = 0; c < h.extent(1); ++c)
      for (std::size_t j = 0; j < h.extent(2); ++j) out[i++] = static_cast<double>(h(e, c, j));
  return out;
}

/// The named arrays (fields and integrator registers, each indexed (element, field, node)) of
/// all elements, in global order and the run's precision; with `elements`, only this rank's
/// owned rows (no communication), their global numbers stored there.
template <class View>
std::vector<StateArray> save(const std::vector<std::pair<std::string, const View*>>& arrays, long long owned,
                             const Distribution* d, std::vector<long long>* elements = nullptr) {
  if (elements) {
    elements->resize(static_cast<std::size_t>(owned));
    for (long long e = 0; e < owned; ++e)
      (*elements)[static_cast<std::size_t>(e)] = d ? d->part.global[static_cast<std::size_t>(e)] : e;
  }
  using Real = typename View::non_const_value_type;
  std::vector<StateArray> out;
  for (const auto& [name, v] : arrays) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), *v);
    const std::size_t row = h.extent(1) * h.extent(2);
    std::vector<Real> values(static_cast<std::size_t>(owned) * row);
    std::size_t i = 0;
    for (std::size_t e = 0; e < static_cast<std::size_t>(owned); ++e)
      for (std::size_t c = 0; c < h.extent(1); ++c)
        for (std::size_t j = 0; j < h.extent(2); ++j) values[i++] = h(e, c, j);
    if (d && !elements) values = d->gather_rows(values.data(), row);
    StateArray a;
    a.name = name;
    a.dims = {elements ? owned : global_elements(d, owned), static_cast<long long>(h.extent(1)),
              static_cast<long long>(h.extent(2))};
    a.value_bytes = sizeof(Real);
    const auto* p = reinterpret_cast<const unsigned char*>(values.data());
    a.bytes.assign(p, p + values.size() * sizeof(Real));
    out.push_back(std::move(a));
  }
  return out;
}

/// Restores arrays written by save() (on any number of ranks) into this rank's owned elements.
template <class View>
void load(const std::vector<StateArray>& state, const std::vector<std::pair<std::string, const View*>>& arrays,
          long long owned, const Distribution* d, const std::string& precision) {
  using Real = typename View::non_const_value_type;
  DGK_THROW_IF(state.size() != arrays.size(), "solver state: expected " << arrays.size() << " arrays, got "
                                                                        << state.size());
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    const StateArray& a = state[k];
    const std::string& want = arrays[k].first;
    const View& v = *arrays[k].second;
    const std::vector<long long> dims{global_elements(d, owned), static_cast<long long>(v.extent(1)),
                                      static_cast<long long>(v.extent(2))};
    DGK_THROW_IF(a.name != want, "solver state: array '" << a.name << "' where '" << want << "' was expected");
    DGK_THROW_IF(a.value_bytes != static_cast<int>(sizeof(Real)),
                 "solver state '" << a.name << "' holds " << (a.value_bytes == 4 ? "float" : "double")
                                  << " values; this run is " << precision);
    auto text = [](const std::vector<long long>& dd) {
      std::string t;
      for (auto x : dd) t += (t.empty() ? "" : "x") + std::to_string(x);
      return t;
    };
    DGK_THROW_IF(a.dims != dims, "solver state '" << a.name << "' has dimensions " << text(a.dims)
                                                  << "; this solver needs " << text(dims)
                                                  << " (elements x fields x nodes)");
    const std::size_t row = v.extent(1) * v.extent(2);
    const std::size_t values = static_cast<std::size_t>(dims[0]) * row;
    DGK_THROW_IF(a.bytes.size() != values * sizeof(Real),
                 "solver state '" << a.name << "' has " << a.bytes.size() << " bytes for " << values << " values");
    std::vector<Real> all(values);
    std::memcpy(all.data(), a.bytes.data(), a.bytes.size());
    if (d) all = d->owned_rows(all.data(), row);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    std::size_t i = 0;
    for (std::size_t e = 0; e < static_cast<std::size_t>(owned); ++e)
      for (std::size_t c = 0; c < h.extent(1); ++c)
        for (std::size_t j = 0; j < h.extent(2); ++j) h(e, c, j) = all[i++];
    Kokkos::deep_copy(v, h);
  }
}

}  // namespace dgk::physics::nodal_state
