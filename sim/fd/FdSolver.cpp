// The fd solver: owns ln rho and u (two copies, read and write, swapped after every RK
// substep), the four 2N-storage registers and, for the two-pass method, the div u field,
// all where its backend computes, with periodic ghost zones of width 3 filled before every
// substep.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/core/Field.hpp"
#include "sim/core/GhostExchange.hpp"
#include "sim/core/OverlapBoxes.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/fd/FdConfig.hpp"
#include "sim/fd/FdForcing.hpp"
#include "sim/fd/FdInitial.hpp"
#include "sim/fd/FdSolver.hpp"
#include "sim/fd/FdSteering.hpp"
#include "sim/fd/FdStep.hpp"

namespace fluxview::fd {

namespace {

const char* const kNames[kVars] = {"lnrho", "ux", "uy", "uz"};

template <class T>
class FdSolver final : public Solver {
 public:
  explicit FdSolver(BackendKind b) : kind_(b) {}

  void reset(const ParamSet& p) override {
    params_ = p;
    config_ = parse_config(p);
    backend_ = make_backend<T>(kind_);
    const std::array<int, 3>& n = config_.grid.n;
    // Under MPI this rank holds one box of the periodic global grid (sim/core/Parallel.hpp).
    box_ = parallel::split(n, {true, true, true}, kRadius);
    const std::array<int, 3> local = box_.n;
    grid_ = Grid{};
    grid_.n = n;
    grid_.offset = box_.offset;
    grid_.ghost = kRadius;
    grid_.centering = Centering::cell;
    dxmin_ = INFINITY;
    for (int a = 0; a < 3; ++a) {
      grid_.spacing[a] = config_.grid.length[a] / n[a];
      grid_.origin[a] = 0.5 * grid_.spacing[a];
      if (n[a] > 1) dxmin_ = std::fmin(dxmin_, grid_.spacing[a]);
    }
    form_ = formulation_of(config_.method);
    rng_.reseed(config_.seed);
    shell_ = make_shell(config_.kmin, config_.kmax, {n[0] > 1, n[1] > 1, n[2] > 1});
    forcing_ = config_.forcing && !shell_.k.empty();
    time_ = 0;
    step_ = 0;
    last_draw_ = ForcingDraw{};

    const Location where = backend_->where();
    Field<T> host[kVars];
    for (auto& h : host) h = Field<T>(local, kRadius, Location::host);
    fill_initial(host, config_, grid_);
    const int count = 3 * kVars + (form_ == Formulation::m19 ? 1 : 0);
    backend_->require_memory(count * host[0].layout().bytes());
    for (int v = 0; v < kVars; ++v) {
      state_[v] = Field<T>(local, kRadius, where);
      next_[v] = Field<T>(local, kRadius, where);
      rk_w_[v] = Field<T>(local, kRadius, where);
      copy_bytes(state_[v].data(), where, host[v].data(), Location::host, host[v].layout().bytes());
    }
    div_ = form_ == Formulation::m19 ? Field<T>(local, kRadius, where) : Field<T>();
    exchange_ = parallel::GhostExchange(box_, state_[0].layout(), where, config_.parallel.ghosts);
    plan_overlap();
    fill_ghosts(state_);
    update_dt();
    steering_.reset(kind_, grid_);
  }

  void synchronize() override {
    if (ghosts_stale_) fill_ghosts(state_);  // whoever reads the fields next sees every ghost
    backend_->wait();
    backend_->check("fd step");
  }

  double time() const override { return time_; }
  std::int64_t step() const override { return step_; }
  double dt() const override { return dt_; }

  const Grid& grid() const override { return grid_; }
  BackendKind backend() const override { return kind_; }
  Precision precision() const override { return precision_of<T>(); }
  std::vector<FieldInfo> fields() const override {
    return {{"lnrho", "", "logarithm of the density"},  // may be negative: not must_be_positive
            {"ux", "", "velocity along x"},
            {"uy", "", "velocity along y"},
            {"uz", "", "velocity along z"}};
  }
  FieldView view(const std::string& name) const override {
    for (int v = 0; v < kVars; ++v)
      if (name == kNames[v]) return state_[v].view(name, "", Centering::cell);
    throw std::out_of_range("fd solver has no field '" + name + "' (it has lnrho, ux, uy, uz)");
  }

  std::vector<Diagnostic> diagnostics() override {
    FlowSums s = backend_->flow_sums(state_pointers(), state_[0].layout());
    s.mass = parallel::allreduce_sum(s.mass);
    s.kinetic = parallel::allreduce_sum(s.kinetic);
    s.u2 = parallel::allreduce_sum(s.u2);
    s.u2_max = parallel::allreduce_max(s.u2_max);
    s.nonfinite = parallel::allreduce_sum(s.nonfinite);
    const double dv = grid_.spacing[0] * grid_.spacing[1] * grid_.spacing[2];
    const double cells = double(grid_.cells());
    const double umax = std::sqrt(s.u2_max);
    return {
        {"mass", "", s.mass * dv},
        {"kinetic_energy", "", s.kinetic * dv},
        {"u_rms", "", std::sqrt(s.u2 / cells)},
        {"u_max", "", umax},
        {"mach_max", "", umax / config_.cs},
        {"dt", "", dt_},
        {"nonfinite_cells", "", double(s.nonfinite)},
    };
  }

  // The DRAM traffic of one full RK3 step per cell, each array counted once per pass
  // (halo re-reads served by caches, ghost filling not counted): substep 1 reads f and
  // writes f and w (alpha = 0), substep 2 reads and writes both, substep 3 reads both and
  // writes f (w is dead): 40 values; the two-pass method adds 3 reads of u, a write and a
  // read of div u per substep (15); the automatic time step reads u once (3).
  double bytes_per_cell_update() const override {
    double values = 40;
    if (form_ == Formulation::m19) values += 15;
    if (config_.dt <= 0) values += 3;
    return values * sizeof(T);
  }

  std::vector<std::pair<std::string, std::string>> run_facts() const override {
    auto num = [](double v) {
      std::ostringstream o;
      o.precision(10);
      o << v;
      return o.str();
    };
    std::vector<std::pair<std::string, std::string>> f = {
        {"method", std::string(method_name(config_.method))},
        {"formulation", form_ == Formulation::m55 ? "single-pass 55-point (mixed derivatives)"
                                                  : "two-pass 19-point (div u field first)"},
        {"kernel", backend_->kernel(config_.method)},
        {"time_integrator",
         "2N-storage RK3 (Williamson), alpha = 0, -5/9, -153/128, beta = 1/3, "
         "15/16, 8/15"},
        {"courant", num(config_.courant)},
        {"dt", num(dt_)},
        {"dt_limit", config_.dt > 0 ? "fixed (fd.dt)" : dt_limit_},
        {"ghost_width", "3 (periodic)"},
        {"seed", std::to_string(config_.seed)},
    };
    if (forcing_) {
      f.push_back({"forcing_shell_vectors", std::to_string(shell_.k.size())});
      f.push_back({"forcing_kf", num(shell_.mean_k)});
    }
    return f;
  }

  // A checkpoint: the interiors of ln rho and u (the RK registers are dead between steps,
  // ghosts are refilled), the clock, and the forcing generator's four words in `extra`.
  std::string checkpoint_refusal() const override { return ""; }
  SolverState save_state() const override {
    SolverState st;
    st.time = time_;
    st.step = step_;
    for (int v = 0; v < kVars; ++v)
      st.arrays.push_back({kNames[v], gather_interior(view(kNames[v]))});
    const auto r = rng_.state();
    std::ostringstream e;
    e << "rng " << r[0] << ' ' << r[1] << ' ' << r[2] << ' ' << r[3];
    st.extra = e.str();
    return st;
  }

  void load_state(const SolverState& st) override {
    if (st.arrays.size() != kVars)
      throw std::runtime_error("fd checkpoint must hold lnrho, ux, uy and uz");
    for (int v = 0; v < kVars; ++v) {
      if (st.arrays[v].name != kNames[v])
        throw std::runtime_error("fd checkpoint: expected array '" + std::string(kNames[v]) +
                                 "', found '" + st.arrays[v].name + "'");
      scatter_interior(st.arrays[v].values, state_[v].data(), state_[v].layout(),
                       state_[v].where());
    }
    std::istringstream e(st.extra);
    std::string tag;
    std::array<std::uint64_t, 4> r{};
    if (!(e >> tag >> r[0] >> r[1] >> r[2] >> r[3]) || tag != "rng")
      throw std::runtime_error("fd checkpoint: missing forcing generator state ('rng ...')");
    rng_.set_state(r);
    time_ = st.time;
    step_ = st.step;
    fill_ghosts(state_);
    update_dt();
  }

  // Steering (FdSteering.hpp): the forcing's shell and the time step follow a live change;
  // after a stroke the ghosts are filled and the step worked out again.
  void set_live(const std::string& key, const ParamValue& v) override {
    const ParamSet p = live_change(params_, key, v, family().validate);
    params_ = p;
    config_ = parse_config(p);
    const std::array<int, 3>& n = config_.grid.n;
    shell_ = make_shell(config_.kmin, config_.kmax, {n[0] > 1, n[1] > 1, n[2] > 1});
    forcing_ = config_.forcing && !shell_.k.empty();
    update_dt();
  }
  std::vector<ToolSpec> tools() const override { return steering_.tools(config_); }
  ToolReport apply_tool(const ToolCall& call) override {
    T* f[kVars] = {state_[0].data(), state_[1].data(), state_[2].data(), state_[3].data()};
    const ToolReport r = steering_.apply(call, f, state_[0].layout(), config_);
    fill_ghosts(state_);
    update_dt();
    return r;
  }

 private:
  // Periodic ghosts: wrapped within the rank, then, under MPI, the axes split over ranks
  // are overwritten from the neighbours (axis by axis, so edges and corners too).
  void fill_ghosts(Field<T>* f) {
    wrap_ghosts(f);
    exchange_all(f);
    ghosts_stale_ = false;
  }
  // Faces shared with other ranks, one message per neighbour for all four fields.
  void exchange_all(Field<T>* f) {
    void* fields[kVars] = {f[0].data(), f[1].data(), f[2].data(), f[3].data()};
    exchange_.exchange(fields, kVars);
  }
  void wrap_ghosts(Field<T>* f) {
    T* p[kVars] = {f[0].data(), f[1].data(), f[2].data(), f[3].data()};
    backend_->wrap_ghosts(p, kVars, f[0].layout());
  }

  const T* const* state_pointers() {
    for (int v = 0; v < kVars; ++v) state_ptr_[v] = state_[v].data();
    return state_ptr_;
  }

  // Where the backend queues its work (the device) under MPI, with the default method (the
  // one computed by exactly the two passes div_pass and rate_pass): each pass updates the cells
  // whose stencil reads no ghost of a face shared with another rank while the ghosts it
  // needs travel (the state's before pass 1, div u's before pass 2), then the faces, three cells
  // thick. state_ arrives wrapped; its shared faces come here. Off unless
  // run.mpi_overlap = on: on 2 and 4 H200s at 512^3 it gained nothing (the exchange is
  // a few per cent of a 25 ms step, and the thin face launches cost about as much).
  void plan_overlap() {
    overlap_.reset();
    if (!backend_->queues_work() || !exchange_.active() || config_.method != Method::fast ||
        !parallel::overlap_wanted(false, config_.parallel.overlap))
      return;
    const auto& n = state_[0].layout().n;
    overlap_ = parallel::overlap_boxes(box_, n, {kRadius, kRadius, kRadius},
                                       {n[0] - kRadius, n[1] - kRadius, n[2] - kRadius});
  }

  void substep_overlapped(const SubstepArgs<T>& a) {
    const auto in_box = [&](const parallel::CellBox& b) { return restrict_to_box(a, b.lo, b.hi); };
    exchange_.fields_ready();
    backend_->div_pass(in_box(overlap_->interior));
    exchange_all(state_);  // the host waits for MPI while pass 1 runs
    for (const auto& b : overlap_->faces) backend_->div_pass(in_box(b));
    T* div = div_.data();
    backend_->wrap_ghosts(&div, 1, a.layout);
    exchange_.fields_ready();
    backend_->rate_pass(in_box(overlap_->interior));
    void* d[1] = {div};
    exchange_.exchange(d, 1);
    for (const auto& b : overlap_->faces) backend_->rate_pass(in_box(b));
  }

  ForceArgs<T> step_force(double h) {
    ForceArgs<T> fa;
    if (!forcing_) return fa;
    last_draw_ = draw_forcing(rng_, shell_);
    double kphys[3], k2 = 0;
    for (int a = 0; a < 3; ++a) {
      kphys[a] = 2 * std::numbers::pi * last_draw_.k[a] / config_.grid.length[a];
      k2 += kphys[a] * kphys[a];
    }
    const double cs = config_.cs;
    const double norm = config_.f0 * cs * std::sqrt(std::sqrt(k2) * cs / h);  // eq. 25
    fa.on = true;
    for (int a = 0; a < 3; ++a) {
      fa.k[a] = T(kphys[a]);
      fa.amp[a] = T(norm * last_draw_.f_k[a]);
      fa.x0[a] = T(grid_.origin[a]);
      fa.offset[a] = grid_.offset[a];
      fa.dx[a] = T(grid_.spacing[a]);
    }
    fa.phase = T(last_draw_.phase);
    return fa;
  }

  void step_by(double h) override {
    SubstepArgs<T> a;
    a.layout = state_[0].layout();
    for (int ax = 0; ax < 3; ++ax) {
      const bool on = grid_.n[ax] > 1;
      const double d = grid_.spacing[ax];
      a.c.d1[ax] = on ? T(1 / (60 * d)) : T(0);
      a.c.d2[ax] = on ? T(1 / (180 * d * d)) : T(0);
    }
    const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int q = 0; q < 3; ++q) {
      const int x = pairs[q][0], y = pairs[q][1];
      const bool on = grid_.n[x] > 1 && grid_.n[y] > 1;
      a.c.dm[q] = on ? T(1 / (720 * grid_.spacing[x] * grid_.spacing[y])) : T(0);
    }
    a.cs2 = T(config_.cs * config_.cs);
    a.nu = T(config_.nu);
    a.dt = T(h);
    a.force = step_force(h);
    a.div = div_.data();
    if (parallel::size() > 1) {
      a.div_ghost_hook = [](void* self, T* div) {
        void* fields[1] = {div};
        static_cast<FdSolver*>(self)->exchange_.exchange(fields, 1);
      };
      a.hook_context = this;
    }
    for (int s = 0; s < 3; ++s) {
      // reset() and the end of each step leave state_ filled (or, overlapping, wrapped,
      // the faces shared with other ranks to come in the substep).
      if (s > 0 && overlap_)
        wrap_ghosts(state_);
      else if (s > 0)
        fill_ghosts(state_);
      for (int v = 0; v < kVars; ++v) {
        a.in[v] = state_[v].data();
        a.out[v] = next_[v].data();
        a.w[v] = rk_w_[v].data();
      }
      a.alpha = T(kRkAlpha[s]);
      a.beta = T(kRkBeta[s]);
      a.first = s == 0;
      a.last = s == 2;
      if (overlap_)
        substep_overlapped(a);
      else
        backend_->substep(config_.method, a);
      for (int v = 0; v < kVars; ++v) std::swap(state_[v], next_[v]);
    }
    if (overlap_) {
      wrap_ghosts(state_);
      ghosts_stale_ = true;  // the next substep (or synchronize()) brings them
    } else {
      fill_ghosts(state_);
    }
    time_ += h;
    ++step_;
    update_dt();
  }

  void update_dt() {
    if (config_.dt > 0) {
      dt_ = config_.dt;
      return;
    }
    // max is exact in any order, so every rank (and a serial run) gets the same dt.
    const double u2 =
        parallel::allreduce_max(backend_->max_u2(state_pointers(), state_[0].layout()));
    if (!std::isfinite(u2)) {
      std::ostringstream m;
      m << "fd: the velocity is no longer finite at step " << step_ << ", t = " << time_
        << " (dt = " << dt_ << ", fd.nu = " << config_.nu
        << "); lower fd.courant or raise fd.nu, or use a finer grid";
      throw InstabilityError(m.str());
    }
    const double courant = config_.courant, cs = config_.cs;
    if (!std::isfinite(dxmin_)) {
      dt_ = courant / cs;
      dt_limit_ = "none (a single cell)";
      return;
    }
    const double adv = courant * dxmin_ / (std::sqrt(u2) + cs);
    const double visc = courant * dxmin_ * dxmin_ / (5 * config_.nu);
    dt_ = std::fmin(adv, visc);
    dt_limit_ = adv <= visc ? "advective: C dx / (|u|max + cs)" : "viscous: C dx^2 / (5 nu)";
  }

  BackendKind kind_;
  ParamSet params_;
  FdConfig config_;
  FdSteering<T> steering_;
  std::unique_ptr<FdBackend<T>> backend_;
  parallel::LocalBox box_;
  Grid grid_;
  double dxmin_ = 1;
  double dt_ = 0, time_ = 0;
  std::string dt_limit_;
  std::int64_t step_ = 0;
  Formulation form_ = Formulation::m19;
  bool forcing_ = false;  // fd.forcing, with a shell that holds wave vectors
  ForcingRng rng_;
  ForcingShell shell_;
  ForcingDraw last_draw_;
  // ln rho and u: state_ is read by a substep, next_ written, then the two swap; rk_w_ the
  // 2N-storage registers of RK3; div_ the div u field of the two-pass formulation.
  Field<T> state_[kVars], next_[kVars], rk_w_[kVars], div_;
  const T* state_ptr_[kVars] = {};
  parallel::GhostExchange exchange_;               // state_, next_ and div_ share one layout
  std::optional<parallel::OverlapBoxes> overlap_;  // device under MPI, default method
  bool ghosts_stale_ = false;  // state_'s faces shared with other ranks, when overlapping
};

}  // namespace

std::unique_ptr<Solver> make_solver(BackendKind backend, Precision precision) {
  if (precision == Precision::f32) return std::make_unique<FdSolver<float>>(backend);
  return std::make_unique<FdSolver<double>>(backend);
}

}  // namespace fluxview::fd
