// The fd solver's CUDA entry points in a build without CUDA.
#include <stdexcept>

#include "sim/fd/FdStep.hpp"

namespace fluxview::fd {

namespace {
[[noreturn]] void no_cuda() {
  throw std::runtime_error("this fluxview was built without CUDA; use --backend cpu");
}
}  // namespace

template <class T>
void fill_ghosts_cuda(T* const*, int, const FieldLayout&) {
  no_cuda();
}
template <class T>
void substep_cuda(Method, const SubstepArgs<T>&) {
  no_cuda();
}
bool box_passes_supported(Method) {
  return false;
}
template <class T>
void div_pass_cuda(const SubstepArgs<T>&) {
  no_cuda();
}
template <class T>
void rate_pass_cuda(const SubstepArgs<T>&) {
  no_cuda();
}
template <class T>
FlowSums flow_sums_cuda(const T* const*, const FieldLayout&) {
  no_cuda();
}
template <class T>
double max_u2_cuda(const T* const*, const FieldLayout&) {
  no_cuda();
}

#define FLUXVIEW_FD_INSTANTIATE(T)                                          \
  template void fill_ghosts_cuda<T>(T* const*, int, const FieldLayout&);    \
  template void substep_cuda<T>(Method, const SubstepArgs<T>&);             \
  template void div_pass_cuda<T>(const SubstepArgs<T>&);                    \
  template void rate_pass_cuda<T>(const SubstepArgs<T>&);                   \
  template FlowSums flow_sums_cuda<T>(const T* const*, const FieldLayout&); \
  template double max_u2_cuda<T>(const T* const*, const FieldLayout&);
FLUXVIEW_FD_INSTANTIATE(float)
FLUXVIEW_FD_INSTANTIATE(double)

}  // namespace fluxview::fd
