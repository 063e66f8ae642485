// The checkpoint API of Checkpoint.hpp: what every rank does together (each writes its
// piece and none replaces an older file unless all were written; a restart reads the pieces
// overlapping each rank's box). One file's format is PieceFile.cpp, the files' names
// PieceNames.cpp, the HDF5 calls Hdf5Io.cpp.
#include "insitu/checkpoint/Checkpoint.hpp"

#include <hdf5.h>
#include <exception>
#include <map>
#include <memory>
#include <string_view>
#include <variant>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>
#include <vector>

#include "fileio/AtomicFile.hpp"
#include "insitu/EveryRank.hpp"
#include "insitu/checkpoint/Hdf5Io.hpp"
#include "insitu/checkpoint/PieceFile.hpp"
#include "insitu/checkpoint/PieceNames.hpp"
#include "insitu/snapshot/RunRecord.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview {

using namespace checkpoint_detail;

namespace {

Checkpoint open_checkpoint_here(const std::filesystem::path& logical) {
  const std::string where = "--restart " + logical.string() + ": ";
  start_hdf5();
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

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const Scenario& scenario,
                      const Solver& solver, const std::string& journal) {
  Checkpoint c;
  c.journal = journal;
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
  // A state of the solver's own arrays (format 3) is one piece whose box is the grid; under
  // MPI the solver gathered it to the root (Solver::save_state), which alone writes it,
  // under the name of a serial checkpoint: the same file on any rank count.
  const bool own_arrays = !c.state.on_grid;
  const bool writes = !own_arrays || parallel::is_root();
  piece.rank = own_arrays ? 0 : parallel::rank();
  piece.ranks = own_arrays ? 1 : parallel::size();
  piece.offset = solver.grid().offset;
  if (writes && c.state.arrays.empty())
    throw std::runtime_error("the solver's state holds no arrays");
  piece.n = c.state.on_grid ? c.state.arrays[0].values.n : c.global_n;
  Crc32 crc = header_crc(c, piece);
  for (const auto& a : c.state.arrays) {
    if (c.state.on_grid && a.values.n != piece.n)
      throw std::logic_error("checkpoint: state array " + a.name + " is not of the box's size");
    crc.add(a.name.data(), a.name.size());
    crc.add(a.values.bytes.data(), a.values.bytes.size());
    c.array_names.push_back(a.name);
  }
  piece.crc = crc.value();

  start_hdf5();
  // Under MPI every rank writes its own piece (its box of the grid, same format): to a
  // temporary, synced, read back and checked; only when every rank's piece is, does any
  // replace an older file, so a failure on one rank leaves no partial set.
  const std::filesystem::path target = own_arrays ? path : checkpoint_piece_path(path);
  StagedFile staged(target);
  on_every_rank([&] {
    if (!writes) return;
    staged.write(
        [&](const std::filesystem::path& tmp) { write_piece_file(tmp, target, c, piece); },
        [&](const std::filesystem::path& tmp) { verify_piece_file(tmp, target, c, piece); });
  });
  on_every_rank([&] {
    if (writes) staged.commit();
  });
}

Checkpoint open_checkpoint(const std::filesystem::path& path) {
  return on_every_rank([&] { return open_checkpoint_here(path); });
}

namespace {

// A state of the solver's own arrays (format 3): its one piece read whole.
SolverState read_own_arrays(const Checkpoint& c) {
  start_hdf5();
  const Precision prec = c.precision == "float" ? Precision::f32 : Precision::f64;
  SolverState st;
  st.time = c.state.time;
  st.step = c.state.step;
  st.extra = c.state.extra;
  st.on_grid = false;
  try {
    read_piece_arrays(c, c.pieces.at(0),
                      [&](const std::string& name, const std::vector<unsigned char>& buf) {
                        StateArray a;
                        a.name = name;
                        a.values.precision = prec;
                        a.values.n = c.array_n.at(st.arrays.size());
                        a.values.bytes = buf;
                        st.arrays.push_back(std::move(a));
                      });
  } catch (const std::runtime_error& e) {
    throw ConfigError("--restart " + c.pieces.at(0).file.string() + ": " + e.what());
  }
  return st;
}

}  // namespace

SolverState read_checkpoint_box(const Checkpoint& c, std::array<int, 3> offset,
                                std::array<int, 3> n) {
  const std::string where =
      "--restart " + (c.pieces.empty() ? std::string("?") : c.pieces[0].file.string()) + ": ";
  if (!c.state.on_grid) {
    if (offset != std::array<int, 3>{0, 0, 0} || n != c.global_n)
      throw ConfigError(where + "it holds the adaptive mesh's blocks, read whole, not a box of " +
                        dims_text(n) + " cells of its grid");
    return read_own_arrays(c);
  }
  for (int a = 0; a < 3; ++a)
    if (offset[a] < 0 || n[a] < 1 || offset[a] + n[a] > c.global_n[a])
      throw ConfigError(where + "the box of " + dims_text(n) + " cells is outside its grid of " +
                        dims_text(c.global_n));
  start_hdf5();
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
    // The adaptive mesh's blocks: every rank reads them whole and keeps its share
    // (Solver::load_state), on any rank count.
    if (!c.state.on_grid) return read_own_arrays(c);
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
