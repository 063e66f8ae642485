#include "app/gui/Session.hpp"

#include <algorithm>

#include "insitu/snapshot/AtomicFile.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::app {

namespace {
constexpr std::size_t kHistory = 600;  // samples kept per diagnostic (a minute at 10 Hz)
double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

Session::Session(const Scenario& sc, BackendKind backend, Precision precision)
    : pending(sc), pending_backend(backend), pending_precision(precision) {
  reset();
}

void Session::choose_scenario(const std::string& name, const std::vector<std::string>& overrides) {
  pending = load_scenario(name, overrides);
}

void Session::reset() {
  const SolverFamily& family = find_family(pending.solver);
  if (family.validate) family.validate(pending.params);
  auto fresh = family.create(pending_backend, pending_precision);
  fresh->reset(pending.params);
  solver_ = std::move(fresh);
  active_ = pending;
  running = false;
  chunk_ = 1;
  history.clear();
  series_.reset();  // a new run starts a new series
  message.clear();
  sample_diagnostics(true);
}

std::int64_t Session::step_once() {
  const bool was = running;
  running = true;
  const int keep = steps_per_frame;
  const bool fit = fit_to_budget;
  fit_to_budget = false;
  steps_per_frame = 1;
  const std::int64_t n = frame_steps();
  steps_per_frame = keep;
  fit_to_budget = fit;
  running = was && message.empty();
  return n;
}

std::int64_t Session::frame_steps() {
  if (!running) {  // paused: no rate to show, and the next run starts a fresh window
    last_step_ms = 0;
    steps_per_second = cell_updates_per_second = 0;
    rate_steps_ = 0;
    rate_t0_ = Clock::now();
    return 0;
  }
  const auto t0 = Clock::now();
  std::int64_t taken = 0;
  try {
    if (solver_->finished()) {
      running = false;
      message = solver_->finish_reason();
      return 0;
    }
    if (!fit_to_budget) {
      solver_->advance(steps_per_frame);
      solver_->synchronize();
      taken = steps_per_frame;
    } else {
      // Chunks of about a fifth of the budget, until the budget is spent: the GPU is
      // kept busy without a frame ever waiting long for it.
      while (ms_since(t0) < budget_ms) {
        const auto c0 = Clock::now();
        solver_->advance(chunk_);
        solver_->synchronize();
        taken += chunk_;
        const double ms = ms_since(c0);
        if (ms < budget_ms / 8)
          chunk_ = std::min<std::int64_t>(chunk_ * 2, 1 << 16);
        else if (ms > budget_ms / 3)
          chunk_ = std::max<std::int64_t>(1, chunk_ / 2);
        if (solver_->finished()) break;
      }
    }
  } catch (const InstabilityError& e) {
    running = false;
    message = e.what();
  }
  last_step_ms = ms_since(t0);
  rate_steps_ += taken;
  const double window = ms_since(rate_t0_);
  if (window > 500) {
    steps_per_second = rate_steps_ / (window / 1e3);
    cell_updates_per_second = steps_per_second * double(solver_->grid().cells());
    rate_steps_ = 0;
    rate_t0_ = Clock::now();
  }
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
