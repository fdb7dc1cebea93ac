// Counts, on the dense Bernstein operators (basis::tet_bernstein_dense_operators), the 8 x 4
// blocks that hold a nonzero, in the tiling of the tensor-core kernels (8-row tiles, k-steps of
// 4 columns): per block of D_r, D_s, D_t; per k-step of a row tile where any of the three has
// one; per block of L. Built against the host build's basis library, from the repository root:
//   g++ -O2 -std=c++17 -Ibasis/include -Icore/include -I/usr/include/eigen3 \
//     docs/data/bernstein_blocks_count.cpp build/host/basis/libdgk_basis.a -o bernstein_blocks_count
#include <algorithm>
#include <cstdio>

#include "dgk/basis/bernstein_tet.hpp"

namespace {
bool nonzero(const Eigen::MatrixXd& m, int t, int k) {
  for (int i = 8 * t; i < std::min<int>(8 * t + 8, m.rows()); ++i)
    for (int j = 4 * k; j < std::min<int>(4 * k + 4, m.cols()); ++j)
      if (m(i, j) != 0.0) return true;
  return false;
}
}  // namespace

int main() {
  for (int n = 1; n <= 9; ++n) {
    const auto bb = dgk::basis::make_tet_bernstein(n);
    const auto d = dgk::basis::tet_bernstein_dense_operators(bb);
    const int tiles = (bb.np + 7) / 8, steps = (bb.np + 3) / 4, lsteps = (4 * bb.nfp + 3) / 4;
    int blocks = 0, joint = 0, lift = 0;
    for (int t = 0; t < tiles; ++t) {
      for (int k = 0; k < steps; ++k) {
        const int c = nonzero(d.Dr, t, k) + nonzero(d.Ds, t, k) + nonzero(d.Dt, t, k);
        blocks += c;
        joint += c > 0;
      }
      for (int k = 0; k < lsteps; ++k) lift += nonzero(d.LIFT, t, k);
    }
    std::printf("N = %d: D blocks %.0f%%, k-steps with a block of any D %.0f%%, L blocks %.0f%%\n", n,
                100.0 * blocks / (3.0 * tiles * steps), 100.0 * joint / (tiles * steps),
                100.0 * lift / (tiles * lsteps));
  }
}
