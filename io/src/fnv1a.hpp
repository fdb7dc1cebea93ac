// 64-bit FNV-1a hash of byte ranges: integrity checks of stored arrays (private to dgk_io).
#pragma once

#include <cstddef>
#include <cstdint>

namespace dgk::io {

inline std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t seed = 14695981039346656037ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = seed;
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace dgk::io
