// Builds dgk inside the project: takes the order-3 differentiation matrix to the device and
// differentiates r^3 there.
#include <cmath>
#include <iostream>

#include <Kokkos_Core.hpp>

#include "dgk/basis/tetrahedron.hpp"

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int rc = 0;
  {
    const auto ref = dgk::basis::make_tet_nodal(3);
    const int np = ref.np;
    Kokkos::View<double**, Kokkos::LayoutLeft> Dr("Dr", np, np);
    Kokkos::View<double*> u("u", np), du("du", np);
    auto hDr = Kokkos::create_mirror_view(Dr);
    auto hu = Kokkos::create_mirror_view(u);
    for (int i = 0; i < np; ++i) {
      hu(i) = std::pow(ref.r(i), 3);
      for (int j = 0; j < np; ++j) hDr(i, j) = ref.Dr(i, j);
    }
    Kokkos::deep_copy(Dr, hDr);
    Kokkos::deep_copy(u, hu);
    Kokkos::parallel_for("consumer::dr", np, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int j = 0; j < np; ++j) s += Dr(i, j) * u(j);
      du(i) = s;
    });
    auto hdu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), du);
    double err = 0;
    for (int i = 0; i < np; ++i) err = std::max(err, std::abs(hdu(i) - 3 * ref.r(i) * ref.r(i)));
    std::cout << "add_subdirectory consumer: max error of d(r^3)/dr = " << err << "\n";
    rc = err < 1e-12 ? 0 : 1;
  }
  Kokkos::finalize();
  return rc;
}
