#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "insitu/snapshot/VtiWriter.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview {

struct SnapshotRecord {
  std::int64_t step = 0;
  double time = 0;
  std::string file;  // relative to the output directory
};

// The snapshots of one run in DIR: snapshot_NNNNNN.vti (NNNNNN = step) for each
// output step and DIR/series.pvd listing them with their times, rewritten (atomically)
// after each snapshot so an interrupted run still leaves a readable series. Under MPI
// every rank writes snapshot_NNNNNN/piece_RRRR.vti and the root snapshot_NNNNNN.pvti.
class SnapshotSeries {
 public:
  // `earlier`: snapshots of the run this one continues (a restart into its folder), listed
  // in series.pvd before the new ones.
  explicit SnapshotSeries(std::filesystem::path dir, std::vector<SnapshotRecord> earlier = {});
  // Writes every field of the solver; from a CUDA solver only the interiors are copied.
  // Throws FileError naming the file when a write fails; under MPI every rank throws it
  // (collective), whichever rank's write failed.
  void write(const Solver& solver);
  const std::vector<SnapshotRecord>& records() const { return records_; }
  const std::filesystem::path& dir() const { return dir_; }
  std::uint64_t bytes_written() const { return bytes_; }

  // The snapshots DIR/series.pvd lists, with the step each file's name gives; nothing
  // when there is no readable series.pvd.
  static std::vector<SnapshotRecord> read_series(const std::filesystem::path& dir);

 private:
  void write_pvd() const;
  void write_pvti(const std::filesystem::path& path, const std::string& stem, const Solver& solver,
                  const std::vector<NamedArray>& arrays, const std::vector<int>& boxes) const;
  std::filesystem::path dir_;
  std::vector<SnapshotRecord> records_;
  std::uint64_t bytes_ = 0;
};

}  // namespace fluxview
