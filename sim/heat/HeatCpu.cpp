#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/heat/HeatStencil.hpp"
#include "sim/heat/HeatStep.hpp"

namespace fluxview::heat {

template <class T>
void step_cpu(const HeatStepArgs<T>& a) {
  const FieldLayout& l = a.layout;
  // Along a reduced axis the stride is never used: c = 0 makes the term vanish, and
  // pointing the neighbour at the cell itself keeps the read in bounds.
  const std::int64_t sx = l.n[0] > 1 ? 1 : 0;
  const std::int64_t sy = l.n[1] > 1 ? l.sy : 0;
  const std::int64_t sz = l.n[2] > 1 ? l.sz : 0;
  const T cx = a.cx, cy = a.cy, cz = a.cz;
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      const std::int64_t o = l.index(0, j, k);
      const T* __restrict__ in = a.in + o;
      T* __restrict__ out = a.out + o;
#pragma omp simd
      for (int i = 0; i < l.n[0]; ++i)
        out[i] = ftcs_update(in[i], in[i - sx], in[i + sx], in[i - sy], in[i + sy], in[i - sz],
                             in[i + sz], cx, cy, cz);
    }
}

template void step_cpu<float>(const HeatStepArgs<float>&);
template void step_cpu<double>(const HeatStepArgs<double>&);

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
