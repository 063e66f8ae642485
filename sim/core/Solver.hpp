#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/FieldView.hpp"
#include "sim/core/Grid.hpp"
#include "sim/core/Parameter.hpp"
#include "sim/core/Steering.hpp"
#include "sim/core/Types.hpp"

namespace fluxview {

struct FieldInfo {
  std::string name;  // snapshot array name
  std::string unit;
  std::string description;
  // Density and pressure: the instability guard treats a value <= 0 as a failure.
  bool must_be_positive = false;
};

// The complete state of a solver between two steps, as a checkpoint holds it: the
// arrays a step reads (interiors only; ghosts are refilled from them), the clock, and
// whatever else the next step depends on (a random generator's state, as text).
struct StateArray {
  std::string name;
  HostArray values;
};
struct SolverState {
  double time = 0;
  std::int64_t step = 0;
  std::vector<StateArray> arrays;
  std::string extra;
  // true: every array is this rank's box of the grid (a checkpoint's pieces tile the grid
  // and restart on any rank count). false: the arrays are the solver's own, each of its
  // own size (the adaptive mesh's leaves and blocks); such a state is written whole, as
  // one piece, by the root (under MPI the solver gathers it there: the other ranks' arrays
  // are empty), and every rank reads it whole on restart and keeps its share.
  bool on_grid = true;
};

struct Diagnostic {
  std::string name;
  std::string unit;
  double value = 0;
};

// Problems a run meets while it runs (NaN, a negative density): the run pauses (GUI)
// or stops (headless) with this message, which says the step, time, field and cell.
class InstabilityError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The interface every solver family implements (docs/dev/architecture.md). A solver owns
// its state where its backend computes; a step moves no bytes between host and device.
// Everything outside sim/ sees the state only through FieldView.
class Solver {
 public:
  virtual ~Solver() = default;

  // (Re)initialise from resolved parameters: grid, initial condition, time 0, step 0.
  // Throws ConfigError for combinations the parameter ranges alone cannot catch.
  virtual void reset(const ParamSet& params) = 0;
  // Advance by `steps` time steps of dt(); returns with device work possibly queued.
  virtual void advance(std::int64_t steps);
  // Advance by at most `steps`, never past simulated time `t_end` (the last step is
  // shortened to land on it). Returns the steps taken.
  virtual std::int64_t advance_until(double t_end, std::int64_t steps);
  // Wait for queued device work (benchmarks and snapshots call it).
  virtual void synchronize() {}

  virtual double time() const = 0;
  virtual std::int64_t step() const = 0;
  // The time step the next step will take.
  virtual double dt() const = 0;
  // True when the run has reached what it runs towards (a steady state), if anything.
  virtual bool finished() const { return false; }
  // One line saying why finished() is true, for the log and run.json.
  virtual std::string finish_reason() const { return ""; }

  virtual const Grid& grid() const = 0;
  virtual BackendKind backend() const = 0;
  virtual Precision precision() const = 0;
  virtual std::vector<FieldInfo> fields() const = 0;
  // Read-only view of a named field; throws std::out_of_range for an unknown name.
  virtual FieldView view(const std::string& name) const = 0;
  // Scalar diagnostics computed where the state lives (on the device for CUDA).
  virtual std::vector<Diagnostic> diagnostics() = 0;
  // The instability guard's scan (check_health, sim/core/Health.hpp): one line naming the
  // first cell of a field that is NaN, Inf or, where the field must be positive, <= 0;
  // nothing when every cell is sound. The default scans view() of each field; a solver
  // whose views do not hold every cell (the adaptive mesh resamples its blocks) scans its
  // own cells. This rank's cells only.
  virtual std::optional<std::string> first_unsound_cell() const;

  // Effective bytes a cell update moves in the roofline model of this solver's step
  // (for the heat solver, read T and write T: 2 * sizeof(real)).
  virtual double bytes_per_cell_update() const = 0;
  // Cells one step updates, what cell-updates per second count: the grid's, or on the
  // adaptive mesh the cells of its blocks now (which change with every regrid).
  virtual double cells_per_step() const { return double(grid().cells()); }
  // Checkpointing: save_state() after any step, and load_state() after reset() with
  // the same parameters, continue bit-identically. Families that cannot say their
  // state keep these defaults, which refuse with a message. Under MPI both are called on
  // every rank (they may reduce), with this rank's box; what `extra` holds must be the same
  // on every rank, since a restart on another rank count hands every rank the same text.
  virtual SolverState save_state() const;
  virtual void load_state(const SolverState& state);
  // Why this solver (as reset) cannot write checkpoints, or "" when it can: asked before a
  // run with --checkpoint-every writes anything (app/RunSetup.cpp), so a run is refused up
  // front instead of failing at its first checkpoint.
  virtual std::string checkpoint_refusal() const {
    return "this solver cannot write checkpoints yet";
  }

  // Extra facts for run.json (kernel variant, seed, stability number, ...).
  virtual std::vector<std::pair<std::string, std::string>> run_facts() const { return {}; }

  // Steering (sim/core/Steering.hpp, docs/gui.md), between two steps: the next step sees
  // the change. set_live gives a live parameter (ParamSpec::live) a new value, rebuilding
  // what the solver derived from it (its typed config, dt, coefficients); apply_tool acts
  // on the fields with one of tools() (its call resolved by resolve_tool_call). Both throw
  // SteeringError, having changed nothing, for what the parameters or the state refuse.
  // Under MPI both are collective. The defaults refuse.
  virtual void set_live(const std::string& key, const ParamValue& value);
  virtual std::vector<ToolSpec> tools() const { return {}; }
  virtual ToolReport apply_tool(const ToolCall& call);

 protected:
  // One step of length h: dt(), or less for the last step before a target time. The
  // default advance() and advance_until() are built on it.
  virtual void step_by(double h);
};

}  // namespace fluxview
