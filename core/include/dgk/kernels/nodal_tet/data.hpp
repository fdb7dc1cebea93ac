// Device data of the nodal tetrahedral DG operator: reference operators and per-element mesh
// data as Kokkos Views. Filled on the host (see dgk/physics/tet_solver.hpp) and read by
// the kernels of this folder. Every View here is allocated without padding, so the kernels may
// index a row from data() with strides known at compile time (or from the extents). Nothing
// writes the mesh data while a kernel runs: the kernels read it, and fmask, through the
// read-only path (dgk/core/read_only.hpp).
#pragma once

#include <cstddef>
#include <type_traits>

#include <Kokkos_Core.hpp>

namespace dgk::kernels::nodal_tet {

template <int N>
struct Sizes {
  static constexpr int order = N;
  static constexpr int np = (N + 1) * (N + 2) * (N + 3) / 6;
  static constexpr int nfp = (N + 1) * (N + 2) / 2;
  static constexpr int nfaces = 4;
};

/// Reference operators, rounded once to Real. Matrices are column-major (LayoutLeft) so that
/// consecutive nodes (threads) read consecutive entries of one column.
template <class Real, class MemorySpace>
struct Operators {
  Kokkos::View<Real**, Kokkos::LayoutLeft, MemorySpace> Dr, Ds, Dt;  ///< np x np
  Kokkos::View<Real**, Kokkos::LayoutLeft, MemorySpace> lift;        ///< np x 4 nfp
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> fmask;       ///< 4 x nfp
};

/// Per-element mesh data.
template <class Real, class MemorySpace>
struct MeshData {
  int num_elements = 0;
  /// rx, sx, tx, ry, sy, ty, rz, sz, tz per element.
  Kokkos::View<Real* [9], Kokkos::LayoutRight, MemorySpace> drdx;
  /// Each face's outward unit normal (x, y, z), then the physics' flux coefficients (at most
  /// max_flux_coefficients; Physics::face_coefficients of the materials on both sides) times
  /// Fscale = sJ / J: face_values values, one 64-byte run per face in double.
  static constexpr int face_values = 8, max_flux_coefficients = face_values - 3;
  Kokkos::View<Real* [4][face_values], Kokkos::LayoutRight, MemorySpace> face;
  /// Neighbour node of each face node, as element * np + node; on the boundary, the node itself.
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> mapP;  ///< K x 4 nfp
  /// The same per face: the neighbour element across face f of element e times
  /// max_face_patterns, plus the face's pattern p, whose row face_pattern(p, .) lists the
  /// neighbour's node at each of the face's nodes (mapP(e, f nfp + i) = neighbour np +
  /// face_pattern(p, i)). A conforming mesh has at most 4 x 6 interior patterns (the neighbour's
  /// face and the turn between the two faces' vertex orders) and 4 on the boundary. Empty where
  /// the mesh has more patterns or too many elements for the product to fit an int.
  static constexpr int max_face_patterns = 32;
  Kokkos::View<int* [4], Kokkos::LayoutRight, MemorySpace> face_neighbour;
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> face_pattern;  ///< patterns x nfp
  /// Boundary condition code of each face (physics-defined), -1 for interior faces.
  Kokkos::View<int* [4], Kokkos::LayoutRight, MemorySpace> bc;
  /// Two material coefficients per element (physics-defined), read by the volume term.
  Kokkos::View<Real* [2], Kokkos::LayoutRight, MemorySpace> material;
};

/// Fields: q(element, field, node), node fastest.
template <class Real, class MemorySpace>
using Fields = Kokkos::View<Real***, Kokkos::LayoutRight, MemorySpace>;

/// The solver's fields, stored (element, field, node) without padding, read through the
/// kernels' q(element, field, node) with the strides known at compile time: q(e, f, i) at
/// (e nf + f) np + i of `data`. A Kokkos View of runtime extents computes each field's address
/// on its own (two multiplies by the extents, then the 64-bit address); here one address per
/// (element, node) serves every field with a constant offset, which shortens the flux gather's
/// path from the neighbour's node index to its loads (docs/PERFORMANCE.md, "The flux gather's
/// addresses").
template <class Real, int NF, int NP>
struct FieldMajorFields {
  const Real* data = nullptr;
  /// The offset of q(e, f, i) from data; the lift's epilogues address rhs, res and q by it too.
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t index(int e, int f, int i) {
    return static_cast<std::size_t>(e) * NF * NP + static_cast<std::size_t>(i) + static_cast<std::size_t>(f * NP);
  }
  KOKKOS_INLINE_FUNCTION Real operator()(int e, int f, int i) const { return data[index(e, f, i)]; }
  KOKKOS_INLINE_FUNCTION constexpr int extent(int d) const { return d == 1 ? NF : (d == 2 ? NP : 0); }
};

/// Fields stored (element, node, field), the nf values of one node together, read through the
/// kernels' q(element, field, node): q(e, f, i) at (e np + i) nf + f of `data`. Where nf is even
/// (every node then starts on a boundary of two values), node() reads a node's nf values two at
/// a time (16-byte loads in double). The tuned fused stage takes its fields in either
/// arrangement (TunedKernels::tensor_stage); a benchmark compares them (docs/PERFORMANCE.md,
/// "Field layouts").
template <class Real, int NF, int NP>
struct NodeMajorFields {
  const Real* data = nullptr;
  KOKKOS_INLINE_FUNCTION Real operator()(int e, int f, int i) const {
    return data[(static_cast<std::size_t>(e) * NP + i) * NF + f];
  }
  KOKKOS_INLINE_FUNCTION constexpr int extent(int d) const { return d == 1 ? NF : (d == 2 ? NP : 0); }
  KOKKOS_INLINE_FUNCTION void node(int e, int i, Real (&v)[NF]) const {
    const Real* at = data + (static_cast<std::size_t>(e) * NP + i) * NF;
    if constexpr (NF % 2 == 0) {
      struct alignas(2 * sizeof(Real)) Pair {
        Real v[2];
      };
      const Pair* p = reinterpret_cast<const Pair*>(at);
      for (int h = 0; h < NF / 2; ++h) {
        const Pair x = p[h];
        v[2 * h] = x.v[0];
        v[2 * h + 1] = x.v[1];
      }
    } else {
      for (int f = 0; f < NF; ++f) v[f] = at[f];
    }
  }
};
template <class T>
struct IsNodeMajor : std::false_type {};
template <class Real, int NF, int NP>
struct IsNodeMajor<NodeMajorFields<Real, NF, NP>> : std::true_type {};

}  // namespace dgk::kernels::nodal_tet
