// A thin layer over the HDF5 C API for dgk's own files: handles that close themselves, and
// reads/writes of whole datasets and scalar attributes that throw dgk::Error naming the file and
// the object instead of returning error codes. Private to dgk_io (compiled only with HDF5).
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace dgk::io::h5 {

/// An HDF5 identifier closed with the right H5*close when it goes out of scope.
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : m_id(id), m_close(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : m_id(o.m_id), m_close(o.m_close) { o.m_id = -1; }
  Handle& operator=(Handle&& o) noexcept;
  ~Handle();
  hid_t get() const { return m_id; }
  operator hid_t() const { return m_id; }  // NOLINT(google-explicit-constructor)

 private:
  hid_t m_id = -1;
  herr_t (*m_close)(hid_t) = nullptr;
};

/// An open file together with its name, for messages.
struct File {
  Handle handle;
  std::string path;
};

/// Creates (truncating) a file.
File create(const std::string& path);
/// Opens an existing file; throws a clear error when it is missing or not an HDF5 file.
File open(const std::string& path, bool writable);

/// Creates a group (parents must exist), or opens an existing one.
Handle group(const File& f, const std::string& path, bool create);
bool exists(const File& f, const std::string& path);

/// Element types of datasets. Raw float/double state is written with value_bytes 4 or 8.
enum class Type { Int32, Int64, Float32, Float64, UInt8 };

void write(const File& f, const std::string& path, Type type, const void* data, const std::vector<std::uint64_t>& dims);
template <class T>
void write(const File& f, const std::string& path, const std::vector<T>& data, const std::vector<std::uint64_t>& dims);

/// Dimensions and element type of a dataset.
struct Shape {
  std::vector<std::uint64_t> dims;
  Type type = Type::Float64;
  std::uint64_t count() const;
};
Shape shape(const File& f, const std::string& path);
/// Reads a whole dataset converted to T; `expect_rank`/`expect_cols` (when >= 0) are checked.
template <class T>
std::vector<T> read(const File& f, const std::string& path, Shape* out_shape = nullptr, int expect_rank = -1,
                    long long expect_cols = -1);
/// Reads a float or double dataset as raw bytes in its stored type; value_bytes is 4 or 8.
std::vector<unsigned char> read_raw_real(const File& f, const std::string& path, int& value_bytes, Shape& s);

// Scalar attributes on the object at `path` ("/" for the file).
void set_attr(const File& f, const std::string& path, const std::string& name, double v);
void set_attr(const File& f, const std::string& path, const std::string& name, long long v);
void set_attr(const File& f, const std::string& path, const std::string& name, const std::string& v);
bool has_attr(const File& f, const std::string& path, const std::string& name);
double attr_double(const File& f, const std::string& path, const std::string& name);
long long attr_int(const File& f, const std::string& path, const std::string& name);
std::string attr_string(const File& f, const std::string& path, const std::string& name);
/// Names of the attributes of an object, in creation order.
std::vector<std::string> attr_names(const File& f, const std::string& path);
/// Names of the members of a group, in name order.
std::vector<std::string> members(const File& f, const std::string& path);

}  // namespace dgk::io::h5
