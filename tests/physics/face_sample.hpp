// A random face for the flux tests of the tetrahedral physics: a unit normal, materials on both
// sides in [0.5, 2], states in [-1, 1] and a scale (Fscale) in [0.5, 3], with the flux a face
// node computes there: Physics::face_flux with the face's coefficients (Physics::face_coefficients)
// times the scale, as the solver stores them.
#pragma once

#include <cmath>
#include <random>

namespace dgk::Testing {

template <class Physics>
struct FaceSample {
  static constexpr int nf = Physics::num_fields;
  double n[3], mm[2], mp[2], fscale, qm[nf], qp[nf], out[nf];

  explicit FaceSample(std::mt19937& gen) {
    std::uniform_real_distribution<double> unit(-1.0, 1.0), coef(0.5, 2.0), scale(0.5, 3.0);
    for (double& v : n) v = unit(gen);
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (double& v : n) v /= len;
    for (int i = 0; i < 2; ++i) {
      mm[i] = coef(gen);
      mp[i] = coef(gen);
    }
    fscale = scale(gen);
    for (int f = 0; f < nf; ++f) {
      qm[f] = unit(gen);
      qp[f] = unit(gen);
    }
    double c[Physics::flux_coefficients];
    Physics::face_coefficients(mm, mp, c);
    for (double& v : c) v *= fscale;
    Physics::face_flux(n, c, qm, qp, out);
  }
};

}  // namespace dgk::Testing
