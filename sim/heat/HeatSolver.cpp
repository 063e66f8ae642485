// The heat solver: owns two temperature fields (T^n and T^{n+1}) where its backend
// computes and swaps them each step. Point-centred grid: n interior points per axis
// between two wall points; the walls are the ghost layer (width 1) and hold the Dirichlet
// temperatures, so every kernel reads them like any neighbour and never branches.
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/Field.hpp"
#include "sim/core/GhostExchange.hpp"
#include "sim/core/OverlapBoxes.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Reduce.hpp"
#include "sim/heat/HeatConfig.hpp"
#include "sim/heat/HeatInitial.hpp"
#include "sim/heat/HeatSolver.hpp"
#include "sim/heat/HeatSteering.hpp"
#include "sim/heat/HeatStep.hpp"

namespace fluxview::heat {

namespace {

template <class T>
class HeatSolver final : public Solver {
 public:
  explicit HeatSolver(BackendKind b) : kind_(b) {}

  void reset(const ParamSet& p) override {
    params_ = p;
    config_ = parse_config(p);
    backend_ = make_backend<T>(kind_, config_.kernel);
    // Under MPI this rank holds one box of the global grid; walls belong to the ranks at
    // the global edges, and the ghosts of inner faces are filled from neighbours.
    box_ = parallel::split(config_.grid.n, {false, false, false}, 1);
    grid_ = heat_grid(config_.grid);
    grid_.offset = box_.offset;
    dt_ = time_step(config_, grid_);
    time_ = 0;
    step_ = 0;
    last_rate_ = INFINITY;
    steady_ = false;

    // Build the initial state on the host, then move it to the backend in one copy.
    const std::array<int, 3> local = box_.n;
    Field<T> host(local, 1, Location::host);
    fill_initial(host, config_, grid_, box_);
    const Location where = backend_->where();
    backend_->require_memory(2 * host.layout().bytes());
    cur_ = Field<T>(local, 1, where);
    next_ = Field<T>(local, 1, where);
    copy_bytes(cur_.data(), where, host.data(), Location::host, host.layout().bytes());
    copy_bytes(next_.data(), where, host.data(), Location::host, host.layout().bytes());
    exchange_ = parallel::GhostExchange(box_, cur_.layout(), where, config_.parallel.ghosts);
    plan_overlap();
    exchange();
    steering_.reset(kind_, grid_, box_);
  }

  void synchronize() override {
    if (ghosts_stale_) exchange();  // views of point data read the neighbours' first layer
    backend_->check("heat step");
  }

  double time() const override { return time_; }
  std::int64_t step() const override { return step_; }
  double dt() const override { return dt_; }
  bool finished() const override { return steady_; }
  std::string finish_reason() const override {
    if (!steady_) return "";
    std::ostringstream o;
    o << "steady state: max |dT/dt| = " << last_rate_
      << " K/s < heat.steady_tol = " << config_.steady_tol << " K/s at step " << steady_step_;
    return o.str();
  }

  const Grid& grid() const override { return grid_; }
  BackendKind backend() const override { return kind_; }
  Precision precision() const override { return precision_of<T>(); }
  std::vector<FieldInfo> fields() const override { return {{"T", "degC", "temperature"}}; }
  FieldView view(const std::string& name) const override {
    if (name != "T") throw std::out_of_range("heat solver has no field '" + name + "' (it has T)");
    return cur_.view("T", "degC", Centering::point);
  }

  std::vector<Diagnostic> diagnostics() override {
    FieldStats s = field_stats(view("T"));
    s.min = parallel::allreduce_min(s.min);
    s.max = parallel::allreduce_max(s.max);
    s.sum = parallel::allreduce_sum(s.sum);
    s.count = parallel::allreduce_sum(s.count);
    s.nonfinite = parallel::allreduce_sum(s.nonfinite);
    double cell_volume = 1;
    for (int a = 0; a < 3; ++a) cell_volume *= grid_.spacing[a];
    std::vector<Diagnostic> d = {
        {"T_min", "degC", s.min},
        {"T_max", "degC", s.max},
        {"T_mean", "degC", s.count ? s.sum / double(s.count) : 0},
        {"T_integral", "degC m^3", s.sum * cell_volume},
        {"nonfinite_cells", "", double(s.nonfinite)},
    };
    if (std::isfinite(last_rate_)) d.push_back({"max_dTdt", "K/s", last_rate_});
    return d;
  }

  std::string checkpoint_refusal() const override { return ""; }
  SolverState save_state() const override {
    SolverState st;
    st.time = time_;
    st.step = step_;
    st.arrays.push_back({"T", gather_interior(view("T"))});
    steering_.save(st);  // the held temperatures of obstacles, if any
    return st;
  }

  void load_state(const SolverState& st) override {
    if (st.arrays.empty() || st.arrays.size() > 2 || st.arrays[0].name != "T" ||
        (st.arrays.size() == 2 && st.arrays[1].name != kHeldArray))
      throw std::runtime_error("heat checkpoint must hold the field T (and T_held, if any)");
    scatter_interior(st.arrays[0].values, cur_.data(), cur_.layout(), cur_.where());
    steering_.load(st, cur_.layout());
    exchange();
    time_ = st.time;
    step_ = st.step;
    last_rate_ = INFINITY;
    steady_ = false;
  }

  double bytes_per_cell_update() const override { return 2.0 * sizeof(T); }

  std::vector<std::pair<std::string, std::string>> run_facts() const override {
    std::ostringstream d;
    d.precision(6);
    d << config_.alpha * dt_ * inverse_spacing_sum(grid_) / 3;
    return {{"kernel", backend_->kernel()},
            {"stability_number_d", d.str()},
            {"steady_state_criterion", config_.steady_tol > 0
                                           ? "max |dT/dt| < " + format_value(config_.steady_tol) +
                                                 " K/s, checked every " +
                                                 std::to_string(config_.check_every) + " steps"
                                           : "none"}};
  }

  // Steering (HeatSteering.hpp): walls rewritten in both fields' ghosts, dt recomputed.
  void set_live(const std::string& key, const ParamValue& v) override {
    const ParamSet p = live_change(params_, key, v, family().validate);
    const HeatConfig c = parse_config(p);
    if (c.kernel != config_.kernel) backend_ = make_backend<T>(kind_, c.kernel);
    steering_.set_walls(cur_, c);
    steering_.set_walls(next_, c);
    params_ = p;
    config_ = c;
    dt_ = time_step(config_, grid_);
  }
  std::vector<ToolSpec> tools() const override { return steering_.tools(config_); }
  ToolReport apply_tool(const ToolCall& call) override {
    if (ghosts_stale_) exchange();  // the stroke reads and writes T^n as a step would
    const ToolReport r = steering_.apply(call, cur_);
    exchange();
    return r;
  }

 private:
  // Fills the ghost layers of the current field at faces shared with other ranks.
  void exchange() {
    void* f[1] = {cur_.data()};
    exchange_.exchange(f, 1);
    ghosts_stale_ = false;
  }

  // Where the backend queues its work (the device) under MPI, the exchange of T^n overlaps
  // the update of the cells that do not read ghosts: the interior box goes first, then the
  // faces next to other ranks once their ghosts have arrived. Faces are one point thick
  // along y and z and one 128-byte row segment along x (rows of the fast kernel start
  // 16-byte aligned, and the high x face starts on such a row segment). Boxes too small
  // for that take the plain order: exchange, then the whole update.
  void plan_overlap() {
    overlap_.reset();
    // On by default: 7% faster strong scaling on 2 and 4 H200s.
    if (!backend_->queues_work() || !exchange_.active() ||
        !parallel::overlap_wanted(true, config_.parallel.overlap))
      return;
    const auto& n = cur_.layout().n;
    const int w = kRowAlignBytes / int(sizeof(T));
    overlap_ =
        parallel::overlap_boxes(box_, n, {w, 1, 1}, {(n[0] - 1) / w * w, n[1] - 1, n[2] - 1});
  }

  void step_by(double h) override {
    HeatStepArgs<T> a;
    a.in = cur_.data();
    a.out = next_.data();
    a.layout = cur_.layout();
    T* c[3] = {&a.cx, &a.cy, &a.cz};
    for (int ax = 0; ax < 3; ++ax)
      *c[ax] =
          grid_.n[ax] > 1 ? T(config_.alpha * h / (grid_.spacing[ax] * grid_.spacing[ax])) : T(0);
    if (ghosts_stale_ && overlap_) {
      exchange_.fields_ready();
      step_cells(a, overlap_->interior);
      exchange();  // the host waits for MPI while the interior kernel runs
      for (const auto& b : overlap_->faces) step_cells(a, b);
    } else {
      if (ghosts_stale_) exchange();
      backend_->step(a);
    }
    std::swap(cur_, next_);
    steering_.hold(cur_);  // obstacles back to their temperature, before neighbours see them
    // A backend that returns at once (the host) exchanges now; one that queues its work
    // (the device) at the start of the next step, overlapped.
    if (backend_->queues_work())
      ghosts_stale_ = exchange_.active();
    else
      exchange();
    time_ += h;
    ++step_;
    if (config_.steady_tol > 0 && step_ % config_.check_every == 0) {
      // cur_ is T^{n+1}, next_ still T^n: one reduction, one number to the host.
      last_rate_ =
          parallel::allreduce_max(max_abs_difference(cur_.view("T", "", Centering::point),
                                                     next_.view("T", "", Centering::point))) /
          h;
      if (!steady_ && last_rate_ < config_.steady_tol) steady_step_ = step_;
      steady_ = steady_ || last_rate_ < config_.steady_tol;
    }
  }

  void step_cells(HeatStepArgs<T> a, const parallel::CellBox& b) {
    a.lo = b.lo;
    a.hi = b.hi;
    backend_->step(a);
  }

  BackendKind kind_;
  ParamSet params_;
  HeatConfig config_;
  HeatSteering<T> steering_;
  std::unique_ptr<HeatBackend<T>> backend_;
  parallel::LocalBox box_;
  parallel::GhostExchange exchange_;
  bool ghosts_stale_ = false;                      // cur_'s ghosts at faces shared with other ranks
  std::optional<parallel::OverlapBoxes> overlap_;  // device under MPI, where the box allows
  Grid grid_;
  Field<T> cur_, next_;
  double dt_ = 0, time_ = 0;
  std::int64_t step_ = 0;
  double last_rate_ = INFINITY;
  bool steady_ = false;
  std::int64_t steady_step_ = 0;
};

}  // namespace

std::unique_ptr<Solver> make_solver(BackendKind backend, Precision precision) {
  if (precision == Precision::f32) return std::make_unique<HeatSolver<float>>(backend);
  return std::make_unique<HeatSolver<double>>(backend);
}

}  // namespace fluxview::heat
