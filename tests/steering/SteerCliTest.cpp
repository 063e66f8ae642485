// `fluxview run --steer FILE` and `--replay FILE` as a user runs them: a steering file's
// entries take effect at exactly their steps (run.json records each with its step), a
// replay of that run.json ends with the same final snapshot to the last byte, and a bad
// steering file is refused with a message naming the entry, exit 2 and nothing written.
#include <gtest/gtest.h>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/RunFluxview.hpp"

namespace fs = std::filesystem;
using fluxview::test::CommandResult;
using fluxview::test::run_fluxview;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fluxview_steer_" + name);
  fs::remove_all(d);
  return d;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// Journal lines without the "  # what the tool did" comments.
std::string without_notes(const std::string& lines) {
  std::string out;
  std::size_t at = 0;
  while (at < lines.size()) {
    std::size_t end = lines.find('\n', at);
    if (end == std::string::npos) end = lines.size();
    const std::string line = lines.substr(at, end - at);
    out += line.substr(0, line.find("  #")) + "\n";
    at = end + 1;
  }
  return out;
}

nlohmann::json run_json(const fs::path& dir) {
  std::ifstream in(dir / "run.json");
  return nlohmann::json::parse(in);
}

// A 2D gas at rest in a periodic box, small enough for a CPU test.
const std::string kFvRun =
    "run fv/sedov --backend cpu --set grid.nx=40 --set grid.ny=40 --set grid.nz=1 "
    "--set fv.init=uniform --set fv.bc=periodic --steps 16 --every 0 --quiet ";

const std::string kFvSteering = R"toml(
# a lesson: set off a blast, then change the Courant number while it spreads
[[at]]
step = 4
tool = "blast"
x = 0.3
y = 0.6
radius = 0.08
energy = 0.25

[[at]]
step = 9
set = { "fv.cfl" = 0.3 }

[[at]]
step = 11
tool = "cloud"
x = 0.7
y = 0.4
radius = 0.1
density_ratio = 5.0
)toml";

}  // namespace

TEST(SteerCli, EntriesTakeEffectAtTheirStepsAndAReplayEndsByteIdentical) {
  const fs::path base = fresh_dir("fv");
  const fs::path file = base / "lesson.toml";
  write_file(file, kFvSteering);
  const fs::path steered = base / "steered", replayed = base / "replayed", alone = base / "alone";
  const CommandResult r =
      run_fluxview(kFvRun + "--steer " + file.string() + " --output " + steered.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = run_json(steered);
  ASSERT_TRUE(j.contains("journal")) << j.dump(2);
  EXPECT_EQ(j["journal"]["entries_applied"], 3);
  EXPECT_EQ(j["journal"]["entries_left"], 0);
  const std::string lines = j["journal"]["lines"];
  // Each entry with the step it took effect at, tools with every argument resolved.
  EXPECT_NE(lines.find("at step 4 apply blast"), std::string::npos) << lines;
  EXPECT_NE(lines.find("energy = 0.25"), std::string::npos) << lines;
  EXPECT_NE(lines.find("at step 9 set fv.cfl = 0.3"), std::string::npos) << lines;
  EXPECT_NE(lines.find("at step 11 apply cloud"), std::string::npos) << lines;
  // The blast's energy is in the run's total: 0.25 J more than a run left alone.
  const CommandResult a = run_fluxview(kFvRun + "--output " + alone.string());
  ASSERT_EQ(a.code, 0) << a.out;
  const nlohmann::json ja = run_json(alone);
  EXPECT_NEAR(j["diagnostics"]["energy"]["value"].get<double>() -
                  ja["diagnostics"]["energy"]["value"].get<double>(),
              0.25, 1e-9);
  EXPECT_GT(j["diagnostics"]["mass"]["value"].get<double>(),
            ja["diagnostics"]["mass"]["value"].get<double>());  // the cloud's mass

  // The replay of run.json: the same entries at the same steps, the same last snapshot.
  const CommandResult p = run_fluxview(kFvRun + "--replay " + (steered / "run.json").string() +
                                       " --output " + replayed.string());
  ASSERT_EQ(p.code, 0) << p.out;
  EXPECT_EQ(run_json(replayed)["journal"]["lines"], lines);
  const std::string last = "snapshot_000016.vti";
  ASSERT_TRUE(fs::exists(steered / last));
  EXPECT_EQ(read_file(replayed / last), read_file(steered / last));
  EXPECT_NE(read_file(alone / last), read_file(steered / last));
  // The first snapshot is the initial state: no entry is due at step 0.
  EXPECT_EQ(read_file(alone / "snapshot_000000.vti"), read_file(steered / "snapshot_000000.vti"));
}

TEST(SteerCli, AJournalOfLinesAtTheFirstAndLastStepOfAHeatRun) {
  const fs::path base = fresh_dir("heat");
  const fs::path file = base / "journal.txt";
  write_file(file,
             "at step 0 apply heat-spot x = 0.05 y = 0.05 radius = 0.01 amplitude = 30\n"
             "at step 5 set heat.alpha = 3e-5\n"
             "at step 10 set heat.T_xmin = 80\n");
  const std::string run =
      "run heat/hot-spot --backend cpu --set grid.nx=24 --set grid.ny=24 "
      "--set grid.nz=1 --steps 10 --every 5 --quiet ";
  const fs::path steered = base / "steered", replayed = base / "replayed";
  const CommandResult r =
      run_fluxview(run + "--steer " + file.string() + " --output " + steered.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string lines = run_json(steered)["journal"]["lines"];
  EXPECT_NE(lines.find("at step 0 apply heat-spot"), std::string::npos) << lines;
  EXPECT_NE(lines.find("at step 5 set heat.alpha = 3e-05"), std::string::npos) << lines;
  EXPECT_NE(lines.find("at step 10 set heat.T_xmin = 80"), std::string::npos) << lines;
  // A journal of lines replays as well as a run.json does.
  write_file(base / "record.txt", lines);
  const CommandResult p = run_fluxview(run + "--replay " + (base / "record.txt").string() +
                                       " --output " + replayed.string());
  ASSERT_EQ(p.code, 0) << p.out;
  for (const char* f : {"snapshot_000000.vti", "snapshot_000005.vti", "snapshot_000010.vti"})
    EXPECT_EQ(read_file(replayed / f), read_file(steered / f)) << f;
}

TEST(SteerCli, ABadSteeringFileIsRefusedBeforeAnythingIsWritten) {
  const fs::path base = fresh_dir("bad");
  const fs::path out = base / "out";
  struct Case {
    std::string text, expected;
  };
  const Case cases[] = {
      {"at step 3 set fv.tracer = true\n", "fv.tracer"},  // fixed: its reason is given
      {"at step 3 set fv.cfl = 7\n", "fv.cfl"},           // out of range
      {"at step 3 apply hammer x = 0.5\n", "hammer"},     // no such tool
      {"at step 8 set fv.cfl = 0.3\nat step 2 set fv.cfl = 0.2\n", "step"},  // out of order
      {"at step 3 wobble\n", "s.txt:1: 'wobble'"},                           // not a journal line
  };
  for (const Case& c : cases) {
    write_file(base / "s.txt", c.text);
    const CommandResult r =
        run_fluxview(kFvRun + "--steer " + (base / "s.txt").string() + " --output " + out.string());
    EXPECT_EQ(r.code, 2) << c.text << r.out;
    EXPECT_NE(r.out.find(c.expected), std::string::npos) << c.text << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
    EXPECT_FALSE(fs::exists(out)) << c.text;
  }
  // A replay of a run that was not steered, and of a file that is not there.
  const CommandResult plain = run_fluxview(kFvRun + "--output " + (base / "plain").string());
  ASSERT_EQ(plain.code, 0) << plain.out;
  const CommandResult r = run_fluxview(
      kFvRun + "--replay " + (base / "plain" / "run.json").string() + " --output " + out.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("records no journal"), std::string::npos) << r.out;
  const CommandResult m = run_fluxview(kFvRun + "--replay " + (base / "none.json").string() +
                                       " --output " + out.string());
  EXPECT_EQ(m.code, 2) << m.out;
  EXPECT_FALSE(fs::exists(out));
  // --steer and --replay together are one too many.
  const CommandResult both = run_fluxview(kFvRun + "--steer a --replay b --output " + out.string());
  EXPECT_NE(both.code, 0);
  EXPECT_FALSE(fs::exists(out));
}

TEST(SteerCli, ACheckpointCarriesTheJournalSoARestartEndsTheSame) {
  const fs::path base = fresh_dir("restart");
  const fs::path file = base / "lesson.toml";
  write_file(file, kFvSteering);
  const fs::path steered = base / "steered";
  const CommandResult r =
      run_fluxview(kFvRun + "--steer " + file.string() + " --checkpoint-every 4 " +
                   "--checkpoint-keep 4 --output " + steered.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string last = read_file(steered / "snapshot_000016.vti");
  ASSERT_FALSE(last.empty());
  const std::string restart = "run --backend cpu --every 0 --quiet --restart ";
  // From step 4, where the blast was set off before the checkpoint was written: the same
  // steering file goes on without setting it off again.
  const CommandResult a =
      run_fluxview(restart + (steered / "checkpoint_000004.h5").string() + " --steer " +
                   file.string() + " --output " + (base / "from4").string());
  ASSERT_EQ(a.code, 0) << a.out;
  EXPECT_EQ(read_file(base / "from4" / "snapshot_000016.vti"), last);
  // The whole run's record (the notes of entries taken from the checkpoint are not kept:
  // they are comments, never read back).
  EXPECT_EQ(without_notes(run_json(base / "from4")["journal"]["lines"]),
            without_notes(run_json(steered)["journal"]["lines"]));
  // From step 12, after every entry: the checkpoint's journal alone sets fv.cfl = 0.3
  // again (the checkpoint's parameters are the run's first ones).
  const CommandResult b = run_fluxview(restart + (steered / "checkpoint_000012.h5").string() +
                                       " --output " + (base / "from12").string());
  ASSERT_EQ(b.code, 0) << b.out;
  EXPECT_EQ(read_file(base / "from12" / "snapshot_000016.vti"), last);
  // A steering file other than the one the run had is refused, naming the entry.
  write_file(base / "other.txt", "at step 4 apply blast x = 0.5 y = 0.5 radius = 0.1\n");
  const CommandResult c =
      run_fluxview(restart + (steered / "checkpoint_000012.h5").string() + " --steer " +
                   (base / "other.txt").string() + " --output " + (base / "other").string());
  EXPECT_EQ(c.code, 2) << c.out;
  EXPECT_NE(c.out.find("is not what the checkpoint's run applied"), std::string::npos) << c.out;
  EXPECT_FALSE(fs::exists(base / "other"));
}

// The adaptive mesh steered from a file: gamma, a blast, the Courant number and a face
// that becomes a wall take effect at their steps, and a restart from a checkpoint written
// between them ends with the same snapshot, piece for piece.
TEST(SteerCli, AnAdaptiveMeshRunTakesLiveChangesAndARestartEndsTheSame) {
#if !defined(FLUXVIEW_HAVE_AMR)
  GTEST_SKIP() << "this build has no adaptive mesh (p4est)";
#endif
  const fs::path base = fresh_dir("amr");
  const fs::path file = base / "lesson.txt";
  write_file(file,
             "at step 3 set fv.gamma = 1.6666666666666667\n"
             "at step 4 apply blast x = 0.7 y = 0.6 radius = 0.12 energy = 0.2\n"
             "at step 7 set fv.cfl = 0.3\n"
             "at step 9 set fv.bc_xmin = reflecting\n");
  const std::string run =
      "run fv/sedov --backend cpu --set grid.nx=32 --set grid.ny=32 --set grid.nz=1 "
      "--set fv.mesh=amr --set fv.amr.block=8 --set fv.amr.max_level=2 "
      "--set fv.amr.regrid_every=2 --set fv.blast_x=0.2 --steps 14 --every 0 --quiet ";
  const fs::path steered = base / "steered";
  const CommandResult r =
      run_fluxview(run + "--steer " + file.string() +
                   " --checkpoint-every 5 --checkpoint-keep 4 --output " + steered.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json record = run_json(steered);
  EXPECT_EQ(without_notes(record["journal"]["lines"]),
            "at step 3 set fv.gamma = 1.6666666666666667\n"
            "at step 4 apply blast energy = 0.2 radius = 0.12 x = 0.7 y = 0.6 z = 0.5\n"
            "at step 7 set fv.cfl = 0.3\n"
            "at step 9 set fv.bc_xmin = reflecting\n");
  ASSERT_TRUE(fs::exists(steered / "snapshot_000014.vthb"));
  // Not the run left alone.
  const CommandResult alone = run_fluxview(run + "--output " + (base / "alone").string());
  ASSERT_EQ(alone.code, 0) << alone.out;
  EXPECT_NE(read_file(base / "alone" / "snapshot_000014" / "l0_0_0_0.vti"),
            read_file(steered / "snapshot_000014" / "l0_0_0_0.vti"));
  const auto same_snapshot = [&](const fs::path& other) {
    EXPECT_EQ(read_file(other / "snapshot_000014.vthb"),
              read_file(steered / "snapshot_000014.vthb"));
    int pieces = 0;
    for (const auto& e : fs::directory_iterator(steered / "snapshot_000014")) {
      ++pieces;
      EXPECT_EQ(read_file(other / "snapshot_000014" / e.path().filename()), read_file(e.path()))
          << e.path().filename();
    }
    EXPECT_GT(pieces, 16) << "the blast refined nothing";
  };
  const std::string restart = "run --backend cpu --every 0 --quiet --restart ";
  // From step 5 (after gamma and the blast, before the rest) with the same file.
  const CommandResult a =
      run_fluxview(restart + (steered / "checkpoint_000005.h5").string() + " --steer " +
                   file.string() + " --output " + (base / "from5").string());
  ASSERT_EQ(a.code, 0) << a.out;
  same_snapshot(base / "from5");
  // From step 10, after every entry: the checkpoint's journal alone.
  const CommandResult b = run_fluxview(restart + (steered / "checkpoint_000010.h5").string() +
                                       " --output " + (base / "from10").string());
  ASSERT_EQ(b.code, 0) << b.out;
  same_snapshot(base / "from10");
}
