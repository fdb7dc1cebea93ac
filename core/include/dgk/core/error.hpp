// Error reporting: host-side exceptions that say what is wrong and where. Free of Kokkos, so
// host-only code (basis, mesh) can be built and fuzzed without it; the device-side assertion is
// in dgk/core/assert.hpp.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace dgk {

/// The exception every dgk host-side check throws. The message names what is wrong and where
/// (file, line, element, value) in the caller's terms; `where()` holds the source location.
class Error : public std::runtime_error {
 public:
  Error(const std::string& message, const char* file, int line)
      : std::runtime_error(message), m_where(std::string(file) + ":" + std::to_string(line)) {}
  const std::string& where() const noexcept { return m_where; }

 private:
  std::string m_where;
};

}  // namespace dgk

/// Throws dgk::Error when `cond` holds. `msg` is a stream expression:
///   DGK_THROW_IF(J <= 0, "element " << e << " is inverted (J = " << J << ")");
#define DGK_THROW_IF(cond, msg)                                 \
  do {                                                          \
    if (cond) {                                                 \
      std::ostringstream dgk_error_stream_;                     \
      dgk_error_stream_ << msg; /* NOLINT */                    \
      throw ::dgk::Error(dgk_error_stream_.str(), __FILE__, __LINE__); \
    }                                                           \
  } while (false)
