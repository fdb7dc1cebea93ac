#include "dgk/mesh/reorder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <random>

#include "dgk/core/error.hpp"
#include "dgk/mesh/partition.hpp"

namespace dgk::mesh {

ElementOrder parse_element_order(const std::string& name) {
  if (name == "none") return ElementOrder::None;
  if (name == "sfc") return ElementOrder::SpaceFillingCurve;
  if (name == "random") return ElementOrder::Random;
  DGK_THROW_IF(true, "--reorder '" << name << "': expected none, sfc or random");
}

const char* element_order_name(ElementOrder o) {
  switch (o) {
    case ElementOrder::None: return "none";
    case ElementOrder::SpaceFillingCurve: return "sfc";
    case ElementOrder::Random: return "random";
  }
  return "?";
}

namespace {

// Interleaves the low 21 bits of three coordinates (Morton order).
std::uint64_t morton(std::uint64_t x, std::uint64_t y, std::uint64_t z) {
  auto spread = [](std::uint64_t v) {
    v &= 0x1fffff;
    v = (v | v << 32) & 0x1f00000000ffffULL;
    v = (v | v << 16) & 0x1f0000ff0000ffULL;
    v = (v | v << 8) & 0x100f00f00f00f00fULL;
    v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
    v = (v | v << 2) & 0x1249249249249249ULL;
    return v;
  };
  return spread(x) | spread(y) << 1 | spread(z) << 2;
}

template <class Mesh>
Mesh reorder_common(const Mesh& mesh, const std::vector<int>& order) {
  const auto K = static_cast<std::size_t>(mesh.num_elements());
  DGK_THROW_IF(order.size() != K, "reorder_elements: a permutation of " << order.size() << " entries for " << K
                                                                         << " elements");
  std::vector<char> seen(K, 0);
  for (int e : order) {
    DGK_THROW_IF(e < 0 || static_cast<std::size_t>(e) >= K || seen[static_cast<std::size_t>(e)],
                 "reorder_elements: the order lists element " << e << " twice or outside 0.." << K - 1);
    seen[static_cast<std::size_t>(e)] = 1;
  }
  Mesh out = mesh;
  for (std::size_t i = 0; i < K; ++i) {
    const auto e = static_cast<std::size_t>(order[i]);
    out.elements[i] = mesh.elements[e];
    if (!mesh.material.empty()) out.material[i] = mesh.material[e];
    if (!mesh.region.empty()) out.region[i] = mesh.region[e];
  }
  return out;
}

}  // namespace

std::vector<int> element_order(ElementOrder o, const std::vector<std::array<double, 3>>& centroids,
                               std::uint64_t seed) {
  std::vector<int> order(centroids.size());
  std::iota(order.begin(), order.end(), 0);
  if (o == ElementOrder::Random) {
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
  } else if (o == ElementOrder::SpaceFillingCurve) {
    std::array<double, 3> lo, hi;
    lo.fill(std::numeric_limits<double>::max());
    hi.fill(-std::numeric_limits<double>::max());
    for (const auto& c : centroids)
      for (std::size_t d = 0; d < 3; ++d) {
        lo[d] = std::min(lo[d], c[d]);
        hi[d] = std::max(hi[d], c[d]);
      }
    double extent = 0;
    for (std::size_t d = 0; d < 3; ++d) extent = std::max(extent, hi[d] - lo[d]);
    const double scale = extent > 0 ? double((1 << 21) - 1) / extent : 0.0;
    std::vector<std::uint64_t> key(centroids.size());
    for (std::size_t e = 0; e < centroids.size(); ++e) {
      auto q = [&](std::size_t d) { return static_cast<std::uint64_t>((centroids[e][d] - lo[d]) * scale); };
      key[e] = morton(q(0), q(1), q(2));
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return key[static_cast<std::size_t>(a)] < key[static_cast<std::size_t>(b)]; });
  }
  return order;
}

TetMesh reorder_elements(const TetMesh& mesh, const std::vector<int>& order) { return reorder_common(mesh, order); }
TriMesh reorder_elements(const TriMesh& mesh, const std::vector<int>& order) { return reorder_common(mesh, order); }

TetMesh reorder_elements(const TetMesh& mesh, const std::string& order) {
  const ElementOrder o = parse_element_order(order);
  return o == ElementOrder::None ? mesh : reorder_common(mesh, element_order(o, centroids(mesh)));
}
TriMesh reorder_elements(const TriMesh& mesh, const std::string& order) {
  const ElementOrder o = parse_element_order(order);
  return o == ElementOrder::None ? mesh : reorder_common(mesh, element_order(o, centroids(mesh)));
}

namespace {

// f(|e - n|) for each element e's interior face to its neighbour n (each face twice, once from
// either side); returns how many.
template <class F>
long long for_each_neighbour_distance(const std::vector<int>& neighbours, int nfaces, F&& f) {
  long long n = 0;
  for (std::size_t i = 0; i < neighbours.size(); ++i) {
    const int nb = neighbours[i];
    if (nb < 0) continue;
    f(std::abs(static_cast<long long>(nb) - static_cast<long long>(i / static_cast<std::size_t>(nfaces))));
    ++n;
  }
  return n;
}

}  // namespace

double mean_neighbour_distance(const std::vector<int>& neighbours, int nfaces) {
  double sum = 0;
  const long long n = for_each_neighbour_distance(neighbours, nfaces, [&](long long d) { sum += double(d); });
  return n > 0 ? sum / double(n) : 0.0;
}

double far_neighbour_fraction(const std::vector<int>& neighbours, int nfaces, long long distance) {
  long long far = 0;
  const long long n = for_each_neighbour_distance(neighbours, nfaces, [&](long long d) { far += d > distance; });
  return n > 0 ? double(far) / double(n) : 0.0;
}

}  // namespace dgk::mesh
