// fluxview: GPU fluid and heat solvers, watched and steered while they run.
// The command line of DESIGN.md: list, run, bench, gui; no command opens the GUI where
// a display exists and otherwise runs the default scenario headless.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/Commands.hpp"
#include "app/GuiEntry.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Scenario.hpp"

using namespace fluxview;
using namespace fluxview::app;

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

}  // namespace

// MPI (when launched by mpirun) lives as long as main: finalised on every way out.
struct ParallelSession {
  ParallelSession(int* argc, char*** argv) { parallel::init(argc, argv); }
  ~ParallelSession() { parallel::finalize(); }
};

int main(int argc, char** argv) {
  ParallelSession mpi(&argc, &argv);
  CLI::App cli{"fluxview: GPU fluid and heat solvers you watch and steer while they run"};
  cli.require_subcommand(0, 1);

  bool list_params = false;
  std::string list_scenario;
  auto* list =
      cli.add_subcommand("list", "list the built-in scenarios (or one scenario's parameters)");
  list->add_option("SCENARIO", list_scenario,
                   "show every parameter of this scenario with unit, range, meaning");
  list->add_flag("--solvers", list_params, "also list the solver families");

  RunOptions run_o;
  auto* run = cli.add_subcommand("run", "run a scenario headless, writing snapshots and run.json");
  add_scenario_options(run, run_o);
  auto* steps =
      run->add_option("--steps", run_o.steps, "steps to run (default: the scenario's run.steps)");
  auto* until = run->add_option("--until", run_o.until, "simulated time to run to, in s");
  steps->excludes(until);
  run->add_option("--every", run_o.every,
                  "write a snapshot every N steps (0: first and last only)");
  run->add_option("--output", run_o.output, "output directory (default: fluxview-out/SCENARIO)");
  run->add_option("--checkpoint-every", run_o.checkpoint_every,
                  "write an HDF5 checkpoint every N steps (0: none)");
  run->add_option("--checkpoint-dir", run_o.checkpoint_dir,
                  "folder of the checkpoints (default: the output folder)");
  run->add_option("--restart", run_o.restart,
                  "continue the run saved in this checkpoint (SCENARIO is then ignored)");
  run->add_flag("--headless", run_o.headless, "never open a window (runs are headless already)");
  run->add_flag("--quiet", run_o.quiet, "print only where the output went");
  run->add_option("--catalyst", run_o.catalyst_scripts,
                  "run this ParaView Catalyst Python script (repeatable)")
      ->allow_extra_args(false);
  run->add_option("--catalyst-every", run_o.catalyst_every,
                  "offer the state to Catalyst every N steps")
      ->check(CLI::PositiveNumber);
  run->add_option("--catalyst-on-error", run_o.catalyst_on_error,
                  "when a Catalyst script fails: stop the run, or continue without that script")
      ->check(CLI::IsMember({"stop", "continue"}));
  run->add_option("--render-every", run_o.render_every,
                  "draw a PNG frame every N steps (headless, through EGL)")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--render-dir", run_o.render_dir,
                  "folder of the frames (default: OUTPUT/frames)");
  run->add_option("--render-field", run_o.render_field,
                  "field the frames show (default: the first)");
  run->add_option("--render-view", run_o.render_view,
                  "2d: one slice; 3d: three slices in the box; volume, iso, lines: volume "
                  "rendering, isosurfaces, streamlines; joined by + (e.g. volume+lines)");
  run->add_option("--view-file", run_o.view_file,
                  "draw the frames as this view file says (saved by the GUI's save view)");
  run->add_option("--movie", run_o.movie,
                  "encode the frames into this film (.mp4, .mkv, .mov, .avi); PNGs only with "
                  "--render-dir");
  run->add_option("--render-size", run_o.render_size, "frame size WxH (default 1024x768)");

  RunOptions bench_o;
  auto* bench = cli.add_subcommand("bench", "time a scenario's steps; prints one JSON object");
  add_scenario_options(bench, bench_o);
  bench->add_option("--steps", bench_o.bench_steps, "timed steps (default: enough for 0.5 s)");
  bench->add_option("--warmup", bench_o.warmup, "untimed steps first")->default_val(10);

  GuiOptions gui_o;
  auto* gui = cli.add_subcommand("gui", "open the interactive window on a scenario");
  gui->add_option("SCENARIO", gui_o.scenario, "built-in scenario or .toml file")
      ->default_val(kDefaultScenario);
  gui->add_option("--set", gui_o.overrides, "override a parameter, key=value (repeatable)")
      ->allow_extra_args(false);
  gui->add_option("--backend", gui_o.backend, "cpu or cuda");
  gui->add_option("--precision", gui_o.precision, "float or double")->default_val("double");
  gui->add_option("--exit-after-frames", gui_o.exit_after_frames,
                  "close after N frames (for scripted checks)");
  gui->add_option("--screenshot", gui_o.screenshot, "save the last frame to this PNG");
  gui->add_option("--view-file", gui_o.view_file, "start with this saved view (JSON)");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (*list) return list_command(list_params, list_scenario);
    for (const RunOptions* o : {&run_o, &bench_o})
      if (!o->mpi_dims.empty()) parallel::set_requested_dims(parse_mpi_dims(o->mpi_dims));
    if (*run) return run_command(run_o);
    if (*bench) return bench_command(bench_o);
    if (*gui) return gui_command(gui_o);
    // No command: the GUI where there is a display, else the default scenario headless.
    std::string why;
    if (gui_available(&why)) {
      gui_o.scenario = kDefaultScenario;
      return gui_command(gui_o);
    }
    std::cerr << "fluxview: no GUI (" << why << "); running " << kDefaultScenario << " headless\n";
    RunOptions o;
    o.scenario = kDefaultScenario;
    o.headless = true;
    return run_command(o);
  } catch (const ConfigError& e) {
    std::cerr << "fluxview: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "fluxview: failed: " << e.what() << "\n";
    return kExitFailure;
  }
}
