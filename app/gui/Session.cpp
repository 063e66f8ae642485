#include "app/gui/Session.hpp"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <ratio>
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
  running_ = on;
  wake_.notify_all();
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
  if (!worker_message_.empty()) {
    message = worker_message_;
    worker_message_.clear();
  }
  if (threaded()) {
    steps_per_second = running_ ? worker_rate_ : 0;
    cell_updates_per_second = steps_per_second * double(solver_->grid().cells());
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

std::int64_t Session::advance_chunk(double target_ms) {
  if (solver_->finished()) {
    running_ = false;
    worker_message_ = solver_->finish_reason();
    return 0;
  }
  const auto c0 = Clock::now();
  std::int64_t taken = 0;
  try {
    const std::int64_t before = solver_->step();
    solver_->advance(chunk_);
    solver_->synchronize();
    taken = chunk_;
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
  }
}

std::int64_t Session::step_once() {
  auto lock = access(-1);
  const bool was = running_;
  running_ = false;
  const std::int64_t keep = chunk_;
  chunk_ = 1;
  const std::int64_t n = advance_chunk(1e9);
  chunk_ = keep;
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
  cell_updates_per_second = steps_per_second * double(solver_->grid().cells());
  sync_locked();
  release(lock);
  return taken;
}

void Session::sample_diagnostics(bool force) {
  if (!force && ms_since(last_sample_) < 100) return;
  last_sample_ = Clock::now();
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
    series_ = std::make_unique<SnapshotSeries>(dir);
    series_dir_ = dir;
  }
  solver_->synchronize();
  series_->write(*solver_);
  return (std::filesystem::path(dir) / series_->records().back().file).string();
}

}  // namespace fluxview::app
