// The heat family's host backend, and the choice of backend for a run.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/ExecHost.hpp"
#include "sim/heat/HeatStencil.hpp"
#include "sim/heat/HeatStep.hpp"

namespace fluxview::heat {

namespace {

template <class T>
class HostHeat final : public HeatBackend<T> {
 public:
  HostHeat() : HeatBackend<T>(Location::host) {}

  void step(const HeatStepArgs<T>& a) override {
    const FieldLayout l = a.layout;
    // Along a reduced axis the stride is never used: c = 0 makes the term vanish, and
    // pointing the neighbour at the cell itself keeps the read in bounds.
    const std::int64_t sx = l.n[0] > 1 ? 1 : 0;
    const std::int64_t sy = l.n[1] > 1 ? l.sy : 0;
    const std::int64_t sz = l.n[2] > 1 ? l.sz : 0;
    const T* __restrict__ in = a.in;
    T* __restrict__ out = a.out;
    const T cx = a.cx, cy = a.cy, cz = a.cz;
    exec::for_each_cell(exec::Host{}, step_box(a), [=](int i, int j, int k) {
      const std::int64_t c = l.index(i, j, k);
      out[c] = ftcs_update(in[c], in[c - sx], in[c + sx], in[c - sy], in[c + sy], in[c - sz],
                           in[c + sz], cx, cy, cz);
    });
  }

  std::string kernel() const override { return "cpu-openmp"; }
};

}  // namespace

template <class T>
std::unique_ptr<HeatBackend<T>> make_host_backend() {
  return std::make_unique<HostHeat<T>>();
}

template <class T>
std::unique_ptr<HeatBackend<T>> make_backend(BackendKind backend, HeatKernel kernel) {
  return backend_for(
      backend, [] { return make_host_backend<T>(); },
      [kernel] { return make_device_backend<T>(kernel); });
}

template std::unique_ptr<HeatBackend<float>> make_backend<float>(BackendKind, HeatKernel);
template std::unique_ptr<HeatBackend<double>> make_backend<double>(BackendKind, HeatKernel);

const std::vector<std::string>& kernel_names() {
  static const std::vector<std::string> names = {"3DBase", "3DShMOverL", "3DShMNoOverL", "2DBase",
                                                 "2DReg",  "2DShM",      "2DShMReg",     "fast"};
  return names;
}

HeatKernel parse_kernel(std::string_view name) {
  const auto& n = kernel_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return HeatKernel(i);
  return HeatKernel::fast;
}

std::string_view kernel_name(HeatKernel k) {
  return kernel_names()[std::size_t(k)];
}

}  // namespace fluxview::heat
