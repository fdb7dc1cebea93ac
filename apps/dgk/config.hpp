// Configuration files for `dgk run --config case.toml`: every long option of the subcommand is
// a key of the same name, `[boundary]` maps Gmsh physical group names to boundary conditions,
// and options given on the command line override the file.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace dgk::app {

/// Applies the TOML file `path` to the already parsed subcommand `cmd`: each top-level key
/// sets the option `--key` (or the positional of that name) unless the command line gave it;
/// the table `[boundary]` (name = "condition") appends "name=condition" entries to `bc` before
/// those of the command line, so the command line wins for a boundary named in both. Throws
/// dgk::Error naming the file, line and key for a syntax error, an unknown key, a value of the
/// wrong type or a value the option rejects. `ignored` lists option names that may not appear
/// in a file (e.g. "config").
void apply_config(CLI::App& cmd, const std::string& path, std::vector<std::string>& bc,
                  const std::vector<std::string>& ignored = {"config", "help"});

}  // namespace dgk::app
