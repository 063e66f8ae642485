// The fd family from the command line: refused parameters exit non-zero with the key
// named and leave no output behind; a small run writes its snapshots and the seed.
#include <gtest/gtest.h>
#include <string>
#include <utility>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;
using fluxview::test::run_fluxview;

namespace {
fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fluxview_fd_cli_" + name);
  fs::remove_all(d);
  return d;
}
}  // namespace

TEST(FdCli, RefusedParametersNameTheKeyAndWriteNothing) {
  const std::pair<const char*, const char*> bad[] = {
      {"--set grid.n=4", "grid.nx"},
      {"--set fd.nu=0", "fd.nu"},
      {"--set fd.cs=-1", "fd.cs"},
      {"--set fd.forcing=true --set fd.kmin=3 --set fd.kmax=2", "fd.kmin"},
      {"--set fd.courant=0.8", "fd.courant"},
  };
  int i = 0;
  for (const auto& [set, key] : bad) {
    const fs::path d = fresh_dir("bad" + std::to_string(i++));
    const auto r = run_fluxview("run fd/viscous-decay --backend cpu " + std::string(set) +
                                " --output " + d.string());
    EXPECT_NE(r.code, 0) << set;
    EXPECT_NE(r.out.find(key), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(d)) << set;
  }
}

TEST(FdCli, SmallRunWritesSnapshotsAndTheSeed) {
  const fs::path d = fresh_dir("run");
  const auto r = run_fluxview(
      "run fd/forced-turbulence --backend cpu --set grid.n=8 --set fd.seed=77 --steps 4 --every 2 "
      "--output " +
      d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::exists(d / "snapshot_000004.vti"));
  std::ifstream in(d / "run.json");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"seed\""), std::string::npos);
  EXPECT_NE(text.str().find("77"), std::string::npos);
  EXPECT_NE(text.str().find("dt_limit"), std::string::npos);
  fs::remove_all(d);
}
