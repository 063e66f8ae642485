#include "app/RunSteering.hpp"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "sim/core/Journal.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::app {

Journal read_replay_journal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("--replay " + path + ": cannot read the file");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  Journal j;
  if (first != std::string::npos && text[first] == '{') {
    // A run.json: its journal's lines are what the steered run applied, step by step.
    nlohmann::json run;
    try {
      run = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
      throw ConfigError("--replay " + path + ": not valid JSON (" + e.what() +
                        "); allowed: a run.json of a steered run, or a journal");
    }
    const auto it = run.find("journal");
    if (it == run.end() || !it->is_object() || !it->contains("lines") ||
        !(*it)["lines"].is_string())
      throw ConfigError("--replay " + path +
                        ": this run.json records no journal (the run was not steered); "
                        "allowed: the run.json of a run steered in the GUI or with --steer");
    j = parse_journal_lines((*it)["lines"].get<std::string>(), path);
  } else {
    j = parse_journal(text, path);
  }
  for (const JournalEntry& e : j.entries)
    if (e.at_time())
      throw ConfigError("--replay " + path + ": the entry '" + journal_line(e) +
                        "' is given by time; allowed in a replay: entries at steps, as a run "
                        "records them (use --steer for a steering file with times)");
  return j;
}

std::optional<Steerer> make_run_steerer(const RunOptions& o, const Scenario& sc, Solver& s,
                                        const std::string& checkpoint_journal) {
  const bool restarted = !o.restart.empty();
  const bool own = !checkpoint_journal.empty() && o.steer.empty() && o.replay.empty();
  if (o.steer.empty() && o.replay.empty() && !own) return std::nullopt;
  const bool replay = !o.replay.empty();
  const std::string origin = own      ? "--restart " + o.restart + " (its journal)"
                             : replay ? "--replay " + o.replay
                                      : "--steer " + o.steer;
  const Journal plan = own      ? parse_journal_lines(checkpoint_journal, origin)
                       : replay ? read_replay_journal(o.replay)
                                : read_journal_file(o.steer);
  // read_journal_file names the file; check_journal names the option and the entry.
  std::optional<Steerer> st(
      std::in_place, check_journal(plan, sc.params, find_family(sc.solver), s.tools(), origin));
  if (restarted) {
    try {
      if (checkpoint_journal.empty())
        st->resume(s);  // nothing was applied before the checkpoint's step
      else
        st->resume(s, parse_journal_lines(checkpoint_journal, "--restart " + o.restart));
    } catch (const SteeringError& e) {
      throw ConfigError(origin + ": " + e.what() +
                        "; allowed: the journal the run was steered "
                        "with (or none: a restart goes on with its checkpoint's)");
    }
  }
  return st;
}

nlohmann::json journal_json(const RunOptions& o, const Steerer& st) {
  const std::int64_t planned = std::int64_t(st.plan().entries.size());
  const std::int64_t applied = std::int64_t(st.record().entries.size());
  const std::string source = !o.replay.empty()  ? "--replay " + o.replay
                             : !o.steer.empty() ? "--steer " + o.steer
                                                : "--restart " + o.restart;
  return {{"source", source},
          {"entries_applied", applied},
          {"entries_left", planned - applied},
          {"lines", st.record().to_lines()}};
}

}  // namespace fluxview::app
