// Embeds dgk: the program owns Kokkos, dgk runs a short Maxwell cavity simulation in it.
#include <cmath>
#include <iostream>

#include <Kokkos_Core.hpp>

#include "dgk/physics/tet_case.hpp"

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int rc = 0;
  {
    dgk::physics::CaseOptions o;
    o.order = 2;
    o.mesh = "box:2";
    o.final_time = 0.1;
    dgk::physics::TetCase cs(o);
    for (int s = 0; s < cs.steps(); ++s) cs.simulation().step(cs.dt());
    const double err = cs.simulation().l2_error(*cs.exact());
    std::cout << "find_package consumer: " << cs.steps() << " steps, L2 error " << err << "\n";
    rc = std::isfinite(err) && err < 0.1 ? 0 : 1;
  }
  Kokkos::finalize();
  return rc;
}
