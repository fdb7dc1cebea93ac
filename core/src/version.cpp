#include "dgk/core/version.hpp"

#include <Kokkos_Core.hpp>

namespace dgk {

const char* version_string() {
  static const std::string text = [] {
    std::string s = "dgk " DGK_VERSION_STRING " (Kokkos " + std::to_string(KOKKOS_VERSION / 10000) + "." +
                    std::to_string(KOKKOS_VERSION / 100 % 100) + "." + std::to_string(KOKKOS_VERSION % 100) +
                    "; backends:";
#ifdef KOKKOS_ENABLE_SERIAL
    s += " serial";
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    s += " openmp";
#endif
#ifdef KOKKOS_ENABLE_CUDA
    s += " cuda";
#endif
    return s + ")";
  }();
  return text.c_str();
}

}  // namespace dgk
