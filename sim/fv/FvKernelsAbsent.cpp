// The fv solver's CUDA entry points in a build without CUDA.
#include <stdexcept>

#include "sim/fv/FvStep.hpp"

namespace fluxview::fv {

namespace {
[[noreturn]] void no_cuda() {
  throw std::runtime_error("this fluxview was built without CUDA; use --backend cpu");
}
}  // namespace

template <class T>
void fill_ghosts_cuda(const Conserved<T>&, int, const FieldLayout&, const GhostArgs&) {
  no_cuda();
}
template <class T>
void stage_cuda(const StageArgs<T>&) {
  no_cuda();
}
template <class T>
double max_rate_cuda(const Conserved<T>&, int, const FieldLayout&, const Physics<T>&, const T[3]) {
  no_cuda();
}
template <class T>
Totals totals_cuda(const Conserved<T>&, int, const FieldLayout&, const Physics<T>&) {
  no_cuda();
}
template <class T>
void derived_cuda(const Conserved<T>&, int, const FieldLayout&, const Physics<T>&, Derived, T*) {
  no_cuda();
}

#define FLUXVIEW_FV_ABSENT(T)                                                                      \
  template void fill_ghosts_cuda<T>(const Conserved<T>&, int, const FieldLayout&,                  \
                                    const GhostArgs&);                                             \
  template void stage_cuda<T>(const StageArgs<T>&);                                                \
  template double max_rate_cuda<T>(const Conserved<T>&, int, const FieldLayout&,                   \
                                   const Physics<T>&, const T[3]);                                 \
  template Totals totals_cuda<T>(const Conserved<T>&, int, const FieldLayout&, const Physics<T>&); \
  template void derived_cuda<T>(const Conserved<T>&, int, const FieldLayout&, const Physics<T>&,   \
                                Derived, T*);
FLUXVIEW_FV_ABSENT(float)
FLUXVIEW_FV_ABSENT(double)
#undef FLUXVIEW_FV_ABSENT

}  // namespace fluxview::fv
