// The adaptive mesh's CUDA entry points in a build without CUDA.
#include <stdexcept>

#include "sim/amr/AmrBackend.hpp"

namespace fluxview::amr {

namespace {
[[noreturn]] void no_cuda() {
  throw std::runtime_error("this fluxview was built without CUDA; use --backend cpu");
}
}  // namespace

template <class T>
void fill_ghosts_cuda(const PoolView<T>&, const GhostTask*, int, int, const FillParams&,
                      const fv::Physics<T>&) {
  no_cuda();
}
template <class T>
void remap_cuda(const PoolView<T>&, const PoolView<T>&, const RemapTask*, int, const FillParams&,
                const fv::Physics<T>&) {
  no_cuda();
}
template <class T>
void indicators_cuda(const PoolView<T>&, int, const FillParams&, const fv::Physics<T>&, T, T*) {
  no_cuda();
}

#define FLUXVIEW_AMR_ABSENT(T)                                                               \
  template void fill_ghosts_cuda<T>(const PoolView<T>&, const GhostTask*, int, int,          \
                                    const FillParams&, const fv::Physics<T>&);               \
  template void remap_cuda<T>(const PoolView<T>&, const PoolView<T>&, const RemapTask*, int, \
                              const FillParams&, const fv::Physics<T>&);                     \
  template void indicators_cuda<T>(const PoolView<T>&, int, const FillParams&,               \
                                   const fv::Physics<T>&, T, T*);
FLUXVIEW_AMR_ABSENT(float)
FLUXVIEW_AMR_ABSENT(double)
#undef FLUXVIEW_AMR_ABSENT

}  // namespace fluxview::amr
