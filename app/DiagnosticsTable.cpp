#include "app/DiagnosticsTable.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <type_traits>
#include <utility>

#include "fileio/AtomicFile.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview::app {

namespace {

std::string header_of(const std::vector<Diagnostic>& d) {
  std::string h = "step,time";
  for (const Diagnostic& x : d) h += "," + x.name + (x.unit.empty() ? "" : " [" + x.unit + "]");
  return h;
}

}  // namespace

DiagnosticsTable::DiagnosticsTable(std::filesystem::path dir, std::int64_t keep_until)
    : path_(std::move(dir) / "diagnostics.csv") {
  if (keep_until < 0 || !parallel::is_root()) return;
  std::ifstream in(path_);
  std::string line;
  if (!std::getline(in, header_)) return;
  while (std::getline(in, line)) {
    long long step = 0;
    if (std::sscanf(line.c_str(), "%lld,", &step) == 1 && step <= keep_until) rows_.push_back(line);
  }
}

void DiagnosticsTable::add(std::int64_t step, double time, const std::vector<Diagnostic>& d,
                           bool now) {
  if (!parallel::is_root()) return;
  const std::string header = header_of(d);
  if (header != header_) {  // other columns than the earlier run's: a table of its own
    header_ = header;
    rows_.clear();
    written_ = 0;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lld,%.17g", static_cast<long long>(step), time);
  std::string row = buf;
  for (const Diagnostic& x : d) {
    std::snprintf(buf, sizeof buf, ",%.17g", x.value);
    row += buf;
  }
  rows_.push_back(std::move(row));
  if (now || (rows_.size() - written_) * 8 >= written_) flush();
}

void DiagnosticsTable::flush() {
  if (!parallel::is_root() || written_ == rows_.size()) return;
  write_file_atomic(path_, [&](std::ostream& out) {
    out << header_ << '\n';
    for (const std::string& r : rows_) out << r << '\n';
  });
  written_ = rows_.size();
}

}  // namespace fluxview::app
