// Checkpoints: a restart continues bit-identically, any box of the grid reads back as its
// slice of the whole, a corrupt, truncated, foreign or missing file or one of another grid
// is refused with a message naming it, and files of the first format still read.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <zlib.h>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "insitu/checkpoint/Checkpoint.hpp"
#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/SolverFamily.hpp"
#include "tests/amr/AmrTestUtil.hpp"

using namespace fluxview;
namespace fs = std::filesystem;

namespace {

fs::path temp(const std::string& name) {
  return fs::temp_directory_path() / ("fluxview_ck_" + name);
}

std::string refusal(const fs::path& p) {
  try {
    read_checkpoint(p);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// The diagnostic `name` of a solver (NaN when it has none).
double diagnostic(Solver& s, const std::string& name) {
  for (const Diagnostic& d : s.diagnostics())
    if (d.name == name) return d.value;
  return NAN;
}

// 2N steps straight, and N steps + checkpoint + restart in a fresh solver + N steps. On
// the adaptive mesh also the blocks (levels, positions, every field's values) and the
// counters of the diagnostics.
void expect_bit_identical_restart(const std::string& scenario,
                                  const std::vector<std::string>& overrides, Precision precision,
                                  int n) {
  const Scenario s = load_scenario(scenario, overrides);
  const SolverFamily& fam = find_family(s.solver);
  auto straight = fam.create(BackendKind::cpu, precision);
  straight->reset(s.params);
  straight->advance(2 * n);

  auto first = fam.create(BackendKind::cpu, precision);
  first->reset(s.params);
  first->advance(n);
  const fs::path file = temp("restart.h5");
  write_checkpoint(file, s, *first);
  first.reset();

  const Checkpoint c = read_checkpoint(file);
  const Scenario back = scenario_of(c);
  EXPECT_EQ(back.params.values(), s.params.values());
  auto resumed = fam.create(BackendKind::cpu, precision);
  resumed->reset(back.params);
  resumed->load_state(c.state);
  EXPECT_EQ(resumed->step(), n);
  resumed->advance(n);

  EXPECT_EQ(resumed->step(), straight->step());
  EXPECT_EQ(resumed->time(), straight->time());
  for (const FieldInfo& f : straight->fields()) {
    const HostArray a = gather_interior(straight->view(f.name)),
                    b = gather_interior(resumed->view(f.name));
    EXPECT_EQ(a.bytes, b.bytes) << scenario << ": field " << f.name << " differs after restart";
  }
  if (const amr::Hierarchy* h = amr::hierarchy_of(*straight)) {
    const amr::Hierarchy* g = amr::hierarchy_of(*resumed);
    ASSERT_NE(g, nullptr);
    ASSERT_TRUE(amr::test::same_blocks(*h, *g)) << scenario;
    for (const FieldInfo& f : straight->fields())
      EXPECT_EQ(h->block_values(f.name).bytes, g->block_values(f.name).bytes)
          << scenario << ": blocks of field " << f.name << " differ after restart";
    for (const char* d : {"regrids", "cell_updates", "corrected_cells", "mass", "energy"})
      EXPECT_EQ(diagnostic(*straight, d), diagnostic(*resumed, d)) << scenario << ": " << d;
    EXPECT_EQ(straight->dt(), resumed->dt()) << scenario;
  }
  fs::remove(file);
}

}  // namespace

TEST(Checkpoint, HeatRestartIsBitIdentical) {
  expect_bit_identical_restart("heat/hot-spot", {"grid.n=20"}, Precision::f64, 30);
  expect_bit_identical_restart("heat/hot-wall", {"grid.nx=17", "grid.ny=9", "grid.nz=5"},
                               Precision::f32, 25);
}

TEST(Checkpoint, FluidRestartsThroughTheFileAreBitIdentical) {
  // Several state arrays (their order kept in the file) and the forcing generator's state.
  expect_bit_identical_restart("fd/forced-turbulence", {"grid.n=12"}, Precision::f64, 10);
  expect_bit_identical_restart("fv/sedov", {"grid.n=12"}, Precision::f64, 10);
  expect_bit_identical_restart("fv/cloud-disruption", {"grid.n=12"}, Precision::f32, 10);
}

TEST(Checkpoint, AdaptiveMeshRestartsThroughTheFileAreBitIdentical) {
  // A blast carried through periodic faces by a flow, so that the mesh changes at most
  // regrids (every 2 steps) before and after the checkpoint; with the tracer.
  const std::vector<std::string> blast = {"grid.n=16",
                                          "fv.mesh=amr",
                                          "fv.amr.block=8",
                                          "fv.amr.max_level=2",
                                          "fv.amr.regrid_every=2",
                                          "fv.blast_x=0.3",
                                          "fv.blast_radius=0.2",
                                          "fv.ambient_p=0.1",
                                          "fv.ux=0.7",
                                          "fv.uy=-0.4",
                                          "fv.uz=0.3",
                                          "fv.tracer=true",
                                          "fv.bc=periodic"};
  expect_bit_identical_restart("fv/sedov", blast, Precision::f64, 10);
  expect_bit_identical_restart("fv/sod-amr", {"fv.amr.regrid_every=2"}, Precision::f32, 15);
  // MHD on the mesh: B and psi through the file, and c_h from the restored CFL rate.
  expect_bit_identical_restart(
      "fv/orszag-tang-amr", {"grid.nx=32", "grid.ny=32", "fv.amr.block=8", "fv.amr.regrid_every=2"},
      Precision::f64, 12);
  // The three-register schemes (RK4 leaves its result in the third pool, which then
  // becomes the state).
  for (const char* scheme : {"fv.time=ssprk3", "fv.time=rk4"}) {
    SCOPED_TRACE(scheme);
    std::vector<std::string> o = blast;
    o.push_back(scheme);
    expect_bit_identical_restart("fv/sedov", o, Precision::f64, 9);
  }
  // The file holds the leaves and each conserved variable's block interiors (format 3).
  const Scenario s = load_scenario("fv/sedov", blast);
  auto solver = find_family(s.solver).create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  solver->advance(7);
  const fs::path file = temp("amr.h5");
  write_checkpoint(file, s, *solver);
  const Checkpoint c = read_checkpoint(file);
  EXPECT_FALSE(c.state.on_grid);
  EXPECT_EQ(c.array_names,
            (std::vector<std::string>{"leaves", "rho", "mom_x", "mom_y", "mom_z", "E", "rho_c"}));
  const auto blocks = amr::hierarchy_of(*solver)->local_blocks();
  EXPECT_EQ(c.state.arrays.at(0).values.n, (std::array<int, 3>{4, int(blocks.size()), 1}));
  EXPECT_EQ(c.state.arrays.at(1).values.n, (std::array<int, 3>{512, int(blocks.size()), 1}));
  EXPECT_GT(blocks.size(), 8u) << "the blast refined nothing";
  EXPECT_GE(diagnostic(*solver, "regrids"), 2) << "the mesh did not change before the checkpoint";
  // A box of its grid cannot be read from it: every rank reads it whole and keeps its share.
  try {
    read_checkpoint_box(c, {0, 0, 0}, {4, 4, 4});
    ADD_FAILURE() << "a box of an adaptive-mesh checkpoint was read";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("adaptive mesh's blocks, read whole"), std::string::npos)
        << e.what();
  }
  // A fresh run of the blast with `more` settings, and what loading the state into it
  // throws ("" if nothing).
  const auto run_with = [&](std::vector<std::string> more) {
    std::vector<std::string> o = blast;
    o.insert(o.end(), more.begin(), more.end());
    const Scenario sc = load_scenario("fv/sedov", o);
    auto r = find_family(sc.solver).create(BackendKind::cpu, Precision::f64);
    r->reset(sc.params);
    return r;
  };
  const auto refusal = [&](Solver& r) -> std::string {
    try {
      r.load_state(c.state);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  };
  // Its state does not load into a run of other blocks.
  EXPECT_NE(refusal(*run_with({"fv.amr.block=16"})).find("is fv.amr.block the same?"),
            std::string::npos);
  // Nor into a run of another scheme, unless asked for; the refusal comes before the run's
  // state changes (its step and blocks are still its own).
  auto another = run_with({"fv.time=ssprk3"});
  EXPECT_NE(refusal(*another).find("written by the scheme 'plm primitive, hllc, rk2' but this "
                                   "run is 'plm primitive, hllc, ssprk3'"),
            std::string::npos);
  EXPECT_EQ(another->step(), 0);
  auto changed = run_with({"fv.time=ssprk3", "fv.allow_scheme_change=true"});
  EXPECT_EQ(refusal(*changed), "");
  EXPECT_EQ(changed->step(), 7);
  changed->advance(2);
  EXPECT_EQ(changed->step(), 9);
  fs::remove(file);
}

TEST(Checkpoint, CorruptTruncatedForeignAndMissingFilesAreRefused) {
  const Scenario s = load_scenario("heat/hot-spot", {"grid.n=16"});
  auto solver = find_family("heat").create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  solver->advance(3);
  const fs::path good = temp("good.h5");
  write_checkpoint(good, s, *solver);
  ASSERT_NO_THROW(read_checkpoint(good));

  // One flipped byte in the middle of the temperature data.
  const fs::path flipped = temp("flipped.h5");
  fs::copy_file(good, flipped, fs::copy_options::overwrite_existing);
  {
    std::fstream f(flipped, std::ios::in | std::ios::out | std::ios::binary);
    const auto size = fs::file_size(flipped);
    f.seekg(std::streamoff(size - 4096));
    char c = 0;
    f.read(&c, 1);
    c ^= 0x5a;
    f.seekp(std::streamoff(size - 4096));
    f.write(&c, 1);
  }
  EXPECT_NE(refusal(flipped).find("corrupt"), std::string::npos) << refusal(flipped);

  const fs::path truncated = temp("truncated.h5");
  fs::copy_file(good, truncated, fs::copy_options::overwrite_existing);
  fs::resize_file(truncated, fs::file_size(good) / 2);
  EXPECT_NE(refusal(truncated).find(truncated.string()), std::string::npos);
  EXPECT_FALSE(refusal(truncated).empty());

  const fs::path foreign = temp("foreign.h5");
  std::ofstream(foreign) << "[scenario]\nsolver = \"heat\"\n";
  EXPECT_NE(refusal(foreign).find("not an HDF5 file"), std::string::npos) << refusal(foreign);

  EXPECT_NE(refusal(temp("absent.h5")).find("no such file"), std::string::npos);

  // A checkpoint of one precision does not load into a solver of the other.
  auto other = find_family("heat").create(BackendKind::cpu, Precision::f32);
  other->reset(s.params);
  EXPECT_THROW(other->load_state(read_checkpoint(good).state), std::exception);

  for (const auto& p : {good, flipped, truncated, foreign}) fs::remove(p);
}

TEST(Checkpoint, WritingLeavesNoTemporaryFiles) {
  const Scenario s = load_scenario("heat/hot-spot", {"grid.n=8"});
  auto solver = find_family("heat").create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  const fs::path dir = temp("dir");
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_checkpoint(dir / "c.h5", s, *solver);
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(e.path().filename(), "c.h5");
  }
  EXPECT_EQ(files, 1);
  fs::remove_all(dir);
}

namespace {

// Edits of a written file, as another writer or a damaged disk might leave it.
void set_string_attr(const fs::path& file, const char* name, const std::string& value) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  H5Adelete(f, name);
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, value.size());
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(f, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  EXPECT_GE(H5Awrite(a, type, value.data()), 0);
  H5Aclose(a);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(f);
}
template <class V>
void set_scalar_attr(const fs::path& file, const char* name, hid_t type, V value) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  H5Adelete(f, name);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(f, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  EXPECT_GE(H5Awrite(a, type, &value), 0);
  H5Aclose(a);
  H5Sclose(space);
  H5Fclose(f);
}
void delete_attr(const fs::path& file, const char* name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_GE(H5Adelete(f, name), 0);
  H5Fclose(f);
}

// The first format's CRC-32: the header strings, time, step, then each array's name and
// values (no box), as the fluxview before format 2 computed it.
std::uint32_t format1_crc(const Checkpoint& c) {
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

TEST(Checkpoint, AnyBoxOfTheGridReadsAsItsSliceOfTheWhole) {
  // The restart of a rank on another rank count reads its box out of the pieces.
  const Scenario s =
      load_scenario("fd/forced-turbulence", {"grid.nx=10", "grid.ny=7", "grid.nz=6"});
  auto solver = find_family("fd").create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  solver->advance(2);
  const fs::path file = temp("box.h5");
  write_checkpoint(file, s, *solver);
  const Checkpoint whole = read_checkpoint(file);
  ASSERT_EQ(whole.global_n, (std::array<int, 3>{10, 7, 6}));
  ASSERT_EQ(whole.pieces.size(), 1u);
  const std::array<int, 3> lo{3, 2, 1}, n{5, 4, 3};
  const SolverState box = read_checkpoint_box(open_checkpoint(file), lo, n);
  ASSERT_EQ(box.arrays.size(), 4u);
  EXPECT_EQ(box.step, 2);
  EXPECT_EQ(box.extra, whole.state.extra);
  for (std::size_t v = 0; v < 4; ++v) {
    const HostArray& w = whole.state.arrays[v].values;
    const HostArray& b = box.arrays[v].values;
    ASSERT_EQ(b.n, n);
    int differ = 0;
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i) {
          const double a = w.at((std::int64_t(lo[2] + k) * 7 + lo[1] + j) * 10 + lo[0] + i);
          const double c = b.at((std::int64_t(k) * n[1] + j) * n[0] + i);
          differ += std::memcmp(&a, &c, sizeof a) != 0;
        }
    EXPECT_EQ(differ, 0) << box.arrays[v].name;
  }
  // A box reaching past the grid is refused.
  EXPECT_THROW(read_checkpoint_box(whole, {8, 0, 0}, {3, 7, 6}), ConfigError);
  fs::remove(file);
}

TEST(Checkpoint, AGridOtherThanTheRunsIsRefusedNamingBoth) {
  const Scenario s = load_scenario("heat/hot-spot", {"grid.n=12"});
  auto solver = find_family("heat").create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  const fs::path file = temp("grid.h5");
  write_checkpoint(file, s, *solver);
  // Parameters that say another grid than the arrays hold.
  Checkpoint c = open_checkpoint(file);
  std::string params = c.parameters_json;
  for (const char* key : {"\"grid.nx\":12", "\"grid.ny\":12", "\"grid.nz\":12"}) {
    const std::size_t at = params.find(key);
    ASSERT_NE(at, std::string::npos) << key << " in " << params;
    params.replace(at, std::strlen(key), std::string(key, std::strlen(key) - 2) + "13");
  }
  set_string_attr(file, "parameters", params);
  c = open_checkpoint(file);
  auto other = find_family("heat").create(BackendKind::cpu, Precision::f64);
  other->reset(scenario_of(c).params);
  ASSERT_EQ(other->grid().n[0], 13);
  std::string message;
  try {
    read_checkpoint_state(c, *other);
  } catch (const ConfigError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("its grid is 12x12x12 cells, this run's is 13x13x13"), std::string::npos)
      << message;
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  // Read whole, the changed parameters fail the content checksum.
  EXPECT_NE(refusal(file).find("content checksum mismatch"), std::string::npos) << refusal(file);
  fs::remove(file);
}

TEST(Checkpoint, FormatOneSerialFilesStillReadAndFormatOnePiecesAreRefused) {
  const Scenario s = load_scenario("heat/hot-spot", {"grid.nx=9", "grid.ny=8", "grid.nz=7"});
  auto solver = find_family("heat").create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  solver->advance(4);
  const fs::path file = temp("v1.h5");
  write_checkpoint(file, s, *solver);
  const Checkpoint v2 = read_checkpoint(file);
  // What the first format wrote: version 1, no box, the CRC without it.
  set_scalar_attr(file, "version", H5T_NATIVE_INT, 1);
  for (const char* a : {"rank", "global_n", "box_offset"}) delete_attr(file, a);
  set_scalar_attr(file, "crc32", H5T_NATIVE_UINT32, format1_crc(v2));
  const Checkpoint v1 = read_checkpoint(file);
  EXPECT_EQ(v1.global_n, (std::array<int, 3>{9, 8, 7}));
  EXPECT_EQ(v1.pieces.at(0).version, 1);
  ASSERT_EQ(v1.state.arrays.size(), 1u);
  EXPECT_EQ(v1.state.arrays[0].values.bytes, v2.state.arrays[0].values.bytes);
  EXPECT_EQ(v1.state.step, 4);
  // A first-format piece of a run on two ranks does not say its box.
  const fs::path dir = temp("v1pieces");
  fs::remove_all(dir);
  fs::create_directories(dir);
  set_scalar_attr(file, "ranks", H5T_NATIVE_INT, 2);
  fs::copy_file(file, dir / "c.rank0000of0002.h5");
  fs::copy_file(file, dir / "c.rank0001of0002.h5");
  const std::string why = refusal(dir / "c.h5");
  EXPECT_NE(why.find("c.rank0000of0002.h5"), std::string::npos) << why;
  EXPECT_NE(why.find("older fluxview (checkpoint format 1)"), std::string::npos) << why;
  fs::remove_all(dir);
  fs::remove(file);
}
