#pragma once
// The probes of the window (docs/gui.md "Probes"): a line whose profile is sampled every
// frame in which the run or the line changed, and pinned points whose values are recorded
// as time series, one sample a new step; both exported as CSV. The sampling is
// sim/core/Probe.hpp's, where the field lives. Knows nothing of ImGui.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fileio/FolderLock.hpp"
#include "render/DerivedFields.hpp"
#include "sim/core/Probe.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::app {

class Probes {
 public:
  Probes();
  ~Probes();

  // The field sampled; empty: the field the view shows.
  std::string field;
  // Points along the line, both ends included (2 to kMaxCount).
  int count = 200;
  static constexpr int kMaxCount = 100000;
  // Time series keep their latest kMaxSamples samples.
  static constexpr std::size_t kMaxSamples = 100000;
  // Where export_csv writes.
  std::string folder = "fluxview-probes";

  void set_line(const Point3& a, const Point3& b);
  void clear_line();
  const std::optional<std::pair<Point3, Point3>>& line() const { return line_; }
  // Pinning or unpinning a point starts the time series afresh (one column a point).
  void pin(const Point3& p);
  void unpin(std::size_t i);
  void clear_points();
  const std::vector<Point3>& points() const { return series_.points; }

  // Owning Session::access: samples the line where it, the field or the step changed,
  // and the points at a step not sampled yet. `shown` is the view's field (for an empty
  // `field`). A run that went back in time (a reset) starts the series afresh.
  void sample(const Solver& s, const std::string& shown);
  const std::optional<Profile>& profile() const { return profile_; }
  const PointSeries& series() const { return series_; }

  // Writes the profile and the series (those there are) into `folder` as
  // probe_line_SSSSSS.csv and probe_points_SSSSSS.csv (S: the step of the last sample),
  // each atomically, holding the folder's lock (a run writing there is named and nothing
  // is written). Returns the files written; throws FileError or FolderBusy.
  std::vector<std::string> export_csv();

  // The line, points, field, count and folder as JSON (the panel's save, --probe-file).
  nlohmann::json to_json() const;
  // Replaces them from JSON; std::invalid_argument naming what is wrong.
  void load_json(const nlohmann::json& j);

 private:
  void restart_series();

  std::optional<std::pair<Point3, Point3>> line_;
  std::optional<Profile> profile_;
  PointSeries series_;
  bool line_dirty_ = true;
  std::string sampled_field_;
  std::int64_t line_step_ = -1, series_step_ = -1;
  double last_time_ = 0;
  render::DerivedField derived_;
  std::unique_ptr<FolderLock> lock_;
  std::string lock_dir_;
};

}  // namespace fluxview::app
