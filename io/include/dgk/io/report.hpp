// Run reports: an ordered set of key/value pairs printed as a table for people and written as
// JSON for scripts (plots, regression tracking).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace dgk::io {

class Report {
 public:
  using Value = std::variant<std::nullptr_t, bool, long long, double, std::string, std::vector<double>>;

  void set(const std::string& key, Value value);
  void set(const std::string& key, int value) { set(key, Value(static_cast<long long>(value))); }
  void set(const std::string& key, long long value) { set(key, Value(value)); }
  void set(const std::string& key, double value) { set(key, Value(value)); }
  void set(const std::string& key, bool value) { set(key, Value(value)); }
  void set(const std::string& key, const std::string& value) { set(key, Value(value)); }
  void set(const std::string& key, const char* value) { set(key, Value(std::string(value))); }
  void set(const std::string& key, std::optional<double> value);
  /// Nested reports (an array of objects), e.g. one row per order in a convergence study.
  void add_row(const std::string& key, const Report& row);

  const Value* get(const std::string& key) const;

  /// JSON text, keys in insertion order.
  std::string to_json(int indent = 2) const;
  /// Writes to_json() to `path`; throws dgk::Error when the file cannot be written.
  void write_json(const std::string& path) const;

 private:
  std::vector<std::pair<std::string, Value>> m_values;
  std::vector<std::pair<std::string, std::vector<Report>>> m_rows;
};

}  // namespace dgk::io
