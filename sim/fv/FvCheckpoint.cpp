// The fv solver's checkpoints (the class: FvSolverImpl.hpp). A checkpoint holds the
// conserved interiors (what a step reads; ghosts are refilled), the clock, the
// corrected-cell count and the scheme that wrote it (a restart with another scheme is
// refused unless fv.allow_scheme_change asks for it: it would not continue the run). The next dt is
// recomputed from the state by the same formula the last stage's reduction used, so a restart
// continues bit-identically.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/fv/FvSolverImpl.hpp"

namespace fluxview::fv {

namespace {

const std::string kCorrectedKey = "corrected_cells=";
const std::string kSchemeKey = "\nscheme=";

}  // namespace

template <class T>
SolverState FvSolver<T>::save_state() const {
  SolverState st;
  st.time = time_;
  st.step = step_;
  for (int m = 0; m < nv_; ++m)
    st.arrays.push_back(
        {conserved_name(nv_, m),
         gather_interior(state_[m].view(conserved_name(nv_, m), "", Centering::cell))});
  // The run's total, not this rank's: a restart on another rank count puts it on rank 0
  // (load_state), so the diagnostic, a sum over ranks, carries on unchanged.
  st.extra = kCorrectedKey + std::to_string(parallel::allreduce_sum(std::int64_t(corrected()))) +
             kSchemeKey + scheme_name(config_);
  save_solids(st);  // the obstacles, if any, as one more array
  return st;
}

template <class T>
void FvSolver<T>::load_state(const SolverState& st) {
  // The scheme that wrote it (checkpoints from before schemes were recorded have none).
  const std::size_t at = st.extra.find(kSchemeKey);
  if (at != std::string::npos)
    check_checkpoint_scheme(st.extra.substr(at + kSchemeKey.size()), config_);
  if (int(st.arrays.size()) != nv_ &&
      !(int(st.arrays.size()) == nv_ + 1 && st.arrays.back().name == kSolidArray))
    throw std::runtime_error("fv checkpoint holds " + std::to_string(st.arrays.size()) +
                             " arrays but this run has " + std::to_string(nv_) +
                             " conserved fields (are fv.tracer and fv.physics the same?)");
  for (int m = 0; m < nv_; ++m) {
    if (st.arrays[m].name != conserved_name(nv_, m))
      throw std::runtime_error("fv checkpoint array " + std::to_string(m) + " is '" +
                               st.arrays[m].name + "', expected '" + conserved_name(nv_, m) + "'");
    scatter_interior(st.arrays[m].values, state_[m].data(), layout(), where());
  }
  unsigned long long count = 0;
  if (st.extra.rfind(kCorrectedKey, 0) == 0 && parallel::is_root())
    count = std::stoull(st.extra.substr(kCorrectedKey.size()));
  copy_bytes(counters_.data(), where(), &count, Location::host, sizeof count);
  load_solids(st);
  time_ = st.time;
  step_ = st.step;
  fill_ghosts(fields_of(state_), time_);
  rate_from_state();
}

template SolverState FvSolver<float>::save_state() const;
template SolverState FvSolver<double>::save_state() const;
template void FvSolver<float>::load_state(const SolverState&);
template void FvSolver<double>::load_state(const SolverState&);

}  // namespace fluxview::fv
