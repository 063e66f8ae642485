// The GUI's Catalyst control (app/gui/CatalystControl): a script loaded from the panel
// runs whenever the run passes a multiple of `every` steps (the GUI steps in chunks),
// can be switched off, and a failing script is dropped with its traceback while the run
// goes on. No rendering, so no X display is needed.
#include <gtest/gtest.h>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <filesystem>
#include <fstream>

#include "app/gui/CatalystControl.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"

using namespace fluxview;

namespace {
std::string script(const std::filesystem::path& path, const std::string& execute_body) {
  std::ofstream out(path);
  out << "# script-version: 2\nfrom paraview import catalyst\nfrom paraview.simple import *\n"
         "grid = PVTrivialProducer(registrationName='input')\noptions = catalyst.Options()\n"
         "def catalyst_execute(info):\n"
      << execute_body;
  return path.string();
}
}  // namespace

TEST(GuiCatalyst, OffersWhenTheRunPassesMultiplesTogglesAndKeepsErrors) {
  const auto dir = std::filesystem::temp_directory_path() / "fluxview_gui_catalyst_test";
  std::filesystem::create_directories(dir);
  const std::string quiet = script(dir / "quiet.py", "    pass\n");
  const std::string bad = script(dir / "bad.py", "    raise RuntimeError('bad pipeline')\n");

  const Scenario sc = load_scenario("heat/hot-spot", {"grid.n=8"});
  auto solver = find_family("heat").create(BackendKind::cpu, Precision::f64);
  solver->reset(sc.params);

  app::CatalystControl c;
  c.every = 5;
  c.output_dir = (dir / "out").string();
  ASSERT_EQ(c.load(quiet), "");
  c.offer(*solver);                 // step 0: a new script sees the current state
  for (int chunk : {3, 4, 5, 1}) {  // steps 3, 7, 12, 13: multiples passed at 7 and 12
    solver->advance(chunk);
    c.offer(*solver);
  }
  auto st = c.status();
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].runs, 3);
  EXPECT_EQ(st[0].last_step, 12);

  c.set_enabled(0, false);
  solver->advance(5);  // step 18: offered, but the script is off
  c.offer(*solver);
  EXPECT_EQ(c.status()[0].runs, 3);
  c.set_enabled(0, true);

  ASSERT_EQ(c.load(bad), "");  // parses; fails when it runs
  solver->advance(5);          // step 23
  EXPECT_NO_THROW(c.offer(*solver));
  st = c.status();
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].runs, 4);
  EXPECT_TRUE(st[1].failed);
  EXPECT_NE(st[1].last_error.find("RuntimeError: bad pipeline"), std::string::npos)
      << st[1].last_error;
  EXPECT_NE(st[1].last_error.find("Traceback"), std::string::npos);

  const std::string missing = c.load((dir / "missing.py").string());
  EXPECT_NE(missing.find("missing.py"), std::string::npos) << missing;
  std::filesystem::remove_all(dir);
}
