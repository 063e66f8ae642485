#pragma once
// The command line of README.md (list, run, bench, gui), parsed into options and checked
// before any command runs. Kept apart from main() so that the fuzzer (tests/fuzz) can
// drive the same parsing and checks without running anything.
#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "app/GuiEntry.hpp"
#include "app/RunOptions.hpp"

namespace fluxview::app {

enum class Command { none, list, run, bench, gui };

// What the command line asked for.
struct CommandLine {
  Command command = Command::none;
  bool list_solvers = false;
  std::string list_scenario;
  RunOptions run;
  RunOptions bench;
  GuiOptions gui;
  bool gui_frames_given = false;  // --exit-after-frames on the command line
  TypedOptions gui_typed;         // the gui command's options as typed
};

// The CLI11 application that fills a CommandLine; parse() throws CLI::ParseError (which
// cli().exit() reports, --help included).
class CommandLineParser {
 public:
  CommandLineParser();
  const CommandLine& parse(int argc, const char* const* argv);
  CLI::App& cli() { return cli_; }

 private:
  CLI::App cli_{"fluxview: GPU fluid and heat solvers you watch and steer while they run"};
  CommandLine line_;
  CLI::App* list_ = nullptr;
  CLI::App* run_ = nullptr;
  CLI::App* bench_ = nullptr;
  CLI::App* gui_ = nullptr;
  CLI::Option* exit_after_ = nullptr;
};

// Every check that needs no scenario, file or device: counts, times, --mpi-dims, what the
// GUI is asked to do at its end. Throws ConfigError naming the option.
void check_command_line(const CommandLine& c);

}  // namespace fluxview::app
