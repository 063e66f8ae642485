#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "insitu/catalyst/CatalystAdaptor.hpp"

namespace fluxview::app {

// The GUI's ParaView Catalyst: pipeline scripts loaded from the panel, each switched on
// or off, offered the state after every frame in which the run passed a multiple of
// `every` steps (the GUI steps in chunks, so exact multiples may be skipped over).
// A script that fails is dropped and keeps its error with the Python traceback; the
// run goes on. Knows nothing of ImGui.
class CatalystControl {
 public:
  static bool available() { return CatalystAdaptor::available(); }

  std::int64_t every = 10;                       // offer every N steps
  std::string output_dir = "fluxview-catalyst";  // where the example scripts write
  CatalystLog log = CatalystLog::normal;         // what the scripts print (before the first load)

  // Loads a script (the first starts ParaView's Python). Returns "" or the error.
  std::string load(const std::string& path);
  void set_enabled(std::size_t index, bool on);
  // Owning Session::access: offers the state if the step passed a multiple of `every`
  // since the last offer (or went back, after a reset).
  void offer(const Solver& solver);
  // The scripts with their last run, duration and error; empty before the first load.
  std::vector<CatalystScriptStatus> status() const;
  std::int64_t offered() const { return adaptor_ ? adaptor_->stats().offered : 0; }

 private:
  std::unique_ptr<CatalystAdaptor> adaptor_;
  std::int64_t last_offered_ = -1;
};

}  // namespace fluxview::app
