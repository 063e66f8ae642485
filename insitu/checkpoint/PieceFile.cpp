#include "insitu/checkpoint/PieceFile.hpp"

#include <hdf5.h>

#include <cerrno>
#include <exception>
#include <initializer_list>
#include <stdexcept>

#include "fileio/FileError.hpp"
#include "insitu/checkpoint/Hdf5Io.hpp"

namespace fluxview::checkpoint_detail {

std::string dims_text(const std::array<int, 3>& n) {
  return std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
}

Crc32 header_crc(const Checkpoint& c, const CheckpointPiece& p) {
  Crc32 crc;
  for (const std::string* s :
       {&c.solver, &c.scenario, &c.parameters_json, &c.backend, &c.precision, &c.state.extra})
    crc.add(s->data(), s->size());
  // Only a steered run's journal is summed, so that earlier checkpoints still check.
  if (!c.journal.empty()) crc.add(c.journal.data(), c.journal.size());
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
  if (p.version < 1 || p.version > kVersionOwnArrays)
    throw std::runtime_error("checkpoint format version " + std::to_string(p.version) +
                             ", this fluxview reads 1 to " + std::to_string(kVersionOwnArrays));
  c.state.on_grid = p.version != kVersionOwnArrays;
  c.solver = read_string_attr(file, "solver");
  c.scenario = read_string_attr(file, "scenario");
  c.description = read_string_attr(file, "description");
  c.parameters_json = read_string_attr(file, "parameters");
  c.backend = read_string_attr(file, "backend");
  c.precision = read_string_attr(file, "precision");
  c.state.extra = read_string_attr(file, "extra_state");
  c.journal = H5Aexists(file, "journal") > 0 ? read_string_attr(file, "journal") : "";
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
  c.array_n.clear();
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
    if (!c.state.on_grid) {
      c.array_n.push_back(n);  // the solver's own arrays: each of its own size
      continue;
    }
    if (i == 0) p.n = n;
    if (n != p.n)
      throw std::runtime_error("array " + name + " is " + dims_text(n) + ", array " +
                               c.array_names[0] + " " + dims_text(p.n));
  }
  if (p.version == 1) c.global_n = p.n;  // a serial file of format 1: the whole grid
  if (!c.state.on_grid) {
    // One piece holds the whole state; its box is the grid, so the tiling check holds.
    p.n = read_int3_attr(file, "box_n");
    if (p.ranks != 1 || p.n != c.global_n || p.offset != std::array<int, 3>{0, 0, 0})
      throw std::runtime_error("holds a state of its own arrays (format " +
                               std::to_string(kVersionOwnArrays) +
                               ") but is not one piece covering its grid");
  }
  for (int a = 0; a < 3; ++a)
    if (p.offset[a] < 0 || p.n[a] < 1 || p.offset[a] + p.n[a] > c.global_n[a])
      throw std::runtime_error("its box of " + dims_text(p.n) + " cells at offset (" +
                               std::to_string(p.offset[0]) + ", " + std::to_string(p.offset[1]) +
                               ", " + std::to_string(p.offset[2]) + ") is outside its grid of " +
                               dims_text(c.global_n));
  return p;
}

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
  if (a.journal != b.journal) return "journal";
  if (a.array_names != b.array_names) return "list of arrays";
  if (a.state.on_grid != b.state.on_grid) return "state layout (grid or own arrays)";
  return "";
}

bool overlap(const CheckpointPiece& p, const std::array<int, 3>& off, const std::array<int, 3>& n) {
  for (int a = 0; a < 3; ++a)
    if (p.offset[a] >= off[a] + n[a] || off[a] >= p.offset[a] + p.n[a]) return false;
  return true;
}

void write_piece_file(const std::filesystem::path& file, const std::filesystem::path& name,
                      const Checkpoint& c, const CheckpointPiece& piece) {
  PieceWriter w(name);
  H5Handle h5(w("creating the file",
                [&] { return H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT); }),
              H5Fclose);
  w.set_file(h5);
  {
    write_string_attr(w, h5, "format", kFormat);
    write_scalar_attr(w, h5, "version", H5T_NATIVE_INT,
                      c.state.on_grid ? kVersion : kVersionOwnArrays);
    write_string_attr(w, h5, "solver", c.solver);
    write_string_attr(w, h5, "scenario", c.scenario);
    write_string_attr(w, h5, "description", c.description);
    write_string_attr(w, h5, "parameters", c.parameters_json);
    write_string_attr(w, h5, "backend", c.backend);
    write_string_attr(w, h5, "precision", c.precision);
    write_string_attr(w, h5, "extra_state", c.state.extra);
    if (!c.journal.empty()) write_string_attr(w, h5, "journal", c.journal);
    write_scalar_attr(w, h5, "time", H5T_NATIVE_DOUBLE, c.state.time);
    write_scalar_attr(w, h5, "step", H5T_NATIVE_INT64, c.state.step);
    write_scalar_attr(w, h5, "crc32", H5T_NATIVE_UINT32, piece.crc);
    write_scalar_attr(w, h5, "ranks", H5T_NATIVE_INT, piece.ranks);
    write_scalar_attr(w, h5, "rank", H5T_NATIVE_INT, piece.rank);
    write_int3_attr(w, h5, "global_n", c.global_n);
    write_int3_attr(w, h5, "box_offset", piece.offset);
    if (!c.state.on_grid) write_int3_attr(w, h5, "box_n", piece.n);
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
      // One plane a chunk on the grid; whole rows of at most about 1 MiB for the solver's
      // own arrays (the adaptive mesh's: a row a block, a plane all of them).
      const std::size_t row_bytes = std::size_t(dims[2]) * bytes_of(a.values.precision);
      const hsize_t rows = c.state.on_grid
                               ? dims[1]
                               : std::clamp<hsize_t>(hsize_t((1 << 20) / row_bytes), 1, dims[1]);
      const hsize_t chunk[3] = {1, rows, dims[2]};
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
  for (std::size_t i = 0; i < c.array_names.size(); ++i) {
    const std::string& name = c.array_names[i];
    const std::array<int, 3> n = c.state.on_grid ? p.n : c.array_n.at(i);
    if (H5Lexists(group, name.c_str(), H5P_DEFAULT) <= 0)
      throw std::runtime_error("array " + name + " is missing");
    H5Handle ds(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose);
    H5Handle space(H5Dget_space(ds), H5Sclose);
    if (H5Sget_simple_extent_npoints(space) != hssize_t(n[0]) * n[1] * n[2])
      throw std::runtime_error("array " + name + " changed size since it was opened");
    buf.resize(std::size_t(n[0]) * n[1] * n[2] * eb);
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

}  // namespace fluxview::checkpoint_detail
