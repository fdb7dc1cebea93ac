#include "dgk/physics/acoustic3d.hpp"

namespace dgk::physics {

namespace {
// pi / edge length along each axis.
std::array<double, 3> wave_numbers(const AcousticStandingWave& w) {
  std::array<double, 3> k;
  for (int d = 0; d < 3; ++d) k[d] = M_PI / (w.upper[d] - w.lower[d]);
  return k;
}
}  // namespace

double AcousticStandingWave::omega() const {
  const auto k = wave_numbers(*this);
  return std::sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
}

std::array<double, 4> AcousticStandingWave::operator()(double x, double y, double z, double t) const {
  const auto k = wave_numbers(*this);
  // Shifted so that the cosines vanish on the faces: cos(k (x - centre)).
  const double xs = x - 0.5 * (lower[0] + upper[0]), ys = y - 0.5 * (lower[1] + upper[1]),
               zs = z - 0.5 * (lower[2] + upper[2]);
  const double cx = std::cos(k[0] * xs), sx = std::sin(k[0] * xs);
  const double cy = std::cos(k[1] * ys), sy = std::sin(k[1] * ys);
  const double cz = std::cos(k[2] * zs), sz = std::sin(k[2] * zs);
  const double w = omega(), ct = std::cos(w * t), st = std::sin(w * t);
  // rho u_t = -grad p with rho = 1: u = -grad(c c c) sin(w t) / w.
  return {cx * cy * cz * ct, k[0] * sx * cy * cz * st / w, k[1] * cx * sy * cz * st / w, k[2] * cx * cy * sz * st / w};
}

std::array<double, 4> AcousticPulse::operator()(double x, double y, double z, double) const {
  const double r2 =
      (x - center[0]) * (x - center[0]) + (y - center[1]) * (y - center[1]) + (z - center[2]) * (z - center[2]);
  return {std::exp(-r2 / (width * width)), 0.0, 0.0, 0.0};
}

}  // namespace dgk::physics
