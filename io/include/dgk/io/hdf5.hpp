// HDF5 support of this build.
#pragma once

#include <string>

namespace dgk::io {

/// Whether this build has HDF5 (DGK_ENABLE_HDF5).
bool hdf5_available();

/// Version of the HDF5 library linked in ("1.10.8"), or "" without HDF5.
std::string hdf5_version();

}  // namespace dgk::io
