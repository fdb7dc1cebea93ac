// The HDG product benchmark: bytes counted as paper 001 counts them, times as medians of fenced
// repetitions after a warm-up, bandwidth as a fraction of the copy bandwidth measured in the
// same run.
#include "bench_hdg.hpp"

#include <cmath>
#include <iomanip>

#include <Kokkos_Core.hpp>
// After Kokkos_Core.hpp: KokkosKernels 3.4's headers use Kokkos without including it.
#include <KokkosSparse_spmv.hpp>

#include "dgk/backends/ceilings.hpp"
#include "dgk/core/error.hpp"
#include "dgk/hdg/trace_system.hpp"
#include "dgk/io/report.hpp"
#include "dgk/mesh/tet_mesh.hpp"
#include "dgk/mesh/tri_mesh.hpp"
#include "text.hpp"

namespace dgk::app {

namespace {

// The mesh with about `faces` faces: rect:n has 3n^2 + 2n edges, box:n has 12n^3 + 6n^2 faces.
std::string mesh_for(int dim, long faces) {
  int best = 1;
  for (int n = 1; n < 2000; ++n) {
    const double f = dim == 2 ? 3.0 * n * n + 2.0 * n : 12.0 * n * n * n + 6.0 * n * n;
    const double fb = dim == 2 ? 3.0 * best * best + 2.0 * best : 12.0 * best * best * best + 6.0 * best * best;
    if (std::abs(f - faces) < std::abs(fb - faces)) best = n;
    if (f > 2.0 * faces) break;
  }
  return (dim == 2 ? "rect:" : "box:") + std::to_string(best);
}

template <class Space, class Real>
void bench(const HdgBenchOptions& o, std::ostream& out) {
  using namespace dgk::hdg;
  const auto ceil = backends::measure_ceilings<Space, Real>();
  const std::string spec = mesh_for(o.dim, o.faces);
  const TraceMesh tmesh =
      o.dim == 2 ? make_trace_mesh(mesh::load_tri_mesh(spec)) : make_trace_mesh(mesh::load_tet_mesh(spec));
  out << "dgk bench hdg: " << o.dim << "D, mesh " << spec << " (" << tmesh.num_elements() << " elements, "
      << tmesh.num_faces() << " faces), " << backend_name(o.backend) << ", " << o.precision << ", median of " << o.reps
      << "\n  measured copy bandwidth " << fmt(ceil.copy_bytes_per_s / 1e9, 1)
      << " GB/s (read+write); bytes counted as paper 001: A, the input read once, the output\n"
      << "  BSR: not in KokkosKernels 3.4.01 (the installed version), so no BSR row\n";
  io::Report rep;
  rep.set("dim", o.dim);
  rep.set("mesh", spec);
  rep.set("faces", tmesh.num_faces());
  rep.set("backend", backend_name(o.backend));
  rep.set("precision", o.precision);
  rep.set("copy_gbytes_per_s", ceil.copy_bytes_per_s / 1e9);
  out << std::setw(3) << "p" << std::setw(6) << "m" << std::setw(11) << "unknowns" << std::setw(10) << "DBF MB"
      << std::setw(10) << "CRS MB" << std::setw(10) << "product" << std::setw(11) << "time ms" << std::setw(9) << "GB/s"
      << std::setw(10) << "of copy" << std::setw(12) << "CRS/this"
      << "\n";
  const Space space;
  for (int p : o.orders) {
    HdgPoisson<Space> hdg(tmesh, PoissonOptions{p, 1.0}, PoissonProblem::cosine(o.dim));
    const auto a = convert<Real, Space>(hdg.matrix());
    const auto crs = to_crs(a);
    const auto n = static_cast<std::size_t>(a.rows());
    const int m = a.dbf.m, q = a.dbf.q(), r = a.dbf.r, na = a.dbf.na;
    Kokkos::View<Real*, Space> x("x", n), y("y", n);
    Kokkos::View<Real**, Kokkos::LayoutLeft, Space> X("X", q, r);
    Kokkos::deep_copy(x, Real(1));
    const double s = sizeof(Real);
    const double idx = static_cast<double>(r) * na * sizeof(int);
    const double t_v = backends::median_seconds(space, o.reps, [&] { kernels::hdg::gather(a.dbf, x, X); });
    const double t_c = backends::median_seconds(space, o.reps, [&] { kernels::hdg::contract(a.dbf, X, y); });
    const double t_f = backends::median_seconds(space, o.reps, [&] { kernels::hdg::fused(a.dbf, x, y); });
    const double t_crs =
        backends::median_seconds(space, o.reps, [&] { KokkosSparse::spmv("N", Real(1), crs, x, Real(0), y); });
    struct Row {
      const char* name;
      double seconds, bytes;
    };
    const double mr = static_cast<double>(m) * r, mrq = mr * q, qr = static_cast<double>(q) * r;
    const Row rows[] = {
        {"t_v", t_v, (qr + mr) * s + idx},
        {"t_c", t_c, (mr + mrq + qr) * s},
        {"t_v+t_c", t_v + t_c, (2 * qr + 2 * mr + mrq) * s + idx},
        {"fused", t_f, (mrq + 2 * mr) * s + idx},
        {"CRS", t_crs, crs_bytes<Real, Space>(crs) + 2 * mr * s},
    };
    for (const auto& row : rows) {
      const double gbs = row.bytes / row.seconds / 1e9;
      out << std::setw(3) << p << std::setw(6) << m << std::setw(11) << n << std::setw(10) << fmt(a.bytes() / 1e6, 2)
          << std::setw(10) << fmt(crs_bytes<Real, Space>(crs) / 1e6, 2) << std::setw(10) << row.name << std::setw(11)
          << fmt(row.seconds * 1e3, 4) << std::setw(9) << fmt(gbs, 1) << std::setw(9)
          << fmt(100 * row.bytes / row.seconds / ceil.copy_bytes_per_s, 1) << "%" << std::setw(11)
          << fmt(t_crs / row.seconds, 2) << "x\n";
      io::Report rr;
      rr.set("order", p);
      rr.set("product", std::string(row.name));
      rr.set("unknowns", static_cast<long long>(n));
      rr.set("dbf_mbytes", a.bytes() / 1e6);
      rr.set("crs_mbytes", crs_bytes<Real, Space>(crs) / 1e6);
      rr.set("seconds", row.seconds);
      rr.set("bytes", row.bytes);
      rr.set("gbytes_per_s", gbs);
      rr.set("copy_fraction", row.bytes / row.seconds / ceil.copy_bytes_per_s);
      rr.set("crs_over_this", t_crs / row.seconds);
      rep.add_row("products", rr);
    }
  }
  if (!o.report.empty()) rep.write_json(o.report);
}

}  // namespace

void bench_hdg(const HdgBenchOptions& o, std::ostream& out) {
  DGK_THROW_IF(o.dim != 2 && o.dim != 3, "--dim must be 2 or 3 (got " << o.dim << ")");
  DGK_THROW_IF(o.faces < 1, "--faces must be positive (got " << o.faces << ")");
  DGK_THROW_IF(o.reps < 1, "--reps must be positive (got " << o.reps << ")");
  for (int p : o.orders) DGK_THROW_IF(p < 1 || p > 10, "HDG orders are 1..10 (got " << p << ")");
  const bool f = o.precision == "float";
  DGK_THROW_IF(!f && o.precision != "double", "--precision must be float or double (got '" << o.precision << "')");
  switch (o.backend) {
#ifdef KOKKOS_ENABLE_SERIAL
    case Backend::Serial:
      f ? bench<Kokkos::Serial, float>(o, out) : bench<Kokkos::Serial, double>(o, out);
      return;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    case Backend::OpenMP:
      f ? bench<Kokkos::OpenMP, float>(o, out) : bench<Kokkos::OpenMP, double>(o, out);
      return;
#endif
#ifdef KOKKOS_ENABLE_CUDA
    case Backend::Cuda:
      f ? bench<Kokkos::Cuda, float>(o, out) : bench<Kokkos::Cuda, double>(o, out);
      return;
#endif
    default:
      break;
  }
  DGK_THROW_IF(true, "backend " << backend_name(o.backend) << " is not enabled in this build");
}

}  // namespace dgk::app
