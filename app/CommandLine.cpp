#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "app/CommandLine.hpp"

#include "app/BuildInfo.hpp"
#include "sim/core/CudaRuntime.hpp"

#include "fileio/FileError.hpp"
#include "fileio/Folders.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Scenario.hpp"

namespace fluxview::app {

namespace {

void add_scenario_options(CLI::App* c, RunOptions& o) {
  c->add_option("SCENARIO", o.scenario, "built-in scenario (see `fluxview list`) or a .toml file")
      ->default_val(kDefaultScenario);
  c->add_option("--set", o.overrides,
                "override a parameter, key=value (repeatable), e.g. --set grid.n=64")
      ->allow_extra_args(false);
  c->add_option("--backend", o.backend, "cpu or cuda (default: cuda when a GPU is present)");
  c->add_option("--precision", o.precision, "float or double")->default_val("double");
  c->add_option("--mpi-dims", o.mpi_dims,
                "under mpirun: ranks per axis X,Y,Z (default: MPI_Dims_create, most ranks on z)");
}

// How the slices and the volume of device fields reach GL textures (docs/gui.md): the
// automatic choice, or one path pinned (it then fails loudly where it cannot be had).
void add_upload_path_option(CLI::App* c, std::string& path) {
  c->add_option("--upload-path", path,
                "how device fields reach GL: auto (shared memory, else a mapped texture, else "
                "the host), or shared, map or host only")
      ->check(CLI::IsMember({"auto", "shared", "map", "host"}));
}

// What the GUI is asked to do at its end is checked before a window opens: a frame
// count given must be 1 or more (0 would never end), a screenshot must have a writable
// file name.
void check_gui_options(const GuiOptions& o, bool frames_given, const TypedOptions& typed) {
  if (frames_given)
    check_count("--exit-after-frames", o.exit_after_frames, 1, kMaxCount,
                "leave the option out to run until the window is closed", typed);
  if (!o.screenshot.empty()) try {
      check_file_writable(o.screenshot);
    } catch (const FileError& e) {
      throw ConfigError("--screenshot " + o.screenshot + ": " + e.what() +
                        "; allowed: a PNG file name in a writable folder");
    }
}

}  // namespace

CommandLineParser::CommandLineParser() {
  CommandLine& l = line_;
  cli_.require_subcommand(0, 1);
  cli_.set_version_flag("--version", [] {
    const BuildInfo& b = build_info();
    return "fluxview " + b.version + "\n  CUDA: " + b.cuda + "\n  components: " + b.components +
           "\n  compiler: " + b.compiler + ", " + b.build_type + " build" + "\n  GPU here: " +
           (cuda::device_count() > 0 ? cuda::device_description(0) : cuda::no_device_reason());
  });

  list_ = cli_.add_subcommand("list", "list the built-in scenarios (or one scenario's parameters)");
  list_->add_option("SCENARIO", l.list_scenario,
                    "show every parameter of this scenario with unit, range, meaning");
  list_->add_flag("--solvers", l.list_solvers, "also list the solver families");

  // Count options are checked by check_run_options, not by CLI11's range validators, whose
  // messages print the largest double in full.
  RunOptions& r = l.run;
  run_ = cli_.add_subcommand("run", "run a scenario headless, writing snapshots and run.json");
  add_scenario_options(run_, r);
  auto* steps = run_->add_option(
      "--steps", r.steps, "steps to run (default: to the scenario's run.steps or run.until)");
  auto* until = run_->add_option("--until", r.until, "simulated time to run to, in s");
  steps->excludes(until);
  run_->add_option("--every", r.every, "write a snapshot every N steps (0: first and last only)");
  run_->add_option("--diagnostics-every", r.diagnostics_every,
                   "add a row to diagnostics.csv every N steps (default: with each snapshot; 0: "
                   "first and last only)");
  run_->add_option("--output", r.output, "output directory (default: fluxview-out/SCENARIO)");
  run_->add_option("--checkpoint-every", r.checkpoint_every,
                   "write an HDF5 checkpoint every N steps (0: none; sets run.checkpoint_every, "
                   "which a restart keeps)");
  run_->add_option("--checkpoint-keep", r.checkpoint_keep,
                   "how many of the newest checkpoints stay on disk (default: 2)");
  run_->add_option("--checkpoint-dir", r.checkpoint_dir,
                   "folder of the checkpoints (default: the output folder)");
  run_->add_option("--restart", r.restart,
                   "continue the run saved in this checkpoint (its scenario and precision)");
  auto* steer = run_->add_option(
      "--steer", r.steer,
      "apply this steering file (TOML [[at]] tables or journal lines: at step N set KEY = "
      "VALUE, at step N apply TOOL ARG = V ...)");
  auto* replay = run_->add_option(
      "--replay", r.replay,
      "play again the journal of a steered run (its run.json, or the journal as lines); "
      "ends bit-identical on the same backend and precision");
  steer->excludes(replay);
  run_->add_flag("--headless", r.headless, "never open a window (runs are headless already)");
  run_->add_flag("--quiet", r.quiet, "print only where the output went");
  run_->add_option("--catalyst", r.catalyst_scripts,
                   "run this ParaView Catalyst Python script (repeatable)")
      ->allow_extra_args(false);
  run_->add_option("--catalyst-every", r.catalyst_every,
                   "offer the state to Catalyst every N steps");
  run_->add_option("--catalyst-on-error", r.catalyst_on_error,
                   "when a Catalyst script fails: stop the run, or continue without that script")
      ->check(CLI::IsMember({"stop", "continue"}));
  run_->add_option("--catalyst-log", r.catalyst_log,
                   "what Catalyst scripts print: normal (their output), quiet (errors only), "
                   "verbose (also ParaView's warnings)")
      ->check(CLI::IsMember({"normal", "quiet", "verbose"}));
  run_->add_option("--render-every", r.render_every,
                   "draw a PNG frame every N steps (headless, through EGL)");
  run_->add_option("--render-dir", r.render_dir, "folder of the frames (default: OUTPUT/frames)");
  run_->add_option("--render-field", r.render_field, "field the frames show (default: the first)");
  // --render-view is checked with the other frame options (render::check_frame_options),
  // since its value is a + list (volume+lines) that a fixed set cannot express.
  run_->add_option("--render-view", r.render_view,
                   "2d: one slice; 3d: three slices in the box; volume, iso, lines: volume "
                   "rendering, isosurfaces, streamlines; joined by + (e.g. volume+lines)");
  run_->add_option("--view-file", r.view_file,
                   "draw the frames as this view file says (saved by the GUI's save view)");
  run_->add_option("--movie", r.movie,
                   "encode the frames into this film (.mp4, .mkv, .mov, .avi); PNGs only with "
                   "--render-dir");
  run_->add_option("--render-size", r.render_size, "frame size WxH (default 1024x768)");
  add_upload_path_option(run_, r.upload_path);

  RunOptions& b = l.bench;
  bench_ = cli_.add_subcommand("bench", "time a scenario's steps; prints one JSON object");
  add_scenario_options(bench_, b);
  bench_->add_option("--steps", b.bench_steps, "timed steps (default: enough for 0.5 s)");
  bench_->add_option("--warmup", b.warmup, "untimed steps first")->default_val(10);

  GuiOptions& g = l.gui;
  gui_ = cli_.add_subcommand("gui", "open the interactive window on a scenario");
  gui_->add_option("SCENARIO", g.scenario, "built-in scenario or .toml file")
      ->default_val(kDefaultScenario);
  gui_->add_option("--set", g.overrides, "override a parameter, key=value (repeatable)")
      ->allow_extra_args(false);
  gui_->add_option("--backend", g.backend, "cpu or cuda");
  gui_->add_option("--precision", g.precision, "float or double")->default_val("double");
  exit_after_ = gui_->add_option("--exit-after-frames", g.exit_after_frames,
                                 "close after N frames (for scripted checks)");
  gui_->add_option("--screenshot", g.screenshot, "save the last frame to this PNG");
  gui_->add_option("--view-file", g.view_file, "start with this saved view (JSON)");
  add_upload_path_option(gui_, g.upload_path);
  gui_->add_option("--steer", g.steer,
                   "apply this steering file as the run goes (as `run --steer`); prints the "
                   "session's journal at the end");
  gui_->add_option("--probe-file", g.probe_file,
                   "start with these probes (JSON, saved by the Probes panel); with "
                   "--exit-after-frames, their CSV is written after the last frame");
  gui_->add_option("--tool", g.tool,
                   "start with this steering tool chosen and armed: a click in the view applies "
                   "it (heat: heat-spot, heat-obstacle, heat-free; fd: vortex, kick, "
                   "density-bump; fv: blast, cloud, obstacle, obstacle-clear); the session's "
                   "journal of strokes is printed at the end");
}

const CommandLine& CommandLineParser::parse(int argc, const char* const* argv) {
  cli_.parse(argc, argv);
  CommandLine& l = line_;
  l.command = *list_    ? Command::list
              : *run_   ? Command::run
              : *bench_ ? Command::bench
              : *gui_   ? Command::gui
                        : Command::none;
  // Whether SCENARIO and --precision were given, not defaulted: a restart refuses others.
  for (auto [command, o] : {std::pair{run_, &l.run}, std::pair{bench_, &l.bench}}) {
    o->scenario_given = command->count("SCENARIO") > 0;
    o->precision_given = command->count("--precision") > 0;
  }
  l.gui_frames_given = exit_after_->count() > 0;
  const auto as_typed = [](const CLI::App* command, TypedOptions& typed) {
    for (const CLI::Option* opt : command->get_options())
      if (opt->count() > 0 && !opt->results().empty())
        typed[opt->get_name()] = opt->results().back();
  };
  as_typed(run_, l.run.typed);
  as_typed(bench_, l.bench.typed);
  as_typed(gui_, l.gui_typed);
  return l;
}

void check_command_line(const CommandLine& c) {
  switch (c.command) {
    case Command::run:
      check_run_options(c.run);
      if (!c.run.mpi_dims.empty()) parse_mpi_dims(c.run.mpi_dims);
      break;
    case Command::bench:
      check_bench_options(c.bench);
      if (!c.bench.mpi_dims.empty()) parse_mpi_dims(c.bench.mpi_dims);
      break;
    case Command::gui:
      check_gui_options(c.gui, c.gui_frames_given, c.gui_typed);
      break;
    case Command::list:
    case Command::none:
      break;
  }
}

}  // namespace fluxview::app
