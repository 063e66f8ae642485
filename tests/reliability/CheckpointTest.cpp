// Checkpoints: a restart continues bit-identically, and a corrupt, truncated, foreign
// or missing file is refused with a message naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "insitu/checkpoint/Checkpoint.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/SolverFamily.hpp"

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

// 2N steps straight, and N steps + checkpoint + restart in a fresh solver + N steps.
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
