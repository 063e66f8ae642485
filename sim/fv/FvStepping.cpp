// The fv solver's step: TVD RK2 in two stages, the ghosts each stage reads, and the CFL
// rate of the next step (the class: FvSolverImpl.hpp).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "sim/fv/FvSolverImpl.hpp"

namespace fluxview::fv {

template <class T>
void FvSolver<T>::fill_ghosts(const Conserved<T>& u) {
  backend_->fill_boundary_ghosts(u, nv_, layout(), ghosts_);
  void* fields[parallel::GhostExchange::kMaxFields];
  for (int m = 0; m < nv_; ++m) fields[m] = u.f[m];
  exchange_.exchange(fields, nv_);  // one message per neighbour for every variable
}

template <class T>
void FvSolver<T>::step_by(double h) {
  const Conserved<T> u = fields_of(state_), u1 = fields_of(stage_);
  StageArgs<T> a;
  a.nv = nv_;
  a.layout = layout();
  a.dt = T(h);
  for (int d = 0; d < 3; ++d) a.inv_dx[d] = inv_dx_[d];
  a.ph = ph_;
  a.corrected = counter(0);
  a.tile_rows = tile_rows_;
  // Stage 1: U1 = U + dt L(U).
  fill_ghosts(u);
  a.u0 = u;
  a.in = u;
  a.out = u1;
  a.weight_u0 = T(0);
  a.weight_in = T(1);
  stage(a);
  // Stage 2: U = 1/2 U + 1/2 (U1 + dt L(U1)), with the next CFL rate reduced on the way.
  fill_ghosts(u1);
  a.in = u1;
  a.out = u;
  a.weight_u0 = T(0.5);
  a.weight_in = T(0.5);
  a.rate_bits = counter(1);
  stage(a);
  time_ += h;
  ++step_;
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

#define FLUXVIEW_FV_STEPPING(T)                                \
  template void FvSolver<T>::fill_ghosts(const Conserved<T>&); \
  template void FvSolver<T>::step_by(double);                  \
  template void FvSolver<T>::rate_from_state();                \
  template void FvSolver<T>::reduce_rate();                    \
  template void FvSolver<T>::check_rate() const;               \
  template std::uint64_t FvSolver<T>::corrected() const;
FLUXVIEW_FV_STEPPING(float)
FLUXVIEW_FV_STEPPING(double)
#undef FLUXVIEW_FV_STEPPING

}  // namespace fluxview::fv
