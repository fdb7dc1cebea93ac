#include "dgk/physics/maxwell3d.hpp"

namespace dgk::physics {

namespace {
std::array<double, 3> wave_vector(const CavityMode& m) {
  std::array<double, 3> k;
  for (int d = 0; d < 3; ++d) k[d] = m.mode[d] * M_PI / (m.upper[d] - m.lower[d]);
  return k;
}
}  // namespace

double CavityMode::omega() const {
  const auto k = wave_vector(*this);
  return std::sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
}

std::array<double, 6> CavityMode::operator()(double x, double y, double z, double t) const {
  const auto k = wave_vector(*this);
  const double kk = k[0] * k[0] + k[1] * k[1] + k[2] * k[2];
  // Amplitude: the projection of e_x (or e_y when k is along x) orthogonal to k, so div E = 0.
  std::array<double, 3> e{1, 0, 0};
  if (std::abs(k[1]) + std::abs(k[2]) == 0) e = {0, 1, 0};
  const double ke = k[0] * e[0] + k[1] * e[1] + k[2] * e[2];
  std::array<double, 3> a;
  for (int d = 0; d < 3; ++d) a[d] = e[d] - k[d] * ke / kk;
  const double xs = x - lower[0], ys = y - lower[1], zs = z - lower[2];
  const double cx = std::cos(k[0] * xs), sx = std::sin(k[0] * xs);
  const double cy = std::cos(k[1] * ys), sy = std::sin(k[1] * ys);
  const double cz = std::cos(k[2] * zs), sz = std::sin(k[2] * zs);
  const double w = std::sqrt(kk), ct = std::cos(w * t), st = std::sin(w * t);
  // curl of the spatial E pattern, then H = -curl(E_s) sin(w t) / w (mu = 1).
  const double kxa[3] = {k[1] * a[2] - k[2] * a[1], k[2] * a[0] - k[0] * a[2], k[0] * a[1] - k[1] * a[0]};
  return {a[0] * cx * sy * sz * ct,
          a[1] * sx * cy * sz * ct,
          a[2] * sx * sy * cz * ct,
          -kxa[0] * sx * cy * cz * st / w,
          -kxa[1] * cx * sy * cz * st / w,
          -kxa[2] * cx * cy * sz * st / w};
}

std::array<double, 6> GaussianPulse::operator()(double x, double y, double z, double) const {
  // E = curl(g e_z) * width / 2 with g a Gaussian: divergence free, so no static charge part
  // stays behind, and of unit size.
  const double dx = x - center[0], dy = y - center[1], dz = z - center[2];
  const double w2 = width * width;
  const double g = std::exp(-(dx * dx + dy * dy + dz * dz) / w2);
  return {-dy / width * g, dx / width * g, 0, 0, 0, 0};
}

}  // namespace dgk::physics
