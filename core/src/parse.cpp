#include "dgk/core/parse.hpp"

#include <cmath>
#include <sstream>

#include "dgk/core/error.hpp"

namespace dgk {

double parse_number(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  DGK_THROW_IF(used == 0 || used != text.size() || !std::isfinite(v), what << ": '" << text << "' is not a finite number");
  return v;
}

int parse_int(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  DGK_THROW_IF(used == 0 || used != text.size(), what << ": '" << text << "' is not an integer");
  return v;
}

std::vector<double> parse_number_list(const std::string& text, const std::string& what) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(parse_number(item, what));
  return out;
}

std::vector<int> parse_int_range(const std::string& text, const std::string& what) {
  std::vector<int> out;
  const auto dots = text.find("..");
  if (dots != std::string::npos) {
    const int a = parse_int(text.substr(0, dots), what), b = parse_int(text.substr(dots + 2), what);
    DGK_THROW_IF(a > b, what << ": '" << text << "' is an empty range");
    for (int i = a; i <= b; ++i) out.push_back(i);
    return out;
  }
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(parse_int(item, what));
  DGK_THROW_IF(out.empty(), what << " is empty");
  return out;
}

}  // namespace dgk
