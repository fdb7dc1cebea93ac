// Error reporting: host-side exceptions that say what is wrong and where, and a device-side
// assertion that is active in debug builds only.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

#include <Kokkos_Core.hpp>

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

/// Device-usable assertion, compiled in debug builds (Kokkos_ENABLE_DEBUG or !NDEBUG).
#if defined(KOKKOS_ENABLE_DEBUG) || !defined(NDEBUG)
#define DGK_ASSERT(cond)                                                  \
  do {                                                                    \
    if (!(cond)) Kokkos::abort("dgk: assertion failed: " #cond);          \
  } while (false)
#else
#define DGK_ASSERT(cond) ((void)0)
#endif
