// Checkpoints in a build without HDF5: every use says so.
#include <string>

#include "insitu/checkpoint/Checkpoint.hpp"
#include "sim/core/ConfigError.hpp"

namespace fluxview {

namespace {
[[noreturn]] void absent() {
  throw ConfigError("this fluxview was built without HDF5, so it cannot write or read checkpoints");
}
}  // namespace

std::filesystem::path checkpoint_piece_path(const std::filesystem::path& path) {
  return path;
}
void write_checkpoint(const std::filesystem::path&, const Scenario&, const Solver&,
                      const std::string&) {
  absent();
}
Checkpoint open_checkpoint(const std::filesystem::path&) {
  absent();
}
SolverState read_checkpoint_box(const Checkpoint&, std::array<int, 3>, std::array<int, 3>) {
  absent();
}
SolverState read_checkpoint_state(const Checkpoint&, const Solver&) {
  absent();
}
Checkpoint read_checkpoint(const std::filesystem::path&) {
  absent();
}
Scenario scenario_of(const Checkpoint&) {
  absent();
}

}  // namespace fluxview
