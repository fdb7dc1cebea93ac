#include "dgk/io/report.hpp"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "dgk/core/error.hpp"

namespace dgk::io {

void Report::set(const std::string& key, Value value) {
  for (auto& kv : m_values) {
    if (kv.first == key) {
      kv.second = std::move(value);
      return;
    }
  }
  m_values.emplace_back(key, std::move(value));
}

void Report::set(const std::string& key, std::optional<double> value) {
  if (value) set(key, Value(*value));
  else set(key, Value(nullptr));
}

void Report::add_row(const std::string& key, const Report& row) {
  for (auto& kv : m_rows) {
    if (kv.first == key) {
      kv.second.push_back(row);
      return;
    }
  }
  m_rows.emplace_back(key, std::vector<Report>{row});
}

const Report::Value* Report::get(const std::string& key) const {
  for (const auto& kv : m_values)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

namespace {

std::string quote(const std::string& s) {
  std::ostringstream o;
  o << '"';
  for (char c : s) {
    switch (c) {
      case '"': o << "\\\""; break;
      case '\\': o << "\\\\"; break;
      case '\n': o << "\\n"; break;
      case '\t': o << "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) o << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c);
        else o << c;
    }
  }
  o << '"';
  return o.str();
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";  // JSON has no NaN/Inf
  std::ostringstream o;
  o << std::setprecision(17) << v;
  return o.str();
}

struct ValuePrinter {
  std::string operator()(std::nullptr_t) const { return "null"; }
  std::string operator()(bool b) const { return b ? "true" : "false"; }
  std::string operator()(long long v) const { return std::to_string(v); }
  std::string operator()(double v) const { return number(v); }
  std::string operator()(const std::string& s) const { return quote(s); }
  std::string operator()(const std::vector<double>& v) const {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + number(v[i]);
    return out + "]";
  }
};

}  // namespace

std::string Report::to_json(int indent) const {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  std::ostringstream o;
  o << "{";
  bool first = true;
  for (const auto& kv : m_values) {
    o << (first ? "\n" : ",\n") << pad << quote(kv.first) << ": " << std::visit(ValuePrinter{}, kv.second);
    first = false;
  }
  for (const auto& kv : m_rows) {
    o << (first ? "\n" : ",\n") << pad << quote(kv.first) << ": [";
    for (std::size_t i = 0; i < kv.second.size(); ++i) {
      std::string row = kv.second[i].to_json(indent);
      // indent nested rows one level deeper
      std::string nested;
      for (char c : row) {
        nested += c;
        if (c == '\n') nested += pad + pad;
      }
      o << (i ? ", " : "") << "\n" << pad << pad << nested;
    }
    o << "\n" << pad << "]";
    first = false;
  }
  o << "\n}";
  return o.str();
}

void Report::write_json(const std::string& path) const {
  std::ofstream f(path);
  DGK_THROW_IF(!f, "cannot open report file '" << path << "' for writing");
  f << to_json() << "\n";
  DGK_THROW_IF(!f, "writing report file '" << path << "' failed");
}

}  // namespace dgk::io
