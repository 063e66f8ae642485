// Checkpoint, restart and signals through the command line: N steps, restart, N steps
// gives the same files as 2N steps straight (on the uniform grid and the adaptive mesh);
// SIGTERM and SIGINT end a run cleanly.
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "insitu/checkpoint/Checkpoint.hpp"
#include "insitu/snapshot/SnapshotSeries.hpp"
#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;
using fluxview::test::run_fluxview;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
fs::path fresh_path(const std::string& n) {
  return fs::temp_directory_path() / ("fluxview_restart_" + n);
}
fs::path fresh(const std::string& n) {
  const auto d = fresh_path(n);
  fs::remove_all(d);
  return d;
}
nlohmann::json run_json(const fs::path& d) {
  return nlohmann::json::parse(slurp(d / "run.json"));
}
}  // namespace

// diagnostics.csv across a restart into the same folder: the rows before the restart's
// step are kept, the later ones written again, and they are the straight run's.
TEST(RestartCli, DiagnosticsCsvContinuesAcrossARestart) {
  const fs::path d = fresh("diagcsv");
  const std::string run = "run fv/sod --backend cpu --set grid.nx=32 --every 5 --quiet ";
  auto r = run_fluxview(run + "--steps 20 --checkpoint-every 10 --output " + d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string straight = slurp(d / "diagnostics.csv");
  r = run_fluxview("run --restart " + (d / "checkpoint_000010.h5").string() +
                   " --backend cpu --every 5 --steps 10 --quiet --output " + d.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(slurp(d / "diagnostics.csv"), straight);
  EXPECT_EQ(std::count(straight.begin(), straight.end(), '\n'), 6);  // header, steps 0 .. 20
}

TEST(RestartCli, RestartedRunWritesTheSameSnapshotAsTheStraightRun) {
  const fs::path a = fresh("a"), b = fresh("b");
  const std::string common =
      "heat/hot-spot --backend cpu --set grid.nx=20 --set grid.ny=14 --set grid.nz=9 ";
  auto r = run_fluxview("run " + common + "--steps 40 --checkpoint-every 20 --quiet --output " +
                        a.string());
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(fs::exists(a / "checkpoint_000020.h5"));
  ASSERT_TRUE(fs::exists(a / "checkpoint_000040.h5"));
  r = run_fluxview("run --restart " + (a / "checkpoint_000020.h5").string() +
                   " --backend cpu --steps 20 --quiet --output " + b.string());
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(fs::exists(b / "snapshot_000040.vti"));
  EXPECT_EQ(slurp(a / "snapshot_000040.vti"), slurp(b / "snapshot_000040.vti"))
      << "restart is not bit-identical";
  EXPECT_EQ(run_json(b)["steps"], 40);
  EXPECT_EQ(run_json(b)["steps_run"], 20);
}

TEST(RestartCli, RestartRefusesChangesBeyondRunKeysAndBadFiles) {
  const fs::path a = fresh("c");
  ASSERT_EQ(run_fluxview("run heat/hot-spot --backend cpu --set grid.n=8 --steps 2 "
                         "--checkpoint-every 2 --quiet --output " +
                         a.string())
                .code,
            0);
  auto r = run_fluxview("run --restart " + (a / "checkpoint_000002.h5").string() +
                        " --set heat.alpha=1 --output " + fresh("d").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("only run.* keys can change on --restart"), std::string::npos) << r.out;
  std::ofstream(a / "junk.h5") << "junk";
  const fs::path e = fresh("e");
  r = run_fluxview("run --restart " + (a / "junk.h5").string() + " --output " + e.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("not an HDF5 file"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(e)) << "a refused restart created its output folder";
}

TEST(RestartCli, SigtermFinishesTheStepWritesACheckpointAndRunJson) {
  const fs::path d = fresh("sig");
  // A run far longer than the 5 s after which `timeout` sends SIGTERM (time enough to start
  // on a loaded machine: a signal before fluxview's handler is in place kills it).
  const auto r = run_fluxview(
      "run heat/hot-wall --backend cpu --set grid.n=48 --set heat.steady_tol=0 --steps 100000000 "
      "--checkpoint-every 100000000 --quiet --output " +
          d.string(),
      "timeout --preserve-status -s TERM 5 ");
  EXPECT_EQ(r.code, 130) << r.out;
  const auto j = run_json(d);
  EXPECT_EQ(j["status"], "interrupted");
  EXPECT_NE(j["message"].get<std::string>().find("SIGTERM"), std::string::npos);
  const std::int64_t step = j["steps"];
  EXPECT_GT(step, 0);
  char name[64];
  std::snprintf(name, sizeof name, "checkpoint_%06lld.h5", static_cast<long long>(step));
  EXPECT_TRUE(fs::exists(d / name)) << name;
  EXPECT_TRUE(fs::exists(d / "series.pvd"));
}

TEST(RestartCli, ARestartRefusesAnotherScenarioOrPrecisionAndATimeItHasPassed) {
  const fs::path a = fresh("refusals");
  ASSERT_EQ(run_fluxview("run heat/hot-spot --backend cpu --set grid.n=8 --steps 4 "
                         "--checkpoint-every 2 --quiet --output " +
                         a.string())
                .code,
            0);
  const std::string ck2 = (a / "checkpoint_000002.h5").string();
  const double t2 = fluxview::read_checkpoint(a / "checkpoint_000002.h5").state.time;
  struct Refusal {
    std::string args, message;
  };
  const Refusal refusals[] = {
      {"fv/sedov --restart " + ck2,
       "--restart " + ck2 + ": the checkpoint is of heat/hot-spot, not of fv/sedov"},
      {"--restart " + ck2 + " --precision float",
       "--precision float: the checkpoint " + ck2 + " holds double state"},
      {"--restart " + ck2 + " --until " + std::to_string(t2 / 2), "the checkpoint is at t = "},
      // At the end of its run (4 steps) and told nothing more: nothing to run.
      {"--restart " + (a / "checkpoint_000004.h5").string(),
       "the checkpoint is at step 4, the end of its run (run.steps = 4); say how far to go on"},
  };
  for (const Refusal& f : refusals) {
    const fs::path out = fresh("refused");
    const auto r = run_fluxview("run " + f.args + " --backend cpu --output " + out.string());
    EXPECT_EQ(r.code, 2) << f.args << ": " << r.out;
    EXPECT_NE(r.out.find(f.message), std::string::npos) << f.args << ": " << r.out;
    EXPECT_FALSE(fs::exists(out)) << f.args << ": a refused restart created its output folder";
  }
  // Naming the checkpoint's own scenario and precision is no change.
  const auto same = run_fluxview("run heat/hot-spot --restart " + ck2 +
                                 " --precision double --backend cpu --steps 1 --quiet --output " +
                                 fresh("same").string());
  EXPECT_EQ(same.code, 0) << same.out;
}

TEST(RestartCli, StepsAndUntilMeanTheSameWhetherARunIsRestartedOrNot) {
  // Bounded by steps: without --steps the restart goes on to the step the run was going to;
  // --steps N runs N more.
  const fs::path a = fresh("bound_steps");
  ASSERT_EQ(run_fluxview("run heat/hot-spot --backend cpu --set grid.n=8 --steps 6 "
                         "--checkpoint-every 2 --checkpoint-keep 3 --quiet --output " +
                         a.string())
                .code,
            0);
  const fs::path b = fresh("bound_steps_to_end");
  auto r = run_fluxview("run --restart " + (a / "checkpoint_000002.h5").string() +
                        " --backend cpu --quiet --output " + b.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(run_json(b)["steps"], 6);
  EXPECT_EQ(run_json(b)["steps_run"], 4);
  EXPECT_EQ(slurp(a / "snapshot_000006.vti"), slurp(b / "snapshot_000006.vti"));
  const auto from = run_json(b)["restarted_from"];
  EXPECT_EQ(from["step"], 2);
  EXPECT_EQ(fs::path(from["checkpoint"].get<std::string>()).filename(), "checkpoint_000002.h5");
  const fs::path c = fresh("bound_steps_more");
  r = run_fluxview("run --restart " + (a / "checkpoint_000002.h5").string() +
                   " --backend cpu --steps 3 --quiet --output " + c.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(run_json(c)["steps"], 5);
  // A restart of a restart still knows where the run was going.
  const fs::path e = fresh("bound_steps_chain");
  ASSERT_EQ(run_fluxview("run --restart " + (a / "checkpoint_000002.h5").string() +
                         " --backend cpu --checkpoint-every 2 --quiet --output " + e.string())
                .code,
            0);
  r = run_fluxview("run --restart " + (e / "checkpoint_000004.h5").string() +
                   " --backend cpu --quiet --output " + fresh("bound_steps_chain2").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(run_json(fresh_path("bound_steps_chain2"))["steps"], 6);

  // Bounded by time: without --until the restart stops at the run's own end time.
  const fs::path t = fresh("bound_time");
  ASSERT_EQ(run_fluxview("run heat/sine-decay --backend cpu --set grid.n=8 --until 0.002 "
                         "--checkpoint-every 1 --checkpoint-keep 100 --quiet --output " +
                         t.string())
                .code,
            0);
  const fs::path u = fresh("bound_time_to_end");
  r = run_fluxview("run --restart " + (t / "checkpoint_000001.h5").string() +
                   " --backend cpu --quiet --output " + u.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(run_json(u)["time"], run_json(t)["time"]);
  EXPECT_EQ(run_json(u)["steps"], run_json(t)["steps"]);
}

TEST(RestartCli, ARestartIntoItsOwnFolderKeepsTheEarlierSnapshotsOfTheSeries) {
  const fs::path a = fresh("same_folder");
  ASSERT_EQ(run_fluxview("run heat/hot-spot --backend cpu --set grid.n=8 --steps 8 --every 2 "
                         "--checkpoint-every 4 --quiet --output " +
                         a.string())
                .code,
            0);
  const std::string before = slurp(a / "series.pvd");
  const auto r = run_fluxview("run --restart " + (a / "checkpoint_000004.h5").string() +
                              " --backend cpu --every 2 --quiet --output " + a.string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::vector<std::int64_t> steps;
  for (const auto& s : fluxview::SnapshotSeries::read_series(a)) steps.push_back(s.step);
  EXPECT_EQ(steps, (std::vector<std::int64_t>{0, 2, 4, 6, 8}));
  EXPECT_EQ(slurp(a / "series.pvd"), before) << "the same run again must give the same series";
  EXPECT_EQ(run_json(a)["snapshots"].size(), 5u);
  EXPECT_EQ(run_json(a)["restarted_from"]["step"], 4);
}

TEST(RestartCli, ARestartKeepsWritingCheckpointsAsItsRunDidUnlessToldOtherwise) {
  // --checkpoint-every sets run.checkpoint_every, which the checkpoint carries: a run that
  // crashed and is restarted goes on saving itself without being told again.
  const fs::path a = fresh("keeps_a"), b = fresh("keeps_b"), c = fresh("keeps_c");
  ASSERT_EQ(run_fluxview("run heat/hot-spot --backend cpu --set grid.n=8 --steps 8 "
                         "--checkpoint-every 4 --quiet --output " +
                         a.string())
                .code,
            0);
  const std::string from = (a / "checkpoint_000004.h5").string();
  auto r = run_fluxview("run --restart " + from + " --backend cpu --steps 8 --quiet --output " +
                        b.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::exists(b / "checkpoint_000008.h5"));
  EXPECT_TRUE(fs::exists(b / "checkpoint_000012.h5"));
  EXPECT_EQ(run_json(b)["parameters"]["run.checkpoint_every"], 4) << slurp(b / "run.json");
  r = run_fluxview("run --restart " + from +
                   " --backend cpu --steps 8 --checkpoint-every 0 --quiet --output " + c.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_FALSE(fs::exists(c / "checkpoint_000008.h5")) << "--checkpoint-every 0 asked for none";
}

// The adaptive mesh through the command line: its checkpoints hold the forest and the
// blocks, a restart writes the same snapshot (the .vthb and every block's piece) and the
// same checkpoint as the straight run, and SIGINT (sent to the whole process group, as a
// terminal's Ctrl-C is, which reaches MPI's helper processes too) ends it cleanly.
TEST(RestartCli, AnAdaptiveMeshRunRestartsBitIdenticallyAndStopsCleanlyOnSigint) {
  const fs::path a = fresh("amr_a"), b = fresh("amr_b");
  // A blast carried through periodic faces by a flow: the mesh changes at most regrids.
  const std::string blast =
      "fv/sedov --backend cpu --set grid.n=16 --set fv.mesh=amr --set fv.amr.block=8 "
      "--set fv.amr.max_level=2 --set fv.amr.regrid_every=2 --set fv.blast_x=0.3 "
      "--set fv.blast_radius=0.2 --set fv.ambient_p=0.1 --set fv.ux=0.7 --set fv.uy=-0.4 "
      "--set fv.uz=0.3 --set fv.bc=periodic --quiet ";
  auto r = run_fluxview("run " + blast + "--every 12 --checkpoint-every 12 --steps 24 --output " +
                        a.string());
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(fs::exists(a / "checkpoint_000012.h5"));
  // The same backend (a restart may change it, but is bit-identical only within one).
  r = run_fluxview("run --restart " + (a / "checkpoint_000012.h5").string() +
                   " --backend cpu --steps 12 --quiet --output " + b.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(run_json(b)["steps"], 24);
  EXPECT_EQ(run_json(b)["status"], "completed");
  ASSERT_TRUE(fs::exists(b / "snapshot_000024.vthb"));
  EXPECT_EQ(slurp(a / "snapshot_000024.vthb"), slurp(b / "snapshot_000024.vthb"))
      << "the restarted run's hierarchy differs";
  int pieces = 0;
  for (const auto& e : fs::directory_iterator(a / "snapshot_000024")) {
    ++pieces;
    const fs::path other = b / "snapshot_000024" / e.path().filename();
    EXPECT_EQ(slurp(e.path()), slurp(other)) << other << " differs from " << e.path();
  }
  EXPECT_GT(pieces, 8) << "the blast refined nothing";
  const fluxview::Checkpoint ca = fluxview::read_checkpoint(a / "checkpoint_000024.h5"),
                             cb = fluxview::read_checkpoint(b / "checkpoint_000024.h5"),
                             c12 = fluxview::read_checkpoint(a / "checkpoint_000012.h5");
  EXPECT_EQ(ca.state.time, cb.state.time);
  EXPECT_EQ(ca.state.extra, cb.state.extra);
  ASSERT_EQ(ca.state.arrays.size(), cb.state.arrays.size());
  for (std::size_t i = 0; i < ca.state.arrays.size(); ++i)
    EXPECT_EQ(ca.state.arrays[i].values.bytes, cb.state.arrays[i].values.bytes)
        << "checkpoint array " << ca.state.arrays[i].name << " differs";
  EXPECT_NE(ca.state.arrays[0].values.bytes, c12.state.arrays[0].values.bytes)
      << "the forest did not change between the checkpoints";

  const fs::path d = fresh("amr_sig");
  r = run_fluxview(
      "run " + blast + "--steps 100000000 --checkpoint-every 100000000 --output " + d.string(),
      "timeout --preserve-status -s INT 6 ");
  EXPECT_EQ(r.code, 130) << r.out;
  const auto j = run_json(d);
  EXPECT_EQ(j["status"], "interrupted") << r.out;
  EXPECT_NE(j["message"].get<std::string>().find("SIGINT"), std::string::npos);
  const std::int64_t step = j["steps"];
  char name[64];
  std::snprintf(name, sizeof name, "checkpoint_%06lld.h5", static_cast<long long>(step));
  EXPECT_TRUE(fs::exists(d / name)) << name << "\n" << r.out;
}
