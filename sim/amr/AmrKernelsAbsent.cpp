// The adaptive mesh's CUDA entry points in a build without CUDA.
#include <stdexcept>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/AmrStep.hpp"

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

template <class T>
void stage_blocks_cuda(const BlockStageArgs<T>&) {
  no_cuda();
}
template <class T>
void reflux_cuda(const PoolView<T>&, const PoolView<T>&, const RefluxTask*, int, int,
                 const BlockInfo*, const fv::Physics<T>&, T, const T[3], int, const bool[3]) {
  no_cuda();
}
template <class T>
double max_rate_cuda(const PoolView<T>&, const BlockInfo*, int, const fv::Physics<T>&, const T[3]) {
  no_cuda();
}
template <class T>
void block_totals_cuda(const PoolView<T>&, int, const fv::Physics<T>&, double*) {
  no_cuda();
}
template <class T>
void resample_cuda(const PoolView<T>&, const ResampleTask*, int, const FieldLayout&,
                   const fv::Physics<T>&, int, int, T*) {
  no_cuda();
}

template <class T>
void pack_cuda(const PoolView<T>&, int, const fv::Physics<T>&, int, T*) {
  no_cuda();
}

#define FLUXVIEW_AMR_ABSENT(T)                                                                     \
  template void fill_ghosts_cuda<T>(const PoolView<T>&, const GhostTask*, int, int,                \
                                    const FillParams&, const fv::Physics<T>&);                     \
  template void remap_cuda<T>(const PoolView<T>&, const PoolView<T>&, const RemapTask*, int,       \
                              const FillParams&, const fv::Physics<T>&);                           \
  template void indicators_cuda<T>(const PoolView<T>&, int, const FillParams&,                     \
                                   const fv::Physics<T>&, T, T*);                                  \
  template void stage_blocks_cuda<T>(const BlockStageArgs<T>&);                                    \
  template void reflux_cuda<T>(const PoolView<T>&, const PoolView<T>&, const RefluxTask*, int,     \
                               int, const BlockInfo*, const fv::Physics<T>&, T, const T[3], int,   \
                               const bool[3]);                                                     \
  template double max_rate_cuda<T>(const PoolView<T>&, const BlockInfo*, int,                      \
                                   const fv::Physics<T>&, const T[3]);                             \
  template void block_totals_cuda<T>(const PoolView<T>&, int, const fv::Physics<T>&, double*);     \
  template void resample_cuda<T>(const PoolView<T>&, const ResampleTask*, int, const FieldLayout&, \
                                 const fv::Physics<T>&, int, int, T*);                             \
  template void pack_cuda<T>(const PoolView<T>&, int, const fv::Physics<T>&, int, T*);
FLUXVIEW_AMR_ABSENT(float)
FLUXVIEW_AMR_ABSENT(double)
#undef FLUXVIEW_AMR_ABSENT

}  // namespace fluxview::amr
