// One timed kernel of a benchmark table: its numbers as table columns and its report row.
#pragma once

#include <iomanip>
#include <sstream>
#include <string>

#include "dgk/io/report.hpp"
#include "text.hpp"

namespace dgk::app {

/// The columns after a kernel's name: time (ms), GFLOP/s, GB/s, % of the roofline bound
/// (`bound` seconds), seconds per DOF.
inline std::string kernel_columns(double seconds, double flops, double bytes, double bound, double dofs) {
  std::ostringstream o;
  o << std::setw(11) << fmt(seconds * 1e3, 4) << std::setw(10) << fmt(flops / seconds / 1e9, 1) << std::setw(9)
    << fmt(bytes / seconds / 1e9, 1) << std::setw(9) << fmt(100 * bound / seconds, 1) << "%" << std::setw(14)
    << fmt(seconds / dofs, 3, true);
  return o.str();
}

/// The report row of a kernel timed at `order`; the caller adds what names its variant.
inline io::Report kernel_row(int order, const std::string& kernel, long long dofs, double seconds, double flops,
                             double bytes, double bound) {
  io::Report row;
  row.set("order", order);
  row.set("kernel", kernel);
  row.set("dofs", io::Report::Value(dofs));
  row.set("seconds", seconds);
  row.set("flops", flops);
  row.set("bytes", bytes);
  row.set("gflops", flops / seconds / 1e9);
  row.set("gbytes_per_s", bytes / seconds / 1e9);
  row.set("roofline_fraction", bound / seconds);
  return row;
}

}  // namespace dgk::app
