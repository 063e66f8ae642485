#include <memory>
#include <ostream>
#include <string_view>
#include <variant>

#include "insitu/snapshot/RunRecord.hpp"

#include <ctime>

#include "fileio/AtomicFile.hpp"
#include "fileio/FolderLock.hpp"

namespace fluxview {

nlohmann::json params_json(const ParamSet& p) {
  nlohmann::json j = nlohmann::json::object();
  // (no structured binding: clang before 16 cannot capture one in the lambda)
  for (const auto& kv : p.values()) std::visit([&](const auto& x) { j[kv.first] = x; }, kv.second);
  return j;
}

nlohmann::json make_run_json(const Scenario& scenario, const Solver& solver, const RunSummary& s) {
  const std::vector<SnapshotRecord>& snapshots = s.snapshots;
  nlohmann::json j;
  // Format 2: status "running" until the end, the process and its heartbeat, the lock.
  j["fluxview_run_format"] = 2;
  j["solver"] = scenario.solver;
  j["scenario"] = scenario.name;
  j["description"] = scenario.description;
  j["parameters"] = params_json(scenario.params);
  const Grid& g = solver.grid();
  j["grid"] = {{"n", g.n},
               {"ghost", g.ghost},
               {"spacing", g.spacing},
               {"origin", g.origin},
               {"centering", g.centering == Centering::point ? "point" : "cell"}};
  j["backend"] = to_string(solver.backend());
  j["device"] = s.device;
  j["precision"] = to_string(solver.precision());
  nlohmann::json fields = nlohmann::json::array();
  for (const auto& f : solver.fields())
    fields.push_back({{"name", f.name}, {"unit", f.unit}, {"description", f.description}});
  j["fields"] = fields;
  nlohmann::json snaps = nlohmann::json::array();
  for (const auto& r : snapshots)
    snaps.push_back({{"step", r.step}, {"time", r.time}, {"file", r.file}});
  j["snapshots"] = snaps;
  j["steps"] = solver.step();
  j["steps_run"] = s.steps_run;
  j["time"] = solver.time();
  j["dt"] = solver.dt();
  j["wall_seconds"] = s.wall_seconds;
  // On the adaptive mesh: the cells of the mesh at the end (the blocks change with regrids;
  // `fluxview bench` counts them exactly).
  const double updates = double(s.steps_run) * solver.cells_per_step();
  j["throughput"] = {
      {"cell_updates_per_second", s.wall_seconds > 0 ? updates / s.wall_seconds : 0.0},
      {"steps_per_second", s.wall_seconds > 0 ? double(s.steps_run) / s.wall_seconds : 0.0}};
  nlohmann::json facts = nlohmann::json::object();
  for (const auto& [k, v] : solver.run_facts()) facts[k] = v;
  j["solver_facts"] = facts;
  nlohmann::json diag = nlohmann::json::object();
  for (const auto& d : s.diagnostics) diag[d.name] = {{"value", d.value}, {"unit", d.unit}};
  j["diagnostics"] = diag;
  j["status"] = s.status;
  j["message"] = s.message;
  j["process"] = {{"pid", s.pid},
                  {"host", s.host},
                  {"started", s.started},
                  {"heartbeat", utc_now()},
                  {"heartbeat_unix", std::int64_t(std::time(nullptr))},
                  {"lock", FolderLock::kFileName}};
  j["last_snapshot"] = snapshots.empty() ? "" : snapshots.back().file;
  j["last_checkpoint"] = s.last_checkpoint;
  j["restarted_from"] = s.restarted_from;
  for (const auto& [k, v] : s.extra) j[k] = v;
  return j;
}

void write_run_json(const std::filesystem::path& path, const nlohmann::json& j) {
  write_file_atomic(path, [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

}  // namespace fluxview
