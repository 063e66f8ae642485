// fluxview: GPU fluid and heat solvers, watched and steered while they run.
// The command line (README.md, "Running"): list, run, bench, gui; no command opens the GUI where
// a display exists and otherwise runs the default scenario headless.
#include <exception>
#include <iostream>
#include <string>

#include "app/CommandLine.hpp"
#include "app/Commands.hpp"
#include "app/GuiEntry.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"

using namespace fluxview;
using namespace fluxview::app;

// MPI (when launched by mpirun) lives as long as main: finalised on every way out.
struct ParallelSession {
  ParallelSession(int* argc, char*** argv) { parallel::init(argc, argv); }
  ~ParallelSession() { parallel::finalize(); }
};

int main(int argc, char** argv) {
  ParallelSession mpi(&argc, &argv);
  CommandLineParser parser;
  CommandLine line;
  try {
    line = parser.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return parser.cli().exit(e) == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (line.command == Command::list) return list_command(line.list_solvers, line.list_scenario);
    check_command_line(line);
    for (const RunOptions* o : {&line.run, &line.bench})
      if (!o->mpi_dims.empty()) parallel::set_requested_dims(parse_mpi_dims(o->mpi_dims));
    if (line.command == Command::run) return run_command(line.run);
    if (line.command == Command::bench) return bench_command(line.bench);
    if (line.command == Command::gui) return gui_command(line.gui);
    // No command: the GUI where there is a display, else the default scenario headless.
    std::string why;
    if (gui_available(&why)) {
      line.gui.scenario = kDefaultScenario;
      return gui_command(line.gui);
    }
    std::cerr << "fluxview: no GUI (" << why << "); running " << kDefaultScenario << " headless\n";
    RunOptions o;
    o.scenario = kDefaultScenario;
    o.headless = true;
    return run_command(o);
  } catch (const ConfigError& e) {
    std::cerr << "fluxview: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const InstabilityError& e) {
    // A state found unsound before anything was written (an initial state a solver
    // cannot step from).
    std::cerr << "fluxview: " << e.what() << "\n";
    return kExitUnstable;
  } catch (const std::exception& e) {
    std::cerr << "fluxview: failed: " << e.what() << "\n";
    return kExitFailure;
  }
}
