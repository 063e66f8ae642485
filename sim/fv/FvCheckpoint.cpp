// The fv solver's checkpoints (the class: FvSolverImpl.hpp). A checkpoint holds the
// conserved interiors (what a step reads; ghosts are refilled), the clock and the
// corrected-cell count. The next dt is recomputed from the state by the same formula the
// last stage's reduction used, so a restart continues bit-identically.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/fv/FvSolverImpl.hpp"

namespace fluxview::fv {

namespace {

// Names of the conserved fields in checkpoints.
constexpr const char* kConservedNames[] = {"rho", "mom_x", "mom_y", "mom_z", "E", "rho_c"};
const std::string kCorrectedKey = "corrected_cells=";

}  // namespace

template <class T>
SolverState FvSolver<T>::save_state() const {
  SolverState st;
  st.time = time_;
  st.step = step_;
  for (int m = 0; m < nv_; ++m)
    st.arrays.push_back({kConservedNames[m],
                         gather_interior(state_[m].view(kConservedNames[m], "", Centering::cell))});
  // The run's total, not this rank's: a restart on another rank count puts it on rank 0
  // (load_state), so the diagnostic, a sum over ranks, carries on unchanged.
  st.extra = kCorrectedKey + std::to_string(parallel::allreduce_sum(std::int64_t(corrected())));
  save_solids(st);  // the obstacles, if any, as one more array
  return st;
}

template <class T>
void FvSolver<T>::load_state(const SolverState& st) {
  if (int(st.arrays.size()) != nv_ &&
      !(int(st.arrays.size()) == nv_ + 1 && st.arrays.back().name == kSolidArray))
    throw std::runtime_error("fv checkpoint holds " + std::to_string(st.arrays.size()) +
                             " arrays but this run has " + std::to_string(nv_) +
                             " conserved fields (is fv.tracer the same?)");
  for (int m = 0; m < nv_; ++m) {
    if (st.arrays[m].name != kConservedNames[m])
      throw std::runtime_error("fv checkpoint array " + std::to_string(m) + " is '" +
                               st.arrays[m].name + "', expected '" + kConservedNames[m] + "'");
    scatter_interior(st.arrays[m].values, state_[m].data(), layout(), where());
  }
  unsigned long long count = 0;
  if (st.extra.rfind(kCorrectedKey, 0) == 0 && parallel::is_root())
    count = std::stoull(st.extra.substr(kCorrectedKey.size()));
  copy_bytes(counters_.data(), where(), &count, Location::host, sizeof count);
  load_solids(st);
  time_ = st.time;
  step_ = st.step;
  fill_ghosts(fields_of(state_));
  rate_from_state();
}

template SolverState FvSolver<float>::save_state() const;
template SolverState FvSolver<double>::save_state() const;
template void FvSolver<float>::load_state(const SolverState&);
template void FvSolver<double>::load_state(const SolverState&);

}  // namespace fluxview::fv
