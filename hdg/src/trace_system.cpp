// Assembly, CRS conversion, conjugate gradients, recovery and errors of the HDG trace system.
#include "dgk/hdg/trace_system.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "dgk/core/error.hpp"
#include "dgk/kernels/hdg/local_solver.hpp"

namespace dgk::hdg {

namespace {

template <class Mem, class T>
Kokkos::View<T*, Mem> to_device(const std::vector<T>& v, const std::string& name) {
  Kokkos::View<T*, Mem> d(name, v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::deep_copy(d, h);
  return d;
}

// Physical coordinates of a reference point of element e.
void element_point(const TraceMesh& t, int e, const double* ref, double* x) {
  const auto& v = t.vertex_xyz[static_cast<std::size_t>(e)];
  const int dim = t.dim;
  for (int d = 0; d < dim; ++d) {
    double s = v[static_cast<std::size_t>(d)];
    for (int r = 0; r < dim; ++r)
      s += 0.5 * (1.0 + ref[r]) * (v[static_cast<std::size_t>((r + 1) * dim + d)] - v[static_cast<std::size_t>(d)]);
    x[d] = s;
  }
}

template <class Space>
double dot(const Kokkos::View<double*, typename Space::memory_space>& a,
           const Kokkos::View<double*, typename Space::memory_space>& b) {
  double s = 0;
  Kokkos::parallel_reduce(
      "dgk::hdg::dot", Kokkos::RangePolicy<Space>(0, a.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i, double& acc) { acc += a(i) * b(i); }, s);
  return s;
}

}  // namespace

PoissonProblem PoissonProblem::cosine(int dim) {
  PoissonProblem p;
  p.name = "cos(pi x) cos(pi y)" + std::string(dim == 3 ? " cos(pi z)" : "") + " + x";
  p.u = [dim](const double* x) {
    double v = 1;
    for (int d = 0; d < dim; ++d) v *= std::cos(M_PI * x[d]);
    return v + x[0];
  };
  p.f = [dim](const double* x) {
    double v = dim * M_PI * M_PI;
    for (int d = 0; d < dim; ++d) v *= std::cos(M_PI * x[d]);
    return v;
  };
  return p;
}

template <class Real, class Space>
TraceMatrix<Real, Space> convert(const TraceMatrix<double, Space>& a) {
  TraceMatrix<Real, Space> out;
  out.dbf.m = a.dbf.m;
  out.dbf.r = a.dbf.r;
  out.dbf.na = a.dbf.na;
  out.dbf.nbr = a.dbf.nbr;
  out.num_neighbours = a.num_neighbours;
  out.dbf.A = decltype(out.dbf.A)(Kokkos::view_alloc("hdg::A", Kokkos::WithoutInitializing), a.dbf.A.extent(0),
                                  a.dbf.A.extent(1), a.dbf.A.extent(2));
  const auto src = a.dbf.A;
  const auto dst = out.dbf.A;
  Kokkos::parallel_for(
      "dgk::hdg::convert", Kokkos::RangePolicy<Space>(0, src.size()),
      KOKKOS_LAMBDA(const std::size_t k) { dst.data()[k] = static_cast<Real>(src.data()[k]); });
  return out;
}

template <class Real, class Space>
CrsMatrix<Real, Space> to_crs(const TraceMatrix<Real, Space>& a) {
  const int m = a.dbf.m, r = a.dbf.r;
  auto A = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.dbf.A);
  auto nbr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.dbf.nbr);
  using Crs = CrsMatrix<Real, Space>;
  const long long rows = a.rows();
  typename Crs::row_map_type::non_const_type row_map("hdg::crs_rows", rows + 1);
  auto hrow = Kokkos::create_mirror_view(row_map);
  hrow(0) = 0;
  for (int l = 0; l < r; ++l)
    for (int i = 0; i < m; ++i) {
      const long long row = i + static_cast<long long>(m) * l;
      hrow(row + 1) = hrow(row) + m * a.num_neighbours[static_cast<std::size_t>(l)];
    }
  DGK_THROW_IF(hrow(rows) > std::numeric_limits<int>::max(), "HDG: the CRS matrix has more than 2^31 entries");
  const int nnz = hrow(rows);
  typename Crs::index_type::non_const_type cols("hdg::crs_cols", nnz);
  typename Crs::values_type::non_const_type vals("hdg::crs_vals", nnz);
  auto hcol = Kokkos::create_mirror_view(cols);
  auto hval = Kokkos::create_mirror_view(vals);
  for (int l = 0; l < r; ++l)
    for (int i = 0; i < m; ++i) {
      int k = hrow(i + static_cast<long long>(m) * l);
      for (int s = 0; s < a.num_neighbours[static_cast<std::size_t>(l)]; ++s)
        for (int j = 0; j < m; ++j, ++k) {
          hcol(k) = j + m * nbr(l, s);
          hval(k) = A(i, l, j + m * s);
        }
    }
  Kokkos::deep_copy(row_map, hrow);
  Kokkos::deep_copy(cols, hcol);
  Kokkos::deep_copy(vals, hval);
  return Crs("hdg::crs", static_cast<int>(rows), static_cast<int>(rows), nnz, vals, row_map, cols);
}

template <class Space>
HdgPoisson<Space>::HdgPoisson(TraceMesh mesh, const PoissonOptions& options, PoissonProblem problem)
    : mesh_(std::move(mesh)),
      ref_(make_hdg_reference(mesh_.dim, options.order)),
      options_(options),
      problem_(std::move(problem)) {
  DGK_THROW_IF(!(options.tau > 0) || !std::isfinite(options.tau),
               "HDG: tau must be positive (got " << options.tau << ")");
  const auto start = std::chrono::steady_clock::now();
  const int ne = mesh_.num_elements(), nf = mesh_.num_faces(), dim = mesh_.dim;
  const int np = ref_.np, nfp = ref_.nfp, nfc = ref_.nfaces;
  kernels::hdg::LocalSolverData<Space> d;
  d.dim = dim;
  d.np = np;
  d.nfp = nfp;
  d.nfaces = nfc;
  d.nperm = ref_.nperm;
  d.tau = options.tau;
  using M3 = Kokkos::View<double***, Kokkos::LayoutRight, Mem>;
  using M2 = Kokkos::View<double**, Kokkos::LayoutRight, Mem>;
  using I2 = Kokkos::View<int**, Kokkos::LayoutRight, Mem>;
  auto fill3 = [](M3 v, const std::vector<Eigen::MatrixXd>& ms) {
    auto h = Kokkos::create_mirror_view(v);
    for (std::size_t a = 0; a < ms.size(); ++a)
      for (Eigen::Index i = 0; i < ms[a].rows(); ++i)
        for (Eigen::Index j = 0; j < ms[a].cols(); ++j) h(a, i, j) = ms[a](i, j);
    Kokkos::deep_copy(v, h);
    return v;
  };
  d.Dr = fill3(M3("hdg::Dr", dim, np, np), ref_.Dr);
  d.S = fill3(M3("hdg::S", nfc, np, np), ref_.S);
  d.F = fill3(M3("hdg::F", nfc * ref_.nperm, np, nfp), ref_.F);
  d.J = to_device<Mem>(mesh_.J, "hdg::J");
  auto upload = [&](auto v, auto&& value, int width) {
    auto h = Kokkos::create_mirror_view(v);
    for (int e = 0; e < ne; ++e)
      for (int k = 0; k < width; ++k) h(e, k) = value(e, k);
    Kokkos::deep_copy(v, h);
    return v;
  };
  const auto E = [](int e) { return static_cast<std::size_t>(e); };
  const auto K = [](int k) { return static_cast<std::size_t>(k); };
  d.drdx = upload(
      M2("hdg::drdx", ne, dim * dim), [&](int e, int k) { return mesh_.drdx[E(e)][K(k)]; }, dim * dim);
  d.normal = upload(
      M2("hdg::normal", ne, nfc * dim), [&](int e, int k) { return mesh_.normal[E(e)][K(k)]; }, nfc * dim);
  d.sJ = upload(
      M2("hdg::sJ", ne, nfc), [&](int e, int k) { return mesh_.sJ[E(e)][K(k)]; }, nfc);
  d.orient = upload(
      I2("hdg::orient", ne, nfc), [&](int e, int k) { return mesh_.element_orientation[E(e)][K(k)]; }, nfc);
  d.eface = upload(
      I2("hdg::eface", ne, nfc), [&](int e, int k) { return mesh_.element_face[E(e)][K(k)]; }, nfc);
  {
    d.face_element = I2("hdg::face_element", nf, 2);
    auto h = Kokkos::create_mirror_view(d.face_element);
    for (int l = 0; l < nf; ++l)
      for (int s = 0; s < 2; ++s) h(l, s) = mesh_.face_element[E(l)][K(s)];
    Kokkos::deep_copy(d.face_element, h);
  }

  // Right-hand side per element: f_K(k) = J sum_q w_q f(x_q) phi_k(x_q).
  fK_ = M2("hdg::fK", ne, np);
  {
    auto h = Kokkos::create_mirror_view(fK_);
    const int nq = static_cast<int>(ref_.quad_weights.size());
    std::vector<double> fx(static_cast<std::size_t>(nq));
    for (int e = 0; e < ne; ++e) {
      for (int qp = 0; qp < nq; ++qp) {
        double x[3], rp[3];
        for (int r = 0; r < dim; ++r) rp[r] = ref_.quad_points(qp, r);
        element_point(mesh_, e, rp, x);
        fx[K(qp)] = problem_.f(x) * ref_.quad_weights(qp) * mesh_.J[E(e)];
      }
      for (int k = 0; k < np; ++k) {
        double s = 0;
        for (int qp = 0; qp < nq; ++qp) s += fx[K(qp)] * ref_.quad_V(qp, k);
        h(e, k) = s;
      }
    }
    Kokkos::deep_copy(fK_, h);
  }

  // Dirichlet data: L2 projection of u on each boundary face (orthonormal face basis).
  Vector g("hdg::dirichlet", static_cast<std::size_t>(nf) * nfp);
  Kokkos::View<int*, Mem> boundary("hdg::boundary", nf);
  {
    auto hg = Kokkos::create_mirror_view(g);
    auto hb = Kokkos::create_mirror_view(boundary);
    const int nq = static_cast<int>(ref_.face_weights.size());
    for (int l = 0; l < nf; ++l) {
      hb(l) = mesh_.is_boundary(l) ? 1 : 0;
      if (!hb(l)) continue;
      const auto& fx = mesh_.face_xyz[E(l)];
      for (int qp = 0; qp < nq; ++qp) {
        double x[3] = {0, 0, 0};
        for (int v = 0; v < dim; ++v)
          for (int c = 0; c < dim; ++c) x[c] += ref_.face_bary(qp, v) * fx[K(v * dim + c)];
        const double uw = problem_.u(x) * ref_.face_weights(qp);
        for (int m = 0; m < nfp; ++m) hg(m + static_cast<std::size_t>(nfp) * l) += uw * ref_.face_V(qp, m);
      }
    }
    Kokkos::deep_copy(g, hg);
    Kokkos::deep_copy(boundary, hb);
  }

  // The dense block matrix.
  auto& a = matrix_.dbf;
  a.m = nfp;
  a.r = nf;
  a.na = mesh_.num_slots;
  a.A = decltype(a.A)("hdg::A", nfp, nf, nfp * a.na);
  a.nbr = decltype(a.nbr)("hdg::nbr", nf, a.na);
  {
    auto h = Kokkos::create_mirror_view(a.nbr);
    for (int l = 0; l < nf; ++l)
      for (int s = 0; s < a.na; ++s) h(l, s) = mesh_.neighbours[E(l * a.na + s)];
    Kokkos::deep_copy(a.nbr, h);
  }
  matrix_.num_neighbours = mesh_.num_neighbours;
  rhs_ = Vector("hdg::rhs", static_cast<std::size_t>(nf) * nfp);
  trace_ = Vector("hdg::trace", static_cast<std::size_t>(nf) * nfp);

  // Static condensation in batches that bound the workspace to about 256 MB.
  const double element_bytes = 8.0 * (np * np + 2.0 * np * nfc * nfp);
  const int batch = std::max(1, std::min(ne, static_cast<int>(256e6 / element_bytes)));
  kernels::hdg::LocalWorkspace<Space> w(batch, np, nfc * nfp);
  const Kokkos::View<const double**, Kokkos::LayoutRight, Mem> fK = fK_;
  for (int e0 = 0; e0 < ne; e0 += batch) kernels::hdg::condense(d, w, e0, std::min(ne, e0 + batch), fK, a.A, rhs_);
  kernels::hdg::apply_dirichlet<Space>(nfp, a.na, nf, a.nbr, boundary, g, a.A, rhs_);
  Kokkos::fence();
  assembly_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  data_ = d;
}

template <class Space>
CgResult HdgPoisson<Space>::solve(const CgOptions& options) {
  const auto n = static_cast<std::size_t>(trace_unknowns());
  const int max_it = options.max_iterations > 0 ? options.max_iterations : static_cast<int>(n) + 10;
  DGK_THROW_IF(!(options.tolerance > 0), "HDG: the CG tolerance must be positive (got " << options.tolerance << ")");
  Vector x = trace_, r("hdg::cg_r", n), p("hdg::cg_p", n), ap("hdg::cg_ap", n);
  const Vector b = rhs_;
  Kokkos::deep_copy(x, 0.0);
  Kokkos::deep_copy(r, b);
  Kokkos::deep_copy(p, b);
  const double bnorm = std::sqrt(dot<Space>(b, b));
  CgResult res;
  if (bnorm == 0) return res;
  double rr = bnorm * bnorm;
  const auto& a = matrix_.dbf;
  while (std::sqrt(rr) > options.tolerance * bnorm) {
    DGK_THROW_IF(res.iterations >= max_it, "HDG: conjugate gradients did not reach the relative residual "
                                               << options.tolerance << " in " << max_it << " iterations (at "
                                               << std::sqrt(rr) / bnorm << ")");
    kernels::hdg::fused(a, p, ap);
    const double pap = dot<Space>(p, ap);
    DGK_THROW_IF(!(pap > 0), "HDG: the trace matrix is not positive definite (p^T A p = " << pap << " at iteration "
                                                                                          << res.iterations << ")");
    const double alpha = rr / pap;
    double rr_new = 0;
    Kokkos::parallel_reduce(
        "dgk::hdg::cg_update", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(const std::size_t i, double& acc) {
          x(i) += alpha * p(i);
          r(i) -= alpha * ap(i);
          acc += r(i) * r(i);
        },
        rr_new);
    const double beta = rr_new / rr;
    rr = rr_new;
    Kokkos::parallel_for(
        "dgk::hdg::cg_direction", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(const std::size_t i) { p(i) = r(i) + beta * p(i); });
    ++res.iterations;
  }
  res.relative_residual = std::sqrt(rr) / bnorm;
  return res;
}

template <class Space>
std::vector<double> HdgPoisson<Space>::element_unknowns() const {
  const int ne = mesh_.num_elements(), np = ref_.np;
  const int batch = std::max(1, std::min(ne, static_cast<int>(256e6 / (8.0 * (np * np + 2.0 * np * data_.nl())))));
  kernels::hdg::LocalWorkspace<Space> w(batch, np, data_.nl());
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> u("hdg::u", ne, np);
  const Kokkos::View<const double**, Kokkos::LayoutRight, Mem> fK = fK_;
  for (int e0 = 0; e0 < ne; e0 += batch) kernels::hdg::recover(data_, w, e0, std::min(ne, e0 + batch), fK, trace_, u);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  return std::vector<double>(h.data(), h.data() + h.size());
}

template <class Space>
double HdgPoisson<Space>::l2_error() const {
  const auto u = element_unknowns();
  const int ne = mesh_.num_elements(), np = ref_.np, dim = mesh_.dim;
  const int nq = static_cast<int>(ref_.quad_weights.size());
  double sum = 0;
  for (int e = 0; e < ne; ++e)
    for (int qp = 0; qp < nq; ++qp) {
      double rp[3], x[3];
      for (int r = 0; r < dim; ++r) rp[r] = ref_.quad_points(qp, r);
      element_point(mesh_, e, rp, x);
      double uh = 0;
      for (int k = 0; k < np; ++k) uh += u[static_cast<std::size_t>(e) * np + k] * ref_.quad_V(qp, k);
      const double diff = uh - problem_.u(x);
      sum += diff * diff * ref_.quad_weights(qp) * mesh_.J[static_cast<std::size_t>(e)];
    }
  return std::sqrt(sum);
}

#define DGK_HDG_INSTANTIATE(SPACE)                                                               \
  template class HdgPoisson<SPACE>;                                                              \
  template TraceMatrix<float, SPACE> convert<float, SPACE>(const TraceMatrix<double, SPACE>&);   \
  template TraceMatrix<double, SPACE> convert<double, SPACE>(const TraceMatrix<double, SPACE>&); \
  template CrsMatrix<float, SPACE> to_crs<float, SPACE>(const TraceMatrix<float, SPACE>&);       \
  template CrsMatrix<double, SPACE> to_crs<double, SPACE>(const TraceMatrix<double, SPACE>&);

#ifdef KOKKOS_ENABLE_SERIAL
DGK_HDG_INSTANTIATE(Kokkos::Serial)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
DGK_HDG_INSTANTIATE(Kokkos::OpenMP)
#endif
#ifdef KOKKOS_ENABLE_CUDA
DGK_HDG_INSTANTIATE(Kokkos::Cuda)
#endif

}  // namespace dgk::hdg
