#include "app/gui/CatalystControl.hpp"

namespace fluxview::app {

std::string CatalystControl::load(const std::string& path) {
  try {
    if (!adaptor_)
      adaptor_ = std::make_unique<CatalystAdaptor>(
          CatalystOptions{.scripts = {path},
                          .every = 1,
                          .on_error = CatalystOnError::drop_script,
                          .log = log,
                          .output_dir = output_dir});
    else
      adaptor_->add_script(path);
  } catch (const CatalystError& e) {
    return e.what();
  }
  last_offered_ = -1;  // the new script sees the current state at the next frame
  return "";
}

void CatalystControl::set_enabled(std::size_t index, bool on) {
  if (adaptor_) adaptor_->set_enabled(index, on);
}

void CatalystControl::offer(const Solver& solver) {
  if (!adaptor_ || every < 1) return;
  const std::int64_t step = solver.step();
  const bool passed =
      last_offered_ < 0 || step < last_offered_ || step / every != last_offered_ / every;
  if (step == last_offered_ || !passed) return;
  last_offered_ = step;
  // drop_script: a failing pipeline is dropped with its error kept in status().
  adaptor_->execute(solver, /*force=*/true);
}

std::vector<CatalystScriptStatus> CatalystControl::status() const {
  return adaptor_ ? adaptor_->status() : std::vector<CatalystScriptStatus>{};
}

}  // namespace fluxview::app
