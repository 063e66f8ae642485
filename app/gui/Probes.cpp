#include "app/gui/Probes.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "fileio/AtomicFile.hpp"
#include "fileio/Folders.hpp"

namespace fluxview::app {

namespace {

Point3 point_from_json(const nlohmann::json& j, const std::string& what) {
  if (!j.is_array() || j.size() != 3)
    throw std::invalid_argument(what + ": three numbers [x, y, z] (m)");
  Point3 p;
  for (int a = 0; a < 3; ++a) {
    if (!j[a].is_number()) throw std::invalid_argument(what + ": three numbers [x, y, z] (m)");
    p[a] = j[a].get<double>();
  }
  return p;
}

std::string numbered(const std::string& stem, std::int64_t step) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s_%06lld.csv", stem.c_str(), static_cast<long long>(step));
  return buf;
}

}  // namespace

Probes::Probes() = default;
Probes::~Probes() = default;

void Probes::set_line(const Point3& a, const Point3& b) {
  line_ = std::pair{a, b};
  line_dirty_ = true;
}

void Probes::clear_line() {
  line_.reset();
  profile_.reset();
}

void Probes::pin(const Point3& p) {
  series_.points.push_back(p);
  restart_series();
}

void Probes::unpin(std::size_t i) {
  if (i >= series_.points.size()) return;
  series_.points.erase(series_.points.begin() + std::ptrdiff_t(i));
  restart_series();
}

void Probes::clear_points() {
  series_.points.clear();
  restart_series();
}

void Probes::restart_series() {
  series_.time.clear();
  series_.values.clear();
  series_step_ = -1;
}

void Probes::sample(const Solver& s, const std::string& shown) {
  const std::string name = field.empty() ? shown : field;
  if (name.empty()) return;
  if (name != sampled_field_ || s.time() < last_time_) {
    restart_series();
    line_dirty_ = true;
    sampled_field_ = name;
  }
  last_time_ = s.time();
  const bool line_due = line_ && (line_dirty_ || s.step() != line_step_);
  const bool points_due = !series_.points.empty() && s.step() != series_step_;
  if (!line_due && !points_due) return;
  const FieldView v = render::resolve_view_field(s, name, derived_);
  if (line_due) {
    profile_ =
        sample_line(v, s.grid(), line_->first, line_->second, std::clamp(count, 2, kMaxCount));
    line_step_ = s.step();
    line_dirty_ = false;
  }
  if (points_due) {
    series_.field = name;
    series_.add(s.time(), sample_points(v, s.grid(), series_.points));
    if (series_.time.size() > kMaxSamples) {
      series_.time.erase(series_.time.begin());
      series_.values.erase(series_.values.begin());
    }
    series_step_ = s.step();
  }
}

std::vector<std::string> Probes::export_csv() {
  if (!profile_ && series_.time.empty())
    throw std::invalid_argument("nothing to export: drag a line or pin a point first");
  if (!lock_ || lock_dir_ != folder) {
    prepare_output_dir(folder);
    // A run (or another window) writing there is named, and nothing is written.
    lock_ = FolderLock::unless_held_here(folder);
    lock_dir_ = folder;
  }
  std::vector<std::string> written;
  const auto write = [&](const std::string& name, const std::string& text) {
    const std::filesystem::path path = std::filesystem::path(folder) / name;
    write_file_atomic(path, [&](std::ostream& out) { out << text; });
    written.push_back(path.string());
  };
  if (profile_)
    write(numbered("probe_line", line_step_), profile_csv(*profile_, line_->first, line_->second));
  if (!series_.time.empty()) write(numbered("probe_points", series_step_), series_csv(series_));
  return written;
}

nlohmann::json Probes::to_json() const {
  nlohmann::json j;
  j["field"] = field;
  j["count"] = count;
  j["folder"] = folder;
  if (line_) j["line"] = {line_->first, line_->second};
  j["points"] = nlohmann::json::array();
  for (const Point3& p : series_.points) j["points"].push_back(p);
  return j;
}

void Probes::load_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("a JSON object with line, points, field, count");
  for (const auto& [key, value] : j.items())
    if (key != "field" && key != "count" && key != "folder" && key != "line" && key != "points")
      throw std::invalid_argument("unknown key '" + key +
                                  "'; allowed: field, count, folder, line, points");
  Probes next;
  next.field = j.value("field", std::string());
  next.count = j.value("count", 200);
  if (next.count < 2 || next.count > kMaxCount)
    throw std::invalid_argument("count = " + std::to_string(next.count) + "; allowed: 2 to " +
                                std::to_string(kMaxCount));
  next.folder = j.value("folder", folder);
  if (j.contains("line")) {
    const auto& l = j["line"];
    if (!l.is_array() || l.size() != 2)
      throw std::invalid_argument("line: two points [[x, y, z], [x, y, z]] (m)");
    next.set_line(point_from_json(l[0], "line"), point_from_json(l[1], "line"));
  }
  if (j.contains("points")) {
    if (!j["points"].is_array()) throw std::invalid_argument("points: a list of [x, y, z] (m)");
    for (const auto& p : j["points"]) next.series_.points.push_back(point_from_json(p, "points"));
  }
  field = next.field;
  count = next.count;
  folder = next.folder;
  line_ = next.line_;
  profile_.reset();
  line_dirty_ = true;
  series_.points = next.series_.points;
  restart_series();
}

}  // namespace fluxview::app
