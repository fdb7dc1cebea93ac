#include "h5.hpp"

#include <cstring>
#include <fstream>

#include "dgk/core/error.hpp"

namespace dgk::io::h5 {

namespace {

// HDF5 prints its own error stack to stderr by default; dgk reports errors itself.
void quiet() {
  static const bool done = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

hid_t memory_type(Type t) {
  switch (t) {
    case Type::Int32:
      return H5T_NATIVE_INT32;
    case Type::Int64:
      return H5T_NATIVE_INT64;
    case Type::Float32:
      return H5T_NATIVE_FLOAT;
    case Type::Float64:
      return H5T_NATIVE_DOUBLE;
    case Type::UInt8:
      return H5T_NATIVE_UINT8;
  }
  return H5T_NATIVE_DOUBLE;
}

hid_t file_type(Type t) {
  switch (t) {
    case Type::Int32:
      return H5T_STD_I32LE;
    case Type::Int64:
      return H5T_STD_I64LE;
    case Type::Float32:
      return H5T_IEEE_F32LE;
    case Type::Float64:
      return H5T_IEEE_F64LE;
    case Type::UInt8:
      return H5T_STD_U8LE;
  }
  return H5T_IEEE_F64LE;
}

const char* type_name(Type t) {
  switch (t) {
    case Type::Int32:
      return "int32";
    case Type::Int64:
      return "int64";
    case Type::Float32:
      return "float32";
    case Type::Float64:
      return "float64";
    case Type::UInt8:
      return "uint8";
  }
  return "?";
}

template <class T>
constexpr Type type_of() {
  if constexpr (std::is_same_v<T, int>)
    return Type::Int32;
  else if constexpr (std::is_same_v<T, long long>)
    return Type::Int64;
  else if constexpr (std::is_same_v<T, float>)
    return Type::Float32;
  else if constexpr (std::is_same_v<T, double>)
    return Type::Float64;
  else
    return Type::UInt8;
}

Handle open_object(const File& f, const std::string& path) {
  hid_t id = H5Oopen(f.handle, path.c_str(), H5P_DEFAULT);
  DGK_THROW_IF(id < 0, "HDF5 file '" << f.path << "': no object '" << path << "'");
  return Handle(id, H5Oclose);
}

Handle open_attr(const File& f, const std::string& path, const std::string& name, Handle& obj) {
  obj = open_object(f, path);
  DGK_THROW_IF(H5Aexists(obj, name.c_str()) <= 0,
               "HDF5 file '" << f.path << "': object '" << path << "' has no attribute '" << name << "'");
  hid_t a = H5Aopen(obj, name.c_str(), H5P_DEFAULT);
  DGK_THROW_IF(a < 0, "HDF5 file '" << f.path << "': cannot open attribute '" << name << "' of '" << path << "'");
  return Handle(a, H5Aclose);
}

void write_attr(const File& f, const std::string& path, const std::string& name, hid_t ftype, hid_t mtype,
                const void* value) {
  Handle obj = open_object(f, path);
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  hid_t a = H5Acreate2(obj, name.c_str(), ftype, space, H5P_DEFAULT, H5P_DEFAULT);
  DGK_THROW_IF(a < 0, "HDF5 file '" << f.path << "': cannot create attribute '" << name << "' on '" << path << "'");
  Handle attr(a, H5Aclose);
  DGK_THROW_IF(H5Awrite(attr, mtype, value) < 0,
               "HDF5 file '" << f.path << "': cannot write attribute '" << name << "' on '" << path << "'");
}

}  // namespace

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    if (m_id >= 0 && m_close) m_close(m_id);
    m_id = o.m_id;
    m_close = o.m_close;
    o.m_id = -1;
  }
  return *this;
}

Handle::~Handle() {
  if (m_id >= 0 && m_close) m_close(m_id);
}

File create(const std::string& path) {
  quiet();
  // Attributes in creation order, so files list them as written.
  Handle fcpl(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
  H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  H5Pset_attr_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl, H5P_DEFAULT);
  DGK_THROW_IF(id < 0, "cannot create HDF5 file '" << path << "' (is the folder writable?)");
  return File{Handle(id, H5Fclose), path};
}

File open(const std::string& path, bool writable) {
  quiet();
  DGK_THROW_IF(!std::ifstream(path).good(), "cannot open '" << path << "': no such file or not readable");
  DGK_THROW_IF(H5Fis_hdf5(path.c_str()) <= 0, "'" << path << "' is not an HDF5 file (or its header is damaged)");
  hid_t id = H5Fopen(path.c_str(), writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT);
  DGK_THROW_IF(id < 0, "cannot open HDF5 file '" << path << "' (damaged or truncated?)");
  return File{Handle(id, H5Fclose), path};
}

bool exists(const File& f, const std::string& path) {
  // Checks each component, as H5Lexists requires the parents to exist.
  std::size_t pos = 0;
  while (pos != std::string::npos) {
    pos = path.find('/', pos + 1);
    const std::string part = path.substr(0, pos);
    if (part.empty() || part == "/") continue;
    if (H5Lexists(f.handle, part.c_str(), H5P_DEFAULT) <= 0) return false;
  }
  return true;
}

Handle group(const File& f, const std::string& path, bool create_it) {
  if (exists(f, path)) {
    hid_t g = H5Gopen2(f.handle, path.c_str(), H5P_DEFAULT);
    DGK_THROW_IF(g < 0, "HDF5 file '" << f.path << "': '" << path << "' is not a group");
    return Handle(g, H5Gclose);
  }
  DGK_THROW_IF(!create_it, "HDF5 file '" << f.path << "': no group '" << path << "'");
  Handle gcpl(H5Pcreate(H5P_GROUP_CREATE), H5Pclose);
  H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  H5Pset_attr_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  hid_t g = H5Gcreate2(f.handle, path.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT);
  DGK_THROW_IF(g < 0, "HDF5 file '" << f.path << "': cannot create group '" << path << "'");
  return Handle(g, H5Gclose);
}

void write(const File& f, const std::string& path, Type type, const void* data,
           const std::vector<std::uint64_t>& dims) {
  std::vector<hsize_t> d(dims.begin(), dims.end());
  Handle space(H5Screate_simple(static_cast<int>(d.size()), d.data(), nullptr), H5Sclose);
  DGK_THROW_IF(space.get() < 0, "HDF5 file '" << f.path << "': bad dimensions for '" << path << "'");
  hid_t id = H5Dcreate2(f.handle, path.c_str(), file_type(type), space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  DGK_THROW_IF(id < 0, "HDF5 file '" << f.path << "': cannot create dataset '" << path << "'");
  Handle ds(id, H5Dclose);
  std::uint64_t n = 1;
  for (auto x : dims) n *= x;
  if (n > 0) {
    DGK_THROW_IF(H5Dwrite(ds, memory_type(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0,
                 "HDF5 file '" << f.path << "': cannot write dataset '" << path << "' (disk full?)");
  }
}

template <class T>
void write(const File& f, const std::string& path, const std::vector<T>& data, const std::vector<std::uint64_t>& dims) {
  std::uint64_t n = 1;
  for (auto x : dims) n *= x;
  DGK_THROW_IF(n != data.size(), "HDF5 write of '" << path << "': " << data.size() << " values for " << n << " slots");
  write(f, path, type_of<T>(), data.data(), dims);
}

std::uint64_t Shape::count() const {
  std::uint64_t n = 1;
  for (auto x : dims) n *= x;
  return n;
}

Shape shape(const File& f, const std::string& path) {
  DGK_THROW_IF(!exists(f, path), "HDF5 file '" << f.path << "': no dataset '" << path << "'");
  hid_t id = H5Dopen2(f.handle, path.c_str(), H5P_DEFAULT);
  DGK_THROW_IF(id < 0, "HDF5 file '" << f.path << "': '" << path << "' is not a dataset");
  Handle ds(id, H5Dclose);
  Handle space(H5Dget_space(ds), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space);
  DGK_THROW_IF(rank < 0 || rank > 8, "HDF5 file '" << f.path << "': dataset '" << path << "' has a bad dataspace");
  std::vector<hsize_t> d(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space, d.data(), nullptr);
  Shape s;
  s.dims.assign(d.begin(), d.end());
  Handle t(H5Dget_type(ds), H5Tclose);
  const H5T_class_t cls = H5Tget_class(t);
  const std::size_t size = H5Tget_size(t);
  if (cls == H5T_FLOAT)
    s.type = size == 4 ? Type::Float32 : Type::Float64;
  else if (cls == H5T_INTEGER)
    s.type = size == 1 ? Type::UInt8 : size == 4 ? Type::Int32 : Type::Int64;
  else
    DGK_THROW_IF(true, "HDF5 file '" << f.path << "': dataset '" << path << "' is neither integer nor floating point");
  return s;
}

template <class T>
std::vector<T> read(const File& f, const std::string& path, Shape* out_shape, int expect_rank, long long expect_cols) {
  const Shape s = shape(f, path);
  DGK_THROW_IF(expect_rank >= 0 && static_cast<int>(s.dims.size()) != expect_rank,
               "HDF5 file '" << f.path << "': dataset '" << path << "' has rank " << s.dims.size() << ", expected "
                             << expect_rank);
  DGK_THROW_IF(expect_cols >= 0 && (s.dims.size() < 2 || static_cast<long long>(s.dims[1]) != expect_cols),
               "HDF5 file '" << f.path << "': dataset '" << path << "' should have " << expect_cols << " columns");
  constexpr bool want_int = std::is_integral_v<T>;
  const bool is_int = s.type == Type::Int32 || s.type == Type::Int64 || s.type == Type::UInt8;
  DGK_THROW_IF(want_int != is_int, "HDF5 file '" << f.path << "': dataset '" << path << "' holds " << type_name(s.type)
                                                 << " values where " << (want_int ? "integers" : "reals")
                                                 << " were expected");
  std::vector<T> out(static_cast<std::size_t>(s.count()));
  Handle ds(H5Dopen2(f.handle, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!out.empty()) {
    DGK_THROW_IF(H5Dread(ds, memory_type(type_of<T>()), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0,
                 "HDF5 file '" << f.path << "': cannot read dataset '" << path << "' (damaged file?)");
  }
  if (out_shape) *out_shape = s;
  return out;
}

std::vector<unsigned char> read_raw_real(const File& f, const std::string& path, int& value_bytes, Shape& s) {
  s = shape(f, path);
  DGK_THROW_IF(s.type != Type::Float32 && s.type != Type::Float64,
               "HDF5 file '" << f.path << "': dataset '" << path << "' holds " << type_name(s.type)
                             << " values where float or double was expected");
  value_bytes = s.type == Type::Float32 ? 4 : 8;
  std::vector<unsigned char> out(static_cast<std::size_t>(s.count()) * static_cast<std::size_t>(value_bytes));
  Handle ds(H5Dopen2(f.handle, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!out.empty()) {
    DGK_THROW_IF(H5Dread(ds, memory_type(s.type), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0,
                 "HDF5 file '" << f.path << "': cannot read dataset '" << path << "' (damaged file?)");
  }
  return out;
}

void set_attr(const File& f, const std::string& path, const std::string& name, double v) {
  write_attr(f, path, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
}
void set_attr(const File& f, const std::string& path, const std::string& name, long long v) {
  const std::int64_t x = v;
  write_attr(f, path, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &x);
}
void set_attr(const File& f, const std::string& path, const std::string& name, const std::string& v) {
  // Fixed-length UTF-8 string (at least one byte: HDF5 refuses empty string types).
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(t, std::max<std::size_t>(1, v.size()));
  H5Tset_strpad(t, H5T_STR_NULLPAD);
  H5Tset_cset(t, H5T_CSET_UTF8);
  std::string padded = v;
  padded.resize(std::max<std::size_t>(1, v.size()), '\0');
  write_attr(f, path, name, t, t, padded.data());
}

bool has_attr(const File& f, const std::string& path, const std::string& name) {
  if (!exists(f, path) && path != "/") return false;
  Handle obj = open_object(f, path);
  return H5Aexists(obj, name.c_str()) > 0;
}

double attr_double(const File& f, const std::string& path, const std::string& name) {
  Handle obj;
  Handle a = open_attr(f, path, name, obj);
  Handle t(H5Aget_type(a), H5Tclose);
  DGK_THROW_IF(H5Tget_class(t) != H5T_FLOAT && H5Tget_class(t) != H5T_INTEGER,
               "HDF5 file '" << f.path << "': attribute '" << name << "' of '" << path << "' is not a number");
  double v = 0;
  DGK_THROW_IF(H5Aread(a, H5T_NATIVE_DOUBLE, &v) < 0,
               "HDF5 file '" << f.path << "': cannot read attribute '" << name << "' of '" << path << "'");
  return v;
}

long long attr_int(const File& f, const std::string& path, const std::string& name) {
  Handle obj;
  Handle a = open_attr(f, path, name, obj);
  Handle t(H5Aget_type(a), H5Tclose);
  DGK_THROW_IF(H5Tget_class(t) != H5T_INTEGER,
               "HDF5 file '" << f.path << "': attribute '" << name << "' of '" << path << "' is not an integer");
  std::int64_t v = 0;
  DGK_THROW_IF(H5Aread(a, H5T_NATIVE_INT64, &v) < 0,
               "HDF5 file '" << f.path << "': cannot read attribute '" << name << "' of '" << path << "'");
  return v;
}

std::string attr_string(const File& f, const std::string& path, const std::string& name) {
  Handle obj;
  Handle a = open_attr(f, path, name, obj);
  Handle t(H5Aget_type(a), H5Tclose);
  DGK_THROW_IF(H5Tget_class(t) != H5T_STRING,
               "HDF5 file '" << f.path << "': attribute '" << name << "' of '" << path << "' is not a string");
  DGK_THROW_IF(H5Tis_variable_str(t) > 0, "HDF5 file '" << f.path << "': attribute '" << name << "' of '" << path
                                                        << "' is a variable-length string");
  const std::size_t size = H5Tget_size(t);
  DGK_THROW_IF(size > (1u << 24), "HDF5 file '" << f.path << "': attribute '" << name << "' is implausibly long");
  std::string v(size, '\0');
  DGK_THROW_IF(H5Aread(a, t, v.data()) < 0,
               "HDF5 file '" << f.path << "': cannot read attribute '" << name << "' of '" << path << "'");
  v.resize(std::strlen(v.c_str()));
  return v;
}

std::vector<std::string> attr_names(const File& f, const std::string& path) {
  Handle obj = open_object(f, path);
  std::vector<std::string> names;
  hsize_t idx = 0;
  auto collect = [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
  };
  // Creation order when the object tracks it, name order otherwise.
  if (H5Aiterate2(obj, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect, &names) < 0) {
    names.clear();
    idx = 0;
    DGK_THROW_IF(H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, collect, &names) < 0,
                 "HDF5 file '" << f.path << "': cannot list the attributes of '" << path << "'");
  }
  return names;
}

std::vector<std::string> members(const File& f, const std::string& path) {
  Handle g = group(f, path, false);
  H5G_info_t info;
  DGK_THROW_IF(H5Gget_info(g, &info) < 0, "HDF5 file '" << f.path << "': cannot list group '" << path << "'");
  std::vector<std::string> names;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t n = H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (n < 0) continue;
    std::string name(static_cast<std::size_t>(n) + 1, '\0');
    H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT);
    name.resize(static_cast<std::size_t>(n));
    names.push_back(name);
  }
  return names;
}

template void write<int>(const File&, const std::string&, const std::vector<int>&, const std::vector<std::uint64_t>&);
template void write<long long>(const File&, const std::string&, const std::vector<long long>&,
                               const std::vector<std::uint64_t>&);
template void write<double>(const File&, const std::string&, const std::vector<double>&,
                            const std::vector<std::uint64_t>&);
template std::vector<int> read<int>(const File&, const std::string&, Shape*, int, long long);
template std::vector<long long> read<long long>(const File&, const std::string&, Shape*, int, long long);
template std::vector<double> read<double>(const File&, const std::string&, Shape*, int, long long);

}  // namespace dgk::io::h5
