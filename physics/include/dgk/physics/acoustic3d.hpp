// The 3D acoustic wave equation as a first-order system (paper 002, section 2):
//   (1 / kappa) p_t + div u = 0,   rho u_t + grad p = 0,   u = (p, ux, uy, uz),
// with density rho and bulk modulus kappa constant per element, the upwind flux of paper 002
// (tau_p = 1 / {{rho c}}, tau_u = {{rho c}}, c^2 = kappa / rho) and the mirror condition
// p+ = -p-, u+ = u- for p = 0 on the boundary (Dirichlet).
#pragma once

#include <array>
#include <cmath>

#include <Kokkos_Core.hpp>

namespace dgk::physics {

struct Acoustic3D {
  static constexpr int num_fields = 4;
  static constexpr const char* name = "acoustic3d";
  static constexpr const char* field_names[4] = {"p", "ux", "uy", "uz"};
  /// Material coefficients per element: (rho, kappa).
  static constexpr const char* material_names[2] = {"rho", "kappa"};

  /// Boundary condition codes: mirror (p = 0, the paper's Dirichlet condition) and a rigid
  /// wall (u.n = 0: p+ = p-, u+ = u- - 2 (u-.n) n).
  enum Bc : int { Dirichlet = 0, Wall = 1 };
  static constexpr int num_bcs = 2;
  static constexpr const char* bc_names[2] = {"dirichlet", "wall"};

  /// p_t = -kappa div u, u_t = -grad p / rho, from grad[d][field].  9 flops.
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION static void volume(const Real (&grad)[3][4], const Real (&mat)[2], Real (&out)[4]) {
    const Real irho = Real(1) / mat[0];
    out[0] = -mat[1] * (grad[0][1] + grad[1][2] + grad[2][3]);
    out[1] = -irho * grad[0][0];
    out[2] = -irho * grad[1][0];
    out[3] = -irho * grad[2][0];
  }
  static constexpr int volume_flops = 9;

  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION static void boundary_state(int bc, const Real (&n)[3], const Real (&qm)[4],
                                                         Real (&qp)[4]) {
    if (bc == Wall) {
      const Real un = n[0] * qm[1] + n[1] * qm[2] + n[2] * qm[3];
      qp[0] = qm[0];
      for (int d = 0; d < 3; ++d) qp[d + 1] = qm[d + 1] - Real(2) * un * n[d];
    } else {
      qp[0] = -qm[0];
      for (int d = 1; d < 4; ++d) qp[d] = qm[d];
    }
  }

  /// The surface terms of paper 002's equations (1) and (2), divided by the mass coefficients
  /// 1/kappa- and rho- so that the lifted value adds to the right-hand side:
  ///   p: kappa- (tau_p [[p]] - n.[[u]]) / 2,   u: n (tau_u n.[[u]] - [[p]]) / (2 rho-),
  /// with tau_p = 1 / {{rho c}}, tau_u = {{rho c}}, rho c = sqrt(rho kappa). Their coefficients
  /// on a face between this side's material mm and the neighbour's mp (mm again on the boundary):
  ///   c = {kappa- tau_p / 2, kappa- / 2, tau_u / (2 rho-), 1 / (2 rho-)}.
  /// They depend on the face only, so the solver computes them once per face, with the face's
  /// scale folded in (the flux is linear in them), and no face node divides or takes a root.
  static constexpr int flux_coefficients = 4;
  static void face_coefficients(const double (&mm)[2], const double (&mp)[2], double (&c)[4]) {
    const double zm = std::sqrt(mm[0] * mm[1]), zp = std::sqrt(mp[0] * mp[1]);
    const double avg = 0.5 * (zm + zp);
    c[0] = 0.5 * mm[1] / avg;
    c[1] = 0.5 * mm[1];
    c[2] = 0.5 / mm[0] * avg;
    c[3] = 0.5 / mm[0];
  }

  /// The flux from the face's coefficients c (see face_coefficients), jumps [[v]] = v+ - v-:
  ///   p: c0 [[p]] - c1 n.[[u]],   u: n (c2 n.[[u]] - c3 [[p]]).
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION static void face_flux(const Real (&n)[3], const Real (&c)[4], const Real (&qm)[4],
                                                    const Real (&qp)[4], Real (&out)[4]) {
    const Real dp = qp[0] - qm[0];
    const Real dun = n[0] * (qp[1] - qm[1]) + n[1] * (qp[2] - qm[2]) + n[2] * (qp[3] - qm[3]);
    out[0] = c[0] * dp - c[1] * dun;
    const Real s = c[2] * dun - c[3] * dp;
    for (int d = 0; d < 3; ++d) out[d + 1] = s * n[d];
  }
  /// face_flux's flops: the jumps (4), the normal component (5), three for each of p and s, and
  /// three for u.
  static constexpr int face_flux_flops = 4 + 5 + 2 * 3 + 3;

  /// Speed of sound sqrt(kappa / rho) in an element.
  static double wave_speed(const std::array<double, 2>& mat) { return std::sqrt(mat[1] / mat[0]); }

  /// Energy weights: 1/kappa for p, rho for u.
  static double energy_weight(int field, const std::array<double, 2>& mat) {
    return field == 0 ? 1.0 / mat[1] : mat[0];
  }
};

/// The standing wave of paper 002's convergence study on [-1/2, 1/2]^3 (rho = kappa = 1), shifted
/// to the box [lower, upper] and scaled to its size:
///   p = cos(pi x') cos(pi y') cos(pi z') cos(sqrt(3) pi t),  u = -grad(...) sin(sqrt(3) pi t) / (sqrt(3) pi),
/// with x' = (x - centre) / edge length. p vanishes on the box's faces (the mirror condition).
struct AcousticStandingWave {
  std::array<double, 3> lower{-0.5, -0.5, -0.5}, upper{0.5, 0.5, 0.5};
  double omega() const;  ///< for the unit box, sqrt(3) pi
  double period() const { return 2.0 * M_PI / omega(); }
  std::array<double, 4> operator()(double x, double y, double z, double t) const;
};

/// A Gaussian pressure pulse at rest: p = exp(-|x - c|^2 / w^2), u = 0. No exact solution.
struct AcousticPulse {
  std::array<double, 3> center{0, 0, 0};
  double width = 0.1;
  std::array<double, 4> operator()(double x, double y, double z, double t) const;
};

}  // namespace dgk::physics
