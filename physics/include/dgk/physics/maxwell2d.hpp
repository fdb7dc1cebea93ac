// 2D Maxwell's equations, transverse-magnetic (TM) polarization (paper 003, equations (2a-c)):
//   mu Hx_t = -Ez_y,   mu Hy_t = Ez_x,   eps Ez_t = Hy_x - Hx_y,   u = (Hx, Hy, Ez),
// with eps and mu constant per element, the upwind numerical flux of paper 003, equation (5),
// with its weight alpha (1 upwind, 0 central), and boundary states for perfectly conducting
// (PEC, Ez = 0), perfectly magnetic (PMC) and first-order absorbing walls.
#pragma once

#include <array>
#include <cmath>

#include <Kokkos_Core.hpp>

#include "dgk/core/math.hpp"

namespace dgk::physics {

struct Maxwell2D {
  static constexpr int num_fields = 3;
  static constexpr const char* name = "maxwell2d";
  static constexpr const char* field_names[3] = {"Hx", "Hy", "Ez"};
  /// Material coefficients per element: (epsilon, mu).
  static constexpr const char* material_names[2] = {"epsilon", "mu"};

  /// Boundary condition codes.
  enum Bc : int { PEC = 0, PMC = 1, Absorbing = 2 };
  static constexpr int num_bcs = 3;
  static constexpr const char* bc_names[3] = {"pec", "pmc", "absorbing"};

  /// Weight of the dissipative part of the flux: 1 is the upwind flux, 0 the central flux
  /// (paper 003, after equation (5)). Values in between are stable as well.
  double alpha = 1.0;

  /// Volume term at one node from the physical gradients grad[d][field] = d field / d x_d.
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION void volume(const Real (&grad)[2][3], const Real (&mat)[2], Real (&out)[3]) const {
    const Real ie = Real(1) / mat[0], im = Real(1) / mat[1];
    out[0] = -im * grad[1][2];
    out[1] = im * grad[0][2];
    out[2] = ie * (grad[0][1] - grad[1][0]);
  }
  static constexpr int volume_flops = 6;

  /// Exterior state on a boundary edge with outward unit normal n. PEC mirrors Ez (so the
  /// flux sees Ez* = 0) and copies H, as in paper 003, section 3.1.1.
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION void boundary_state(int bc, const Real (&n)[2], const Real (&qm)[3],
                                                  Real (&qp)[3]) const {
    (void)n;
    switch (bc) {
      case PEC:
        qp[0] = qm[0];
        qp[1] = qm[1];
        qp[2] = -qm[2];
        break;
      case PMC:
        qp[0] = -qm[0];
        qp[1] = -qm[1];
        qp[2] = qm[2];
        break;
      default:
        qp[0] = qp[1] = qp[2] = Real(0);
        break;
    }
  }

  /// n.(F(u-) - F*) for the H and E equations, already divided by mu- and eps- (so the lifted
  /// value adds directly to the right-hand side). Paper 003, equation (5), with the jumps
  /// written as [u] = u+ - u- (the paper's q- - q+ with the sign taken in) and the factor 1/2
  /// of its listing 2 generalized to impedances Z = sqrt(mu / eps), Y = 1 / Z that may differ
  /// across the edge:
  ///   Hx: (-Y+ ny [Ez] + alpha ([Hx] - nx (n.[H]))) / (mu- (Y- + Y+))
  ///   Hy: ( Y+ nx [Ez] + alpha ([Hy] - ny (n.[H]))) / (mu- (Y- + Y+))
  ///   Ez: ( Z+ (nx [Hy] - ny [Hx]) + alpha [Ez])      / (eps- (Z- + Z+))
  /// With equal materials on both sides the denominators are 2 mu and 2 eps: paper 003's flux.
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION void numerical_flux(const Real (&n)[2], const Real (&qm)[3], const Real (&qp)[3],
                                                  const Real (&mm)[2], const Real (&mp)[2], Real (&out)[3]) const {
    const Real dHx = qp[0] - qm[0], dHy = qp[1] - qm[1], dEz = qp[2] - qm[2];
    const Real zm = math::sqrt(mm[1] / mm[0]), zp = math::sqrt(mp[1] / mp[0]);
    const Real ym = Real(1) / zm, yp = Real(1) / zp;
    const Real a = Real(alpha);
    const Real ndH = n[0] * dHx + n[1] * dHy;
    const Real ce = Real(1) / (mm[0] * (zm + zp)), ch = Real(1) / (mm[1] * (ym + yp));
    out[0] = ch * (-yp * n[1] * dEz + a * (dHx - n[0] * ndH));
    out[1] = ch * (yp * n[0] * dEz + a * (dHy - n[1] * ndH));
    out[2] = ce * (zp * (n[0] * dHy - n[1] * dHx) + a * dEz);
  }
  static constexpr int flux_flops = 3 + 8 + 3 + 6 + 3 * 7;

  /// Energy density weights of the fields: mu for H, eps for Ez.
  static double energy_weight(int field, const std::array<double, 2>& mat) { return field < 2 ? mat[1] : mat[0]; }
};

/// Eigenmode (m, n) of a rectangular PEC cavity [lower, upper] in vacuum (eps = mu = 1), with
/// kx = m pi / Lx, ky = n pi / Ly, omega = |k| and x' = x - lower:
///   Ez = sin(kx x') sin(ky y') cos(omega t),
///   Hx = -(ky / omega) sin(kx x') cos(ky y') sin(omega t),
///   Hy =  (kx / omega) cos(kx x') sin(ky y') sin(omega t).
struct CavityMode2D {
  std::array<int, 2> mode{1, 1};
  std::array<double, 2> lower{0, 0}, upper{1, 1};

  std::array<double, 2> wave_vector() const {
    const double pi = std::acos(-1.0);
    return {mode[0] * pi / (upper[0] - lower[0]), mode[1] * pi / (upper[1] - lower[1])};
  }
  double omega() const {
    const auto k = wave_vector();
    return std::sqrt(k[0] * k[0] + k[1] * k[1]);
  }
  double period() const { return 2.0 * std::acos(-1.0) / omega(); }
  /// Fields (Hx, Hy, Ez) at (x, y, t).
  std::array<double, 3> operator()(double x, double y, double t) const {
    const auto k = wave_vector();
    const double w = omega();
    const double xs = x - lower[0], ys = y - lower[1];
    const double cx = std::cos(k[0] * xs), sx = std::sin(k[0] * xs);
    const double cy = std::cos(k[1] * ys), sy = std::sin(k[1] * ys);
    const double st = std::sin(w * t), ct = std::cos(w * t);
    return {-k[1] / w * sx * cy * st, k[0] / w * cx * sy * st, sx * sy * ct};
  }
};

/// Gaussian pulse of Ez centred at c with the given width, H = 0: Ez = exp(-|x - c|^2 / w^2).
/// No exact solution.
struct GaussianPulse2D {
  std::array<double, 2> center{0.5, 0.5};
  double width = 0.1;
  std::array<double, 3> operator()(double x, double y, double) const {
    const double dx = x - center[0], dy = y - center[1];
    return {0.0, 0.0, std::exp(-(dx * dx + dy * dy) / (width * width))};
  }
};

}  // namespace dgk::physics
