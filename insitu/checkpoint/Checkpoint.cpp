#include "insitu/checkpoint/Checkpoint.hpp"

#include <hdf5.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <vector>

#include "fileio/AtomicFile.hpp"
#include "fileio/FileError.hpp"
#include "insitu/EveryRank.hpp"
#include "insitu/snapshot/RunRecord.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview {

namespace {

constexpr const char* kFormat = "fluxview-checkpoint";
// Version 2: every file records its box of the global grid (rank, ranks, global size,
// offset), covered by the CRC too, so a restart can reassemble the grid on any number of
// ranks. Version 1 files lack the box: a serial one is the whole grid and still reads; the
// pieces of an MPI run are refused (which box each holds is not known).
constexpr int kVersion = 2;

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

void check(herr_t e, const std::string& what) {
  if (e < 0) throw std::runtime_error("HDF5: " + what + " failed");
}

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
}

// The descriptor under an HDF5 file, and which file it is (device and inode), taken while
// the file is sound: after a failed close HDF5 may have let it go.
struct DiskFile {
  int fd = -1;
  dev_t dev = 0;
  ino_t ino = 0;
};

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

// Runs the HDF5 calls that write one checkpoint file: a negative result (an id or an
// herr_t) throws a FileError naming the checkpoint (`name`, not the temporary written)
// and the operating system's error, with the HDF5 step after it.
class PieceWriter {
 public:
  explicit PieceWriter(std::filesystem::path name) : name_(std::move(name)) {}
  // The file being written, diverted on a failure (divert_to_memory).
  void set_file(hid_t file) { disk_ = disk_file_of(file); }
  template <class Call>
  auto operator()(const std::string& what, Call call) const {
    errno = 0;
    const auto r = call();
    if (r < 0) fail(what);
    return r;
  }
  [[noreturn]] void fail(const std::string& what) const {
    const int saved = errno;
    int e = os_error_of_hdf5_failure();
    if (e == 0) e = saved != 0 ? saved : EIO;
    divert_to_memory(disk_);
    throw FileError(name_, e,
                    "writing checkpoint '" + name_.string() + "' failed: " + os_error_text(e) +
                        " (HDF5: " + what + ")");
  }

 private:
  std::filesystem::path name_;
  DiskFile disk_;
};

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

template <class V>
void write_scalar_attr(const PieceWriter& w, hid_t obj, const char* name, hid_t type, V value) {
  const std::string what = std::string("attribute ") + name;
  H5Handle space(w(what, [&] { return H5Screate(H5S_SCALAR); }), H5Sclose);
  H5Handle attr(
      w(what, [&] { return H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT); }),
      H5Aclose);
  w(what, [&] { return H5Awrite(attr, type, &value); });
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

template <class V>
V read_scalar_attr(hid_t obj, const char* name, hid_t type) {
  if (H5Aexists(obj, name) <= 0)
    throw std::runtime_error(std::string("attribute '") + name + "' is missing");
  H5Handle attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  V v{};
  check(H5Aread(attr, type, &v), std::string("reading attribute ") + name);
  return v;
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

std::string dims_text(const std::array<int, 3>& n) {
  return std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
}

// CRC-32 (zlib), fed in pieces of at most 1 GiB (zlib's length is 32-bit).
class Crc32 {
 public:
  void add(const void* p, std::size_t n) {
    const auto* b = static_cast<const Bytef*>(p);
    for (std::size_t o = 0; o < n; o += kStep)
      crc_ = crc32(crc_, b + o, uInt(std::min(kStep, n - o)));
  }
  std::uint32_t value() const { return std::uint32_t(crc_); }

 private:
  static constexpr std::size_t kStep = std::size_t(1) << 30;
  uLong crc_ = crc32(0L, Z_NULL, 0);
};

// The CRC over everything a restart depends on, in a fixed order: these header fields,
// then each array's name and values in the file's order (added by the caller).
Crc32 header_crc(const Checkpoint& c, const CheckpointPiece& p) {
  Crc32 crc;
  for (const std::string* s :
       {&c.solver, &c.scenario, &c.parameters_json, &c.backend, &c.precision, &c.state.extra})
    crc.add(s->data(), s->size());
  crc.add(&c.state.time, sizeof c.state.time);
  crc.add(&c.state.step, sizeof c.state.step);
  if (p.version >= 2) {
    const std::int32_t box[11] = {p.ranks,       p.rank,      c.global_n[0], c.global_n[1],
                                  c.global_n[2], p.offset[0], p.offset[1],   p.offset[2],
                                  p.n[0],        p.n[1],      p.n[2]};
    crc.add(box, sizeof box);
  }
  return crc;
}

std::string piece_suffix(int rank, int ranks) {
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, ".rank%04dof%04d", rank, ranks);
  return suffix;
}

// "checkpoint_000010.rank0001of0004" -> {"checkpoint_000010", 1, 4}; nothing for a name
// that is not a piece's.
struct PieceName {
  std::string stem;
  int rank = 0, ranks = 0;
};
std::optional<PieceName> parse_piece_stem(const std::string& stem) {
  const std::size_t at = stem.rfind(".rank");
  if (at == std::string::npos) return std::nullopt;
  const std::string rest = stem.substr(at + 5);
  const std::size_t of = rest.find("of");
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 9 &&
           std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
  };
  if (of == std::string::npos || !digits(rest.substr(0, of)) || !digits(rest.substr(of + 2)))
    return std::nullopt;
  return PieceName{stem.substr(0, at), std::stoi(rest.substr(0, of)),
                   std::stoi(rest.substr(of + 2))};
}

// The files of the checkpoint `logical`: the file itself (serial), or its pieces, in rank
// order, with the rank count their names give (0 for a serial file).
struct PieceFile {
  std::filesystem::path file;
  int rank = 0, ranks = 0;
};
std::vector<PieceFile> find_pieces(std::filesystem::path logical) {
  namespace fs = std::filesystem;
  // A piece named on the command line stands for its whole checkpoint.
  if (const auto named = parse_piece_stem(logical.stem().string()))
    logical = logical.parent_path() / (named->stem + logical.extension().string());
  const fs::path dir = logical.parent_path().empty() ? fs::path(".") : logical.parent_path();
  const std::string stem = logical.stem().string(), ext = logical.extension().string();
  std::error_code ec;
  const bool serial = fs::is_regular_file(logical, ec);
  std::map<int, std::map<int, fs::path>> by_ranks;  // ranks -> rank -> file
  if (fs::is_directory(dir, ec))
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension().string() != ext) continue;
      const auto p = parse_piece_stem(e.path().stem().string());
      if (p && p->stem == stem) by_ranks[p->ranks][p->rank] = e.path();
    }
  const std::string pattern = stem + ".rankRRRRofSSSS" + ext;
  if (!serial && by_ranks.empty())
    throw std::runtime_error("no such file (nor pieces " + pattern +
                             " of a checkpoint written on several MPI ranks)");
  if (serial && !by_ranks.empty())
    throw std::runtime_error("both this serial checkpoint and pieces " + pattern + " written on " +
                             std::to_string(by_ranks.begin()->first) +
                             " MPI ranks exist; remove the ones not meant");
  if (serial) return {{logical, 0, 0}};
  if (by_ranks.size() > 1)
    throw std::runtime_error("pieces " + pattern + " of checkpoints written on " +
                             std::to_string(by_ranks.begin()->first) + " and " +
                             std::to_string(std::next(by_ranks.begin())->first) +
                             " MPI ranks lie side by side; remove the set not meant");
  const auto& [ranks, files] = *by_ranks.begin();
  std::vector<PieceFile> out;
  for (int r = 0; r < ranks; ++r) {
    const auto it = files.find(r);
    if (it == files.end())
      throw std::runtime_error("piece " + stem + piece_suffix(r, ranks) + ext +
                               " is missing (the checkpoint was written on " +
                               std::to_string(ranks) + " MPI ranks; " +
                               std::to_string(files.size()) + " of its pieces are there)");
    out.push_back({it->second, r, ranks});
  }
  if (int(files.size()) != ranks)
    throw std::runtime_error("piece " + files.rbegin()->second.filename().string() +
                             " does not belong to a checkpoint written on " +
                             std::to_string(ranks) + " MPI ranks");
  return out;
}

// Reads the header of one file (attributes and the arrays' names and sizes, not their
// values) into `c` and returns its box. Throws std::runtime_error saying what is wrong.
CheckpointPiece read_piece_header(const PieceFile& f, Checkpoint& c) {
  const char* path = f.file.c_str();
  if (H5Fis_hdf5(path) <= 0)
    throw std::runtime_error("not an HDF5 file (truncated or not a checkpoint)");
  H5Handle file(H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (file.id < 0) throw std::runtime_error("cannot open as HDF5 (truncated?)");
  if (H5Aexists(file, "format") <= 0 || read_string_attr(file, "format") != kFormat)
    throw std::runtime_error("not a fluxview checkpoint");
  CheckpointPiece p;
  p.file = f.file;
  p.version = read_scalar_attr<int>(file, "version", H5T_NATIVE_INT);
  if (p.version != 1 && p.version != kVersion)
    throw std::runtime_error("checkpoint format version " + std::to_string(p.version) +
                             ", this fluxview reads 1 and " + std::to_string(kVersion));
  c.solver = read_string_attr(file, "solver");
  c.scenario = read_string_attr(file, "scenario");
  c.description = read_string_attr(file, "description");
  c.parameters_json = read_string_attr(file, "parameters");
  c.backend = read_string_attr(file, "backend");
  c.precision = read_string_attr(file, "precision");
  c.state.extra = read_string_attr(file, "extra_state");
  c.state.time = read_scalar_attr<double>(file, "time", H5T_NATIVE_DOUBLE);
  c.state.step = read_scalar_attr<std::int64_t>(file, "step", H5T_NATIVE_INT64);
  p.crc = read_scalar_attr<std::uint32_t>(file, "crc32", H5T_NATIVE_UINT32);
  p.ranks = H5Aexists(file, "ranks") > 0 ? read_scalar_attr<int>(file, "ranks", H5T_NATIVE_INT) : 1;
  if (p.version == 1 && p.ranks > 1)
    throw std::runtime_error(
        "a piece written on " + std::to_string(p.ranks) +
        " MPI ranks by an older fluxview (checkpoint format 1), which did not record the piece's "
        "box; this fluxview cannot place it (restart it with the fluxview that wrote it, on as "
        "many ranks)");
  if (p.version >= 2) {
    p.rank = read_scalar_attr<int>(file, "rank", H5T_NATIVE_INT);
    c.global_n = read_int3_attr(file, "global_n");
    p.offset = read_int3_attr(file, "box_offset");
  }
  // The name and the attributes must agree on which piece this is.
  const int named_ranks = f.ranks == 0 ? 1 : f.ranks;
  if (p.ranks != named_ranks || p.rank != f.rank)
    throw std::runtime_error(
        "holds piece " + std::to_string(p.rank) + " of " + std::to_string(p.ranks) +
        " but its name says " +
        (f.ranks == 0 ? std::string("a serial checkpoint")
                      : "piece " + std::to_string(f.rank) + " of " + std::to_string(f.ranks)) +
        " (renamed?)");

  H5Handle group(H5Gopen2(file, "state", H5P_DEFAULT), H5Gclose);
  if (group.id < 0) throw std::runtime_error("the state group is missing");
  c.array_names.clear();
  const std::string order = read_string_attr(group, "order");
  for (std::size_t start = 0; !order.empty() && start <= order.size();) {
    const std::size_t comma = std::min(order.find(',', start), order.size());
    c.array_names.push_back(order.substr(start, comma - start));
    start = comma + 1;
  }
  if (c.array_names.empty()) throw std::runtime_error("the state holds no arrays");
  for (std::size_t i = 0; i < c.array_names.size(); ++i) {
    const std::string& name = c.array_names[i];
    if (H5Lexists(group, name.c_str(), H5P_DEFAULT) <= 0)
      throw std::runtime_error("array " + name + " is missing");
    H5Handle ds(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose);
    H5Handle space(H5Dget_space(ds), H5Sclose);
    if (H5Sget_simple_extent_ndims(space) != 3)
      throw std::runtime_error("array " + name + " is not 3D");
    hsize_t dims[3] = {0, 0, 0};
    H5Sget_simple_extent_dims(space, dims, nullptr);
    const std::array<int, 3> n{int(dims[2]), int(dims[1]), int(dims[0])};
    if (i == 0) p.n = n;
    if (n != p.n)
      throw std::runtime_error("array " + name + " is " + dims_text(n) + ", array " +
                               c.array_names[0] + " " + dims_text(p.n));
  }
  if (p.version == 1) c.global_n = p.n;  // a serial file of format 1: the whole grid
  for (int a = 0; a < 3; ++a)
    if (p.offset[a] < 0 || p.n[a] < 1 || p.offset[a] + p.n[a] > c.global_n[a])
      throw std::runtime_error("its box of " + dims_text(p.n) + " cells at offset (" +
                               std::to_string(p.offset[0]) + ", " + std::to_string(p.offset[1]) +
                               ", " + std::to_string(p.offset[2]) + ") is outside its grid of " +
                               dims_text(c.global_n));
  return p;
}

// What two pieces of one checkpoint must share; the first difference, or "".
std::string header_difference(const Checkpoint& a, const Checkpoint& b) {
  if (a.solver != b.solver) return "solver (" + b.solver + " vs " + a.solver + ")";
  if (a.scenario != b.scenario) return "scenario (" + b.scenario + " vs " + a.scenario + ")";
  if (a.global_n != b.global_n)
    return "global grid (" + dims_text(b.global_n) + " vs " + dims_text(a.global_n) + ")";
  if (a.state.step != b.state.step)
    return "step (" + std::to_string(b.state.step) + " vs " + std::to_string(a.state.step) + ")";
  if (a.state.time != b.state.time) return "time";
  if (a.description != b.description) return "scenario description";
  if (a.parameters_json != b.parameters_json) return "parameters";
  if (a.backend != b.backend) return "backend (" + b.backend + " vs " + a.backend + ")";
  if (a.precision != b.precision) return "precision (" + b.precision + " vs " + a.precision + ")";
  if (a.state.extra != b.state.extra) return "extra solver state";
  if (a.array_names != b.array_names) return "list of arrays";
  return "";
}

bool overlap(const CheckpointPiece& p, const std::array<int, 3>& off, const std::array<int, 3>& n) {
  for (int a = 0; a < 3; ++a)
    if (p.offset[a] >= off[a] + n[a] || off[a] >= p.offset[a] + p.n[a]) return false;
  return true;
}

Checkpoint open_checkpoint_here(const std::filesystem::path& logical) {
  const std::string where = "--restart " + logical.string() + ": ";
  start_hdf5();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  std::vector<PieceFile> files;
  try {
    files = find_pieces(logical);
  } catch (const std::runtime_error& e) {
    throw ConfigError(where + e.what());
  }
  Checkpoint c;
  for (const PieceFile& f : files) {
    const std::string at =
        where + (f.ranks == 0 ? "" : "piece " + f.file.filename().string() + ": ");
    Checkpoint h;
    CheckpointPiece p;
    try {
      p = read_piece_header(f, h);
    } catch (const std::runtime_error& e) {
      throw ConfigError(at + e.what());
    }
    if (c.pieces.empty()) {
      c = std::move(h);
    } else if (const std::string d = header_difference(c, h); !d.empty()) {
      throw ConfigError(at + "differs from " + c.pieces[0].file.filename().string() + " in its " +
                        d + "; the pieces are not of one checkpoint");
    }
    c.pieces.push_back(std::move(p));
  }
  // The pieces must tile the global grid: no two overlap, and together they cover it.
  std::int64_t covered = 0;
  for (std::size_t i = 0; i < c.pieces.size(); ++i) {
    const CheckpointPiece& p = c.pieces[i];
    covered += std::int64_t(p.n[0]) * p.n[1] * p.n[2];
    for (std::size_t j = 0; j < i; ++j)
      if (overlap(c.pieces[j], p.offset, p.n))
        throw ConfigError(where + "the boxes of pieces " + c.pieces[j].file.filename().string() +
                          " and " + p.file.filename().string() + " overlap");
  }
  const std::int64_t cells = std::int64_t(c.global_n[0]) * c.global_n[1] * c.global_n[2];
  if (covered != cells)
    throw ConfigError(where + "its pieces cover " + std::to_string(covered) + " of the " +
                      std::to_string(cells) + " cells of the " + dims_text(c.global_n) + " grid");
  return c;
}

// Writes the HDF5 file of one piece at `file`; `name` is the checkpoint the user knows.
void write_piece_file(const std::filesystem::path& file, const std::filesystem::path& name,
                      const Checkpoint& c, const CheckpointPiece& piece) {
  PieceWriter w(name);
  H5Handle h5(w("creating the file",
                [&] { return H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT); }),
              H5Fclose);
  w.set_file(h5);
  {
    write_string_attr(w, h5, "format", kFormat);
    write_scalar_attr(w, h5, "version", H5T_NATIVE_INT, kVersion);
    write_string_attr(w, h5, "solver", c.solver);
    write_string_attr(w, h5, "scenario", c.scenario);
    write_string_attr(w, h5, "description", c.description);
    write_string_attr(w, h5, "parameters", c.parameters_json);
    write_string_attr(w, h5, "backend", c.backend);
    write_string_attr(w, h5, "precision", c.precision);
    write_string_attr(w, h5, "extra_state", c.state.extra);
    write_scalar_attr(w, h5, "time", H5T_NATIVE_DOUBLE, c.state.time);
    write_scalar_attr(w, h5, "step", H5T_NATIVE_INT64, c.state.step);
    write_scalar_attr(w, h5, "crc32", H5T_NATIVE_UINT32, piece.crc);
    write_scalar_attr(w, h5, "ranks", H5T_NATIVE_INT, piece.ranks);
    write_scalar_attr(w, h5, "rank", H5T_NATIVE_INT, piece.rank);
    write_int3_attr(w, h5, "global_n", c.global_n);
    write_int3_attr(w, h5, "box_offset", piece.offset);
    H5Handle group(
        w("group state",
          [&] { return H5Gcreate2(h5, "state", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT); }),
        H5Gclose);
    // HDF5 lists a group's members by name; the solver's order is kept here.
    std::string order;
    for (const auto& arr : c.state.arrays) order += (order.empty() ? "" : ",") + arr.name;
    write_string_attr(w, group, "order", order);
    for (const auto& a : c.state.arrays) {
      const std::string what = "writing array " + a.name;
      const hsize_t dims[3] = {hsize_t(a.values.n[2]), hsize_t(a.values.n[1]),
                               hsize_t(a.values.n[0])};
      H5Handle space(w(what, [&] { return H5Screate_simple(3, dims, nullptr); }), H5Sclose);
      H5Handle plist(w(what, [&] { return H5Pcreate(H5P_DATASET_CREATE); }), H5Pclose);
      const hsize_t chunk[3] = {1, dims[1], dims[2]};  // one plane a chunk
      w(what, [&] { return H5Pset_chunk(plist, 3, chunk); });
      w(what, [&] { return H5Pset_fletcher32(plist); });
      const hid_t type =
          a.values.precision == Precision::f64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
      H5Handle ds(w(what,
                    [&] {
                      return H5Dcreate2(group, a.name.c_str(), type, space, H5P_DEFAULT, plist,
                                        H5P_DEFAULT);
                    }),
                  H5Dclose);
      w(what,
        [&] { return H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, a.values.bytes.data()); });
      // Closed here, checked: HDF5 may write the last chunks only when a dataset closes.
      const hid_t id = ds.id;
      ds.id = -1;
      w(what, [&] { return H5Dclose(id); });
    }
  }
  w("flushing the file", [&] { return H5Fflush(h5, H5F_SCOPE_GLOBAL); });
  // Closing writes what HDF5 still holds (metadata); its failure is a failed checkpoint.
  // A close that failed is not tried again: HDF5 has half let go of the file by then.
  const hid_t id = h5.id;
  h5.id = -1;
  w("closing the file", [&] { return H5Fclose(id); });
}

// Reads every array of piece `p` whole (so its Fletcher-32 sums are checked), adds it to
// the piece's CRC and hands it to `use`; the CRC must then match the stored one. Throws
// std::runtime_error saying what is wrong.
void read_piece_arrays(const Checkpoint& c, const CheckpointPiece& p,
                       const std::function<void(const std::string& name,
                                                const std::vector<unsigned char>& values)>& use) {
  const Precision prec = c.precision == "float" ? Precision::f32 : Precision::f64;
  const hid_t type = prec == Precision::f64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
  const std::size_t eb = bytes_of(prec);
  H5Handle file(H5Fopen(p.file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (file.id < 0) throw std::runtime_error("cannot open as HDF5 (truncated?)");
  H5Handle group(H5Gopen2(file, "state", H5P_DEFAULT), H5Gclose);
  if (group.id < 0) throw std::runtime_error("the state group is missing");
  Crc32 crc = header_crc(c, p);
  std::vector<unsigned char> buf;
  for (const std::string& name : c.array_names) {
    if (H5Lexists(group, name.c_str(), H5P_DEFAULT) <= 0)
      throw std::runtime_error("array " + name + " is missing");
    H5Handle ds(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose);
    H5Handle space(H5Dget_space(ds), H5Sclose);
    if (H5Sget_simple_extent_npoints(space) != hssize_t(p.n[0]) * p.n[1] * p.n[2])
      throw std::runtime_error("array " + name + " changed size since it was opened");
    buf.resize(std::size_t(p.n[0]) * p.n[1] * p.n[2] * eb);
    // A chunk whose Fletcher-32 sum does not match fails this read.
    if (H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()) < 0)
      throw std::runtime_error("array " + name + " is corrupt (checksum or read failure)");
    crc.add(name.data(), name.size());
    crc.add(buf.data(), buf.size());
    if (use) use(name, buf);
  }
  if (crc.value() != p.crc)
    throw std::runtime_error("content checksum mismatch: the file is corrupt");
}

// Reads a just-written piece back before it replaces anything: the header as written, every
// array's Fletcher-32 sums and the CRC over all of it.
void verify_piece_file(const std::filesystem::path& file, const std::filesystem::path& name,
                       const Checkpoint& c, const CheckpointPiece& written) {
  try {
    Checkpoint back;
    const PieceFile f{file, written.rank, written.ranks == 1 ? 0 : written.ranks};
    CheckpointPiece p = read_piece_header(f, back);
    if (const std::string d = header_difference(c, back); !d.empty())
      throw std::runtime_error("its " + d + " is not what was written");
    if (p.crc != written.crc || p.offset != written.offset || p.n != written.n)
      throw std::runtime_error("its box or checksum is not what was written");
    read_piece_arrays(back, p, {});
  } catch (const FileError&) {
    throw;
  } catch (const std::exception& e) {
    throw FileError(name, EIO,
                    "writing checkpoint '" + name.string() +
                        "' failed: the file did not read back as written (" + e.what() + ")");
  }
}

}  // namespace

std::filesystem::path checkpoint_piece_path(const std::filesystem::path& path) {
  if (parallel::size() == 1) return path;
  return path.parent_path() /
         (path.stem().string() + piece_suffix(parallel::rank(), parallel::size()) +
          path.extension().string());
}

void write_checkpoint(const std::filesystem::path& path, const Scenario& scenario,
                      const Solver& solver) {
  Checkpoint c;
  c.solver = scenario.solver;
  c.scenario = scenario.name;
  c.description = scenario.description;
  c.parameters_json = params_json(scenario.params).dump();
  c.backend = std::string(to_string(solver.backend()));
  c.precision = std::string(to_string(solver.precision()));
  c.state = solver.save_state();  // collective under MPI for some families
  c.global_n = solver.grid().n;
  CheckpointPiece piece;
  piece.version = kVersion;
  piece.rank = parallel::rank();
  piece.ranks = parallel::size();
  piece.offset = solver.grid().offset;
  if (c.state.arrays.empty()) throw std::runtime_error("the solver's state holds no arrays");
  piece.n = c.state.arrays[0].values.n;
  Crc32 crc = header_crc(c, piece);
  for (const auto& a : c.state.arrays) {
    if (a.values.n != piece.n)
      throw std::logic_error("checkpoint: state array " + a.name + " is not of the box's size");
    crc.add(a.name.data(), a.name.size());
    crc.add(a.values.bytes.data(), a.values.bytes.size());
    c.array_names.push_back(a.name);
  }
  piece.crc = crc.value();

  start_hdf5();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  // Under MPI every rank writes its own piece (its box of the grid, same format): to a
  // temporary, synced, read back and checked; only when every rank's piece is, does any
  // replace an older file, so a failure on one rank leaves no partial set.
  const std::filesystem::path target = checkpoint_piece_path(path);
  StagedFile staged(target);
  on_every_rank([&] {
    staged.write(
        [&](const std::filesystem::path& tmp) { write_piece_file(tmp, target, c, piece); },
        [&](const std::filesystem::path& tmp) { verify_piece_file(tmp, target, c, piece); });
  });
  on_every_rank([&] { staged.commit(); });
}

Checkpoint open_checkpoint(const std::filesystem::path& path) {
  return on_every_rank([&] { return open_checkpoint_here(path); });
}

SolverState read_checkpoint_box(const Checkpoint& c, std::array<int, 3> offset,
                                std::array<int, 3> n) {
  const std::string where =
      "--restart " + (c.pieces.empty() ? std::string("?") : c.pieces[0].file.string()) + ": ";
  for (int a = 0; a < 3; ++a)
    if (offset[a] < 0 || n[a] < 1 || offset[a] + n[a] > c.global_n[a])
      throw ConfigError(where + "the box of " + dims_text(n) + " cells is outside its grid of " +
                        dims_text(c.global_n));
  start_hdf5();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const Precision prec = c.precision == "float" ? Precision::f32 : Precision::f64;
  const std::size_t eb = bytes_of(prec);
  SolverState st;
  st.time = c.state.time;
  st.step = c.state.step;
  st.extra = c.state.extra;
  for (const std::string& name : c.array_names) {
    StateArray a;
    a.name = name;
    a.values.precision = prec;
    a.values.n = n;
    a.values.bytes.resize(std::size_t(a.values.count()) * eb);
    st.arrays.push_back(std::move(a));
  }
  // Each overlapping piece is read whole, one array at a time (so its checksums can be
  // verified), and the overlap copied row by row; the pieces tile the grid
  // (open_checkpoint checked), so every cell of the box is written exactly once.
  for (const CheckpointPiece& p : c.pieces) {
    if (!overlap(p, offset, n)) continue;
    std::array<int, 3> lo{}, hi{};
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::max(offset[a], p.offset[a]);
      hi[a] = std::min(offset[a] + n[a], p.offset[a] + p.n[a]);
    }
    const std::size_t row = std::size_t(hi[0] - lo[0]) * eb;
    std::size_t index = 0;
    try {
      read_piece_arrays(c, p, [&](const std::string&, const std::vector<unsigned char>& buf) {
        StateArray& a = st.arrays[index++];
        for (int k = lo[2]; k < hi[2]; ++k)
          for (int j = lo[1]; j < hi[1]; ++j) {
            const std::size_t from =
                ((std::size_t(k - p.offset[2]) * p.n[1] + (j - p.offset[1])) * p.n[0] +
                 (lo[0] - p.offset[0])) *
                eb;
            const std::size_t to = ((std::size_t(k - offset[2]) * n[1] + (j - offset[1])) * n[0] +
                                    (lo[0] - offset[0])) *
                                   eb;
            std::memcpy(a.values.bytes.data() + to, buf.data() + from, row);
          }
      });
    } catch (const std::runtime_error& e) {
      throw ConfigError("--restart " + p.file.string() + ": " + e.what());
    }
  }
  return st;
}

SolverState read_checkpoint_state(const Checkpoint& c, const Solver& solver) {
  return on_every_rank([&] {
    const Grid& g = solver.grid();
    if (g.n != c.global_n)
      throw ConfigError("--restart " + c.pieces.at(0).file.string() + ": its grid is " +
                        dims_text(c.global_n) + " cells, this run's is " + dims_text(g.n));
    // Every field of a solver covers the same box; its layout says how many cells.
    const std::array<int, 3> local = solver.view(solver.fields().at(0).name).layout.n;
    return read_checkpoint_box(c, g.offset, local);
  });
}

Checkpoint read_checkpoint(const std::filesystem::path& path) {
  Checkpoint c = open_checkpoint(path);
  c.state = read_checkpoint_box(c, {0, 0, 0}, c.global_n);
  return c;
}

Scenario scenario_of(const Checkpoint& c) {
  const SolverFamily& fam = find_family(c.solver);
  std::vector<ParamSpec> specs = common_params(fam.default_n, fam.default_length);
  specs.insert(specs.end(), fam.params.begin(), fam.params.end());
  Scenario s;
  s.name = c.scenario;
  s.solver = c.solver;
  s.description = c.description;
  s.params = ParamSet(std::move(specs));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(c.parameters_json);
  } catch (const std::exception& e) {
    throw ConfigError("checkpoint parameters are not valid JSON: " + std::string(e.what()));
  }
  for (const auto& [k, v] : j.items()) {
    ParamValue pv;
    if (v.is_boolean())
      pv = v.get<bool>();
    else if (v.is_number_integer())
      pv = v.get<std::int64_t>();
    else if (v.is_number())
      pv = v.get<double>();
    else
      pv = v.get<std::string>();
    s.params.assign(k, pv, "checkpoint");
  }
  return s;
}

}  // namespace fluxview
