#include "dgk/physics/cases.hpp"

namespace dgk::physics {

const std::vector<CaseInfo>& cases() {
  static const std::vector<CaseInfo> list{
      {"maxwell3d", "3D Maxwell, nodal DG on tetrahedra, upwind flux, PEC walls (LSERK4)"},
      {"acoustic3d", "3D acoustic waves, nodal or Bernstein-Bezier DG on tetrahedra, upwind flux (LSERK4)"},
      {"maxwell2d", "2D Maxwell (TM), nodal DG on triangles, upwind or central flux, PEC walls (LSERK4)"},
      {"euler2d",
       "2D compressible Euler, modal DG on triangles, HLLC or Lax-Friedrichs flux, Barth-Jespersen limiter (SSP-RK)"},
  };
  return list;
}

}  // namespace dgk::physics
