#pragma once
// The reductions of Reduce.hpp, written once over the execution space: sim/core/Reduce.cpp
// instantiates them on the host, sim/core/cuda/Reduce.cu on the device. Private to those two.
#include <array>
#include <cmath>
#include <cstdint>

#include "sim/core/Exec.hpp"
#include "sim/core/Reduce.hpp"

namespace fluxview::reductions {

struct StatsAcc {
  exec::Min<double> min;
  exec::Max<double> max;
  exec::Sum<double> sum, sum_sq;
  exec::Sum<std::int64_t> nonfinite;
  FLUXVIEW_HD void join(const StatsAcc& o) {
    min.join(o.min);
    max.join(o.max);
    sum.join(o.sum);
    sum_sq.join(o.sum_sq);
    nonfinite.join(o.nonfinite);
  }
};

template <class T, class Space>
FieldStats stats_of(const Space& space, const FieldView& v) {
  const T* p = static_cast<const T*>(v.data);
  const FieldLayout l = v.layout;
  const StatsAcc s = reduce_cells(space, exec::interior(l), StatsAcc{},
                                  [=] FLUXVIEW_LAMBDA(int i, int j, int k, StatsAcc& acc) {
                                    const double x = p[l.index(i, j, k)];
                                    if (!is_finite(x)) {
                                      acc.nonfinite.add(1);
                                      return;
                                    }
                                    acc.min.add(x);
                                    acc.max.add(x);
                                    acc.sum.add(x);
                                    acc.sum_sq.add(x * x);
                                  });
  return {s.min.value,    s.max.value,        s.sum.value,
          s.sum_sq.value, l.interior_cells(), s.nonfinite.value};
}

template <class T, class Space>
double max_abs_difference_of(const Space& space, const FieldView& a, const FieldView& b) {
  const T* pa = static_cast<const T*>(a.data);
  const T* pb = static_cast<const T*>(b.data);
  const FieldLayout l = a.layout;
  using MaxAcc = exec::Max<double>;
  return reduce_cells(space, exec::interior(l), MaxAcc{0.0},
                      [=] FLUXVIEW_LAMBDA(int i, int j, int k, MaxAcc& acc) {
                        const std::int64_t o = l.index(i, j, k);
                        acc.add(std::fabs(double(pa[o]) - double(pb[o])));
                      })
      .value;
}

template <class T, class Space>
std::int64_t first_bad_cell_of(const Space& space, const FieldView& v, bool must_be_positive) {
  const T* p = static_cast<const T*>(v.data);
  const FieldLayout l = v.layout;
  using MinAcc = exec::Min<std::int64_t>;
  const std::int64_t first =
      reduce_cells(space, exec::interior(l), MinAcc{},
                   [=] FLUXVIEW_LAMBDA(int i, int j, int k, MinAcc& acc) {
                     const T x = p[l.index(i, j, k)];
                     if (!is_finite(x) || (must_be_positive && !(x > T(0))))
                       acc.add(i + std::int64_t(l.n[0]) * (j + std::int64_t(l.n[1]) * k));
                   })
          .value;
  return first == exec::highest<std::int64_t>() ? -1 : first;
}

template <class Space>
FieldStats stats(const Space& space, const FieldView& v) {
  return v.precision == Precision::f64 ? stats_of<double>(space, v) : stats_of<float>(space, v);
}
template <class Space>
double max_abs_difference(const Space& space, const FieldView& a, const FieldView& b) {
  return a.precision == Precision::f64 ? max_abs_difference_of<double>(space, a, b)
                                       : max_abs_difference_of<float>(space, a, b);
}
template <class Space>
std::int64_t first_bad_cell(const Space& space, const FieldView& v, bool must_be_positive) {
  return v.precision == Precision::f64 ? first_bad_cell_of<double>(space, v, must_be_positive)
                                       : first_bad_cell_of<float>(space, v, must_be_positive);
}

// The device instantiations (sim/core/cuda/Reduce.cu).
FieldStats stats_on_device(const FieldView& v);
double max_abs_difference_on_device(const FieldView& a, const FieldView& b);
std::int64_t first_bad_cell_on_device(const FieldView& v, bool must_be_positive);

}  // namespace fluxview::reductions
