// 3D Maxwell's equations in conservation form (paper 000, section 6):
//   eps E_t = curl H,   mu H_t = -curl E,   u = (Ex, Ey, Ez, Hx, Hy, Hz),
// with eps and mu constant per element, the upwind numerical flux, and boundary states for
// perfectly conducting (PEC), perfectly magnetic (PMC) and first-order absorbing walls.
#pragma once

#include <array>
#include <cmath>
#include <string>

#include <Kokkos_Core.hpp>

namespace dgk::physics {

struct Maxwell3D {
  static constexpr int num_fields = 6;
  static constexpr const char* name = "maxwell3d";
  static constexpr const char* field_names[6] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};
  /// Material coefficients per element: (epsilon, mu).
  static constexpr const char* material_names[2] = {"epsilon", "mu"};

  /// Boundary condition codes.
  enum Bc : int { PEC = 0, PMC = 1, Absorbing = 2 };
  static constexpr int num_bcs = 3;
  static constexpr const char* bc_names[3] = {"pec", "pmc", "absorbing"};

  /// Volume term at one node from the physical gradients grad[d][field] = d field / d x_d:
  /// E_t = curl H / eps, H_t = -curl E / mu.  12 flops.
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION static void volume(const Real (&grad)[3][6], const Real (&mat)[2],
                                                 Real (&out)[6]) {
    const Real ie = Real(1) / mat[0], im = Real(1) / mat[1];
    out[0] = ie * (grad[1][5] - grad[2][4]);
    out[1] = ie * (grad[2][3] - grad[0][5]);
    out[2] = ie * (grad[0][4] - grad[1][3]);
    out[3] = -im * (grad[1][2] - grad[2][1]);
    out[4] = -im * (grad[2][0] - grad[0][2]);
    out[5] = -im * (grad[0][1] - grad[1][0]);
  }
  static constexpr int volume_flops = 14;

  /// The volume term in two halves of one form, for kernels whose lanes each form half of a
  /// node's fields at once (the stage as one product): half h holds the fields
  /// volume_half_field(h, j), j < 3, and at a reference direction with metric column
  /// g[x] = d r / d x_x they are g x v, where v = volume_half_factor(h) u at the fields
  /// volume_half_input(h, j): E_t from H / eps, H_t from -E / mu. Both halves run the same
  /// instructions on their own inputs. 6 flops per direction after the 3 of the factor.
  static constexpr int volume_half_size = 3;
  KOKKOS_INLINE_FUNCTION static constexpr int volume_half_field(int h, int j) { return 3 * h + j; }
  KOKKOS_INLINE_FUNCTION static constexpr int volume_half_input(int h, int j) { return 3 * (1 - h) + j; }
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION static Real volume_half_factor(int h, const Real (&mat)[2]) {
    return h == 0 ? Real(1) / mat[0] : -Real(1) / mat[1];
  }
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION static void volume_half(const Real (&g)[3], const Real (&v)[3], Real (&out)[3]) {
    out[0] = g[1] * v[2] - g[2] * v[1];
    out[1] = g[2] * v[0] - g[0] * v[2];
    out[2] = g[0] * v[1] - g[1] * v[0];
  }

  /// Exterior state on a boundary face with outward unit normal n.
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION static void boundary_state(int bc, const Real (&n)[3], const Real (&qm)[6],
                                                         Real (&qp)[6]) {
    (void)n;
    for (int f = 0; f < 3; ++f) {
      switch (bc) {
        case PEC: qp[f] = -qm[f]; qp[f + 3] = qm[f + 3]; break;
        case PMC: qp[f] = qm[f]; qp[f + 3] = -qm[f + 3]; break;
        default: qp[f] = Real(0); qp[f + 3] = Real(0); break;
      }
    }
  }

  /// The upwind flux's coefficients on a face between this side's material mm and the
  /// neighbour's mp (mm again on the boundary):
  ///   c = {1 / (eps- (Z- + Z+)), Z+ c0, 1 / (mu- (Y- + Y+)), Y+ c2},   Z = sqrt(mu / eps), Y = 1 / Z.
  /// They depend on the face only, so the solver computes them once per face, with the face's
  /// scale folded in (the flux is linear in them), and no face node divides or takes a root.
  static constexpr int flux_coefficients = 4;
  static void face_coefficients(const double (&mm)[2], const double (&mp)[2], double (&c)[4]) {
    const double zm = std::sqrt(mm[1] / mm[0]), zp = std::sqrt(mp[1] / mp[0]);
    const double ym = 1.0 / zm, yp = 1.0 / zp;
    c[0] = 1.0 / (mm[0] * (zm + zp));
    c[1] = zp * c[0];
    c[2] = 1.0 / (mm[1] * (ym + yp));
    c[3] = yp * c[2];
  }

  /// n.(F(u-) - F*) for the E and H equations, already divided by eps- and mu- (so the lifted
  /// value adds directly to the right-hand side), from the face's coefficients c (see
  /// face_coefficients). Upwind flux, jumps [u] = u+ - u-, -n x (n x v) = v - n (n.v):
  ///   E: c0 ([E] - n (n.[E])) + c1 n x [H],   H: c2 ([H] - n (n.[H])) - c3 n x [E].
  template <class Real>
  KOKKOS_FORCEINLINE_FUNCTION static void face_flux(const Real (&n)[3], const Real (&c)[4], const Real (&qm)[6],
                                                    const Real (&qp)[6], Real (&out)[6]) {
    const Real dE[3] = {qp[0] - qm[0], qp[1] - qm[1], qp[2] - qm[2]};
    const Real dH[3] = {qp[3] - qm[3], qp[4] - qm[4], qp[5] - qm[5]};
    const Real ndE = n[0] * dE[0] + n[1] * dE[1] + n[2] * dE[2];
    const Real ndH = n[0] * dH[0] + n[1] * dH[1] + n[2] * dH[2];
    const Real nxH[3] = {n[1] * dH[2] - n[2] * dH[1], n[2] * dH[0] - n[0] * dH[2], n[0] * dH[1] - n[1] * dH[0]};
    const Real nxE[3] = {n[1] * dE[2] - n[2] * dE[1], n[2] * dE[0] - n[0] * dE[2], n[0] * dE[1] - n[1] * dE[0]};
    for (int d = 0; d < 3; ++d) {
      out[d] = c[0] * (dE[d] - n[d] * ndE) + c[1] * nxH[d];
      out[d + 3] = c[2] * (dH[d] - n[d] * ndH) - c[3] * nxE[d];
    }
  }
  /// face_flux's flops: the jumps, the two normal components, the two cross products, and five
  /// per output.
  static constexpr int face_flux_flops = 6 + 2 * 5 + 2 * 9 + 6 * 5;

  /// Speed of light 1 / sqrt(eps mu) in an element.
  static double wave_speed(const std::array<double, 2>& mat) { return 1.0 / std::sqrt(mat[0] * mat[1]); }

  /// Energy density weights of the fields: eps for E, mu for H.
  static double energy_weight(int field, const std::array<double, 2>& mat) {
    return field < 3 ? mat[0] : mat[1];
  }
};

/// Eigenmode (m, n, p) of a rectangular PEC cavity [lower, upper] in vacuum (eps = mu = 1):
///   E = A_x cos(kx x') sin(ky y') sin(kz z') ..., with k.A = 0, omega = |k|, and
///   H = -(k x A)-pattern sin(omega t) / omega, x' = x - lower.
struct CavityMode {
  std::array<int, 3> mode{1, 1, 1};
  std::array<double, 3> lower{0, 0, 0}, upper{1, 1, 1};

  double omega() const;
  double period() const { return 2.0 * M_PI / omega(); }
  /// Fields (Ex, Ey, Ez, Hx, Hy, Hz) at (x, y, z, t).
  std::array<double, 6> operator()(double x, double y, double z, double t) const;
};

/// Divergence-free Gaussian pulse centred at c with the given width: E = curl(g e_z) w / 2,
/// g = exp(-|x - c|^2 / w^2), H = 0. No exact solution.
struct GaussianPulse {
  std::array<double, 3> center{0.5, 0.5, 0.5};
  double width = 0.1;
  std::array<double, 6> operator()(double x, double y, double z, double t) const;
};

}  // namespace dgk::physics
