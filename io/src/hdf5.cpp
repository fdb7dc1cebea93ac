#include "dgk/io/hdf5.hpp"

#ifdef DGK_HAS_HDF5
#include <hdf5.h>
#endif

namespace dgk::io {

bool hdf5_available() {
#ifdef DGK_HAS_HDF5
  return true;
#else
  return false;
#endif
}

std::string hdf5_version() {
#ifdef DGK_HAS_HDF5
  unsigned major = 0, minor = 0, release = 0;
  if (H5get_libversion(&major, &minor, &release) < 0) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
#else
  return "";
#endif
}

}  // namespace dgk::io
