// 2D compressible Euler equations for a perfect gas (paper 004, equations (23)-(24)):
//   u = (rho, rho u, rho v, E),  p = (gamma - 1) (E - rho |v|^2 / 2),
// the physical fluxes, the local Lax-Friedrichs and HLLC numerical fluxes, and the boundary
// states (inflow / prescribed state, supersonic outflow, reflecting wall). Device-callable.
#pragma once

#include <Kokkos_Core.hpp>

#include "dgk/core/math.hpp"

namespace dgk::physics {

struct Euler2D {
  static constexpr int num_fields = 4;
  static constexpr const char* name = "euler2d";
  static constexpr const char* field_names[4] = {"rho", "rhou", "rhov", "E"};

  /// Numerical fluxes.
  enum Flux : int { LaxFriedrichs = 0, Hllc = 1 };
  static constexpr const char* flux_names[2] = {"llf", "hllc"};

  /// Boundary condition codes. Prescribed: the exterior state is given at each quadrature point
  /// (inflow, or far field). Outflow: the exterior state is the interior one (supersonic
  /// outflow, zero-gradient extrapolation). Wall: the interior state with its normal velocity
  /// reflected about the wall normal at the point (the exact normal of a curved wall).
  /// MovingShock: the exterior state is one of two states depending on the side of a straight
  /// shock moving at constant speed (the top of the double Mach reflection).
  enum Bc : int { Prescribed = 0, Outflow = 1, Wall = 2, MovingShock = 3 };
  static constexpr int num_bcs = 4;
  static constexpr const char* bc_names[4] = {"inflow", "outflow", "wall", "moving-shock"};

  double gamma = 1.4;
  int flux = Hllc;

  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION Real pressure(const Real (&u)[4]) const {
    return (Real(gamma) - Real(1)) * (u[3] - Real(0.5) * (u[1] * u[1] + u[2] * u[2]) / u[0]);
  }

  /// Both physical fluxes F (x) and G (y) at one state.
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION void fluxes(const Real (&u)[4], Real (&f)[4], Real (&g)[4]) const {
    const Real ir = Real(1) / u[0];
    const Real vx = u[1] * ir, vy = u[2] * ir;
    const Real p = (Real(gamma) - Real(1)) * (u[3] - Real(0.5) * (u[1] * vx + u[2] * vy));
    f[0] = u[1];
    f[1] = u[1] * vx + p;
    f[2] = u[2] * vx;
    f[3] = (u[3] + p) * vx;
    g[0] = u[2];
    g[1] = u[1] * vy;
    g[2] = u[2] * vy + p;
    g[3] = (u[3] + p) * vy;
  }
  /// Flops of fluxes(), counted.
  static constexpr int flux_flops = 17;

  /// Largest wave speed |v.n| + c over all directions: |v| + c.
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION Real max_speed(const Real (&u)[4]) const {
    const Real ir = Real(1) / u[0];
    const Real p = pressure(u);
    const Real c2 = Real(gamma) * p * ir;
    const Real c = math::sqrt(c2 > Real(0) ? c2 : Real(0));
    return math::sqrt((u[1] * u[1] + u[2] * u[2]) * ir * ir) + c;
  }

  /// Exterior state of a boundary point with unit normal n for the codes Outflow and Wall (the
  /// other codes take their state from data the solver holds).
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION void reflect(const Real (&u)[4], Real nx, Real ny, Real (&out)[4]) const {
    const Real mn = u[1] * nx + u[2] * ny;
    out[0] = u[0];
    out[1] = u[1] - Real(2) * mn * nx;
    out[2] = u[2] - Real(2) * mn * ny;
    out[3] = u[3];
  }

  /// Numerical flux F*(uL, uR) . n for the unit normal n pointing from L to R.
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION void numerical_flux(const Real (&ul)[4], const Real (&ur)[4], Real nx, Real ny,
                                                  Real (&out)[4]) const {
    if (flux == LaxFriedrichs)
      llf(ul, ur, nx, ny, out);
    else
      hllc(ul, ur, nx, ny, out);
  }
  /// Counted flops of the numerical flux (the larger of the two).
  static constexpr int numerical_flux_flops = 110;

  /// Local Lax-Friedrichs (Rusanov): (F(uL) + F(uR)) . n / 2 - lambda (uR - uL) / 2 with lambda
  /// the larger |v.n| + c of the two states.
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION void llf(const Real (&ul)[4], const Real (&ur)[4], Real nx, Real ny,
                                       Real (&out)[4]) const {
    Real fl[4], gl[4], fr[4], gr[4];
    fluxes(ul, fl, gl);
    fluxes(ur, fr, gr);
    const Real sl = normal_speed(ul, nx, ny), sr = normal_speed(ur, nx, ny);
    const Real lambda = sl > sr ? sl : sr;
    for (int c = 0; c < 4; ++c)
      out[c] = Real(0.5) * ((fl[c] + fr[c]) * nx + (gl[c] + gr[c]) * ny - lambda * (ur[c] - ul[c]));
  }

  /// HLLC (Toro, Riemann Solvers, section 10.4) in the frame of the normal, with the wave speed
  /// estimates S_L = min(vn_L - c_L, vn_R - c_R), S_R = max(vn_L + c_L, vn_R + c_R).
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION void hllc(const Real (&ul)[4], const Real (&ur)[4], Real nx, Real ny,
                                        Real (&out)[4]) const {
    const Real g = Real(gamma);
    // Rotated states: (rho, vn, vt, p).
    const Real rl = ul[0], rr = ur[0];
    const Real unl = (ul[1] * nx + ul[2] * ny) / rl, utl = (-ul[1] * ny + ul[2] * nx) / rl;
    const Real unr = (ur[1] * nx + ur[2] * ny) / rr, utr = (-ur[1] * ny + ur[2] * nx) / rr;
    const Real pl = pressure(ul), pr = pressure(ur);
    const Real cl2 = g * pl / rl, cr2 = g * pr / rr;
    const Real cl = math::sqrt(cl2 > Real(0) ? cl2 : Real(0)), cr = math::sqrt(cr2 > Real(0) ? cr2 : Real(0));
    const Real a = unl - cl, b = unr - cr, c = unl + cl, d = unr + cr;
    const Real SL = a < b ? a : b;
    const Real SR = c > d ? c : d;
    const Real denom = rl * (SL - unl) - rr * (SR - unr);
    const Real Sstar = (pr - pl + rl * unl * (SL - unl) - rr * unr * (SR - unr)) / denom;
    // 1D flux of a rotated state (rho, rho vn, rho vt, E).
    Real f[4];
    auto flux1d = [&](Real r, Real un, Real ut, Real p, Real E) {
      f[0] = r * un;
      f[1] = r * un * un + p;
      f[2] = r * un * ut;
      f[3] = (E + p) * un;
    };
    if (Real(0) <= SL) {
      flux1d(rl, unl, utl, pl, ul[3]);
    } else if (Real(0) >= SR) {
      flux1d(rr, unr, utr, pr, ur[3]);
    } else {
      const bool left = Real(0) <= Sstar;
      const Real r = left ? rl : rr, un = left ? unl : unr, ut = left ? utl : utr, p = left ? pl : pr;
      const Real E = left ? ul[3] : ur[3];
      const Real S = left ? SL : SR;
      flux1d(r, un, ut, p, E);
      const Real k = r * (S - un) / (S - Sstar);
      const Real us[4] = {k, k * Sstar, k * ut, k * (E / r + (Sstar - un) * (Sstar + p / (r * (S - un))))};
      const Real u0[4] = {r, r * un, r * ut, E};
      for (int i = 0; i < 4; ++i) f[i] += S * (us[i] - u0[i]);
    }
    out[0] = f[0];
    out[1] = f[1] * nx - f[2] * ny;
    out[2] = f[1] * ny + f[2] * nx;
    out[3] = f[3];
  }

 private:
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION Real normal_speed(const Real (&u)[4], Real nx, Real ny) const {
    const Real ir = Real(1) / u[0];
    const Real c2 = Real(gamma) * pressure(u) * ir;
    const Real vn = (u[1] * nx + u[2] * ny) * ir;
    return math::abs(vn) + math::sqrt(c2 > Real(0) ? c2 : Real(0));
  }
};

}  // namespace dgk::physics
