#include "sim/core/Reduce.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fluxview {

namespace {

template <class T>
FieldStats host_stats(const FieldView& v) {
  const T* p = static_cast<const T*>(v.data);
  const FieldLayout& l = v.layout;
  double mn = std::numeric_limits<double>::infinity(), mx = -mn, sum = 0, sq = 0;
  std::int64_t bad = 0;
#pragma omp parallel for collapse(2) reduction(min : mn) reduction(max : mx) \
    reduction(+ : sum, sq, bad) schedule(static)
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      const T* row = p + l.index(0, j, k);
      for (int i = 0; i < l.n[0]; ++i) {
        const double x = row[i];
        if (!std::isfinite(x)) {
          ++bad;
          continue;
        }
        mn = std::min(mn, x);
        mx = std::max(mx, x);
        sum += x;
        sq += x * x;
      }
    }
  return {mn, mx, sum, sq, l.interior_cells(), bad};
}

template <class T>
double host_max_diff(const FieldView& a, const FieldView& b) {
  const T* pa = static_cast<const T*>(a.data);
  const T* pb = static_cast<const T*>(b.data);
  const FieldLayout& l = a.layout;
  double mx = 0;
#pragma omp parallel for collapse(2) reduction(max : mx) schedule(static)
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      const std::int64_t o = l.index(0, j, k);
      for (int i = 0; i < l.n[0]; ++i)
        mx = std::max(mx, std::fabs(double(pa[o + i]) - double(pb[o + i])));
    }
  return mx;
}

template <class T>
std::int64_t host_first_bad(const FieldView& v, bool positive) {
  const T* p = static_cast<const T*>(v.data);
  const FieldLayout& l = v.layout;
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
#pragma omp parallel for collapse(2) reduction(min : first) schedule(static)
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      const T* row = p + l.index(0, j, k);
      for (int i = 0; i < l.n[0]; ++i)
        if (!std::isfinite(row[i]) || (positive && !(row[i] > 0))) {
          first = std::min(first, i + std::int64_t(l.n[0]) * (j + std::int64_t(l.n[1]) * k));
          break;
        }
    }
  return first == std::numeric_limits<std::int64_t>::max() ? -1 : first;
}

}  // namespace

std::int64_t first_bad_cell(const FieldView& v, bool must_be_positive) {
  if (v.where == Location::device) return cuda::first_bad_cell_device(v, must_be_positive);
  return v.precision == Precision::f64 ? host_first_bad<double>(v, must_be_positive)
                                       : host_first_bad<float>(v, must_be_positive);
}

FieldStats field_stats(const FieldView& v) {
  if (v.where == Location::device) return cuda::field_stats_device(v);
  return v.precision == Precision::f64 ? host_stats<double>(v) : host_stats<float>(v);
}

double max_abs_difference(const FieldView& a, const FieldView& b) {
  if (a.where != b.where || a.precision != b.precision || a.layout.size != b.layout.size)
    throw std::invalid_argument("max_abs_difference: fields of different layout or location");
  if (a.where == Location::device) return cuda::max_abs_difference_device(a, b);
  return a.precision == Precision::f64 ? host_max_diff<double>(a, b) : host_max_diff<float>(a, b);
}

}  // namespace fluxview
