// The adaptor's C++ API as the GUI uses it: status after runs, a toggle, a script added
// while running, an error kept with its traceback (drop_script), and a second adaptor
// in the same process after the first is gone (the GUI restarts runs). No rendering, so
// no X display is needed.
#include <gtest/gtest.h>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <filesystem>
#include <fstream>

#include "insitu/catalyst/CatalystAdaptor.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

using namespace fluxview;

namespace {

std::string write_script(const std::filesystem::path& path, const std::string& body) {
  std::ofstream out(path);
  out << "# script-version: 2\n"
         "from paraview import catalyst\n"
         "from paraview.simple import *\n"
         "grid = PVTrivialProducer(registrationName='input')\n"
         "options = catalyst.Options()\n"
      << body;
  return path.string();
}

}  // namespace

TEST(CatalystAdaptor, StatusToggleAddAndRecreate) {
  const auto dir = std::filesystem::temp_directory_path() / "fluxview_catalyst_adaptor_test";
  std::filesystem::create_directories(dir);
  const std::string quiet =
      write_script(dir / "quiet.py", "def catalyst_execute(info):\n    pass\n");
  const std::string raises = write_script(dir / "raises_at_2.py",
                                          "def catalyst_execute(info):\n    if info.timestep == "
                                          "2:\n        raise ValueError('no step 2')\n");

  Scenario sc = load_scenario("heat/hot-spot", {"grid.n=8"});
  auto solver = find_family("heat").create(BackendKind::cpu, Precision::f64);

  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    solver->reset(sc.params);
    CatalystAdaptor a(CatalystOptions{
        .scripts = {quiet, raises}, .every = 1, .on_error = CatalystOnError::drop_script});
    a.execute(*solver);
    solver->advance(1);
    a.set_enabled(0, false);
    a.execute(*solver);  // only the second script runs
    a.set_enabled(0, true);
    const std::size_t added = a.status().size();
    a.add_script(quiet);
    solver->advance(1);
    a.execute(*solver);  // step 2: the raising script fails and is dropped
    const auto& st = a.status();
    ASSERT_EQ(st.size(), added + 1);
    EXPECT_EQ(st[0].runs, 2);
    EXPECT_EQ(st[0].last_step, 2);
    EXPECT_GT(st[0].last_seconds, 0.0);
    EXPECT_EQ(st[2].runs, 1);
    EXPECT_EQ(st[1].runs, 3);
    EXPECT_TRUE(st[1].failed);
    EXPECT_NE(st[1].last_error.find("ValueError: no step 2"), std::string::npos)
        << st[1].last_error;
    EXPECT_NE(st[1].last_error.find("Traceback"), std::string::npos);
    EXPECT_EQ(a.stats().offered, 3);
    EXPECT_EQ(a.stats().bytes_host_gathered, std::uint64_t(3 * 8 * 8 * 8 * 8));
    EXPECT_THROW(a.add_script((dir / "missing.py").string()), CatalystError);
  }
  std::filesystem::remove_all(dir);
}
