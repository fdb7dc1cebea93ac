// The HDG trace system (paper 001): the dense block format and its three products against
// KokkosKernels' CRS product, operator identities of the assembled matrix, exactness and order
// of convergence of the solve, and agreement across backends.
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
// After Kokkos_Core.hpp: KokkosKernels 3.4's headers use Kokkos without including it.
#include <KokkosSparse_spmv.hpp>

#include "dgk/basis/quadrature.hpp"
#include "dgk/core/error.hpp"
#include "dgk/hdg/trace_system.hpp"
#include "dgk_test_spaces.hpp"

namespace {

using namespace dgk::hdg;

TraceMesh trace_mesh(int dim, int n) {
  if (dim == 2) return make_trace_mesh(dgk::mesh::load_tri_mesh("rect:" + std::to_string(n) + ",jitter=0.15"));
  return make_trace_mesh(dgk::mesh::load_tet_mesh("box:" + std::to_string(n)));
}

// u = 1 + x - 2 y (+ 3 z): reproduced exactly by the method for every p >= 1.
PoissonProblem linear(int dim) {
  PoissonProblem p;
  p.name = "linear";
  p.u = [dim](const double* x) { return 1 + x[0] - 2 * x[1] + (dim == 3 ? 3 * x[2] : 0.0); };
  p.f = [](const double*) { return 0.0; };
  return p;
}

template <class V>
std::vector<double> host(const V& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<double>(h.data(), h.data() + h.size());
}

TEST(HdgQuadrature, ExactForMonomialsUpToItsDegree) {
  // Integral of x^a y^b z^c over the reference simplex with vertices (-1,...) and unit offsets,
  // by the change of variables to the unit simplex: 2^(d + a + b + c) times a! b! c! / (d + a +
  // b + c)! after shifting by -1, here checked against a finer rule of the same family.
  for (int dim = 1; dim <= 3; ++dim)
    for (int deg = 0; deg <= 12; ++deg) {
      const auto q = dgk::basis::simplex_quadrature(dim, deg);
      const auto fine = dgk::basis::simplex_quadrature(dim, 40);
      EXPECT_NEAR(q.weights.sum(), dim == 3 ? 4.0 / 3.0 : 2.0, 1e-13);
      for (int a = 0; a <= deg; ++a)
        for (int b = 0; b <= (dim > 1 ? deg - a : 0); ++b)
          for (int c = 0; c <= (dim > 2 ? deg - a - b : 0); ++c) {
            auto integrate = [&](const dgk::basis::SimplexQuadrature& r) {
              double s = 0;
              for (int k = 0; k < r.size(); ++k) {
                double v = std::pow(r.points(k, 0), a);
                if (dim > 1) v *= std::pow(r.points(k, 1), b);
                if (dim > 2) v *= std::pow(r.points(k, 2), c);
                s += r.weights(k) * v;
              }
              return s;
            };
            EXPECT_NEAR(integrate(q), integrate(fine), 1e-12) << dim << "D degree " << deg << ": " << a << b << c;
          }
    }
  EXPECT_THROW(dgk::basis::simplex_quadrature(4, 2), dgk::Error);
  EXPECT_THROW(dgk::basis::simplex_quadrature(2, -1), dgk::Error);
}

TEST(HdgTraceMesh, NeighbourListsHaveThePapersShape) {
  for (int dim : {2, 3}) {
    const auto t = trace_mesh(dim, 3);
    EXPECT_EQ(t.num_slots, dim == 2 ? 5 : 7);
    int boundary = 0;
    for (int l = 0; l < t.num_faces(); ++l) {
      const int* nbr = &t.neighbours[static_cast<std::size_t>(l * t.num_slots)];
      EXPECT_EQ(nbr[0], l);
      const int naf = t.num_neighbours[static_cast<std::size_t>(l)];
      EXPECT_EQ(naf, t.is_boundary(l) ? dim + 1 : t.num_slots);
      boundary += t.is_boundary(l);
      for (int s = 1; s < naf; ++s)
        for (int u = 0; u < s; ++u) EXPECT_NE(nbr[s], nbr[u]) << "face " << l;
      for (int s = naf; s < t.num_slots; ++s) EXPECT_EQ(nbr[s], l) << "padding of face " << l;
    }
    // Every element has dim + 1 faces; interior faces are shared by two.
    EXPECT_EQ((dim + 1) * t.num_elements(), 2 * t.num_faces() - boundary);
    if (dim == 2) {
      EXPECT_EQ(t.num_faces(), 3 * 3 * 3 + 2 * 3);
    }
  }
}

// y = A x by the gather + contract pair, the fused product and KokkosKernels' CRS product on the
// same matrix. Each output is a sum of at most q products; two orders of summation differ by at
// most 2 q eps sum_k |A_ik| |x_k| (Higham, Theorem 3.1), which is the tolerance per entry.
template <class Real>
void expect_products_agree(int dim, int order) {
  using Space = Kokkos::DefaultExecutionSpace;
  HdgPoisson<Space> hdg(trace_mesh(dim, 2), PoissonOptions{order, 1.0}, PoissonProblem::cosine(dim));
  const auto a = convert<Real, Space>(hdg.matrix());
  const auto crs = to_crs(a);
  const auto n = static_cast<std::size_t>(a.rows());
  Kokkos::View<Real*, Space> x("x", n), y1("y1", n), y2("y2", n), y3("y3", n), absy("absy", n);
  Kokkos::View<Real**, Kokkos::LayoutLeft, Space> X("X", a.dbf.q(), a.dbf.r);
  {
    auto h = Kokkos::create_mirror_view(x);
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> dist(-1, 1);
    for (std::size_t i = 0; i < n; ++i) h(i) = static_cast<Real>(dist(gen));
    Kokkos::deep_copy(x, h);
  }
  dgk::kernels::hdg::gather(a.dbf, x, X);
  dgk::kernels::hdg::contract(a.dbf, X, y1);
  dgk::kernels::hdg::fused(a.dbf, x, y2);
  KokkosSparse::spmv("N", Real(1), crs, x, Real(0), y3);
  // |A| |x| through the CRS matrix with absolute values.
  auto abs_crs = to_crs(a);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, abs_crs.nnz()),
      KOKKOS_LAMBDA(const int k) { abs_crs.values(k) = Kokkos::Experimental::fabs(abs_crs.values(k)); });
  Kokkos::View<Real*, Space> absx("absx", n);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const std::size_t i) { absx(i) = Kokkos::Experimental::fabs(x(i)); });
  KokkosSparse::spmv("N", Real(1), abs_crs, absx, Real(0), absy);
  Kokkos::fence();
  auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
  auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y2);
  auto h3 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y3);
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), absy);
  const double eps = std::numeric_limits<Real>::epsilon();
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double tol = 2.0 * a.dbf.q() * eps * ha(i) + std::numeric_limits<Real>::min();
    EXPECT_EQ(h1(i), h2(i)) << "gather + contract and fused sum in the same order, row " << i;
    ASSERT_LE(std::abs(h2(i) - h3(i)), tol) << dim << "D p=" << order << " row " << i;
    worst = std::max(worst, std::abs(h2(i) - h3(i)) / (ha(i) * eps + 1e-300));
  }
  ::testing::Test::RecordProperty("worst_in_eps_units", std::to_string(worst));
  // The CRS matrix keeps every real block and only those.
  long long blocks = 0;
  for (int naf : a.num_neighbours) blocks += naf;
  EXPECT_EQ(crs.nnz(), blocks * a.dbf.m * a.dbf.m);
}

TEST(HdgSpmv, DenseBlockProductsEqualCrsProductDouble) {
  for (int dim : {2, 3})
    for (int order : {1, 2, 3}) expect_products_agree<double>(dim, order);
}

TEST(HdgSpmv, DenseBlockProductsEqualCrsProductFloat) {
  for (int dim : {2, 3})
    for (int order : {1, 3}) expect_products_agree<float>(dim, order);
}

// The condensed matrix is symmetric (A_K = Q - R^T S^-1 R with S symmetric) and positive
// definite; the Dirichlet rows are identity rows.
TEST(HdgTraceSystem, MatrixIsSymmetricPositiveDefinite) {
  using Space = Kokkos::DefaultExecutionSpace;
  for (int dim : {2, 3})
    for (int order : {1, 2}) {
      HdgPoisson<Space> hdg(trace_mesh(dim, 2), PoissonOptions{order, 1.0}, PoissonProblem::cosine(dim));
      const auto crs = to_crs(hdg.matrix());
      auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), crs.graph.row_map);
      auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), crs.graph.entries);
      auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), crs.values);
      const int n = crs.numRows();
      std::vector<std::vector<std::pair<int, double>>> row(static_cast<std::size_t>(n));
      double amax = 0;
      for (int i = 0; i < n; ++i)
        for (int k = rows(i); k < rows(i + 1); ++k) {
          row[static_cast<std::size_t>(i)].emplace_back(cols(k), vals(k));
          amax = std::max(amax, std::abs(vals(k)));
        }
      auto entry = [&](int i, int j) {
        for (const auto& [c, v] : row[static_cast<std::size_t>(i)])
          if (c == j) return v;
        return 0.0;
      };
      double asym = 0;
      for (int i = 0; i < n; ++i)
        for (const auto& [j, v] : row[static_cast<std::size_t>(i)]) asym = std::max(asym, std::abs(v - entry(j, i)));
      EXPECT_LE(asym, 1e-12 * amax) << dim << "D p=" << order;
      // x^T A x > 0 for random x.
      std::mt19937 gen(3);
      std::uniform_real_distribution<double> dist(-1, 1);
      for (int trial = 0; trial < 5; ++trial) {
        std::vector<double> x(static_cast<std::size_t>(n));
        for (auto& v : x) v = dist(gen);
        double xax = 0;
        for (int i = 0; i < n; ++i)
          for (const auto& [j, v] : row[static_cast<std::size_t>(i)])
            xax += x[static_cast<std::size_t>(i)] * v * x[static_cast<std::size_t>(j)];
        EXPECT_GT(xax, 0);
      }
    }
}

TEST(HdgTraceSystem, LinearSolutionsAreReproducedExactly) {
  using Space = Kokkos::DefaultExecutionSpace;
  for (int dim : {2, 3})
    for (int order : {1, 2}) {
      HdgPoisson<Space> hdg(trace_mesh(dim, 2), PoissonOptions{order, 1.0}, linear(dim));
      const auto cg = hdg.solve(CgOptions{1e-13, 0});
      EXPECT_LE(cg.relative_residual, 1e-13);
      EXPECT_LE(hdg.l2_error(), 1e-10) << dim << "D p=" << order << " after " << cg.iterations << " CG iterations";
    }
}

// Order of convergence of the element unknown in L2: at least p + 0.5 between the two finest of
// three meshes (p + 1 expected for tau = 1).
class HdgConvergence : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(HdgConvergence, ReachesOrderPPlusHalf) {
  using Space = Kokkos::DefaultExecutionSpace;
  const auto [dim, order] = GetParam();
  const std::vector<int> meshes = dim == 2 ? std::vector<int>{4, 8, 16} : std::vector<int>{2, 3, 4};
  std::vector<double> err;
  for (int n : meshes) {
    HdgPoisson<Space> hdg(trace_mesh(dim, n), PoissonOptions{order, 1.0}, PoissonProblem::cosine(dim));
    hdg.solve();
    err.push_back(hdg.l2_error());
  }
  const double eoc = std::log(err[1] / err[2]) / std::log(double(meshes[2]) / meshes[1]);
  RecordProperty("eoc", std::to_string(eoc));
  EXPECT_GE(eoc, order + 0.5) << "errors " << err[0] << " " << err[1] << " " << err[2];
  EXPECT_LT(err[1], err[0]);
}

INSTANTIATE_TEST_SUITE_P(DimsAndOrders, HdgConvergence,
                         ::testing::Values(std::make_tuple(2, 1), std::make_tuple(2, 2), std::make_tuple(2, 3),
                                           std::make_tuple(3, 1), std::make_tuple(3, 2)),
                         [](const auto& info) {
                           return std::to_string(std::get<0>(info.param)) + "D_p" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(HdgTraceSystem, RejectsBadOptions) {
  using Space = Kokkos::DefaultExecutionSpace;
  EXPECT_THROW(HdgPoisson<Space>(trace_mesh(2, 1), PoissonOptions{11, 1.0}, PoissonProblem::cosine(2)), dgk::Error);
  EXPECT_THROW(HdgPoisson<Space>(trace_mesh(2, 1), PoissonOptions{1, 0.0}, PoissonProblem::cosine(2)), dgk::Error);
  HdgPoisson<Space> hdg(trace_mesh(2, 4), PoissonOptions{2, 1.0}, PoissonProblem::cosine(2));
  try {
    hdg.solve(CgOptions{1e-14, 2});
    FAIL() << "two CG iterations cannot converge";
  } catch (const dgk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("in 2 iterations"), std::string::npos) << e.what();
  }
}

// Agreement across backends: the assembly does the same arithmetic on every backend, so the
// matrices agree to rounding; both CG solutions satisfy A x_i = b - r_i, so
// ||A (x_1 - x_2)|| <= ||r_1|| + ||r_2|| up to the rounding of the product itself.
template <class Space>
class HdgCrossBackend : public ::testing::Test {};
TYPED_TEST_SUITE(HdgCrossBackend, dgk::Testing::ExecutionSpaces, dgk::Testing::SpaceNames);

TYPED_TEST(HdgCrossBackend, AgreesWithSerial) {
  for (int dim : {2, 3}) {
    HdgPoisson<TypeParam> a(trace_mesh(dim, 3), PoissonOptions{2, 1.0}, PoissonProblem::cosine(dim));
    HdgPoisson<Kokkos::Serial> s(trace_mesh(dim, 3), PoissonOptions{2, 1.0}, PoissonProblem::cosine(dim));
    const auto ma = host(a.matrix().dbf.A), ms = host(s.matrix().dbf.A);
    const auto ba = host(a.rhs()), bs = host(s.rhs());
    ASSERT_EQ(ma.size(), ms.size());
    double amax = 0, diff = 0;
    for (std::size_t k = 0; k < ma.size(); ++k) {
      amax = std::max(amax, std::abs(ms[k]));
      diff = std::max(diff, std::abs(ma[k] - ms[k]));
    }
    EXPECT_LE(diff, 1e-12 * amax) << dim << "D";
    const double tol = 1e-12;
    a.solve(CgOptions{tol, 0});
    s.solve(CgOptions{tol, 0});
    // ||A (x_a - x_s)|| on Serial.
    const auto xa = host(a.trace()), xs = host(s.trace());
    Kokkos::View<double*, Kokkos::HostSpace> d("d", xa.size()), ad("ad", xa.size());
    for (std::size_t i = 0; i < xa.size(); ++i) d(i) = xa[i] - xs[i];
    dgk::kernels::hdg::fused(s.matrix().dbf, d, ad);
    double nad = 0, nb = 0;
    for (std::size_t i = 0; i < xa.size(); ++i) nad += ad(i) * ad(i), nb += bs[i] * bs[i];
    EXPECT_LE(std::sqrt(nad), (2 * tol + 1e-13) * std::sqrt(nb)) << dim << "D";
    EXPECT_NEAR(a.l2_error(), s.l2_error(), 1e-9 * s.l2_error());
    EXPECT_EQ(ba.size(), bs.size());
  }
}

}  // namespace
