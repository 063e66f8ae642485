#pragma once
// Plays a journal (Journal.hpp) into a running solver and records the run's own: each
// planned entry is applied when the solver stands at its step, before the next step, so
// a replayed run takes the same steps with the same changes and ends bit-identical (same
// backend and precision). Changes made by hand (the GUI's edits and strokes) go through
// it too, and are recorded at the step they took effect.
//
// The step loop that drives it (the headless runner, the GUI, a test) advances through
// advance(), which stops at every planned entry; at the end of a run, apply_due() applies
// what is planned for the last step, as the steered run did before it stopped.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/Journal.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview {

class Steerer {
 public:
  Steerer() = default;
  // `plan`: entries in the order of their steps (check_journal makes sure).
  explicit Steerer(Journal plan);

  // A run restarted from a checkpoint at the solver's step: planned entries before that
  // step are not applied again as such: the parameters they set are set again (a
  // checkpoint holds the state, and the tools' work with it, but not the parameters), the
  // tools are skipped. Both go to the record, so that the record stays the whole run's.
  void resume(Solver& s);
  // The same for a checkpoint that carries the record of its run (`done`, as the runner
  // writes it: entries applied before the state was saved, those of its own step too):
  // the first done.entries.size() planned entries are taken as done, whatever their step or
  // time, and must be those entries. Throws SteeringError naming the first that differs.
  void resume(Solver& s, const Journal& done);

  // Applies every planned entry that is due: at the solver's step, or (a time entry) at or
  // after its time. Throws SteeringError naming the entry when the solver refuses it.
  void apply_due(Solver& s);
  // Steps the loop may take before the next planned entry: 0 when one is due now, 1 while a
  // time entry waits, the largest int64 when nothing is planned.
  std::int64_t steps_to_next(const Solver& s) const;
  // Solver::advance (t_end <= 0) or Solver::advance_until (t_end > 0), stopping at every
  // planned entry to apply it. Returns the steps taken.
  std::int64_t advance(Solver& s, std::int64_t steps, double t_end = 0);

  // Changes made now, by hand: applied, and recorded at the solver's step. Throw
  // SteeringError, recording nothing, when the solver refuses.
  void set_now(Solver& s, const std::string& key, const ParamValue& value);
  ToolReport apply_now(Solver& s, const ToolCall& call);

  // Whether planned entries are left.
  bool pending() const { return next_ < plan_.entries.size(); }
  const Journal& plan() const { return plan_; }
  // What was applied, planned or by hand, with the step each took effect at.
  const Journal& record() const { return record_; }

 private:
  bool due(const JournalEntry& e, const Solver& s) const;
  void apply(Solver& s, JournalEntry e);

  Journal plan_;
  std::size_t next_ = 0;
  Journal record_;
};

}  // namespace fluxview
