#include "sim/core/Steerer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>
#include <variant>

namespace fluxview {

Steerer::Steerer(Journal plan) : plan_(std::move(plan)) {}

bool Steerer::due(const JournalEntry& e, const Solver& s) const {
  if (e.at_time()) return s.time() >= e.time * (1 - 1e-14);
  return s.step() >= e.step;
}

void Steerer::apply(Solver& s, JournalEntry e) {
  e.step = s.step();
  e.time = -1;
  if (e.kind == JournalEntry::Kind::set) {
    s.set_live(e.key, e.value);
  } else {
    e.tool = resolve_tool_call(s.tools(), e.tool, "tool");
    e.note = s.apply_tool(e.tool).summary;
  }
  record_.entries.push_back(std::move(e));
}

void Steerer::resume(Solver& s) {
  while (pending() && !plan_.entries[next_].at_time() && plan_.entries[next_].step < s.step()) {
    const JournalEntry& e = plan_.entries[next_++];
    if (e.kind == JournalEntry::Kind::set) s.set_live(e.key, e.value);
    record_.entries.push_back(e);
  }
}

void Steerer::resume(Solver& s, const Journal& done) {
  for (const JournalEntry& d : done.entries) {
    if (!pending())
      throw SteeringError(
          "the checkpoint's journal has more entries than this one (the first "
          "one past its end: '" +
          journal_line(d) + "')");
    const JournalEntry& e = plan_.entries[next_];
    // The plan may give a time where the record has the step it became: the kind, key,
    // value and tool must agree.
    JournalEntry as_planned = d;
    as_planned.step = e.step;
    as_planned.time = e.time;
    if (journal_line(as_planned) != journal_line(e))
      throw SteeringError("entry " + std::to_string(next_ + 1) + " ('" + journal_line(e) +
                          "') is not what the checkpoint's run applied ('" + journal_line(d) +
                          "')");
    if (d.kind == JournalEntry::Kind::set) s.set_live(d.key, d.value);
    record_.entries.push_back(d);
    ++next_;
  }
}

void Steerer::apply_due(Solver& s) {
  while (pending() && due(plan_.entries[next_], s)) {
    const JournalEntry& e = plan_.entries[next_];
    try {
      apply(s, e);
    } catch (const SteeringError& err) {
      throw SteeringError("steering entry '" + journal_line(e) + "' at step " +
                          std::to_string(s.step()) + ": " + err.what());
    }
    ++next_;
  }
}

std::int64_t Steerer::steps_to_next(const Solver& s) const {
  if (!pending()) return std::numeric_limits<std::int64_t>::max();
  const JournalEntry& e = plan_.entries[next_];
  if (due(e, s)) return 0;
  if (e.at_time()) return 1;
  return e.step - s.step();
}

std::int64_t Steerer::advance(Solver& s, std::int64_t steps, double t_end) {
  std::int64_t taken = 0;
  while (taken < steps) {
    apply_due(s);
    const std::int64_t n = std::min(steps - taken, steps_to_next(s));
    if (t_end > 0) {
      const std::int64_t t = s.advance_until(t_end, n);
      taken += t;
      if (t < n) break;  // reached t_end
    } else {
      s.advance(n);
      taken += n;
    }
  }
  return taken;
}

void Steerer::set_now(Solver& s, const std::string& key, const ParamValue& value) {
  JournalEntry e;
  e.kind = JournalEntry::Kind::set;
  e.key = key;
  e.value = value;
  apply(s, std::move(e));
}

ToolReport Steerer::apply_now(Solver& s, const ToolCall& call) {
  JournalEntry e;
  e.kind = JournalEntry::Kind::tool;
  e.tool = resolve_tool_call(s.tools(), call, "tool");
  const ToolReport r = s.apply_tool(e.tool);
  e.step = s.step();
  e.note = r.summary;
  record_.entries.push_back(std::move(e));
  return r;
}

}  // namespace fluxview
