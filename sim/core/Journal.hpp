#pragma once
// The journal of a steered run: every live change and every tool stroke, with the step at
// which it took effect (docs/gui.md). It is written into run.json and checkpoints, and
// read back by `fluxview run --replay` and `--steer`, which apply each entry at exactly its
// step (Steerer.hpp), so a steered run can be reproduced bit for bit.
//
// Two spellings of the same entries:
//   lines (run.json, checkpoints, the GUI's record):
//     at step 120 set fv.cfl = 0.3
//     at step 400 apply blast energy = 1 radius = 0.05 x = 0.5 y = 0.5 z = 0.5
//   a TOML steering file (for lessons and tests written by hand), one [[at]] table an entry:
//     [[at]]
//     step = 120                 # or time = 0.05: the first step boundary at or after it
//     set = { "fv.cfl" = 0.3 }   # one key or more (applied in the order of their names)
//     [[at]]
//     step = 400
//     tool = "blast"
//     energy = 1.0               # the tool's arguments; the ones left out take defaults
//     radius = 0.05
// Numbers are written as the shortest text that reads back as the same double.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/core/Parameter.hpp"
#include "sim/core/Steering.hpp"

namespace fluxview {

struct SolverFamily;

struct JournalEntry {
  enum class Kind { set, tool };
  Kind kind = Kind::set;
  // Applies when the solver has taken this many steps, before the next one.
  std::int64_t step = -1;
  // A steering file may say a time instead (step < 0): the entry applies at the first step
  // boundary at or after it, and the run records that step.
  double time = -1;
  std::string key;  // set
  ParamValue value;
  ToolCall tool;     // tool
  std::string note;  // what a tool did (its report's summary): written, never read back

  bool at_time() const { return step < 0; }
};

struct Journal {
  std::vector<JournalEntry> entries;

  bool empty() const { return entries.empty(); }
  // One entry a line ("at step N set KEY = VALUE", "at step N apply TOOL ARG = V ..."),
  // with a tool's note as a comment after it.
  std::string to_lines() const;
  // The TOML steering-file form, one [[at]] table an entry.
  std::string to_toml() const;
};

// A journal's one line for an entry (without the note).
std::string journal_line(const JournalEntry& e);

// Reads the line form: blank lines and text after '#' are ignored. Throws ConfigError
// naming `origin`, the line and what was expected.
Journal parse_journal_lines(std::string_view text, const std::string& origin);
// Reads a TOML steering file's [[at]] tables (other tables are left to the caller).
// Throws ConfigError naming `origin`, the entry and what is wrong.
Journal parse_journal_toml(std::string_view toml_text, const std::string& origin);
// Either form, told apart by whether the text has an [[at]] table.
Journal parse_journal(std::string_view text, const std::string& origin);
// A steering file from disk (parse_journal); ConfigError when it cannot be read.
Journal read_journal_file(const std::string& path);

// Checks a journal against a run before it starts, so that a steering file's mistakes are
// found before anything is written: every key exists and is live and every value is
// allowed (the changes applied in order to `params`, with the family's cross-parameter
// check), every tool exists for the family (`tools`, as the solver offers them) with
// arguments in range, and step entries come in order. Returns the journal with every tool
// call resolved (defaults filled in). Throws ConfigError naming `origin` and the entry.
// What depends on the state (a blast in a solid, a spot below absolute zero) is refused
// when the entry is applied.
Journal check_journal(const Journal& j, const ParamSet& params, const SolverFamily& family,
                      const std::vector<ToolSpec>& tools, const std::string& origin);

}  // namespace fluxview
