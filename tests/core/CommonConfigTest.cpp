// The keys every family shares, read once into typed values: the grid, and the MPI
// choices that used to be environment variables (run.ghosts, run.mpi_overlap).
#include <gtest/gtest.h>
#include <array>

#include <string>

#include "sim/core/CommonConfig.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Scenario.hpp"

using namespace fluxview;

namespace {

ParamSet params(const std::string& set) {
  return load_scenario("heat/hot-spot", {set}).params;
}

}  // namespace

TEST(CommonConfig, GridAndMpiChoicesAreReadFromTheirKeys) {
  const GridConfig g = grid_config(load_scenario("fv/sod", {"grid.nx=37", "grid.ly=2.5"}).params);
  EXPECT_EQ(g.n[0], 37);
  EXPECT_EQ(g.length[1], 2.5);
  EXPECT_EQ(parallel_config(params("run.ghosts=auto")).ghosts, GhostTransportChoice::automatic);
  EXPECT_EQ(parallel_config(params("run.ghosts=host")).ghosts, GhostTransportChoice::host);
  EXPECT_EQ(parallel_config(params("run.ghosts=ipc")).ghosts, GhostTransportChoice::ipc);
  EXPECT_EQ(parallel_config(params("run.ghosts=mpi")).ghosts, GhostTransportChoice::mpi);
  EXPECT_EQ(parallel_config(params("run.mpi_overlap=on")).overlap, OverlapChoice::on);
  EXPECT_EQ(parallel_config(params("run.mpi_overlap=off")).overlap, OverlapChoice::off);
}

TEST(CommonConfig, AnUnknownTransportNamesTheKeyAndTheChoices) {
  try {
    params("run.ghosts=nccl");
    FAIL() << "run.ghosts=nccl was accepted";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("run.ghosts"), std::string::npos) << m;
    EXPECT_NE(m.find("auto, host, ipc, mpi"), std::string::npos) << m;
  }
}
