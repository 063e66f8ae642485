#include "app/CatalystOutput.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/ConfigError.hpp"

namespace fluxview::app {

CatalystOutput::CatalystOutput(const RunOptions& o, const std::filesystem::path& output_dir)
    : every_(o.catalyst_every) {
  try {
    adaptor_ = std::make_unique<CatalystAdaptor>(
        CatalystOptions{.scripts = o.catalyst_scripts,
                        .every = o.catalyst_every,
                        .on_error = o.catalyst_on_error == "continue" ? CatalystOnError::drop_script
                                                                      : CatalystOnError::stop,
                        .log = parse_catalyst_log(o.catalyst_log),  // checked by the command line
                        .output_dir = (output_dir / "catalyst").string()});
  } catch (const CatalystError& e) {
    throw ConfigError(e.what());
  }
}

std::int64_t CatalystOutput::steps_to_next_write(std::int64_t step) const {
  return steps_to_next(step, every_);
}

bool CatalystOutput::wants(RunMoment moment, std::int64_t step) {
  // At the start the adaptor offers the state only at a multiple of `every` itself.
  return moment == RunMoment::start || (moment == RunMoment::step && due(step, every_));
}

void CatalystOutput::write(Solver& solver, RunMoment, const RunState&) {
  try {
    adaptor_->execute(solver);  // after the guard: pipelines see no NaN state
  } catch (const CatalystError& e) {
    throw SoundStateFailure(e.what());
  }
}

void CatalystOutput::describe(RunSummary& summary) const {
  std::erase_if(summary.extra, [](const auto& e) { return e.first == "catalyst"; });
  summary.extra.emplace_back("catalyst", adaptor_->summary_json());
}

void CatalystOutput::report(std::ostream& err) const {
  const CatalystStats& cs = adaptor_->stats();
  err << "fluxview: Catalyst ran at " << cs.executed << " of " << cs.offered << " offered steps in "
      << cs.seconds_total << " s; " << (cs.bytes_device_to_host + cs.bytes_host_gathered) / 1e6
      << " MB copied, " << cs.bytes_zero_copy / 1e6 << " MB zero-copy\n";
}

}  // namespace fluxview::app
