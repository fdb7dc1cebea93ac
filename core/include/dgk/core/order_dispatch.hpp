// Run-time polynomial order -> compile-time template parameter.
#pragma once

#include <type_traits>

#include "dgk/core/error.hpp"

namespace dgk {

/// Highest order compiled into the tetrahedral kernels.
#ifndef DGK_MAX_ORDER
#define DGK_MAX_ORDER 9
#endif
constexpr int max_compiled_order = DGK_MAX_ORDER;

namespace Impl {
template <int N, class F>
decltype(auto) dispatch_order_impl(int order, F&& f) {
  if constexpr (N > DGK_MAX_ORDER) {
    DGK_THROW_IF(true, "polynomial order " << order << " is not supported (this build has orders 1.."
                                           << DGK_MAX_ORDER << ")");
    return f(std::integral_constant<int, 1>{});
  } else {
    if (order == N) return f(std::integral_constant<int, N>{});
    return dispatch_order_impl<N + 1>(order, std::forward<F>(f));
  }
}
}  // namespace Impl

/// Calls f(std::integral_constant<int, order>{}); throws dgk::Error for orders outside
/// 1..DGK_MAX_ORDER.
template <class F>
decltype(auto) dispatch_order(int order, F&& f) {
  DGK_THROW_IF(order < 1, "polynomial order " << order << " is not supported (this build has orders 1.."
                                              << DGK_MAX_ORDER << ")");
  return Impl::dispatch_order_impl<1>(order, std::forward<F>(f));
}

}  // namespace dgk
