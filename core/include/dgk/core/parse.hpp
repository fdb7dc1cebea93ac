// Strict parsing of numbers in options and specifications: the whole text must be the number,
// and a failure throws dgk::Error naming the option (`what`) and the offending text.
#pragma once

#include <string>
#include <vector>

namespace dgk {

/// A finite floating-point number.
double parse_number(const std::string& text, const std::string& what);
/// An integer.
int parse_int(const std::string& text, const std::string& what);
/// Comma-separated finite numbers: "0.5,0.5,0.5,0.1".
std::vector<double> parse_number_list(const std::string& text, const std::string& what);
/// Integers as a range "1..7" or a list "1,3,5".
std::vector<int> parse_int_range(const std::string& text, const std::string& what);

}  // namespace dgk
