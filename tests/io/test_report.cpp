#include <cmath>
#include <optional>

#include <gtest/gtest.h>

#include "dgk/core/error.hpp"
#include "dgk/io/report.hpp"

namespace {

TEST(Report, KeepsTypesAndOrder) {
  dgk::io::Report r;
  r.set("case", "maxwell3d");
  r.set("order", 4);
  r.set("dt", 0.0125);
  r.set("dofs", 1234567890123LL);
  r.set("l2_error", std::optional<double>{});
  r.set("ok", true);
  dgk::io::Report row;
  row.set("h", dgk::io::Report::Value(std::vector<double>{0.5, 0.25}));
  r.add_row("rows", row);
  const std::string j = r.to_json();
  EXPECT_NE(j.find("\"dt\": 0.0125"), std::string::npos) << j;
  EXPECT_NE(j.find("\"order\": 4"), std::string::npos) << j;
  EXPECT_NE(j.find("\"dofs\": 1234567890123"), std::string::npos) << j;
  EXPECT_NE(j.find("\"l2_error\": null"), std::string::npos) << j;
  EXPECT_NE(j.find("\"ok\": true"), std::string::npos) << j;
  EXPECT_NE(j.find("[0.5, 0.25]"), std::string::npos) << j;
  EXPECT_LT(j.find("\"case\""), j.find("\"order\""));
  EXPECT_THROW(r.write_json("/nonexistent-dir/report.json"), dgk::Error);
}

TEST(Report, NonFiniteNumbersBecomeNull) {
  dgk::io::Report r;
  r.set("nan", std::nan(""));
  EXPECT_NE(r.to_json().find("\"nan\": null"), std::string::npos);
}

}  // namespace
