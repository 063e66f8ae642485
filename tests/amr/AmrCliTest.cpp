// The adaptive mesh as a user meets it on the command line: bad AMR parameters (a block
// size that does not divide the grid, one that is not allowed, a max level too deep for
// the memory) exit 2 with one line naming the key before any folder is made; an unsound
// state exits 3 with the instability guard naming the block, its level and position, and
// the cell; a sound run writes its snapshots as vtkOverlappingAMR files; `fluxview bench`
// counts the cells the mesh updates and splits a step's time into its phases.
#include <gtest/gtest.h>
#include <initializer_list>
#include <map>
#include <vector>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;
using fluxview::test::run_fluxview;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fluxview_amr_cli_" + name);
  fs::remove_all(d);
  return d;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

struct Refusal {
  std::string name;  // of the test case
  std::string args;
  std::string message;
};

class AmrCliRefusal : public ::testing::TestWithParam<Refusal> {};

TEST_P(AmrCliRefusal, ExitsTwoWithOneLineNamingTheKeyAndWritesNothing) {
  const fs::path d = fresh_dir("refused");
  const auto r =
      run_fluxview("run " + GetParam().args + " --backend cpu --steps 2 --output " + d.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(GetParam().message), std::string::npos) << r.out;
  EXPECT_EQ(lines(r.out), 1) << r.out;
  EXPECT_FALSE(fs::exists(d)) << "a refused run created its output folder";
}

INSTANTIATE_TEST_SUITE_P(
    Parameters, AmrCliRefusal,
    ::testing::Values(
        Refusal{"BlockNotDividingTheGrid", "fv/sedov-amr --set grid.n=40 --set fv.amr.block=16",
                "grid.nx = 40 is not a multiple of fv.amr.block = 16"},
        Refusal{"BlockSizeNotAllowed", "fv/sod-amr --set fv.amr.block=12",
                "fv.amr.block = 12: allowed: 8, 16 or 32"},
        Refusal{"MinLevelAboveMaxLevel",
                "fv/sod-amr --set fv.amr.min_level=3 --set fv.amr.max_level=2", "fv.amr.min_level"},
        // Too deep for the memory (here a cap of 200 blocks): refused while the first mesh
        // is built, before any output.
        Refusal{"MaxLevelTooDeepForTheMemory",
                "fv/sedov-amr --set grid.n=32 --set fv.amr.block=8 --set fv.amr.max_level=4 "
                "--set fv.amr.max_blocks=200",
                "fv.amr.max_level = 4: the initial condition refines to at least"},
        // The blocks advance with the second-order stage or WENO-Z's, not the modal ones.
        Refusal{"ModalSchemeOnTheAdaptiveMesh",
                "fv/sod-amr --set fv.reconstruction=weno3 --set fv.time=ssprk3",
                "fv.mesh = amr does not run weno3 characteristic, hllc, ssprk3 in this version; "
                "allowed: fv.reconstruction = plm (primitive variables), constant or wenoz5"},
        // Every Runge-Kutta scheme runs on the mesh, ADER (a predictor per cell) does not.
        Refusal{"AderOnTheAdaptiveMesh", "fv/sod-amr --set fv.time=ader",
                "fv.mesh = amr does not run plm primitive, hllc, ader in this version; allowed: "
                "fv.reconstruction = plm (primitive variables), constant or wenoz5 with fv.time = "
                "rk2, ssprk3 or rk4, or fv.mesh = uniform for weno2, weno3, weno4 and ADER"}),
    [](const ::testing::TestParamInfo<Refusal>& info) { return info.param.name; });

TEST(AmrCli, TheGuardNamesTheBlockItsLevelAndTheCellOfAStateThatIsNotFinite) {
  // Every block at level 1 (16^3 top grid, blocks of 8: 4 x 4 x 4 blocks); a blast whose
  // energy density overflows to Inf in the cells around the centre of the box only. The
  // first such cell in curve order is the last cell of the block below the centre.
  const fs::path d = fresh_dir("guard");
  const auto r = run_fluxview(
      "run fv/sedov-amr --backend cpu --set grid.n=16 --set fv.amr.block=8 "
      "--set fv.amr.min_level=1 --set fv.amr.max_level=1 --set fv.blast_energy=1e305 "
      "--set fv.blast_radius=0.05 --steps 2 --quiet --output " +
      d.string());
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("no longer finite"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(level 1, position 1 1 1), cell 7 7 7"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(d)) << "an unsound initial state was written";
}

TEST(AmrCli, ARunWritesItsSnapshotsAsOverlappingAmrFiles) {
  const fs::path d = fresh_dir("snapshots");
  const auto r = run_fluxview("run fv/sod-amr --backend cpu --steps 4 --every 2 --quiet --output " +
                              d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream pvd(d / "series.pvd");
  const std::string series((std::istreambuf_iterator<char>(pvd)), std::istreambuf_iterator<char>());
  for (const char* f : {"snapshot_000000.vthb", "snapshot_000002.vthb", "snapshot_000004.vthb"}) {
    EXPECT_TRUE(fs::exists(d / f)) << f;
    EXPECT_NE(series.find(std::string("file=\"") + f + "\""), std::string::npos) << series;
  }
  // Level 0 of the 64-cell tube in blocks of 8: eight pieces, the leaves and the ancestors.
  for (int i = 0; i < 8; ++i)
    EXPECT_TRUE(fs::exists(d / "snapshot_000004" / ("l0_" + std::to_string(i) + "_0_0.vti"))) << i;
}

TEST(AmrCli, BenchCountsTheMeshsCellsAndSplitsTheStepIntoPhases) {
  // Fully refined: a 16^3 top grid in blocks of 8, every block at level 1 (32^3 cells).
  const auto r = run_fluxview(
      "bench fv/sedov --backend cpu --set grid.n=16 --set fv.mesh=amr --set fv.amr.block=8 "
      "--set fv.amr.min_level=1 --set fv.amr.max_level=1 --set fv.amr.regrid_every=2 --steps 4 "
      "--warmup 1");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out.substr(r.out.find('{')));
  EXPECT_EQ(j["cells"].get<double>(), 32768.0);
  EXPECT_EQ(j["amr"]["blocks_per_level"]["1"].get<double>(), 64.0);
  EXPECT_EQ(j["amr"]["blocks_per_level"]["0"].get<double>(), 0.0);
  EXPECT_NEAR(j["cell_updates_per_second"].get<double>(),
              32768.0 * j["steps"].get<double>() / j["seconds"].get<double>(), 1e-6);
  // The phases and the rest add up to the timed pass; every phase of the step ran.
  double sum = 0;
  for (const char* p : {"stepping", "ghost_filling", "flux_correction", "regridding", "other"}) {
    ASSERT_TRUE(j["amr"]["phase_fractions"].contains(p)) << p;
    sum += j["amr"]["phase_fractions"][p].get<double>();
  }
  EXPECT_NEAR(sum, 1.0, 1e-9);
  EXPECT_GT(j["amr"]["phase_seconds"]["stepping"].get<double>(), 0);
  EXPECT_GT(j["amr"]["phase_seconds"]["ghost_filling"].get<double>(), 0);
  EXPECT_GT(j["amr"]["phase_seconds"]["regridding"].get<double>(), 0);  // 4 steps, every 2
}

}  // namespace
