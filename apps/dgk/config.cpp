#include "config.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <sstream>

#include <toml++/toml.h>
#include <CLI/CLI.hpp>

#include "dgk/core/error.hpp"

namespace dgk::app {

namespace {

enum class Kind { Flag, Integer, Number, Text, TextList };

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Flag:
      return "a boolean (true or false)";
    case Kind::Integer:
      return "an integer";
    case Kind::Number:
      return "a number";
    case Kind::Text:
      return "a string";
    case Kind::TextList:
      return "an array of strings";
  }
  return "?";
}

// What a TOML value for an option must be, from the option's definition.
Kind kind_of(const CLI::Option& opt) {
  if (opt.get_expected_max() == 0) return Kind::Flag;
  const std::string t = opt.get_type_name();
  if (t.rfind("INT", 0) == 0 || t.rfind("UINT", 0) == 0) return Kind::Integer;
  if (t.rfind("FLOAT", 0) == 0 || t.rfind("NUMBER", 0) == 0) return Kind::Number;
  if (opt.get_items_expected_max() > 1) return Kind::TextList;
  return Kind::Text;
}

std::string where(const std::string& path, const toml::source_region& src) {
  return path + ":" + std::to_string(src.begin.line);
}

// The value as the option's text, or an empty optional when its type does not fit.
std::optional<std::string> as_text(const toml::node& v, Kind k) {
  switch (k) {
    case Kind::Flag:
      if (auto b = v.value_exact<bool>()) return *b ? "true" : "false";
      return std::nullopt;
    case Kind::Integer:
      if (auto i = v.value_exact<std::int64_t>()) return std::to_string(*i);
      return std::nullopt;
    case Kind::Number:
      if (v.is_integer() || v.is_floating_point()) {
        std::ostringstream o;
        o << std::setprecision(17) << *v.value<double>();
        return o.str();
      }
      return std::nullopt;
    case Kind::Text:
    case Kind::TextList:  // the elements of the array
      if (auto s = v.value_exact<std::string>()) return *s;
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

void apply_config(CLI::App& cmd, const std::string& path, std::vector<std::string>& bc,
                  const std::vector<std::string>& ignored) {
  DGK_THROW_IF(!std::ifstream(path).good(), "--config '" << path << "': no such file or not readable");
  toml::table table;
  try {
    table = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    DGK_THROW_IF(true, path << ":" << e.source().begin.line << ":" << e.source().begin.column
                            << ": not valid TOML: " << e.description());
  }
  // Option names a file may set, for messages.
  std::string known;
  for (const CLI::Option* o : cmd.get_options()) {
    std::string name = o->get_lnames().empty() ? o->get_name(true, false) : o->get_lnames().front();
    if (name.empty() || std::find(ignored.begin(), ignored.end(), name) != ignored.end()) continue;
    known += (known.empty() ? "" : ", ") + name;
  }
  known += ", [boundary]";

  std::vector<std::pair<std::uint32_t, std::string>> file_bc;  // in the file's order
  for (auto&& [key, value] : table) {
    const std::string k(key.str());
    const std::string at = where(path, key.source());
    if (k == "boundary") {
      const toml::table* b = value.as_table();
      DGK_THROW_IF(!b, at << ": 'boundary' must be a table of name = \"condition\" entries");
      for (auto&& [name, cond] : *b) {
        const auto s = cond.value_exact<std::string>();
        DGK_THROW_IF(!s, where(path, name.source()) << ": boundary '" << name.str()
                                                    << "' must be a string (e.g. \"pec\"), not a " << cond.type());
        file_bc.emplace_back(name.source().begin.line, std::string(name.str()) + "=" + *s);
      }
      continue;
    }
    DGK_THROW_IF(std::find(ignored.begin(), ignored.end(), k) != ignored.end(),
                 at << ": '" << k << "' cannot be set in a configuration file");
    CLI::Option* opt = cmd.get_option_no_throw("--" + k);
    if (!opt) {
      opt = cmd.get_option_no_throw(k);
      if (opt && !opt->get_positional()) opt = nullptr;
    }
    DGK_THROW_IF(!opt, at << ": unknown key '" << k << "' (known keys: " << known << ")");
    if (opt->count() > 0) continue;  // the command line wins
    const Kind kind = kind_of(*opt);
    std::vector<std::string> inputs;
    if (const toml::array* arr = value.as_array()) {
      DGK_THROW_IF(kind != Kind::TextList, at << ": '" << k << "' must be " << kind_name(kind) << ", not an array");
      for (const auto& item : *arr) {
        const auto t = as_text(item, kind);
        DGK_THROW_IF(!t, where(path, item.source())
                             << ": '" << k << "' must be " << kind_name(kind) << "; found a " << item.type());
        inputs.push_back(*t);
      }
    } else {
      DGK_THROW_IF(kind == Kind::TextList,
                   at << ": '" << k << "' must be " << kind_name(kind) << "; found a " << value.type());
      const auto t = as_text(value, kind);
      DGK_THROW_IF(!t, at << ": '" << k << "' must be " << kind_name(kind) << "; found a " << value.type());
      inputs.push_back(*t);
    }
    try {
      for (const auto& in : inputs) opt->add_result(in);
      opt->run_callback();
    } catch (const CLI::Error& e) {
      DGK_THROW_IF(true, at << ": '" << k << "' = " << (inputs.empty() ? "" : inputs.front()) << ": " << e.what());
    }
  }
  std::sort(file_bc.begin(), file_bc.end());
  std::vector<std::string> entries;
  for (auto& [line, entry] : file_bc) entries.push_back(std::move(entry));
  bc.insert(bc.begin(), entries.begin(), entries.end());
}

}  // namespace dgk::app
