#include "insitu/checkpoint/Checkpoint.hpp"

#include <hdf5.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "insitu/snapshot/RunRecord.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview {

namespace {

constexpr const char* kFormat = "fluxview-checkpoint";
constexpr int kVersion = 1;

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

void write_string_attr(hid_t obj, const char* name, const std::string& value) {
  H5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  check(H5Tset_size(type, value.empty() ? 1 : value.size()), "string type");
  H5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  H5Handle attr(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  check(H5Awrite(attr, type, value.empty() ? "" : value.data()), std::string("attribute ") + name);
}

template <class V>
void write_scalar_attr(hid_t obj, const char* name, hid_t type, V value) {
  H5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  H5Handle attr(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  check(H5Awrite(attr, type, &value), std::string("attribute ") + name);
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

// CRC-32 (zlib) over everything a restart depends on, in a fixed order.
std::uint32_t content_crc(const Checkpoint& c) {
  uLong crc = crc32(0L, Z_NULL, 0);
  auto add = [&](const void* p, std::size_t n) {
    crc = crc32(crc, static_cast<const Bytef*>(p), uInt(n));
  };
  for (const std::string* s :
       {&c.solver, &c.scenario, &c.parameters_json, &c.backend, &c.precision, &c.state.extra})
    add(s->data(), s->size());
  add(&c.state.time, sizeof c.state.time);
  add(&c.state.step, sizeof c.state.step);
  for (const auto& a : c.state.arrays) {
    add(a.name.data(), a.name.size());
    add(a.values.bytes.data(), a.values.bytes.size());
  }
  return std::uint32_t(crc);
}

}  // namespace

std::filesystem::path checkpoint_piece_path(const std::filesystem::path& path) {
  if (parallel::size() == 1) return path;
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, ".rank%04dof%04d", parallel::rank(), parallel::size());
  return path.parent_path() / (path.stem().string() + suffix + path.extension().string());
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
  c.state = solver.save_state();

  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  // Under MPI every rank writes its own piece (its box of the grid, same format).
  const std::filesystem::path target = checkpoint_piece_path(path);
  const std::filesystem::path tmp = target.string() + ".tmp-" + std::to_string(::getpid());
  try {
    H5Handle file(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (file.id < 0) throw std::runtime_error("cannot create checkpoint '" + tmp.string() + "'");
    write_string_attr(file, "format", kFormat);
    write_scalar_attr(file, "version", H5T_NATIVE_INT, kVersion);
    write_string_attr(file, "solver", c.solver);
    write_string_attr(file, "scenario", c.scenario);
    write_string_attr(file, "description", c.description);
    write_string_attr(file, "parameters", c.parameters_json);
    write_string_attr(file, "backend", c.backend);
    write_string_attr(file, "precision", c.precision);
    write_string_attr(file, "extra_state", c.state.extra);
    write_scalar_attr(file, "time", H5T_NATIVE_DOUBLE, c.state.time);
    write_scalar_attr(file, "step", H5T_NATIVE_INT64, c.state.step);
    write_scalar_attr(file, "crc32", H5T_NATIVE_UINT32, content_crc(c));
    write_scalar_attr(file, "ranks", H5T_NATIVE_INT, parallel::size());
    H5Handle group(H5Gcreate2(file, "state", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    // HDF5 lists a group's members by name; the solver's order is kept here.
    std::string order;
    for (const auto& arr : c.state.arrays) order += (order.empty() ? "" : ",") + arr.name;
    write_string_attr(group, "order", order);
    for (const auto& a : c.state.arrays) {
      const hsize_t dims[3] = {hsize_t(a.values.n[2]), hsize_t(a.values.n[1]),
                               hsize_t(a.values.n[0])};
      H5Handle space(H5Screate_simple(3, dims, nullptr), H5Sclose);
      H5Handle plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
      const hsize_t chunk[3] = {1, dims[1], dims[2]};  // one plane a chunk
      check(H5Pset_chunk(plist, 3, chunk), "chunking");
      check(H5Pset_fletcher32(plist), "Fletcher-32 filter");
      const hid_t type =
          a.values.precision == Precision::f64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
      H5Handle ds(H5Dcreate2(group, a.name.c_str(), type, space, H5P_DEFAULT, plist, H5P_DEFAULT),
                  H5Dclose);
      check(H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, a.values.bytes.data()),
            "writing " + a.name);
    }
    check(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush");
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, target, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error("cannot move checkpoint into place at '" + target.string() +
                             "': " + ec.message());
  }
}

Checkpoint read_checkpoint(const std::filesystem::path& logical) {
  const std::string where = "--restart " + logical.string() + ": ";
  // Under MPI each rank reads its own piece, written by a run on as many ranks.
  const std::filesystem::path path = checkpoint_piece_path(logical);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw ConfigError(where + (parallel::size() > 1 ? "no piece " + path.filename().string() +
                                                          " for this rank (restart on as many MPI "
                                                          "ranks as wrote the checkpoint)"
                                                    : std::string("no such file")));
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw ConfigError(where + "not an HDF5 file (truncated or not a checkpoint)");
  Checkpoint c;
  try {
    H5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (file.id < 0) throw std::runtime_error("cannot open as HDF5 (truncated?)");
    if (H5Aexists(file, "format") <= 0 || read_string_attr(file, "format") != kFormat)
      throw std::runtime_error("not a fluxview checkpoint");
    const int version = read_scalar_attr<int>(file, "version", H5T_NATIVE_INT);
    if (version != kVersion)
      throw std::runtime_error("checkpoint format version " + std::to_string(version) +
                               ", this fluxview reads " + std::to_string(kVersion));
    c.solver = read_string_attr(file, "solver");
    c.scenario = read_string_attr(file, "scenario");
    c.description = read_string_attr(file, "description");
    c.parameters_json = read_string_attr(file, "parameters");
    c.backend = read_string_attr(file, "backend");
    c.precision = read_string_attr(file, "precision");
    c.state.extra = read_string_attr(file, "extra_state");
    c.state.time = read_scalar_attr<double>(file, "time", H5T_NATIVE_DOUBLE);
    c.state.step = read_scalar_attr<std::int64_t>(file, "step", H5T_NATIVE_INT64);
    const std::uint32_t stored = read_scalar_attr<std::uint32_t>(file, "crc32", H5T_NATIVE_UINT32);
    const int ranks =
        H5Aexists(file, "ranks") > 0 ? read_scalar_attr<int>(file, "ranks", H5T_NATIVE_INT) : 1;
    if (ranks != parallel::size())
      throw std::runtime_error("written on " + std::to_string(ranks) +
                               " MPI rank(s), restarted on " + std::to_string(parallel::size()) +
                               "; restart on as many ranks");
    H5Handle group(H5Gopen2(file, "state", H5P_DEFAULT), H5Gclose);
    if (group.id < 0) throw std::runtime_error("the state group is missing");
    std::vector<std::string> names;
    {
      const std::string order = read_string_attr(group, "order");
      std::size_t start = 0;
      while (start <= order.size() && !order.empty()) {
        const std::size_t comma = std::min(order.find(',', start), order.size());
        names.push_back(order.substr(start, comma - start));
        start = comma + 1;
      }
    }
    const Precision prec = c.precision == "float" ? Precision::f32 : Precision::f64;
    for (const std::string& array_name : names) {
      const char* name = array_name.c_str();
      if (H5Lexists(group, name, H5P_DEFAULT) <= 0)
        throw std::runtime_error("array " + array_name + " is missing");
      H5Handle ds(H5Dopen2(group, name, H5P_DEFAULT), H5Dclose);
      H5Handle space(H5Dget_space(ds), H5Sclose);
      hsize_t dims[3] = {0, 0, 0};
      if (H5Sget_simple_extent_ndims(space) != 3)
        throw std::runtime_error(std::string("array ") + name + " is not 3D");
      H5Sget_simple_extent_dims(space, dims, nullptr);
      StateArray a;
      a.name = name;
      a.values.precision = prec;
      a.values.n = {int(dims[2]), int(dims[1]), int(dims[0])};
      a.values.bytes.resize(std::size_t(dims[0] * dims[1] * dims[2]) * bytes_of(prec));
      const hid_t type = prec == Precision::f64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
      // A chunk whose Fletcher-32 sum does not match fails this read.
      if (H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, a.values.bytes.data()) < 0)
        throw std::runtime_error(std::string("array ") + name +
                                 " is corrupt (checksum or read failure)");
      c.state.arrays.push_back(std::move(a));
    }
    if (content_crc(c) != stored)
      throw std::runtime_error("content checksum mismatch: the file is corrupt");
  } catch (const std::runtime_error& e) {
    throw ConfigError(where + e.what());
  }
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
