#include "insitu/checkpoint/Hdf5Io.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "fileio/FileError.hpp"

namespace fluxview::checkpoint_detail {

namespace {

// The operating system's error behind the HDF5 failure just reported: HDF5's file drivers
// put "errno = N" into the description on its error stack. 0 when there is none.
int os_error_of_hdf5_failure() {
  int found = 0;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned, const H5E_error2_t* e, void* data) -> herr_t {
        const char* at = e && e->desc ? std::strstr(e->desc, "errno = ") : nullptr;
        if (!at) return 0;
        const int v = std::atoi(at + 8);
        if (v <= 0) return 0;
        *static_cast<int*>(data) = v;
        return 1;
      },
      &found);
  return found;
}

DiskFile disk_file_of(hid_t file) {
  DiskFile d;
  void* handle = nullptr;
  struct stat st {};
  if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || !handle) return d;
  const int fd = *static_cast<int*>(handle);
  if (::fstat(fd, &st) != 0) return d;
  d.fd = fd;
  d.dev = st.st_dev;
  d.ino = st.st_ino;
  return d;
}

void divert_to_memory(const DiskFile& d) {
  struct stat st {};
  if (d.fd < 0 || ::fstat(d.fd, &st) != 0 || st.st_dev != d.dev || st.st_ino != d.ino) return;
  const int sink = ::memfd_create("fluxview-abandoned-checkpoint", MFD_CLOEXEC);
  if (sink < 0) return;
  ::dup2(sink, d.fd);
  ::close(sink);
}

}  // namespace

void check(herr_t e, const std::string& what) {
  if (e < 0) throw std::runtime_error("HDF5: " + what + " failed");
}

// After a failed write HDF5 1.10 may be unable to close its file: a failed flush leaves
// its metadata cache in a state in which every later flush, and so every close, fails
// ("slist already enabled?"); the file stays open, and HDF5's exit handler, closing it,
// crashes (a segmentation fault after "HDF5: flush failed"). So on a failure the file's
// descriptor is pointed at an anonymous file in memory (what HDF5 still writes lands there,
// and the temporary on disk, no longer held, is removed by the caller), and HDF5 runs
// without its exit handler: a file it cannot close is left to the process's end. fluxview
// closes every file it opens itself, so the handler has nothing else to do.
void start_hdf5() {
  static const bool started = [] {
    H5dont_atexit();
    return H5open() >= 0;
  }();
  (void)started;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

void PieceWriter::set_file(hid_t file) {
  disk_ = disk_file_of(file);
}

void PieceWriter::fail(const std::string& what) const {
  const int saved = errno;
  int e = os_error_of_hdf5_failure();
  if (e == 0) e = saved != 0 ? saved : EIO;
  divert_to_memory(disk_);
  throw FileError(name_, e,
                  "writing checkpoint '" + name_.string() + "' failed: " + os_error_text(e) +
                      " (HDF5: " + what + ")");
}

void write_string_attr(const PieceWriter& w, hid_t obj, const char* name,
                       const std::string& value) {
  const std::string what = std::string("attribute ") + name;
  H5Handle type(w(what, [&] { return H5Tcopy(H5T_C_S1); }), H5Tclose);
  w(what, [&] { return H5Tset_size(type, value.empty() ? 1 : value.size()); });
  H5Handle space(w(what, [&] { return H5Screate(H5S_SCALAR); }), H5Sclose);
  H5Handle attr(
      w(what, [&] { return H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT); }),
      H5Aclose);
  w(what, [&] { return H5Awrite(attr, type, value.empty() ? "" : value.data()); });
}

void write_int3_attr(const PieceWriter& w, hid_t obj, const char* name,
                     const std::array<int, 3>& v) {
  const std::string what = std::string("attribute ") + name;
  const hsize_t dims[1] = {3};
  H5Handle space(w(what, [&] { return H5Screate_simple(1, dims, nullptr); }), H5Sclose);
  H5Handle attr(
      w(what,
        [&] { return H5Acreate2(obj, name, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT); }),
      H5Aclose);
  w(what, [&] { return H5Awrite(attr, H5T_NATIVE_INT, v.data()); });
}

std::string read_string_attr(hid_t obj, const char* name) {
  if (H5Aexists(obj, name) <= 0)
    throw std::runtime_error(std::string("attribute '") + name + "' is missing");
  H5Handle attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  H5Handle type(H5Aget_type(attr), H5Tclose);
  const std::size_t n = H5Tget_size(type);
  std::string s(n, '\0');
  H5Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(mem, n);
  check(H5Aread(attr, mem, s.data()), std::string("reading attribute ") + name);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::array<int, 3> read_int3_attr(hid_t obj, const char* name) {
  if (H5Aexists(obj, name) <= 0)
    throw std::runtime_error(std::string("attribute '") + name + "' is missing");
  H5Handle attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  H5Handle space(H5Aget_space(attr), H5Sclose);
  if (H5Sget_simple_extent_npoints(space) != 3)
    throw std::runtime_error(std::string("attribute '") + name + "' is not three integers");
  std::array<int, 3> v{};
  check(H5Aread(attr, H5T_NATIVE_INT, v.data()), std::string("reading attribute ") + name);
  return v;
}

}  // namespace fluxview::checkpoint_detail
