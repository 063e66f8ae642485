#pragma once
// Steering a headless run (docs/gui.md): `fluxview run --steer FILE` applies a hand-written
// journal, `--replay FILE` plays again the journal a steered run recorded (in its run.json,
// or as journal lines), each entry at exactly its step, so the run ends bit-identical to
// the steered one on the same backend and precision.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/RunOptions.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"
#include "sim/core/Steerer.hpp"

namespace fluxview::app {

// The journal of `--replay FILE`: the "journal" of a run.json (a file that is a JSON
// object), else the file read as a journal. A replay plays recorded steps, so an entry
// given by time is refused. Throws ConfigError naming the file and what is wrong.
Journal read_replay_journal(const std::string& path);

// The Steerer of a run asked to steer (--steer or --replay), its journal checked against
// the scenario and the solver's tools before anything is written. A restart (the solver
// at its checkpoint's step) resumes the entries before that step (Steerer::resume); one
// without either option goes on with the journal its checkpoint carries
// (`checkpoint_journal`, lines; "" when the run was not steered). Empty when there is no
// journal. Throws ConfigError naming the option or checkpoint, the file and the entry.
std::optional<Steerer> make_run_steerer(const RunOptions& o, const Scenario& sc, Solver& s,
                                        const std::string& checkpoint_journal);

// run.json's record of a steered run: where the plan came from, the entries applied (as
// journal lines, which --replay reads back) and how many planned ones were left.
nlohmann::json journal_json(const RunOptions& o, const Steerer& st);

}  // namespace fluxview::app
