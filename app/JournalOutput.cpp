#include "app/JournalOutput.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/RunSteering.hpp"

namespace fluxview::app {

JournalOutput::JournalOutput(const RunOptions& options, const Steerer& steerer)
    : options_(options), steerer_(steerer) {}

bool JournalOutput::wants(RunMoment, std::int64_t) {
  return false;  // only described: the steering itself is applied by the step loop
}

void JournalOutput::write(Solver&, RunMoment, const RunState&) {}

void JournalOutput::describe(RunSummary& summary) const {
  std::erase_if(summary.extra, [](const auto& e) { return e.first == "journal"; });
  summary.extra.emplace_back("journal", journal_json(options_, steerer_));
}

}  // namespace fluxview::app
