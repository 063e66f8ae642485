#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/Types.hpp"

namespace fluxview::app {

// Exit codes of the `fluxview` executable.
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,   // a run-time failure (I/O, CUDA)
  kExitBadInput = 2,  // bad scenario, key, value or flag
  kExitUnstable = 3,  // NaN/Inf or negative density or pressure
  kExitInterrupted = 130,
};

// What `fluxview run` and `fluxview bench` were asked, before the scenario resolves it.
// Option name ("--steps") -> its value as typed on the command line.
using TypedOptions = std::map<std::string, std::string>;

struct RunOptions {
  std::string scenario;
  bool scenario_given = false;         // named on the command line (not the default)
  std::vector<std::string> overrides;  // --set key=value, in order
  std::optional<std::int64_t> steps;
  std::optional<double> until;
  std::optional<std::int64_t> every;
  std::optional<std::int64_t> diagnostics_every;  // unset: with each snapshot
  std::string output;                             // empty: fluxview-out/<scenario>
  std::optional<std::string> backend;
  std::string precision = "double";
  bool precision_given = false;  // --precision on the command line
  std::string mpi_dims;          // --mpi-dims X,Y,Z; empty: MPI_Dims_create decides
  bool headless = false;
  bool quiet = false;
  std::vector<std::string> catalyst_scripts;
  std::int64_t catalyst_every = 1;
  std::string catalyst_on_error = "stop";  // stop | continue (drop the failing script)
  std::string catalyst_log = "normal";     // normal | quiet | verbose (what scripts print)
  // Headless PNG frames (--render-every N --render-dir DIR): 0 draws none.
  std::int64_t render_every = 0;
  std::string render_dir;  // empty: OUTPUT/frames (none when only a movie is asked for)
  std::string render_field;
  std::string render_view;  // empty: the view file's, else 2d
  std::string view_file;    // --view-file: a view saved by the GUI
  std::string movie;        // --movie FILE.mp4: a film of the frames
  std::string render_size;  // --render-size WxH; empty: 1024x768
  // How device fields reach GL for the frames: auto | shared | map | host (--upload-path).
  std::string upload_path = "auto";
  // Checkpoints (HDF5): every N steps (0: none) into DIR (default: the output dir), the
  // newest `checkpoint_keep` kept, and a run that continues from one.
  std::optional<std::int64_t> checkpoint_every;  // sets run.checkpoint_every
  std::int64_t checkpoint_keep = 2;
  std::string checkpoint_dir;
  std::string restart;
  // Steering (docs/gui.md): a hand-written journal to apply (--steer FILE, lines or TOML),
  // or a steered run's journal to play again (--replay FILE: its run.json or a journal).
  std::string steer;
  std::string replay;
  // bench only
  std::optional<std::int64_t> bench_steps;
  std::int64_t warmup = 10;
  // Each option given, as typed (CommandLineParser): refusals quote it, since CLI11 turns
  // a number too large for 64 bits into the largest one (99999999999999999999 would be
  // refused as 9223372036854775807).
  TypedOptions typed;
};

// The largest count any count option takes (steps, periods): 2^40.
inline constexpr std::int64_t kMaxCount = std::int64_t(1) << 40;

// Count options (steps, periods, frames) are checked alike, before anything else:
// "--checkpoint-every -1 is out of range; allowed: an integer in [0, 2^40] (0: none)".
// Throws ConfigError.
// `typed` gives the text the message quotes, where the option was typed.
void check_count(const std::string& option, std::int64_t value, std::int64_t min, std::int64_t max,
                 const std::string& meaning, const TypedOptions& typed = {});
// Every option of `fluxview run` that can be judged on its own: counts, --until.
void check_run_options(const RunOptions& o);
// bench's counts.
void check_bench_options(const RunOptions& o);

// Picks the backend: as asked, or the GPU when one is there. Says which on stderr
// when it chose. Throws ConfigError for an unknown name or cuda without a device.
BackendKind choose_backend(const std::optional<std::string>& asked, bool quiet);
Precision choose_precision(const std::string& asked);
// "cpu (N threads)" or the CUDA device's description.
std::string device_name(BackendKind b);
// "--mpi-dims X,Y,Z" as three positive rank counts; ConfigError otherwise.
std::array<int, 3> parse_mpi_dims(const std::string& text);
// For run.json and bench under MPI: ranks, ranks per axis, how device ghosts travel.
nlohmann::json parallel_facts(BackendKind b);

}  // namespace fluxview::app
