// Element orderings: valid permutations, locality of the space-filling curve against a random
// order, errors for bad permutations.
#include <numeric>

#include <gtest/gtest.h>

#include "dgk/core/error.hpp"
#include "dgk/mesh/partition.hpp"
#include "dgk/mesh/reorder.hpp"
#include "dgk/mesh/tet_connectivity.hpp"

namespace {

using namespace dgk::mesh;

double neighbour_distance(const TetMesh& m) {
  std::vector<int> nb, nbf;
  flat_neighbours(connect(m), nb, nbf);
  return mean_neighbour_distance(nb, 4);
}

TEST(Reorder, OrdersArePermutationsAndKeepTheMesh) {
  const auto box = make_box({{5, 4, 3}});
  for (const char* name : {"none", "sfc", "random"}) {
    const auto order = element_order(parse_element_order(name), centroids(box), 7);
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> all(order.size());
    std::iota(all.begin(), all.end(), 0);
    EXPECT_EQ(sorted, all) << name;
    const auto m = reorder_elements(box, order);
    ASSERT_EQ(m.num_elements(), box.num_elements());
    for (std::size_t i = 0; i < order.size(); ++i) {
      EXPECT_EQ(m.elements[i], box.elements[static_cast<std::size_t>(order[i])]);
      EXPECT_EQ(m.material[i], box.material[static_cast<std::size_t>(order[i])]);
    }
    // Same faces: connectivity builds, with the same numbers of interior and boundary faces.
    const auto a = connect(box), b = connect(m);
    EXPECT_EQ(a.num_interior_faces, b.num_interior_faces);
    EXPECT_EQ(a.num_boundary_faces, b.num_boundary_faces);
  }
}

TEST(Reorder, SpaceFillingCurveRestoresLocality) {
  const auto box = make_box({{8, 8, 8}});
  const auto shuffled = reorder_elements(box, "random");
  const auto curve = reorder_elements(shuffled, "sfc");
  const double d_box = neighbour_distance(box), d_random = neighbour_distance(shuffled),
               d_curve = neighbour_distance(curve);
  // A random order puts neighbours about K / 3 apart; the curve brings them back near each
  // other, closer than the generator's lexicographic order of cubes (which is 6 nx ny apart
  // across z).
  EXPECT_GT(d_random, box.num_elements() / 4.0);
  EXPECT_LT(d_curve, d_random / 10.0);
  EXPECT_LT(d_curve, d_box);
}

TEST(Reorder, FarNeighboursOfTheGeneratorsOrder) {
  // box:n in the generator's order: six tetrahedra per cube, cubes x fastest. Neighbours inside
  // a cube or across x and y lie at most 6 n + 5 elements apart, those across z 6 n^2 - 5 or more:
  // 2 n^2 (n - 1) of the 6 n^3 + 6 n^2 (n - 1) interior faces.
  const int n = 6;
  const auto box = make_box({{n, n, n}});
  std::vector<int> nb, nbf;
  flat_neighbours(connect(box), nb, nbf);
  const double z_share = 2.0 * n * n * (n - 1) / (6.0 * n * n * n + 6.0 * n * n * (n - 1));
  EXPECT_DOUBLE_EQ(far_neighbour_fraction(nb, 4, 0), 1.0);
  EXPECT_DOUBLE_EQ(far_neighbour_fraction(nb, 4, 6 * n + 5), z_share);
  EXPECT_DOUBLE_EQ(far_neighbour_fraction(nb, 4, 6 * n * n - 6), z_share);
  EXPECT_DOUBLE_EQ(far_neighbour_fraction(nb, 4, 6 * n * n + 5), 0.0);
  // The curve leaves fewer faces far apart than the generator's order at a reach of two layers
  // of cubes.
  std::vector<int> cnb, cnbf;
  flat_neighbours(connect(reorder_elements(box, "sfc")), cnb, cnbf);
  EXPECT_LT(far_neighbour_fraction(cnb, 4, 6 * n * n - 6), z_share);
}

TEST(Reorder, BadInputIsAnError) {
  const auto box = make_box({{1, 1, 1}});
  EXPECT_THROW(reorder_elements(box, std::vector<int>{0, 1, 2}), dgk::Error);
  EXPECT_THROW(reorder_elements(box, std::vector<int>{0, 1, 2, 3, 4, 4}), dgk::Error);
  EXPECT_THROW(reorder_elements(box, std::vector<int>{0, 1, 2, 3, 4, 6}), dgk::Error);
  EXPECT_THROW(parse_element_order("hilbert"), dgk::Error);
}

}  // namespace
