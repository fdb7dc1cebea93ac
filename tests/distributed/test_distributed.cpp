// Distributed runs against the one-rank run, under `mpiexec -np R` for R = 1, 2, 3 (ctest runs
// this program three times). Every rank also runs the whole problem alone, so each test compares
// within one program.
//
// Tolerances. An element's right-hand side is the same sequence of operations whether its
// neighbour's trace comes from its own array or from a ghost filled by the exchange (the values
// are copied, never recomputed), so the fields must agree bitwise. Norms and energies are sums
// over elements whose order changes with the partition (partial sums per rank, then a
// reduction): K non-negative terms summed in another order differ by at most (K - 1) eps
// relative.
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "dgk/core/comm.hpp"
#include "dgk/mesh/partition.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "dgk/physics/case.hpp"
#include "dgk/physics/distribution.hpp"
#include "dgk/physics/maxwell2d.hpp"
#include "dgk/physics/maxwell3d.hpp"
#include "dgk/physics/nodal_tri_solver.hpp"
#include "dgk/physics/tet_solver.hpp"

namespace {

using dgk::Comm;
using Space = Kokkos::Serial;
namespace mesh = dgk::mesh;
namespace physics = dgk::physics;

const Comm& comm() { return Comm::world(); }
constexpr double eps = std::numeric_limits<double>::epsilon();

struct Outcome {
  std::vector<double> fields;  // global order
  double l2 = 0, energy = 0;
  std::vector<dgk::StateArray> state;
};

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

// --- 3D: Maxwell on tetrahedra ---------------------------------------------------------------

using TetSolver = physics::TetSolver<physics::Maxwell3D, double, Space>;

dgk::PointFunction cavity3d() {
  physics::CavityMode mode;
  return [mode](double x, double y, double z, double t, double* out) {
    const auto f = mode(x, y, z, t);
    for (int c = 0; c < 6; ++c) out[c] = f[static_cast<std::size_t>(c)];
  };
}

std::unique_ptr<TetSolver> make_tet(const mesh::TetMesh& m, const std::vector<int>* owner, int order,
                                    const dgk::kernels::nodal_tet::NodalTuning* tuning = nullptr) {
  const auto conn = mesh::connect(m);
  const std::vector<int> pec(m.boundary_names.size(), 0);
  physics::TetKernels k;
  if (tuning) {
    k.family = physics::TetKernelFamily::Tuned;
    k.tuning = *tuning;
    k.tuned = true;
  }
  if (!owner) return std::make_unique<TetSolver>(Space(), order, m, pec, k);
  const auto ref = dgk::basis::make_tet_nodal(order);
  mesh::TetMesh local;
  auto dist = physics::distribute(m, conn, *owner, std::vector<std::vector<int>>(ref.fmask.begin(), ref.fmask.end()),
                                  ref.np, comm(), local);
  return std::make_unique<TetSolver>(Space(), order, local, pec, k, dist);
}

Outcome run_tet(const mesh::TetMesh& m, const std::vector<int>* owner, int order, int steps,
                const dgk::kernels::nodal_tet::NodalTuning* tuning = nullptr) {
  auto s = make_tet(m, owner, order, tuning);
  const auto f = cavity3d();
  s->set_fields(f, 0.0);
  const double dt = s->max_dt(0.5);
  for (int i = 0; i < steps; ++i) s->step(dt);
  return {s->host_fields(), s->l2_error(f), s->energy(), s->save_state()};
}

std::vector<int> tet_owner(const mesh::TetMesh& m, mesh::PartitionMethod method) {
  const auto conn = mesh::connect(m);
  std::vector<int> nb, nbf;
  mesh::flat_neighbours(conn, nb, nbf);
  return mesh::partition_elements(method, comm().size(), nb, 4, mesh::centroids(m));
}

void expect_same(const Outcome& dist, const Outcome& serial, long long elements) {
  EXPECT_EQ(max_difference(dist.fields, serial.fields), 0.0) << "fields differ from the one-rank run";
  const double tol = double(elements) * eps;
  EXPECT_LE(std::abs(dist.l2 - serial.l2), tol * serial.l2) << dist.l2 << " vs " << serial.l2;
  EXPECT_LE(std::abs(dist.energy - serial.energy), tol * serial.energy) << dist.energy << " vs " << serial.energy;
}

class Partitions : public ::testing::TestWithParam<mesh::PartitionMethod> {};

TEST_P(Partitions, Maxwell3DMatchesOneRankBitwise) {
  const auto m = mesh::make_box({{3, 3, 3}});
  const auto owner = tet_owner(m, GetParam());
  const auto serial = run_tet(m, nullptr, 3, 6);
  const auto dist = run_tet(m, &owner, 3, 6);
  expect_same(dist, serial, m.num_elements());
}

std::vector<mesh::PartitionMethod> methods() {
  std::vector<mesh::PartitionMethod> v{mesh::PartitionMethod::SpaceFillingCurve, mesh::PartitionMethod::Block};
  if (mesh::metis_available()) v.insert(v.begin(), mesh::PartitionMethod::Metis);
  return v;
}
INSTANTIATE_TEST_SUITE_P(Methods, Partitions, ::testing::ValuesIn(methods()),
                         [](const auto& info) { return std::string(mesh::partition_method_name(info.param)); });

// The tuned kernels overlap the exchange the same way: the fused kernels compute the faces of
// the interior elements first and those next to ghosts after it; the fused update writes the
// second field buffer, whose ghost rows the next exchange fills.
TEST(Distributed, TunedKernelsMatchOneRankBitwise) {
  namespace nt = dgk::kernels::nodal_tet;
  const auto m = mesh::make_box({{3, 3, 3}});
  const auto owner = tet_owner(m, mesh::PartitionMethod::SpaceFillingCurve);
  for (nt::LiftMode mode : {nt::LiftMode::Split, nt::LiftMode::FusedLift, nt::LiftMode::FusedUpdate}) {
    nt::NodalTuning t;
    t.volume = nt::StageKernel::Micro;
    t.volume_shape = {3, 2, 2, nt::Staging::Both};
    t.lift = nt::StageKernel::Micro;
    t.lift_shape = {2, 2, 3, nt::Staging::Fields};
    t.mode = mode;
    SCOPED_TRACE(physics::to_string(t));
    expect_same(run_tet(m, &owner, 3, 5, &t), run_tet(m, nullptr, 3, 5, &t), m.num_elements());
  }
}

TEST(Distributed, RankWithoutBoundaryFaces) {
  // Elements with a face on the boundary go to rank 0, the others to ranks 1.. in runs.
  const auto m = mesh::make_box({{3, 3, 3}});
  const auto conn = mesh::connect(m);
  std::vector<int> inner;
  std::vector<int> owner(static_cast<std::size_t>(m.num_elements()), 0);
  for (int e = 0; e < m.num_elements(); ++e) {
    bool boundary = false;
    for (int f = 0; f < 4; ++f) boundary |= conn.EToE[static_cast<std::size_t>(e)][static_cast<std::size_t>(f)] < 0;
    if (!boundary) inner.push_back(e);
  }
  const int R = comm().size();
  ASSERT_GE(static_cast<int>(inner.size()), R - 1);
  if (R > 1)
    for (std::size_t i = 0; i < inner.size(); ++i)
      owner[static_cast<std::size_t>(inner[i])] = 1 + static_cast<int>(i * static_cast<std::size_t>(R - 1) / inner.size());
  for (int e = 0; e < m.num_elements(); ++e) {
    if (owner[static_cast<std::size_t>(e)] > 0) {
      for (int f = 0; f < 4; ++f) ASSERT_GE(conn.EToE[static_cast<std::size_t>(e)][static_cast<std::size_t>(f)], 0);
    }
  }
  expect_same(run_tet(m, &owner, 2, 5), run_tet(m, nullptr, 2, 5), m.num_elements());
}

TEST(Distributed, OneElementPerRank3D) {
  // As many tetrahedra as ranks (taken from one cube of a box), one per rank.
  const auto box = mesh::make_box({{1, 1, 1}});
  std::vector<int> first(static_cast<std::size_t>(comm().size()));
  std::iota(first.begin(), first.end(), 0);
  const auto m = mesh::extract_elements(box, mesh::connect(box), first);
  std::vector<int> owner(first);
  expect_same(run_tet(m, &owner, 3, 4), run_tet(m, nullptr, 3, 4), m.num_elements());
}

TEST(Distributed, StateMovesBetweenRankCounts) {
  // A state saved by R ranks restarts on one rank and the other way round, and both go on alike.
  const auto m = mesh::make_box({{3, 3, 2}});
  const auto owner = tet_owner(m, mesh::default_partition_method());
  auto dist = make_tet(m, &owner, 2);
  auto serial = make_tet(m, nullptr, 2);
  const auto f = cavity3d();
  dist->set_fields(f, 0.0);
  const double dt = dist->max_dt(0.5);
  EXPECT_EQ(dt, serial->max_dt(0.5));
  for (int i = 0; i < 3; ++i) dist->step(dt);
  serial->load_state(dist->save_state(), dist->time());
  EXPECT_EQ(max_difference(serial->host_fields(), dist->host_fields()), 0.0);
  for (int i = 0; i < 3; ++i) {
    dist->step(dt);
    serial->step(dt);
  }
  EXPECT_EQ(max_difference(serial->host_fields(), dist->host_fields()), 0.0);
  auto again = make_tet(m, &owner, 2);
  again->load_state(serial->save_state(), serial->time());
  EXPECT_EQ(max_difference(again->host_fields(), serial->host_fields()), 0.0);
}

TEST(Distributed, NonFiniteValueFoundOnEveryRank) {
  const auto m = mesh::make_box({{2, 2, 2}});
  const auto owner = tet_owner(m, mesh::default_partition_method());
  auto s = make_tet(m, &owner, 2);
  s->set_fields(cavity3d(), 0.0);
  auto state = s->save_state();
  const long long element = 29, field = 4, node = 3, np = 10;
  double* q = reinterpret_cast<double*>(state[0].bytes.data());
  q[(element * 6 + field) * np + node] = std::numeric_limits<double>::quiet_NaN();
  q[(40 * 6 + 1) * np + 2] = std::numeric_limits<double>::infinity();  // a later one
  s->load_state(state, 0.0);
  const auto bad = s->find_non_finite();
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->element, element);
  EXPECT_EQ(bad->field, field);
  EXPECT_EQ(bad->node, node);
  EXPECT_TRUE(std::isnan(bad->value));
}

TEST(Distributed, CaseDistributesItself) {
  // The maxwell3d case partitions its mesh when the run has several ranks.
  physics::CaseOptions o;
  o.name = "maxwell3d";
  o.order = 3;
  o.mesh = "box:3";
  o.final_time = 0.05;
  o.backend = dgk::Backend::Serial;
  auto cs = physics::make_case(o);
  auto& sim = cs->simulation();
  EXPECT_EQ(cs->partition() != nullptr, comm().distributed());
  for (int i = 0; i < cs->steps(); ++i) sim.step(cs->dt());
  const auto m = mesh::make_box({{3, 3, 3}});
  auto serial = make_tet(m, nullptr, 3);
  serial->set_fields(cavity3d(), 0.0);
  for (int i = 0; i < cs->steps(); ++i) serial->step(cs->dt());
  EXPECT_EQ(max_difference(sim.host_fields(), serial->host_fields()), 0.0);
  EXPECT_EQ(sim.num_elements(), m.num_elements());
}

// --- 2D: TM Maxwell on triangles -------------------------------------------------------------

using TriSolver = physics::NodalTriSolver<physics::Maxwell2D, double, Space>;

Outcome run_tri(const mesh::TriMesh& m, const std::vector<int>* owner, int order, int steps) {
  const auto conn = mesh::connect(m);
  const std::vector<int> pec(m.boundary_names.size(), 0);
  std::unique_ptr<TriSolver> s;
  if (owner) {
    const auto ref = dgk::basis::make_tri_nodal(order);
    mesh::TriMesh local;
    auto dist = physics::distribute(m, conn, *owner,
                                    std::vector<std::vector<int>>(ref.fmask.begin(), ref.fmask.end()), ref.np, comm(),
                                    local);
    s = std::make_unique<TriSolver>(Space(), order, local, pec, physics::Maxwell2D(), dist);
  } else {
    s = std::make_unique<TriSolver>(Space(), order, m, pec);
  }
  physics::CavityMode2D mode;
  const dgk::PointFunction f = [mode](double x, double y, double, double t, double* out) {
    const auto v = mode(x, y, t);
    for (int c = 0; c < 3; ++c) out[c] = v[static_cast<std::size_t>(c)];
  };
  s->set_fields(f, 0.0);
  const double dt = s->max_dt(0.5);
  for (int i = 0; i < steps; ++i) s->step(dt);
  return {s->host_fields(), s->l2_error(f), s->energy(), s->save_state()};
}

std::vector<int> tri_owner(const mesh::TriMesh& m, mesh::PartitionMethod method) {
  const auto conn = mesh::connect(m);
  std::vector<int> nb, nbf;
  mesh::flat_neighbours(conn, nb, nbf);
  return mesh::partition_elements(method, comm().size(), nb, 3, mesh::centroids(m));
}

TEST_P(Partitions, Maxwell2DMatchesOneRankBitwise) {
  mesh::RectangleSpec spec;
  spec.cells = {6, 5};
  spec.jitter = 0.15;
  const auto m = mesh::make_rectangle(spec);
  const auto owner = tri_owner(m, GetParam());
  expect_same(run_tri(m, &owner, 4, 8), run_tri(m, nullptr, 4, 8), m.num_elements());
}

TEST(Distributed, OneElementPerRank2D) {
  const auto rect = mesh::make_rectangle({{2, 1}});  // 4 triangles
  std::vector<int> first(static_cast<std::size_t>(comm().size()));
  std::iota(first.begin(), first.end(), 0);
  const auto m = mesh::extract_elements(rect, mesh::connect(rect), first);
  std::vector<int> owner(first);
  expect_same(run_tri(m, &owner, 3, 4), run_tri(m, nullptr, 3, 4), m.num_elements());
}

TEST(Distributed, TooManyRanksIsAnError) {
  const auto m = mesh::make_box({{1, 1, 1}});
  std::vector<int> nb, nbf;
  mesh::flat_neighbours(mesh::connect(m), nb, nbf);
  try {
    mesh::partition_elements(mesh::PartitionMethod::Block, 7, nb, 4, mesh::centroids(m));
    FAIL() << "7 ranks for 6 elements were accepted";
  } catch (const dgk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("at most 6 ranks"), std::string::npos) << e.what();
  }
}

TEST(Distributed, PartitionStatisticsAddUp) {
  const auto m = mesh::make_box({{3, 3, 3}});
  const auto owner = tet_owner(m, mesh::default_partition_method());
  const auto conn = mesh::connect(m);
  std::vector<int> nb, nbf;
  mesh::flat_neighbours(conn, nb, nbf);
  const auto ref = dgk::basis::make_tet_nodal(2);
  const auto part = mesh::make_local_part(owner, comm().rank(), comm().size(), nb, nbf, 4,
                                          std::vector<std::vector<int>>(ref.fmask.begin(), ref.fmask.end()), ref.np);
  long long total = 0, shared = 0;
  for (auto n : part.elements_per_rank) total += n;
  for (auto n : part.shared_faces_per_rank) shared += n;
  EXPECT_EQ(total, m.num_elements());
  EXPECT_EQ(shared, 2 * part.shared_faces);
  EXPECT_EQ(comm().sum(static_cast<long long>(part.owned)), m.num_elements());
  // What a rank sends to a neighbour is what that neighbour receives from it.
  for (const auto& l : part.links) EXPECT_FALSE(l.send.empty() || l.recv.empty());
}

class RankFailures : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailures(int rank) : m_rank(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", m_rank, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.summary());
  }

 private:
  int m_rank;
};

}  // namespace

int main(int argc, char* argv[]) {
  dgk::MpiSession mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (Comm::world().rank() != 0) {
    // Rank 0 reports everything; the others only their failures, marked with the rank. A failure
    // on any rank fails the program (the exit codes are combined below).
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailures(Comm::world().rank()));
  }
  dgk::initialize_kokkos(argc, argv, 1);
  int result = RUN_ALL_TESTS();
  Kokkos::finalize();
  result = static_cast<int>(Comm::world().max(static_cast<long long>(result)));
  return result;
}
