#include "app/RunProgress.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string_view>
#include <vector>

#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/Grid.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::app {

namespace {

using Clock = std::chrono::steady_clock;

// Runs shorter than this end before a forecast would help.
constexpr double kWorthAnEstimateSeconds = 10;
// A run longer than this on the CPU gets a warning with a smaller grid to try.
constexpr double kLongCpuRunSeconds = 600;
// The smaller grid suggested should take about this long.
constexpr double kQuickLookSeconds = 300;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

void announce_setup(const Scenario& sc, BackendKind backend) {
  const double cells = double(sc.params.get_int("grid.nx")) * double(sc.params.get_int("grid.ny")) *
                       double(sc.params.get_int("grid.nz"));
  // Only where setting up takes long enough to wonder about (seconds on the CPU).
  if (cells < 4e6) return;
  std::cerr << "fluxview: setting up " << sc.name << " on " << to_string(backend) << ", "
            << sc.params.get_int("grid.nx") << "x" << sc.params.get_int("grid.ny") << "x"
            << sc.params.get_int("grid.nz") << " cells...\n";
}

std::string format_duration(double s) {
  char b[64];
  if (!std::isfinite(s) || s < 0) return "unknown";
  if (s < 60) {
    std::snprintf(b, sizeof b, "%.0f s", std::max(1.0, std::round(s)));
  } else if (s < 3600) {
    const int m = int(s / 60), sec = int(s - 60 * m);
    std::snprintf(b, sizeof b, "%d min %02d s", m, sec);
  } else if (s < 86400 * 3) {
    const int h = int(s / 3600), m = int((s - 3600 * h) / 60);
    std::snprintf(b, sizeof b, "%d h %02d min", h, m);
  } else {
    std::snprintf(b, sizeof b, "%.1f days", s / 86400);
  }
  return b;
}

std::string format_bytes(double v) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (v >= 1000 && u < 4) {
    v /= 1000;
    ++u;
  }
  char b[32];
  std::snprintf(b, sizeof b, v < 10 && u > 0 ? "%.1f %s" : "%.0f %s", v, units[u]);
  return b;
}

std::string grid_summary(const Solver& solver) {
  const auto& n = solver.grid().n;
  const std::string view =
      std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
  const amr::Hierarchy* h = amr::hierarchy_of(solver);
  if (!h) return "grid " + view;
  const auto top = h->top_cells(), b = h->block_cells();
  std::string block;
  for (int a = 0; a < 3; ++a)
    if (b[a] > 1) block += (block.empty() ? "" : "x") + std::to_string(b[a]);
  const double blocks = solver.cells_per_step() / (double(b[0]) * b[1] * b[2]);
  char line[200];
  std::snprintf(line, sizeof line,
                "adaptive mesh: top grid %dx%dx%d, %d levels below it, %.0f blocks of %s "
                "cells (views %s)",
                top[0], top[1], top[2], h->max_level(), blocks, block.c_str(), view.c_str());
  return line;
}

RunProgress::RunProgress(const Solver& solver, const RunPlan& plan, bool quiet)
    : solver_(solver), plan_(plan), quiet_(quiet), start_time_(solver.time()) {
  // A snapshot holds every field of the whole grid (appended raw binary, a small header);
  // a checkpoint the state arrays, about as many as the fields. On the adaptive mesh the
  // grid is only the view's: a snapshot holds the leaf blocks' cells (now; regrids change
  // them) and, in the .vthb, their ancestors, at most a third more in 2D and a seventh in
  // 3D; a checkpoint the leaves.
  double cells = double(solver.grid().cells());
  if (const amr::Hierarchy* h = amr::hierarchy_of(solver)) {
    int dims = 0;
    for (int n : h->block_cells()) dims += n > 1;
    cells = solver.cells_per_step() * (1 + 1.0 / double((1 << dims) - 1));
  }
  const double word = solver.precision() == Precision::f64 ? 8 : 4;
  snapshot_bytes_ = cells * word * double(solver.fields().size()) + 4096;
  checkpoint_bytes_ = amr::hierarchy_of(solver)
                          ? solver.cells_per_step() * word * double(solver.fields().size())
                          : snapshot_bytes_;
  last_line_ = Clock::now();
}

double RunProgress::expected_steps() const {
  if (plan_.until > 0) {
    const double dt = solver_.dt();
    return dt > 0 ? std::ceil(std::max(0.0, plan_.until - start_time_) / dt) : 0;
  }
  return double(plan_.max_steps);
}

double RunProgress::snapshots() const {
  // The first, one every snapshot_every steps, and the last where it is not one of those.
  const double steps = expected_steps();
  if (steps <= 0) return 1;
  if (plan_.snapshot_every <= 0) return 2;
  const double periodic = std::floor(steps / double(plan_.snapshot_every));
  return 1 + periodic + (std::fmod(steps, double(plan_.snapshot_every)) != 0 ? 1 : 0);
}

double RunProgress::output_bytes() const {
  const double steps = expected_steps();
  const double checkpoints =
      plan_.checkpoint_every > 0
          ? std::min<double>(plan_.checkpoints_kept,
                             std::floor(steps / double(plan_.checkpoint_every)))
          : 0;
  return snapshots() * snapshot_bytes_ + checkpoints * checkpoint_bytes_;
}

std::string RunProgress::output_summary() const {
  char b[160];
  std::snprintf(b, sizeof b, "%s%.0f snapshots of %s, about %s in all",
                plan_.until > 0 ? "about " : "", snapshots(), format_bytes(snapshot_bytes_).c_str(),
                format_bytes(output_bytes()).c_str());
  return b;
}

double RunProgress::fraction_done(std::int64_t steps_run) const {
  if (plan_.until > 0) {
    const double span = plan_.until - start_time_;
    return span > 0 ? std::clamp((solver_.time() - start_time_) / span, 0.0, 1.0) : 1.0;
  }
  return plan_.max_steps > 0 ? std::clamp(double(steps_run) / double(plan_.max_steps), 0.0, 1.0)
                             : 1.0;
}

void RunProgress::announce_estimate(std::int64_t steps_run, double stepping_seconds) {
  estimated_ = true;
  const double f = fraction_done(steps_run);
  if (f <= 0 || f >= 1) return;
  const double total = stepping_seconds / f;
  if (total < kWorthAnEstimateSeconds) return;
  const double rate = steps_run / stepping_seconds;
  char b[256];
  std::snprintf(b, sizeof b,
                "fluxview: estimated run time %s (%.3g steps/s, %.3g cell-updates/s)\n",
                format_duration(total).c_str(), rate, rate * solver_.cells_per_step());
  std::cerr << b;
  if (solver_.backend() != BackendKind::cpu || total < kLongCpuRunSeconds) return;
  // The work grows with the cells, and for a run to a set time with the steps too (about
  // one more power of n for the explicit schemes here, whose dt follows the cell size).
  const auto n = solver_.grid().n;
  const int nmax = std::max({n[0], n[1], n[2]});
  const int dims = int(n[0] > 1) + int(n[1] > 1) + int(n[2] > 1);
  const double power = dims + (plan_.until > 0 ? 1 : 0);
  int suggest = 0;
  for (int m = nmax / 2; m >= 16; m = m / 2 > 16 ? m / 2 : m - 16) {
    if (total * std::pow(double(m) / nmax, power) <= kQuickLookSeconds) {
      suggest = m;
      break;
    }
  }
  std::cerr << "fluxview: warning: this run will take about " << format_duration(total)
            << " on the CPU (" << solver_.grid().cells() << " cells; the scenario is sized for a "
            << "GPU)";
  if (suggest > 0 && n[0] == n[1] && (n[2] == n[0] || n[2] == 1))
    std::cerr << "; for a quick look try --set grid.n=" << suggest << " (about "
              << format_duration(total * std::pow(double(suggest) / nmax, power)) << ")";
  std::cerr << "; Ctrl-C stops it cleanly\n";
}

void RunProgress::after_steps(std::int64_t steps_run, double stepping_seconds) {
  if (quiet_ || steps_run <= 0 || stepping_seconds <= 0) return;
  // The first estimate once a stretch of stepping has been timed: a fraction of a second
  // is enough on a GPU, and a single step of a large CPU run is too.
  if (!estimated_ && (stepping_seconds >= 0.5 || fraction_done(steps_run) >= 0.05)) {
    announce_estimate(steps_run, stepping_seconds);
    last_line_ = Clock::now();
    return;
  }
  if (seconds_since(last_line_) < 2.0) return;
  last_line_ = Clock::now();
  const double f = fraction_done(steps_run);
  const double rate = steps_run / stepping_seconds;
  char b[320];
  if (plan_.until > 0)
    std::snprintf(b, sizeof b, "  step %lld  t = %.6g of %.6g s (%.1f%%)  %.3g steps/s  %s left\n",
                  static_cast<long long>(solver_.step()), solver_.time(), plan_.until, 100 * f,
                  rate, f > 0 ? format_duration(stepping_seconds * (1 - f) / f).c_str() : "?");
  else
    std::snprintf(b, sizeof b,
                  "  step %lld (%lld of %lld, %.1f%%)  t = %.6g s  %.3g steps/s  %s left\n",
                  static_cast<long long>(solver_.step()), static_cast<long long>(steps_run),
                  static_cast<long long>(plan_.max_steps), 100 * f, solver_.time(), rate,
                  format_duration(double(plan_.max_steps - steps_run) / rate).c_str());
  std::cerr << b;
}

}  // namespace fluxview::app
