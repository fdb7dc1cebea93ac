// Variants of the tetrahedral DG kernels against dense host references and against each other,
// for every compiled order, in double and float, on every enabled execution space:
//  - the Bernstein-Bezier volume kernel (paper 002, Algorithm 2) against the dense Bernstein
//    derivative matrices of the Vandermonde route;
//  - the Bernstein lifts (Algorithm 3, sparse E_L; Algorithm 1, slice by slice) against the dense
//    Bernstein LIFT, and against each other;
//  - the blocked nodal kernels against the node-per-thread ones, for several block sizes;
//  - the Bernstein operators against the nodal ones through the change of basis (VB, VBinv):
//    the two bases span the same space, so VB * (Bernstein result) = nodal result.
// Every tolerance is a first-order rounding bound built from the quantities named in it.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Kokkos_Core.hpp>

#include "dgk/basis/bernstein_tet.hpp"
#include "dgk/basis/tetrahedron.hpp"
#include "dgk/core/order_dispatch.hpp"
#include "dgk/kernels/bernstein_tet/data.hpp"
#include "dgk/kernels/bernstein_tet/kernels.hpp"
#include "dgk/kernels/nodal_tet/blocked.hpp"
#include "dgk/kernels/nodal_tet/kernels.hpp"
#include "dgk/mesh/tet_connectivity.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/physics/acoustic3d.hpp"
#include "dgk_test_spaces.hpp"

namespace dgk::Testing {
namespace {

namespace bt = kernels::bernstein_tet;
namespace nt = kernels::nodal_tet;
using Physics = physics::Acoustic3D;
constexpr int nf = Physics::num_fields;

constexpr double kEps64 = std::numeric_limits<double>::epsilon();
/// Safety factor over the first-order rounding bounds (they hold up to modest constants).
constexpr double kSafety = 4.0;

template <class Real>
constexpr double eps_of() {
  return std::numeric_limits<Real>::epsilon();
}

// --- Host data ---------------------------------------------------------------------------------

double norm1(const Eigen::MatrixXd& a) {
  return a.cwiseAbs().colwise().sum().maxCoeff();
}
double norm_inf(const Eigen::MatrixXd& a) {
  return a.cwiseAbs().rowwise().sum().maxCoeff();
}

/// The 2 x 2 x 2 box (48 elements) under a fixed affine map with small random vertex moves, so
/// that the metric terms are all nonzero and differ between elements; random materials.
struct Box {
  mesh::TetMesh mesh;
  mesh::TetGeometry geo;
  int K = 0;
};

const Box& box() {
  static const Box b = [] {
    Box out;
    mesh::BoxSpec spec;
    spec.cells = {2, 2, 2};
    out.mesh = mesh::make_box(spec);
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> move(-0.03, 0.03), coef(0.5, 2.0);
    for (auto& v : out.mesh.vertices) {
      const std::array<double, 3> x{v[0] + move(gen), v[1] + move(gen), v[2] + move(gen)};
      v = {x[0] + 0.2 * x[1] + 0.1 * x[2], 0.1 * x[0] + 0.9 * x[1] + 0.15 * x[2],
           0.05 * x[0] + 0.1 * x[1] + 1.1 * x[2]};
    }
    for (auto& m : out.mesh.material) m = {coef(gen), coef(gen)};  // rho, kappa
    out.geo = mesh::geometric_factors(out.mesh);
    out.K = out.mesh.num_elements();
    return out;
  }();
  return b;
}

/// Reference operators of one order and the change-of-basis data, built once per order.
struct Reference {
  basis::TetBernstein bb;
  basis::TetNodal nodal;
  double cond_vb = 0.0;  ///< ||VB||_1 ||VBinv||_1
  /// Face Bernstein functions at the nodal face nodes (nfp x nfp per face; rows sum to 1).
  std::array<Eigen::MatrixXd, 4> vbf;
  std::array<Eigen::MatrixXd, 4> vbf_inv;
  mesh::NodeCoordinates nodes;
};

const Reference& reference(int n) {
  static std::array<std::unique_ptr<Reference>, max_compiled_order + 1> cache;
  if (!cache[n]) {
    // Host work is on small matrices, where Eigen's OpenMP products only cost (on few cores,
    // beside Kokkos's own OpenMP threads).
    Eigen::setNbThreads(1);
    auto r = std::make_unique<Reference>();
    r->bb = basis::make_tet_bernstein(n);
    r->nodal = basis::make_tet_nodal(n);
    r->cond_vb = norm1(r->bb.VB) * norm1(r->bb.VBinv);
    const int nfp = r->bb.nfp;
    for (int f = 0; f < 4; ++f) {
      r->vbf[f].resize(nfp, nfp);
      for (int q = 0; q < nfp; ++q)
        for (int p = 0; p < nfp; ++p)
          r->vbf[f](q, p) = r->bb.VB(r->nodal.fmask[f][q], r->bb.face_to_volume[f * nfp + p]);
      r->vbf_inv[f] = r->vbf[f].inverse();
    }
    r->nodes = mesh::node_coordinates(box().mesh, r->nodal);
    cache[n] = std::move(r);
  }
  return *cache[n];
}

/// Fields on the host, (element, field, entry) with the entry fastest, as the device Views.
using HostField = std::vector<double>;

std::size_t at(int e, int f, int i, int width) {
  return (static_cast<std::size_t>(e) * nf + f) * width + i;
}

double max_abs(const HostField& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

/// Uniform in [-1, 1], rounded to Real, so host references see exactly the device's input.
template <class Real>
HostField random_field(int K, int width, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  HostField h(static_cast<std::size_t>(K) * nf * width);
  for (double& x : h) x = static_cast<double>(static_cast<Real>(u(gen)));
  return h;
}

template <class Real>
void round_to(HostField& h) {
  for (double& x : h) x = static_cast<double>(static_cast<Real>(x));
}

template <class Real, class Mem>
nt::Fields<Real, Mem> to_device(const HostField& h, int K, int width) {
  nt::Fields<Real, Mem> v("test::field", K, nf, width);
  auto m = Kokkos::create_mirror_view(v);
  for (std::size_t k = 0; k < h.size(); ++k) m.data()[k] = static_cast<Real>(h[k]);
  Kokkos::deep_copy(v, m);
  return v;
}

template <class View>
HostField to_host(const View& v) {
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  HostField h(m.size());
  for (std::size_t k = 0; k < h.size(); ++k) h[k] = static_cast<double>(m.data()[k]);
  return h;
}

/// Metric terms and materials as the device holds them (rounded to Real), and their sizes.
struct HostMetric {
  std::vector<std::array<double, 9>> drdx;
  std::vector<std::array<double, 2>> mat;
  double max_drdx = 0.0;  ///< G: largest |metric term|
  double max_coef = 0.0;  ///< M: largest physics coefficient, max(kappa, 1 / rho)
};

template <class Real, class Mem>
nt::MeshData<Real, Mem> device_mesh(HostMetric& hm) {
  const Box& b = box();
  nt::MeshData<Real, Mem> md;
  md.num_elements = b.K;
  md.drdx = decltype(md.drdx)("test::drdx", b.K);
  md.material = decltype(md.material)("test::material", b.K);
  auto g = Kokkos::create_mirror_view(md.drdx);
  auto m = Kokkos::create_mirror_view(md.material);
  hm.drdx.resize(b.K);
  hm.mat.resize(b.K);
  for (int e = 0; e < b.K; ++e) {
    for (int c = 0; c < 9; ++c) {
      g(e, c) = static_cast<Real>(b.geo.drdx[e][c]);
      hm.drdx[e][c] = static_cast<double>(g(e, c));
      hm.max_drdx = std::max(hm.max_drdx, std::abs(hm.drdx[e][c]));
    }
    for (int c = 0; c < 2; ++c) {
      m(e, c) = static_cast<Real>(b.mesh.material[e][c]);
      hm.mat[e][c] = static_cast<double>(m(e, c));
    }
    hm.max_coef = std::max({hm.max_coef, hm.mat[e][1], 1.0 / hm.mat[e][0]});
  }
  Kokkos::deep_copy(md.drdx, g);
  Kokkos::deep_copy(md.material, m);
  return md;
}

template <class Real, class Mem>
nt::Operators<Real, Mem> nodal_operators(const basis::TetNodal& r) {
  nt::Operators<Real, Mem> ops;
  const int np = r.np, nfp = r.nfp;
  ops.Dr = decltype(ops.Dr)("test::Dr", np, np);
  ops.Ds = decltype(ops.Ds)("test::Ds", np, np);
  ops.Dt = decltype(ops.Dt)("test::Dt", np, np);
  ops.lift = decltype(ops.lift)("test::lift", np, 4 * nfp);
  ops.fmask = decltype(ops.fmask)("test::fmask", 4, nfp);
  auto dr = Kokkos::create_mirror_view(ops.Dr), ds = Kokkos::create_mirror_view(ops.Ds),
       dt = Kokkos::create_mirror_view(ops.Dt), l = Kokkos::create_mirror_view(ops.lift);
  auto fm = Kokkos::create_mirror_view(ops.fmask);
  for (int i = 0; i < np; ++i) {
    for (int j = 0; j < np; ++j) {
      dr(i, j) = static_cast<Real>(r.Dr(i, j));
      ds(i, j) = static_cast<Real>(r.Ds(i, j));
      dt(i, j) = static_cast<Real>(r.Dt(i, j));
    }
    for (int k = 0; k < 4 * nfp; ++k) l(i, k) = static_cast<Real>(r.LIFT(i, k));
  }
  for (int f = 0; f < 4; ++f)
    for (int i = 0; i < nfp; ++i) fm(f, i) = r.fmask[f][i];
  Kokkos::deep_copy(ops.Dr, dr);
  Kokkos::deep_copy(ops.Ds, ds);
  Kokkos::deep_copy(ops.Dt, dt);
  Kokkos::deep_copy(ops.lift, l);
  Kokkos::deep_copy(ops.fmask, fm);
  return ops;
}

/// Team size of the team-per-element kernels: physics::default_launch_shape's rule.
template <class Space>
int team_for(int items) {
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible) return 1;
  return std::min(1024, (items + 31) / 32 * 32);
}

// --- Dense host references (double) ------------------------------------------------------------

/// Volume term through dense reference derivative matrices, with the device's metric terms.
HostField dense_volume(const Eigen::MatrixXd& Dr, const Eigen::MatrixXd& Ds, const Eigen::MatrixXd& Dt,
                       const HostMetric& hm, const HostField& q, int K) {
  const int np = static_cast<int>(Dr.rows());
  HostField out(q.size());
  for (int e = 0; e < K; ++e) {
    Eigen::MatrixXd u(np, nf);
    for (int f = 0; f < nf; ++f)
      for (int i = 0; i < np; ++i) u(i, f) = q[at(e, f, i, np)];
    const Eigen::MatrixXd ur = Dr * u, us = Ds * u, ut = Dt * u;
    const auto& g = hm.drdx[e];
    const double mat[2] = {hm.mat[e][0], hm.mat[e][1]};
    for (int i = 0; i < np; ++i) {
      double grad[3][nf], o[nf];
      for (int f = 0; f < nf; ++f) {
        grad[0][f] = g[0] * ur(i, f) + g[1] * us(i, f) + g[2] * ut(i, f);
        grad[1][f] = g[3] * ur(i, f) + g[4] * us(i, f) + g[5] * ut(i, f);
        grad[2][f] = g[6] * ur(i, f) + g[7] * us(i, f) + g[8] * ut(i, f);
      }
      Physics::volume(grad, mat, o);
      for (int f = 0; f < nf; ++f) out[at(e, f, i, np)] = o[f];
    }
  }
  return out;
}

/// rhs0 + A flux per element and field (A: np x 4 nfp).
HostField dense_lift(const Eigen::MatrixXd& A, const HostField& rhs0, const HostField& flux, int K) {
  const int np = static_cast<int>(A.rows()), nc = static_cast<int>(A.cols());
  HostField out = rhs0;
  for (int e = 0; e < K; ++e)
    for (int f = 0; f < nf; ++f) {
      const Eigen::Map<const Eigen::VectorXd> x(flux.data() + at(e, f, 0, nc), nc);
      const Eigen::VectorXd y = A * x;
      for (int i = 0; i < np; ++i) out[at(e, f, i, np)] += y(i);
    }
  return out;
}

/// |E_L| (|L_0| |flux_f|)_f per element, field and coefficient: the sum of the magnitudes of the
/// terms the two sparse stages add up, the scale of their rounding error.
HostField abs_lift_terms(const basis::TetBernstein& bb, const HostField& flux, int K) {
  const int np = bb.np, nfp = bb.nfp;
  HostField out(static_cast<std::size_t>(K) * nf * np);
  std::vector<double> t(4 * static_cast<std::size_t>(nfp));
  for (int e = 0; e < K; ++e)
    for (int f = 0; f < nf; ++f) {
      const double* x = flux.data() + at(e, f, 0, 4 * nfp);
      for (int face = 0; face < 4; ++face)
        for (int q = 0; q < nfp; ++q) {
          double s = 0.0;
          for (int k = 0; k < basis::TetBernstein::l0_width; ++k)
            s += std::abs(bb.l0_vals[k * nfp + q]) * std::abs(x[face * nfp + bb.l0_cols[k * nfp + q]]);
          t[face * nfp + q] = s;
        }
      for (int i = 0; i < np; ++i) {
        double s = 0.0;
        for (int k = 0; k < bb.el_width; ++k) s += std::abs(bb.el_vals[k * np + i]) * t[bb.el_cols[k * np + i]];
        out[at(e, f, i, np)] = s;
      }
    }
  return out;
}

/// |VBinv| (|LIFT_nodal| (|vbf| |flux|)): the scale of the error of the dense Bernstein LIFT,
/// which is VBinv * LIFT_nodal * vbf evaluated in double.
HostField abs_dense_lift_terms(const Reference& r, const HostField& flux, int K) {
  const int np = r.bb.np, nfp = r.bb.nfp;
  const Eigen::MatrixXd avbinv = r.bb.VBinv.cwiseAbs(), alift = r.nodal.LIFT.cwiseAbs();
  HostField out(static_cast<std::size_t>(K) * nf * np);
  for (int e = 0; e < K; ++e)
    for (int f = 0; f < nf; ++f) {
      Eigen::VectorXd x(4 * nfp);
      for (int face = 0; face < 4; ++face) {
        const Eigen::Map<const Eigen::VectorXd> xf(flux.data() + at(e, f, 0, 4 * nfp) + face * nfp, nfp);
        x.segment(face * nfp, nfp) = r.vbf[face].cwiseAbs() * xf.cwiseAbs();
      }
      const Eigen::VectorXd y = avbinv * (alift * x);
      for (int i = 0; i < np; ++i) out[at(e, f, i, np)] = y(i);
    }
  return out;
}

/// VB applied to every element and field of a Bernstein field.
HostField to_nodal(const Eigen::MatrixXd& VB, const HostField& c, int K) {
  const int np = static_cast<int>(VB.rows());
  HostField out(c.size());
  for (int e = 0; e < K; ++e)
    for (int f = 0; f < nf; ++f) {
      const Eigen::Map<const Eigen::VectorXd> x(c.data() + at(e, f, 0, np), np);
      Eigen::Map<Eigen::VectorXd>(out.data() + at(e, f, 0, np), np) = VB * x;
    }
  return out;
}

/// Smooth fields at physical points: what a solver holds (the Bernstein coefficients of a
/// smooth field are of the size of its values, unlike those of random nodal values).
double smooth(int field, double x, double y, double z) {
  return std::cos(1.3 * x - 0.7 * y + 0.4 * z + 0.9 * field) + 0.5 * std::sin(2.1 * y + 1.7 * z - 0.3 * field * x);
}

double max_diff(const HostField& a, const HostField& b) {
  double m = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) m = std::max(m, std::abs(a[k] - b[k]));
  return m;
}

/// Largest |got - want| / tol over the entries, tol per entry.
double worst_ratio(const HostField& got, const HostField& want, const HostField& tol) {
  double m = 0.0;
  for (std::size_t k = 0; k < got.size(); ++k) m = std::max(m, std::abs(got[k] - want[k]) / tol[k]);
  return m;
}

template <class Real>
const char* real_name() {
  return sizeof(Real) == 4 ? "float" : "double";
}

// --- Bernstein volume (Algorithm 2) against the dense Bernstein derivatives ---------------------

template <class Space, class Real, int N>
void bernstein_volume_case() {
  using Mem = typename Space::memory_space;
  SCOPED_TRACE(std::string("order ") + std::to_string(N) + ", " + real_name<Real>());
  const Reference& r = reference(N);
  const int K = box().K, np = r.bb.np;
  HostMetric hm;
  bt::TeamKernels<N, Physics, Space, Real> k{
      bt::make_operators<Real, Mem>(r.bb), device_mesh<Real, Mem>(hm), {}, {}, {}};
  const HostField q = random_field<Real>(K, np, 11 + N);
  k.q = to_device<Real, Mem>(q, K, np);
  k.rhs = to_device<Real, Mem>(random_field<Real>(K, np, 12 + N), K, np);  // overwritten: volume writes rhs
  k.volume(Space(), team_for<Space>(np));
  Space().fence();
  const HostField got = to_host(k.rhs);
  const HostField want = dense_volume(r.bb.Dr, r.bb.Ds, r.bb.Dt, hm, q, K);

  // Size of an output: a row of D_b has nonnegative values summing to N, so |D_b q| <= N Q and
  // |(D_b - D_0) q / 2| <= N Q; three metric terms G give |grad| <= 3 G N Q, and the physics sums
  // three gradients times a coefficient M: |out| <= 9 M G N Q.
  const double Q = max_abs(q), G = hm.max_drdx, M = hm.max_coef;
  const double scale = 9.0 * M * G * N * Q;
  // Kernel: 4-term sums (exact integer values), a difference, 3-term chain rule, 3-term physics
  // sum and its coefficient: depth 12 in Real. Reference: the dense D_r of the Vandermonde route
  // carries about (cond(VB) + np) eps_64 relative to its row sums ||D||_inf (per direction).
  const double dnorm = std::max({norm_inf(r.bb.Dr), norm_inf(r.bb.Ds), norm_inf(r.bb.Dt)});
  const double tol = kSafety * (12.0 * eps_of<Real>() * scale + (r.cond_vb + np) * kEps64 * 9.0 * M * G * dnorm * Q);
  EXPECT_LE(max_diff(got, want), tol) << "scale " << scale;
}

// --- Bernstein lifts (Algorithms 3 and 1) against the dense Bernstein LIFT -----------------------

template <class Space, class Real, int N>
void bernstein_lift_case() {
  using Mem = typename Space::memory_space;
  SCOPED_TRACE(std::string("order ") + std::to_string(N) + ", " + real_name<Real>());
  const Reference& r = reference(N);
  const int K = box().K, np = r.bb.np, nfp = r.bb.nfp;
  HostMetric hm;
  bt::TeamKernels<N, Physics, Space, Real> k{
      bt::make_operators<Real, Mem>(r.bb), device_mesh<Real, Mem>(hm), {}, {}, {}};
  const HostField flux = random_field<Real>(K, 4 * nfp, 21 + N);
  const HostField rhs0 = random_field<Real>(K, np, 22 + N);
  k.flux = to_device<Real, Mem>(flux, K, 4 * nfp);
  k.rhs = to_device<Real, Mem>(rhs0, K, np);
  k.lift_sparse(Space(), team_for<Space>(np));
  Space().fence();
  const HostField sparse = to_host(k.rhs);
  k.rhs = to_device<Real, Mem>(rhs0, K, np);
  k.lift_optimal(Space(), team_for<Space>(np));
  Space().fence();
  const HostField optimal = to_host(k.rhs);
  const HostField want = dense_lift(r.bb.LIFT, rhs0, flux, K);

  // Per entry: the sparse stages round with depth 7 (L_0 row, and its rounded entries) plus
  // el_width (E_L row) plus 2 (rounded E_L entry, the addition to rhs), relative to the sum of the
  // magnitudes of their terms S = |E_L| |L_0| |flux|. Algorithm 1 instead chains up to N
  // one-degree reductions (3 nonnegative terms each: depth 3 N), then ell_i and a 4-term gather:
  // the same S bounds its terms, since the reductions are nonnegative. The dense LIFT of the
  // Vandermonde route carries (cond(VB) + np + 4 nfp) eps_64 relative to |VBinv| |LIFT| |vbf| |flux|.
  const HostField S = abs_lift_terms(r.bb, flux, K);
  const HostField Sref = abs_dense_lift_terms(r, flux, K);
  const double depth_sparse = 7 + 1 + r.bb.el_width + 2, depth_optimal = 7 + 1 + 3.0 * N + 1 + 4 + 1;
  HostField tol_sparse(S.size()), tol_optimal(S.size()), tol_pair(S.size());
  for (std::size_t i = 0; i < S.size(); ++i) {
    const double ref = (r.cond_vb + np + 4 * nfp) * kEps64 * Sref[i];
    const double add = eps_of<Real>() * std::abs(want[i]);  // the final rounding to Real
    tol_sparse[i] = kSafety * (depth_sparse * eps_of<Real>() * S[i] + add + ref);
    tol_optimal[i] = kSafety * (depth_optimal * eps_of<Real>() * S[i] + add + ref);
    tol_pair[i] = tol_sparse[i] + tol_optimal[i];
  }
  EXPECT_LE(worst_ratio(sparse, want, tol_sparse), 1.0) << "lift_sparse against the dense LIFT";
  EXPECT_LE(worst_ratio(optimal, want, tol_optimal), 1.0) << "lift_optimal against the dense LIFT";
  EXPECT_LE(worst_ratio(sparse, optimal, tol_pair), 1.0) << "lift_sparse against lift_optimal";
}

// --- Blocked nodal kernels against the node-per-thread ones --------------------------------------

template <class Space, class Real, int N>
void blocked_case() {
  using Mem = typename Space::memory_space;
  SCOPED_TRACE(std::string("order ") + std::to_string(N) + ", " + real_name<Real>());
  const Reference& r = reference(N);
  const int K = box().K, np = r.nodal.np, nfp = r.nodal.nfp;
  HostMetric hm;
  const auto ops = nodal_operators<Real, Mem>(r.nodal);
  const auto md = device_mesh<Real, Mem>(hm);
  const HostField q = random_field<Real>(K, np, 31 + N), flux = random_field<Real>(K, 4 * nfp, 32 + N),
                  rhs0 = random_field<Real>(K, np, 33 + N);
  const auto dq = to_device<Real, Mem>(q, K, np);
  const auto dflux = to_device<Real, Mem>(flux, K, 4 * nfp);

  nt::TeamKernels<N, Physics, Space, Real> npt{ops, md, dq, to_device<Real, Mem>(rhs0, K, np), dflux};
  npt.volume(Space(), team_for<Space>(np));
  Space().fence();
  const HostField want_volume = to_host(npt.rhs);
  Kokkos::deep_copy(npt.rhs, to_device<Real, Mem>(rhs0, K, np));
  npt.lift(Space(), team_for<Space>(np));
  Space().fence();
  const HostField want_lift = to_host(npt.rhs);

  // The same sums in the same order: they differ at most by the rounding of each, contracted
  // (fused multiply-add) or not. Volume: np-term sums of |D| |q| <= ||D||_inf Q, the chain rule
  // and the physics (depth np + 6, size 9 M G ||D||_inf Q, twice). Lift: 4 nfp-term sums plus
  // the addition to rhs, size ||LIFT||_inf F + R0.
  const double dnorm = std::max({norm_inf(r.nodal.Dr), norm_inf(r.nodal.Ds), norm_inf(r.nodal.Dt)});
  const double tol_volume =
      kSafety * 2.0 * (np + 6) * eps_of<Real>() * 9.0 * hm.max_coef * hm.max_drdx * dnorm * max_abs(q);
  const double tol_lift =
      kSafety * 2.0 * (4 * nfp + 1) * eps_of<Real>() * (norm_inf(r.nodal.LIFT) * max_abs(flux) + max_abs(rhs0));

  // Block sizes that divide K = 48 and that do not, one above K, and ones above the number of
  // elements staged at once at N = 9 (sub-blocks).
  for (int per_team : {1, 5, 8, 13, 64}) {
    SCOPED_TRACE("elements_per_team " + std::to_string(per_team));
    nt::BlockedKernels<N, Physics, Space, Real> blk{ops, md, dq, to_device<Real, Mem>(rhs0, K, np), dflux, per_team};
    blk.volume(Space());
    Space().fence();
    EXPECT_LE(max_diff(to_host(blk.rhs), want_volume), tol_volume) << "blocked volume";
    Kokkos::deep_copy(blk.rhs, to_device<Real, Mem>(rhs0, K, np));
    blk.lift(Space());
    Space().fence();
    EXPECT_LE(max_diff(to_host(blk.rhs), want_lift), tol_lift) << "blocked lift";
  }
}

// --- Bernstein and nodal operators through the change of basis -----------------------------------
// A smooth nodal field u and its Bernstein coefficients c = VBinv u: the Bernstein kernels on c,
// mapped back by VB, equal the nodal operators on u (applied on the host in double), because
// VB D_B = D_N VB and VB LIFT_B = LIFT_N blockdiag(vbf) hold exactly.

template <class Space, class Real, int N>
void change_of_basis_case() {
  using Mem = typename Space::memory_space;
  SCOPED_TRACE(std::string("order ") + std::to_string(N) + ", " + real_name<Real>());
  const Reference& r = reference(N);
  const int K = box().K, np = r.bb.np, nfp = r.bb.nfp;
  HostMetric hm;
  bt::TeamKernels<N, Physics, Space, Real> bern{
      bt::make_operators<Real, Mem>(r.bb), device_mesh<Real, Mem>(hm), {}, {}, {}};
  const double G = hm.max_drdx, M = hm.max_coef;

  // u at the nodes and the flux f at the face nodes; c = VBinv u and, on each face, the face
  // coefficients vbf^-1 f; the device gets c and the face coefficients rounded to Real.
  HostField u(static_cast<std::size_t>(K) * nf * np), fn(static_cast<std::size_t>(K) * nf * 4 * nfp);
  HostField c(u.size()), fb(fn.size());
  for (int e = 0; e < K; ++e)
    for (int f = 0; f < nf; ++f) {
      for (int i = 0; i < np; ++i) {
        const std::size_t g = static_cast<std::size_t>(e) * np + i;
        u[at(e, f, i, np)] = smooth(f, r.nodes.x[g], r.nodes.y[g], r.nodes.z[g]);
      }
      for (int face = 0; face < 4; ++face)
        for (int q = 0; q < nfp; ++q) {
          const std::size_t g = static_cast<std::size_t>(e) * np + r.nodal.fmask[face][q];
          fn[at(e, f, face * nfp + q, 4 * nfp)] = smooth(f + 2, r.nodes.x[g], r.nodes.y[g], r.nodes.z[g]);
        }
      const Eigen::Map<const Eigen::VectorXd> x(u.data() + at(e, f, 0, np), np);
      Eigen::Map<Eigen::VectorXd>(c.data() + at(e, f, 0, np), np) = r.bb.VBinv * x;
      for (int face = 0; face < 4; ++face) {
        const Eigen::Map<const Eigen::VectorXd> y(fn.data() + at(e, f, face * nfp, 4 * nfp), nfp);
        Eigen::Map<Eigen::VectorXd>(fb.data() + at(e, f, face * nfp, 4 * nfp), nfp) = r.vbf_inv[face] * y;
      }
    }
  // How far the double transforms are from inverting VB and vbf: VB c - u and vbf fb - f.
  double res_u = 0.0, res_f = 0.0;
  for (int e = 0; e < K; ++e)
    for (int f = 0; f < nf; ++f) {
      const Eigen::Map<const Eigen::VectorXd> x(c.data() + at(e, f, 0, np), np), y(u.data() + at(e, f, 0, np), np);
      res_u = std::max(res_u, (r.bb.VB * x - y).cwiseAbs().maxCoeff());
      for (int face = 0; face < 4; ++face) {
        const Eigen::Map<const Eigen::VectorXd> a(fb.data() + at(e, f, face * nfp, 4 * nfp), nfp),
            b(fn.data() + at(e, f, face * nfp, 4 * nfp), nfp);
        res_f = std::max(res_f, (r.vbf[face] * a - b).cwiseAbs().maxCoeff());
      }
    }
  round_to<Real>(c);
  round_to<Real>(fb);
  const double U = max_abs(u), F = max_abs(fn), C = max_abs(c);
  const HostField zero(u.size(), 0.0);

  // Volume. VB's rows are nonnegative and sum to 1 (||VB||_inf = 1): VB passes the Bernstein
  // kernel's error (depth 12, size 9 M G N C, see the volume test) and that of rounding c to Real
  // through the exact D_B (row sums N: 9 M G N eps C) unchanged. The residual VB c - u reaches
  // the result through D_N (9 M G ||D_N||_inf), as do the host products (np-term sums in double:
  // np eps_64 U each, for D_N u and for VB times the result).
  bern.q = to_device<Real, Mem>(c, K, np);
  bern.rhs = to_device<Real, Mem>(zero, K, np);
  bern.volume(Space(), team_for<Space>(np));
  Space().fence();
  {
    const HostField got = to_nodal(r.bb.VB, to_host(bern.rhs), K);
    const HostField want = dense_volume(r.nodal.Dr, r.nodal.Ds, r.nodal.Dt, hm, u, K);
    const double dn = std::max({norm_inf(r.nodal.Dr), norm_inf(r.nodal.Ds), norm_inf(r.nodal.Dt)});
    const double tol = kSafety * ((12.0 + 1.0) * eps_of<Real>() * 9.0 * M * G * N * C +
                                  9.0 * M * G * dn * (res_u + 2.0 * np * kEps64 * U));
    EXPECT_LE(max_diff(got, want), tol) << "volume: VB * Bernstein against nodal";
  }

  // Lift. Per entry the Bernstein kernels' error is their depth (see the lift test) times
  // S = |E_L| |L_0| |fb|, plus one more for the rounding of fb; VB passes their maximum. The
  // residual vbf fb - f of the face transforms and the host products reach the result through
  // LIFT_N.
  const HostField want = dense_lift(r.nodal.LIFT, zero, fn, K);
  const double S = max_abs(abs_lift_terms(r.bb, fb, K));
  const double ref = norm_inf(r.nodal.LIFT) * (res_f + 2.0 * (np + 4 * nfp) * kEps64 * F);
  bern.flux = to_device<Real, Mem>(fb, K, 4 * nfp);
  bern.rhs = to_device<Real, Mem>(zero, K, np);
  bern.lift_sparse(Space(), team_for<Space>(np));
  Space().fence();
  const double tol_sparse = kSafety * ((7 + 1 + r.bb.el_width + 2 + 1) * eps_of<Real>() * S + ref);
  EXPECT_LE(max_diff(to_nodal(r.bb.VB, to_host(bern.rhs), K), want), tol_sparse)
      << "lift_sparse: VB * Bernstein against nodal";
  Kokkos::deep_copy(bern.rhs, Real(0));
  bern.lift_optimal(Space(), team_for<Space>(np));
  Space().fence();
  const double tol_optimal = kSafety * ((7 + 1 + 3.0 * N + 1 + 4 + 1 + 1) * eps_of<Real>() * S + ref);
  EXPECT_LE(max_diff(to_nodal(r.bb.VB, to_host(bern.rhs), K), want), tol_optimal)
      << "lift_optimal: VB * Bernstein against nodal";
}

// --- Order and precision loops (free templates: the kernels launch from here, not from test
// bodies) ---------------------------------------------------------------------------------------

template <class Space, class Real>
void bernstein_volume_all() {
  for (int n = 1; n <= max_compiled_order; ++n)
    dispatch_order(n, [](auto o) { bernstein_volume_case<Space, Real, decltype(o)::value>(); });
}
template <class Space, class Real>
void bernstein_lift_all() {
  for (int n = 1; n <= max_compiled_order; ++n)
    dispatch_order(n, [](auto o) { bernstein_lift_case<Space, Real, decltype(o)::value>(); });
}
template <class Space, class Real>
void blocked_all() {
  for (int n = 1; n <= max_compiled_order; ++n)
    dispatch_order(n, [](auto o) { blocked_case<Space, Real, decltype(o)::value>(); });
}
template <class Space, class Real>
void change_of_basis_all() {
  for (int n = 1; n <= max_compiled_order; ++n)
    dispatch_order(n, [](auto o) { change_of_basis_case<Space, Real, decltype(o)::value>(); });
}

template <class Space>
class TetKernelVariants : public ::testing::Test {};
TYPED_TEST_SUITE(TetKernelVariants, ExecutionSpaces, SpaceNames);

TYPED_TEST(TetKernelVariants, BernsteinVolumeMatchesDenseDerivatives) {
  bernstein_volume_all<TypeParam, double>();
  bernstein_volume_all<TypeParam, float>();
}

TYPED_TEST(TetKernelVariants, BernsteinLiftsMatchDenseLiftAndEachOther) {
  bernstein_lift_all<TypeParam, double>();
  bernstein_lift_all<TypeParam, float>();
}

TYPED_TEST(TetKernelVariants, BlockedNodalMatchesNodePerThread) {
  blocked_all<TypeParam, double>();
  blocked_all<TypeParam, float>();
}

TYPED_TEST(TetKernelVariants, BernsteinMatchesNodalThroughChangeOfBasis) {
  change_of_basis_all<TypeParam, double>();
  change_of_basis_all<TypeParam, float>();
}

}  // namespace
}  // namespace dgk::Testing
