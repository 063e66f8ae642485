#pragma once
// The ParaView Catalyst adaptor (legacy "Catalyst 1" API of ParaView 5.11): hands the
// running state to ParaView Python pipelines as a vtkImageData on the channel "input".
// This header names no VTK type, so only CatalystAdaptor.cpp compiles ParaView's
// headers; a build without ParaView links CatalystAbsent.cpp instead, whose adaptor
// throws CatalystError("this build has no Catalyst ...") when constructed.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/Solver.hpp"

namespace fluxview {

// A script that is missing, does not parse or raises: the message holds the script's
// path, the step and the Python traceback.
class CatalystError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class CatalystOnError { stop, drop_script };

// What a run prints of the pipelines (--catalyst-log): what the scripts print (normal),
// only their errors (quiet), or also ParaView's warnings, hidden otherwise (verbose).
enum class CatalystLog { normal, quiet, verbose };
// "normal", "quiet", "verbose"; parse throws std::invalid_argument naming what is allowed.
const char* catalyst_log_name(CatalystLog log);
CatalystLog parse_catalyst_log(const std::string& name);

struct CatalystOptions {
  std::vector<std::string> scripts;  // Python pipeline scripts (ParaView "Save Catalyst State")
  std::int64_t every = 1;            // offer the state every N steps (pipelines may ask for less)
  CatalystOnError on_error = CatalystOnError::stop;
  // Process-wide in ParaView: the newest adaptor's choice holds for every adaptor.
  CatalystLog log = CatalystLog::normal;
  // Where the example scripts write (they read FLUXVIEW_CATALYST_OUTPUT, which is set to
  // this unless the user set it); empty: leave the environment alone.
  std::string output_dir;
  // Optional MPI communicator for the coming MPI decomposition: a pointer to an MPI_Comm,
  // passed to vtkCPProcessor::Initialize through vtkMPICommunicatorOpaqueComm. nullptr:
  // ParaView's default (one process, or MPI_COMM_WORLD where MPI is initialised).
  void* mpi_comm = nullptr;
};

// What the GUI shows for one script.
struct CatalystScriptStatus {
  std::string script;
  bool enabled = true;          // the user's toggle
  bool failed = false;          // dropped after an error (on_error = drop_script)
  std::int64_t runs = 0;        // steps at which the pipeline executed
  std::int64_t last_step = -1;  // the last of them
  double last_seconds = 0;      // wall time of that execution
  double total_seconds = 0;
  std::string last_error;  // with the Python traceback; empty if none
};

// Totals for run.json and docs/performance.md.
struct CatalystStats {
  std::int64_t offered = 0;                // calls of execute() at offer steps
  std::int64_t executed = 0;               // of them, steps at which at least one pipeline ran
  std::uint64_t bytes_device_to_host = 0;  // copied from the GPU (CUDA backend)
  std::uint64_t bytes_host_gathered = 0;   // interior rows copied out of padded host fields
  std::uint64_t bytes_zero_copy = 0;       // host fields handed over without a copy
  double seconds_total = 0;                // all time inside execute()
  double seconds_request = 0;              // of it, asking pipelines whether they run (every offer)
  double seconds_idle = 0;                 // of it, offers at which no pipeline ran (asking only)
  double seconds_transfer = 0;             // building the grid: copies and gathers
  double seconds_pipelines = 0;            // running the pipelines
};

class CatalystAdaptor {
 public:
  // True in a build with ParaView.
  static bool available();

  // Starts ParaView's Python, checks that every script exists and parses (throws
  // CatalystError naming the script, with the traceback, otherwise).
  explicit CatalystAdaptor(CatalystOptions options);
  ~CatalystAdaptor();
  CatalystAdaptor(const CatalystAdaptor&) = delete;
  CatalystAdaptor& operator=(const CatalystAdaptor&) = delete;

  // Offers the solver's current state if its step is a multiple of `every` (or `force`,
  // for the last step of a run). Pipelines that ask for it run; only the fields they
  // need are copied from the device. A failing script throws CatalystError (on_error =
  // stop) or is dropped with its error kept in status() (drop_script).
  void execute(const Solver& solver, bool force = false);

  // For the GUI: add a script while running (throws like the constructor), toggle one.
  void add_script(const std::string& path);
  void set_enabled(std::size_t index, bool enabled);
  const std::vector<CatalystScriptStatus>& status() const;
  const CatalystStats& stats() const;
  // {"scripts": [...], "bytes_device_to_host": ..., "seconds": ...} for run.json.
  nlohmann::json summary_json() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fluxview
