// The fv solver's step: TVD RK2 in two stages, the ghosts each stage reads, and the CFL
// rate of the next step (the class: FvSolverImpl.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "sim/fv/FvSolverImpl.hpp"
#include "sim/fv/WenoReconstruction.hpp"

namespace fluxview::fv {

template <class T>
void FvSolver<T>::fill_ghosts(const Conserved<T>& u, double t) {
  backend_->fill_boundary_ghosts(u, nv_, layout(), ghosts_);
  if (config_.init == FvInit::double_mach)
    backend_->fill_double_mach_ghosts(u, nv_, layout(), ghosts_, grid_, ph_, t);
  static_assert(kMaxVars <= parallel::GhostExchange::kMaxFields);
  void* fields[parallel::GhostExchange::kMaxFields];
  for (int m = 0; m < nv_; ++m) fields[m] = u.f[m];
  exchange_.exchange(fields, nv_);  // one message per neighbour for every variable
}

// A step is the stages of the time stepper's schedule (TimeSteppers.hpp): each has the
// ghosts of its input register filled, computes L of it once, and writes one or two registers as
// weight_u0 U0 + weight_in (in + dt' L), dt' = b / weight_in dt. For TVD RK2 this is the
// two stages of eq. 8 exactly as before.
// c_h is the largest speed at which the cleaning waves obey the step's CFL condition:
// dt sum_a c_h / dx_a = dt rate = cfl, so c_h = rate / sum_a (1/dx_a), about the fastest
// signal speed of the grid (Wang et al. tie it to that; Dedner et al. 2002). The same on
// every rank (the rate is reduced), so MPI runs stay bit-identical. psi then decays at
// alpha c_h / dx_min (Mignone & Tzeferacos 2010).
template <class T>
void FvSolver<T>::set_cleaning() {
  double inv_sum = 0, inv_max = 0;
  for (int a = 0; a < 3; ++a) {
    inv_sum += double(inv_dx_[a]);
    inv_max = std::max(inv_max, double(inv_dx_[a]));
  }
  const double ch = config_.cleaning && inv_sum > 0 ? rate_ / inv_sum : 0.0;
  ph_.ch = T(ch);
  ph_.psi_decay = T(config_.glm_alpha * ch * inv_max);
}

template <class T>
void FvSolver<T>::step_by(double h) {
  if (mhd()) set_cleaning();
  const RkScheme sch = rk_scheme(config_.time);
  const Conserved<T> reg[kMaxRkRegisters] = {fields_of(state_), fields_of(stage_),
                                             third_.empty() ? Conserved<T>{} : fields_of(third_)};
  StageArgs<T> a;
  a.nv = nv_;
  a.layout = layout();
  for (int d = 0; d < 3; ++d) a.inv_dx[d] = inv_dx_[d];
  a.ph = ph_;
  a.corrected = counter(0);
  a.tile_rows = tile_rows_;
  a.path = stage_path(config_);
  a.degree = reconstruction_degree(config_.reconstruction);
  a.weno_slope = config_.reconstruction == Reconstruction::weno2;
  for (int d = 0; d < 3; ++d) a.weno2_floor[d] = T(weno2_floor_fraction(config_.grid.n[d]));
  a.ader = config_.time == TimeStepper::ader;
  a.vars = config_.variables;
  a.times = config_.time_passes ? &times_ : nullptr;
  for (int st = 0; st < sch.stages; ++st) {
    const RkStage& g = sch.stage[st];
    const Conserved<T> in = reg[g.in];
    // U^n's ghosts are fresh between steps (filled at the end of the last step, and by
    // every change of the state between steps: reset, restart, steering); the later
    // stages' inputs are filled here.
    if (st > 0 || g.in != 0) fill_ghosts(in, time_ + g.time * h);
    a.in = in;
    for (int o = 0; o < g.outputs; ++o) {
      const RkOutput& out = g.out[o];
      const StageWeights sw = stage_weights(g, out);
      const Conserved<T> u0 = sw.other >= 0 ? reg[sw.other] : in;
      const T w0 = T(sw.weight_u0), w = T(sw.weight_in);
      const T dt = T(sw.dt_per_h * h);
      if (o == 0) {
        a.u0 = u0;
        a.out = reg[out.reg];
        a.weight_u0 = w0;
        a.weight_in = w;
        a.dt = dt;
      } else {
        a.u0_2 = u0;
        a.out_2 = reg[out.reg];
        a.weight_u0_2 = w0;
        a.weight_in_2 = w;
        a.dt_2 = dt;
      }
    }
    a.outputs = g.outputs;
    // The last stage reduces the next CFL rate on the way.
    a.rate_bits = st + 1 == sch.stages ? counter(1) : nullptr;
    stage(a);  // FvSteering.cpp: the backend's, or honouring obstacles
  }
  // The step's result is where the schedule left it; state_ holds U^n+1 between steps.
  if (sch.result == 1) std::swap(state_, stage_);
  if (sch.result == 2) std::swap(state_, third_);
  time_ += h;
  ++step_;
  // The new state's ghosts now, not at the next step's start: between steps views that
  // read neighbours (MHD's div B) find them filled, and a step fills no more than before.
  fill_ghosts(fields_of(state_), time_);
  unsigned long long bits = 0;
  copy_bytes(&bits, Location::host, counter(1), where(), sizeof bits);
  std::memcpy(&rate_, &bits, sizeof rate_);
  reduce_rate();
  check_rate();
  dt_ = next_dt();
}

template <class T>
void FvSolver<T>::rate_from_state() {
  rate_ = backend_->max_rate(fields_of(state_), nv_, layout(), ph_, inv_dx_);
  reduce_rate();
  check_rate();
  dt_ = next_dt();
}

template <class T>
void FvSolver<T>::reduce_rate() {
  if (parallel::size() == 1) return;
  rate_ = parallel::allreduce_max(std::isfinite(rate_) ? rate_ : INFINITY);
}

template <class T>
void FvSolver<T>::check_rate() const {
  if (std::isfinite(rate_)) return;
  std::ostringstream m;
  m << "fv: the state is no longer finite (NaN or Inf) after step " << step_ << " at t = " << time_
    << "; try a smaller fv.cfl, fv.reconstruction = constant or fv.riemann = hll";
  throw InstabilityError(m.str());
}

template <class T>
std::uint64_t FvSolver<T>::corrected() const {
  unsigned long long v = 0;
  copy_bytes(&v, Location::host, counters_.data(), where(), sizeof v);
  return v;
}

#define FLUXVIEW_FV_STEPPING(T)                                        \
  template void FvSolver<T>::fill_ghosts(const Conserved<T>&, double); \
  template void FvSolver<T>::set_cleaning();                           \
  template void FvSolver<T>::step_by(double);                          \
  template void FvSolver<T>::rate_from_state();                        \
  template void FvSolver<T>::reduce_rate();                            \
  template void FvSolver<T>::check_rate() const;                       \
  template std::uint64_t FvSolver<T>::corrected() const;
FLUXVIEW_FV_STEPPING(float)
FLUXVIEW_FV_STEPPING(double)
#undef FLUXVIEW_FV_STEPPING

}  // namespace fluxview::fv
