#pragma once
// The HDF5 calls of the checkpoint code with their errors: handles closed on scope exit,
// writes that name the checkpoint and the operating system's error when they fail, and
// attributes written and read. Internal to insitu/checkpoint.
#include <hdf5.h>
#include <sys/types.h>

#include <array>
#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

namespace fluxview::checkpoint_detail {

// Closes an HDF5 handle on scope exit, so every error path releases what it opened.
struct H5Handle {
  hid_t id = -1;
  herr_t (*close)(hid_t) = nullptr;
  H5Handle(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
  ~H5Handle() {
    if (id >= 0 && close) close(id);
  }
  H5Handle(const H5Handle&) = delete;
  H5Handle& operator=(const H5Handle&) = delete;
  operator hid_t() const { return id; }
};

// Throws std::runtime_error("HDF5: what failed") for a negative result.
void check(herr_t e, const std::string& what);

// Opens the HDF5 library once, without its exit handler (see Hdf5Io.cpp), and silences its
// error stack printing: every failure is reported by fluxview itself.
void start_hdf5();

// The descriptor under an HDF5 file, and which file it is (device and inode), taken while
// the file is sound: after a failed close HDF5 may have let it go.
struct DiskFile {
  int fd = -1;
  dev_t dev = 0;
  ino_t ino = 0;
};

// Runs the HDF5 calls that write one checkpoint file: a negative result (an id or an
// herr_t) throws a FileError naming the checkpoint (`name`, not the temporary written)
// and the operating system's error, with the HDF5 step after it.
class PieceWriter {
 public:
  explicit PieceWriter(std::filesystem::path name) : name_(std::move(name)) {}
  // The file being written, diverted on a failure (see Hdf5Io.cpp).
  void set_file(hid_t file);
  template <class Call>
  auto operator()(const std::string& what, Call call) const {
    errno = 0;
    const auto r = call();
    if (r < 0) fail(what);
    return r;
  }
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::filesystem::path name_;
  DiskFile disk_;
};

void write_string_attr(const PieceWriter& w, hid_t obj, const char* name, const std::string& value);
void write_int3_attr(const PieceWriter& w, hid_t obj, const char* name,
                     const std::array<int, 3>& v);
template <class V>
void write_scalar_attr(const PieceWriter& w, hid_t obj, const char* name, hid_t type, V value) {
  const std::string what = std::string("attribute ") + name;
  H5Handle space(w(what, [&] { return H5Screate(H5S_SCALAR); }), H5Sclose);
  H5Handle attr(
      w(what, [&] { return H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT); }),
      H5Aclose);
  w(what, [&] { return H5Awrite(attr, type, &value); });
}

// Reading throws std::runtime_error naming a missing or unreadable attribute.
std::string read_string_attr(hid_t obj, const char* name);
std::array<int, 3> read_int3_attr(hid_t obj, const char* name);
template <class V>
V read_scalar_attr(hid_t obj, const char* name, hid_t type) {
  if (H5Aexists(obj, name) <= 0)
    throw std::runtime_error(std::string("attribute '") + name + "' is missing");
  H5Handle attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  V v{};
  check(H5Aread(attr, type, &v), std::string("reading attribute ") + name);
  return v;
}

}  // namespace fluxview::checkpoint_detail
