#include "layout_bench.hpp"

#include <algorithm>
#include <cmath>

#include <Kokkos_Core.hpp>

#include "dgk/backends/ceilings.hpp"
#include "dgk/core/execution.hpp"
#include "dgk/core/order_dispatch.hpp"
#include "dgk/kernels/nodal_tet/kernels.hpp"
#include "dgk/physics/maxwell3d.hpp"
#include "dgk/physics/tet_kernels.hpp"
#include "dgk/physics/tet_solver.hpp"
#include "dgk/physics/tet_tuning.hpp"

namespace dgk::app {

namespace {

using Physics = physics::Maxwell3D;

template <class Space>
bool time_on(Simulation& sim, int reps, LayoutTiming& t) {
  auto* solver = dynamic_cast<physics::TetSolver<Physics, double, Space>*>(&sim);
  if (!solver) return false;
  using Mem = typename Space::memory_space;
  using FieldsM = kernels::nodal_tet::Fields<double, Mem>;
  const auto& q = solver->fields();
  const int K = solver->mesh_data().num_elements, nf = Physics::num_fields;
  const int np = static_cast<int>(q.extent(2)), nc = static_cast<int>(solver->operators().lift.extent(1));
  // The same fields, node-major within an element: q(e, f, i) at (e np + i) nf + f.
  const Kokkos::LayoutStride node_major(q.extent(0), static_cast<std::size_t>(np) * nf, nf, 1, np, nf);
  Kokkos::View<double***, Kokkos::LayoutStride, Mem> q2("dgk::bench::q_node_major", node_major);
  Kokkos::deep_copy(q2, q);
  FieldsM rhs[2] = {FieldsM("dgk::bench::rhs_a", K, nf, np), FieldsM("dgk::bench::rhs_b", K, nf, np)};
  FieldsM flux[2] = {FieldsM("dgk::bench::flux_a", K, nf, nc), FieldsM("dgk::bench::flux_b", K, nf, nc)};
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  const auto round = [](int n) { return std::min(1024, (n + 31) / 32 * 32); };
  Space space;
  dispatch_order(solver->order(), [&](auto n) {
    constexpr int N = decltype(n)::value;
    const int vteam = host ? 1 : round(np), steam = host ? 1 : round(nc);
    kernels::nodal_tet::TeamKernels<N, Physics, Space, double> a{solver->operators(), solver->mesh_data(), q, rhs[0],
                                                                 flux[0]};
    kernels::nodal_tet::TeamKernels<N, Physics, Space, double, Kokkos::LayoutStride> b{
        solver->operators(), solver->mesh_data(), q2, rhs[1], flux[1]};
    t.volume[0] = backends::median_seconds(space, reps, [&] { a.volume(space, vteam); });
    t.volume[1] = backends::median_seconds(space, reps, [&] { b.volume(space, vteam); });
    t.surface[0] = backends::median_seconds(space, reps, [&] { a.surface(space, steam); });
    t.surface[1] = backends::median_seconds(space, reps, [&] { b.surface(space, steam); });
  });
  space.fence();
  for (int v = 0; v < 2; ++v) {
    const auto& x = v == 0 ? rhs : flux;
    auto h0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x[0]);
    auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x[1]);
    for (std::size_t i = 0; i < h0.span(); ++i)
      t.max_difference = std::max(t.max_difference, std::abs(h0.data()[i] - h1.data()[i]));
  }
  t.available = true;
  return true;
}

#define DGK_LAYOUT_TRY(SPACE, ...) \
  if (time_on<SPACE>(sim, reps, t)) return t;

}  // namespace

LayoutTiming time_field_layouts(Simulation& sim, int reps) {
  LayoutTiming t;
  DGK_IF_SERIAL(DGK_LAYOUT_TRY, )
  DGK_IF_OPENMP(DGK_LAYOUT_TRY, )
  DGK_IF_CUDA(DGK_LAYOUT_TRY, )
  t.why = "the layout comparison covers the nodal maxwell3d solver in double";
  return t;
}

physics::StageLayoutComparison time_stage_layouts(Simulation& sim, int reps) {
  auto* tunable = dynamic_cast<physics::NodalTunable*>(&sim);
  if (!tunable) {
    physics::StageLayoutComparison c;
    c.why = "the layout comparison covers the nodal tetrahedral solvers";
    return c;
  }
  return tunable->compare_stage_layouts(reps);
}

std::vector<std::pair<std::string, physics::StageLayoutComparison>> sweep_stage_layouts(Simulation& sim, int reps) {
  namespace nt = kernels::nodal_tet;
  std::vector<std::pair<std::string, physics::StageLayoutComparison>> out;
  auto* tunable = dynamic_cast<physics::NodalTunable*>(&sim);
  if (!tunable) return out;
  for (int ws : {1, 2})
    for (int warps : {1, 2})
      for (bool paired : {false, true})
        for (bool async : {false, true})
          for (int cap : {0, nt::lanes_mid_registers}) {
            const nt::NodalTuning t = nt::lane_stage_in_registers(ws, warps, paired, async, cap);
            if (!tunable->infeasible(t).empty()) continue;
            tunable->set_tuning(t);
            auto c = tunable->compare_stage_layouts(reps);
            if (c.why.empty()) out.emplace_back(physics::to_string(t), c);
          }
  return out;
}

}  // namespace dgk::app
