#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/Solver.hpp"

namespace fluxview {

struct SnapshotRecord {
  std::int64_t step = 0;
  double time = 0;
  std::string file;  // relative to the output directory
};

// The snapshots of one run in DIR: snapshot_NNNNNN.vti (NNNNNN = step) for each
// output step and DIR/series.pvd listing them with their times, rewritten (atomically)
// after each snapshot so an interrupted run still leaves a readable series.
class SnapshotSeries {
 public:
  explicit SnapshotSeries(std::filesystem::path dir);
  // Writes every field of the solver; from a CUDA solver only the interiors are copied.
  void write(const Solver& solver);
  const std::vector<SnapshotRecord>& records() const { return records_; }
  const std::filesystem::path& dir() const { return dir_; }
  std::uint64_t bytes_written() const { return bytes_; }

 private:
  void write_pvd() const;
  std::filesystem::path dir_;
  std::vector<SnapshotRecord> records_;
  std::uint64_t bytes_ = 0;
};

}  // namespace fluxview
