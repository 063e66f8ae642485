#include "app/gui/Session.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <ratio>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

#include "fileio/Folders.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Health.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::app {

namespace {
constexpr std::size_t kHistory = 600;   // samples kept per diagnostic (a minute at 10 Hz)
constexpr double kWorkerChunkMs = 5.0;  // a reader waits at most about this for a chunk
double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

Session::Session(const Scenario& sc, BackendKind backend, Precision precision)
    : pending(sc), pending_backend(backend), pending_precision(precision) {
  reset();
  worker_ = std::thread([this] { worker_loop(); });
}

Session::~Session() {
  running_ = false;  // the worker leaves its chunk loop and waits, releasing the lock
  {
    std::lock_guard<std::timed_mutex> g(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

void Session::choose_scenario(const std::string& name, const std::vector<std::string>& overrides) {
  pending = load_scenario(name, overrides);
}

void Session::set_running(bool on) {
  if (on && !running_) {
    // The pace counts from now: a pause is not caught up afterwards.
    pace_t0_ = Clock::now();
    pace_time0_ = status.time;
  }
  running_ = on;
  wake_.notify_all();
}

void Session::set_pace(double sim_seconds_per_second) {
  auto lock = access(-1);
  pace = std::max(0.0, sim_seconds_per_second);
  pace_t0_ = Clock::now();
  pace_time0_ = solver_->time();
  release(lock);
}

std::int64_t Session::allowed_steps(std::int64_t wanted) {
  paced_ahead_ = false;
  std::int64_t n = wanted;
  if (stop_at_end && !end_reached_ && active_.params.get_real("run.until") <= 0)
    n = std::min(n, active_.params.get_int("run.steps") - solver_->step());
  if (pace > 0) {
    // Whole steps while the simulated time is behind the wall clock's: at least one
    // whenever it is behind, so a dt longer than a frame's worth still advances.
    const double target = pace_time0_ + pace * ms_since(pace_t0_) / 1e3;
    const double behind = target - solver_->time();
    const double dt = solver_->dt();
    const double steps = behind <= 0 ? 0.0 : dt > 0 ? std::ceil(behind / dt) : 1.0;
    if (steps < double(n)) n = std::int64_t(steps);
    if (n == 0 && steps == 0) paced_ahead_ = true;
  }
  n = std::min(n, steerer_.steps_to_next(*solver_));  // stop at a planned entry
  return std::max<std::int64_t>(n, 0);
}

void Session::plan(const Journal& j, const std::string& origin) {
  auto lock = access(-1);
  try {
    steerer_ = Steerer(
        check_journal(j, active_.params, find_family(active_.solver), solver_->tools(), origin));
  } catch (...) {
    release(lock);
    throw;
  }
  release(lock);
}

void Session::mark(const std::string& what) {
  std::size_t samples = 0;
  for (const auto& [name, series] : history) samples = std::max(samples, series.values.size());
  markers.push_back({samples, solver_->step(), what});
}

void Session::set_live(const std::string& key, const ParamValue& value) {
  auto lock = access(-1);
  try {
    steerer_.set_now(*solver_, key, value);
  } catch (...) {
    release(lock);
    throw;
  }
  active_.params.assign(key, value, "live");
  pending.params.assign(key, value, "live");
  mark(key + " = " + format_value(value));
  sync_locked();
  release(lock);
}

void Session::StrokeCost::add(int strokes, double ms) {
  count += strokes;
  total_ms += ms;
  max_ms = std::max(max_ms, ms);
  last_ms = ms;
}

ToolReport Session::apply_tool(const ToolCall& call) {
  auto lock = access(-1);
  ToolReport r;
  try {
    const auto t0 = Clock::now();
    r = steerer_.apply_now(*solver_, call);
    solver_->synchronize();
    stroke_cost_.add(1, ms_since(t0));
  } catch (...) {
    release(lock);
    throw;
  }
  mark(r.summary.empty() ? call.tool : r.summary);
  sample_diagnostics(true);
  sync_locked();
  release(lock);
  return r;
}

std::string Session::blocks_per_level() const {
  std::string levels;
  double blocks = 0;
  for (int l = 0;; ++l) {
    const auto it = history.find("blocks_level_" + std::to_string(l));
    if (it == history.end() || it->second.values.empty()) break;
    const double n = it->second.values.back();
    levels += (levels.empty() ? "" : " ") + std::to_string(std::llround(n));
    blocks += n;
  }
  return levels.empty() ? levels : levels + " (" + std::to_string(std::llround(blocks)) + ")";
}

std::unique_lock<std::timed_mutex> Session::access(double wait_ms) {
  reader_waiting_ = true;
  std::unique_lock<std::timed_mutex> lock(mutex_, std::defer_lock);
  if (wait_ms < 0)
    lock.lock();
  else if (!lock.try_lock_for(std::chrono::duration<double, std::milli>(wait_ms)))
    return lock;  // still waiting: the worker pauses after its chunk for the next try
  sync_locked();
  return lock;
}

void Session::release(std::unique_lock<std::timed_mutex>& lock) {
  reader_waiting_ = false;
  if (lock.owns_lock()) lock.unlock();
  wake_.notify_all();
}

void Session::sync_locked() {
  if (!solver_) return;  // the first reset
  status = {solver_->step(), solver_->time(), solver_->dt()};
  strokes = stroke_cost_;
  for (const auto& m : planned_marks_) {
    mark(m.second);
    markers.back().step = m.first;
  }
  planned_marks_.clear();
  if (!worker_message_.empty()) {
    message = worker_message_;
    worker_message_.clear();
  }
  if (threaded()) {
    steps_per_second = running_ ? worker_rate_ : 0;
    cell_updates_per_second = steps_per_second * solver_->cells_per_step();
    last_step_ms = running_ ? worker_chunk_ms_ : 0;
  }
}

void Session::reset() {
  const SolverFamily& family = find_family(pending.solver);
  if (family.validate) family.validate(pending.params);
  auto fresh = family.create(pending_backend, pending_precision);
  fresh->reset(pending.params);
  auto lock = access(-1);  // the worker pauses between chunks
  running_ = false;
  solver_ = std::move(fresh);
  active_ = pending;
  steerer_ = Steerer();
  stroke_cost_ = {};
  markers.clear();
  planned_marks_.clear();
  end_reached_ = false;
  pace_t0_ = Clock::now();
  pace_time0_ = 0;
  chunk_ = 1;
  steps_unreported_ = 0;
  worker_rate_ = worker_chunk_ms_ = 0;
  rate_steps_ = 0;
  rate_t0_ = Clock::now();
  history.clear();
  series_.reset();  // a new run starts a new series
  message.clear();
  worker_message_.clear();
  sample_diagnostics(true);
  sync_locked();
  release(lock);
}

bool Session::apply_planned() {
  const std::size_t before = steerer_.record().entries.size();
  try {
    const auto t0 = Clock::now();
    steerer_.apply_due(*solver_);
    int tools = 0;
    for (std::size_t i = before; i < steerer_.record().entries.size(); ++i)
      tools += steerer_.record().entries[i].kind == JournalEntry::Kind::tool;
    if (tools > 0) {
      solver_->synchronize();
      stroke_cost_.add(tools, ms_since(t0));
    }
  } catch (const SteeringError& e) {
    running_ = false;
    worker_message_ = e.what();
    return false;
  }
  // The markers reach `markers` in sync_locked(), on the GUI thread that draws them.
  for (std::size_t i = before; i < steerer_.record().entries.size(); ++i)
    planned_marks_.push_back(
        {steerer_.record().entries[i].step, journal_line(steerer_.record().entries[i])});
  return true;
}

std::int64_t Session::advance_chunk(double target_ms) {
  if (solver_->finished()) {
    running_ = false;
    worker_message_ = solver_->finish_reason();
    return 0;
  }
  const auto c0 = Clock::now();
  std::int64_t taken = 0;
  const double until = active_.params.get_real("run.until");
  const bool to_end = stop_at_end && !end_reached_;
  const auto at_end = [&] {
    return until > 0 ? solver_->time() >= until * (1 - 1e-12)
                     : solver_->step() >= active_.params.get_int("run.steps");
  };
  // Planned entries of this step first, those of the end's step too (as `fluxview run`).
  if (!apply_planned()) return 0;
  if (to_end && at_end()) {
    // The scenario's end: pause and say so; Run goes on past it.
    running_ = false;
    end_reached_ = true;
    worker_message_ = until > 0
                          ? "paused at the scenario's end, run.until = " + format_value(until) +
                                " s (press Run to go on past it)"
                          : "paused at the scenario's end, run.steps = " +
                                std::to_string(active_.params.get_int("run.steps")) +
                                " (press Run to go on past it)";
    return 0;
  }
  const std::int64_t n = allowed_steps(chunk_);
  if (n == 0) return 0;  // the pace is ahead: nothing this time
  try {
    const std::int64_t before = solver_->step();
    // To run.until the last step is shortened to land on it, as `fluxview run` does.
    taken = to_end && until > 0 ? solver_->advance_until(until, n) : (solver_->advance(n), n);
    solver_->synchronize();
    // The instability guard of headless runs: whenever the chunk passed a multiple of
    // run.check_every, the state is checked where it lives; a hit pauses the run.
    const std::int64_t every = active_.params.get_int("run.check_every");
    if (every > 0 && solver_->step() / every != before / every)
      if (auto bad = check_health(*solver_)) throw InstabilityError(*bad);
  } catch (const InstabilityError& e) {
    running_ = false;
    worker_message_ = e.what();
    return 0;
  }
  const double ms = ms_since(c0);
  // Chunks of about a quarter of the target (never below one step).
  if (ms < target_ms / 8)
    chunk_ = std::min<std::int64_t>(chunk_ * 2, 1 << 16);
  else if (ms > target_ms / 3)
    chunk_ = std::max<std::int64_t>(1, chunk_ / 2);
  steps_unreported_ += taken;
  rate_steps_ += taken;
  const double window = ms_since(rate_t0_);
  if (window > 500) {
    worker_rate_ = rate_steps_ / (window / 1e3);
    rate_steps_ = 0;
    rate_t0_ = Clock::now();
  }
  return taken;
}

void Session::worker_loop() {
  std::unique_lock<std::timed_mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return quit_ || (running_ && !reader_waiting_ && threaded()); });
    if (quit_) return;
    const auto c0 = Clock::now();
    // Steps until a reader asks or about kWorkerChunkMs have passed.
    while (running_ && !reader_waiting_ && ms_since(c0) < kWorkerChunkMs)
      if (advance_chunk(kWorkerChunkMs) == 0) break;
    worker_chunk_ms_ = ms_since(c0);
    // Ahead of the pace: wait a little (releasing the state) rather than spin.
    if (paced_ahead_) wake_.wait_for(lock, std::chrono::milliseconds(2), [this] { return quit_; });
  }
}

std::int64_t Session::step_once() {
  auto lock = access(-1);
  const bool was = running_;
  running_ = false;
  const std::int64_t keep = chunk_;
  const double keep_pace = pace;
  chunk_ = 1;
  pace = 0;  // a step asked for is taken, whatever the pace
  const std::int64_t n = advance_chunk(1e9);
  chunk_ = keep;
  pace = keep_pace;
  running_ = was && worker_message_.empty();
  sync_locked();
  release(lock);
  return n;
}

std::int64_t Session::frame_steps() {
  if (threaded()) return steps_unreported_.exchange(0);  // the worker steps
  auto lock = access(-1);  // uncontended: the worker idles on the CUDA backend
  std::int64_t taken = 0;
  const auto t0 = Clock::now();
  if (running_) {
    if (!fit_to_budget) {
      const std::int64_t keep = chunk_;
      chunk_ = steps_per_frame;
      taken = advance_chunk(1e9);
      chunk_ = keep;
    } else {
      // Chunks of about a fifth of the budget, until the budget is spent: the GPU is
      // kept busy without a frame ever waiting long for it.
      while (running_ && ms_since(t0) < budget_ms)
        if (advance_chunk(budget_ms) == 0) break;
    }
  }
  taken = steps_unreported_.exchange(0);
  last_step_ms = running_ ? ms_since(t0) : 0;
  steps_per_second = running_ ? worker_rate_ : 0;
  cell_updates_per_second = steps_per_second * solver_->cells_per_step();
  sync_locked();
  release(lock);
  return taken;
}

void Session::sample_diagnostics(bool force) {
  if (!force && ms_since(last_sample_) < 100) return;
  last_sample_ = Clock::now();
  // The series are full together: their oldest samples go, and the markers move with them.
  const bool full = !history.empty() && history.begin()->second.values.size() >= kHistory;
  if (full) {
    std::erase_if(markers, [](const Marker& m) { return m.sample == 0; });
    for (Marker& m : markers) --m.sample;
  }
  for (const Diagnostic& d : solver_->diagnostics()) {
    Series& s = history[d.name];
    s.unit = d.unit;
    if (s.values.size() >= kHistory) s.values.erase(s.values.begin());
    s.values.push_back(float(d.value));
  }
}

std::string Session::write_snapshot(const std::string& dir) {
  if (!series_ || series_dir_ != dir) {
    prepare_output_dir(dir);
    // A run (or another window) writing there is named, and nothing is written.
    auto lock = FolderLock::unless_held_here(dir);
    series_.reset();
    series_lock_ = std::move(lock);
    series_ = std::make_unique<SnapshotSeries>(dir);
    series_dir_ = dir;
  }
  solver_->synchronize();
  series_->write(*solver_);
  return (std::filesystem::path(dir) / series_->records().back().file).string();
}

}  // namespace fluxview::app
