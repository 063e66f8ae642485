// The instability guard through the command line, without gaps: a run that goes
// non-finite between two checks, even on its very last step, exits 3 and writes nothing
// of the bad state; an initial state that is not finite is never written; a restart from
// a checkpoint whose state is not finite or not admissible is refused.
//
// The blow-up is a real one: fd/radial-explosion with a fixed time step that is stable
// for the sound speed and the viscosity (the checks fd.dt passes) but not for a flow of
// u_ampl = 3, which reaches Inf in lnrho after a dozen steps.
#include <gtest/gtest.h>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "insitu/checkpoint/Checkpoint.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"
#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;
using fluxview::test::run_fluxview;

namespace {

const std::string kBlowUp =
    "run fd/radial-explosion --backend cpu --set grid.n=16 --set fd.dt=0.05 --set fd.u_ampl=3 "
    "--quiet ";

fs::path fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fluxview_guard_" + name);
  fs::remove_all(d);
  return d;
}

nlohmann::json run_json(const fs::path& d) {
  std::ifstream in(d / "run.json");
  return nlohmann::json::parse(in);
}

// The step at which the blow-up is first seen when every step is checked.
std::int64_t blow_up_step() {
  const fs::path d = fresh("every_step");
  const auto r =
      run_fluxview(kBlowUp + "--set run.check_every=1 --steps 1000 --output " + d.string());
  EXPECT_EQ(r.code, 3) << r.out;
  std::smatch m;
  const std::regex at("instability at step (\\d+)");
  if (!std::regex_search(r.out, m, at)) {
    ADD_FAILURE() << "no step in: " << r.out;
    return -1;
  }
  return std::stoll(m[1].str());
}

}  // namespace

TEST(GuardCli, ARunThatGoesNonFiniteOnItsLastStepExitsThreeAndWritesNothingOfIt) {
  const std::int64_t s = blow_up_step();
  ASSERT_GT(s, 5) << "the blow-up must come after a checkpoint";
  // run.check_every 0: no periodic check at all; the end of the run is still checked.
  const fs::path d = fresh("last_step");
  const auto r = run_fluxview(kBlowUp + "--set run.check_every=0 --checkpoint-every 5 --steps " +
                              std::to_string(s) + " --output " + d.string());
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("instability at step " + std::to_string(s)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("field lnrho is"), std::string::npos) << r.out;
  const auto j = run_json(d);
  EXPECT_EQ(j["status"], "unstable");
  // Nothing of the bad state was written or is called good.
  char last[64];
  std::snprintf(last, sizeof last, "snapshot_%06lld.vti", static_cast<long long>(s));
  EXPECT_FALSE(fs::exists(d / last));
  EXPECT_EQ(j["last_snapshot"], "snapshot_000000.vti");
  const std::int64_t good = (s - 1) / 5 * 5;  // the last checkpoint step before the blow-up
  char ck[64];
  std::snprintf(ck, sizeof ck, "checkpoint_%06lld.h5", static_cast<long long>(good));
  EXPECT_EQ(fs::path(j["last_checkpoint"].get<std::string>()).filename(), ck);
  EXPECT_NE(j["message"].get<std::string>().find(std::string("last good checkpoint: ")),
            std::string::npos);
  // Every checkpoint kept is finite: a restart from the last one is accepted.
  const auto again =
      run_fluxview("run --restart " + (d / ck).string() +
                   " --backend cpu --steps 1 --quiet --output " + fresh("from_last_good").string());
  EXPECT_NE(again.code, 2) << again.out;

  // One step less, and the run ends sound.
  const fs::path e = fresh("one_less");
  const auto ok = run_fluxview(kBlowUp + "--set run.check_every=0 --steps " +
                               std::to_string(s - 1) + " --output " + e.string());
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_EQ(run_json(e)["status"], "completed");
}

TEST(GuardCli, ARunWhoseInitialStateIsNotFiniteExitsThreeWritingNothing) {
  // A uniform gas at a pressure whose energy density p / (gamma - 1) overflows to Inf: the
  // solver finds it when it sets up, before any folder is made.
  const fs::path d = fresh("initial");
  const auto r = run_fluxview(
      "run fv/sedov --backend cpu --set grid.n=8 --set fv.init=uniform --set fv.ambient_p=1e308 "
      "--steps 2 --quiet --output " +
      d.string());
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("no longer finite"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("step 0"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(d)) << "an unsound initial state was written";
}

namespace {

// A checkpoint of `scenario` whose first state array has `value` at its first cell, as a
// run without the guard (or a damaged one) could have left it.
fs::path bad_checkpoint(const std::string& name, const std::string& scenario, double value) {
  using namespace fluxview;
  const Scenario s = load_scenario(scenario, {"grid.n=8"});
  auto solver = find_family(s.solver).create(BackendKind::cpu, Precision::f64);
  solver->reset(s.params);
  solver->advance(2);
  SolverState st = solver->save_state();
  reinterpret_cast<double*>(st.arrays[0].values.bytes.data())[0] = value;
  solver->load_state(st);
  const fs::path dir = fresh(name);
  fs::create_directories(dir);
  write_checkpoint(dir / "checkpoint_000002.h5", s, *solver);
  return dir / "checkpoint_000002.h5";
}

}  // namespace

TEST(GuardCli, ARestartFromACheckpointThatIsNotFiniteOrNotAdmissibleIsRefused) {
  struct Case {
    fs::path file;
    std::string says;
  };
  for (const Case& c :
       {Case{bad_checkpoint("nan", "heat/hot-spot", NAN), "field T is nan"},
        Case{bad_checkpoint("negative", "fv/sedov", -1.0), "field rho is -1 (must be positive)"}}) {
    const fs::path out = fresh("refused_restart");
    const auto r = run_fluxview("run --restart " + c.file.string() +
                                " --backend cpu --steps 2 --output " + out.string());
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("--restart " + c.file.string() + ": its state is not sound"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(c.says), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(out)) << "a refused restart created its output folder";
  }
}
