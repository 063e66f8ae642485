#pragma once
// The probe loop of Probe.hpp, written once over the execution space: Probe.cpp
// instantiates it on the host, cuda/Probe.cu on the device. Private to those two.
#include <array>
#include <cstdint>

#include "sim/core/Exec.hpp"
#include "sim/core/FieldLayout.hpp"

namespace fluxview::probes {

struct Geometry {
  FieldLayout layout;  // this rank's field
  double origin[3], spacing[3];
  int offset[3], global_n[3];
};

// The field at x (linear along each active axis), NaN when x lies in another rank's cells.
template <class T>
FLUXVIEW_HD double sample_at(const T* f, const Geometry& g, const double x[3]) {
  int i0[3], i1[3];
  double w[3];
  for (int a = 0; a < 3; ++a) {
    const int n = g.layout.n[a];
    i0[a] = i1[a] = 0;
    w[a] = 0;
    if (n == 1) continue;
    double s = (x[a] - g.origin[a]) / g.spacing[a];  // global continuous index
    s = s < 0 ? 0 : (s > g.global_n[a] - 1 ? g.global_n[a] - 1 : s);
    s -= g.offset[a];
    if (s < -0.5 || s >= n - 0.5) return NAN;
    s = s < 0 ? 0 : (s > n - 1 ? n - 1 : s);
    const int lo = int(floor(s));
    i0[a] = lo;
    i1[a] = lo + 1 < n ? lo + 1 : lo;
    w[a] = s - lo;
  }
  double v = 0;
  for (int c = 0; c < 8; ++c) {
    const int bx = c & 1, by = (c >> 1) & 1, bz = (c >> 2) & 1;
    const double wc = (bx ? w[0] : 1 - w[0]) * (by ? w[1] : 1 - w[1]) * (bz ? w[2] : 1 - w[2]);
    if (wc == 0) continue;
    const int i = bx ? i1[0] : i0[0], j = by ? i1[1] : i0[1], k = bz ? i1[2] : i0[2];
    v += wc * double(f[g.layout.index(i, j, k)]);
  }
  return v;
}

// out[p] = the field at points[3p .. 3p+2], for p < count; points and out where the field is.
template <class Space, class T>
void sample(const Space& space, const T* f, const Geometry& g, const double* points, int count,
            double* out) {
  for_each_cell(space, exec::range(count),
                [=] FLUXVIEW_LAMBDA(int p, int, int) { out[p] = sample_at(f, g, points + 3 * p); });
}

// The device instantiation (cuda/Probe.cu): points and out in device memory.
void sample_on_device(const void* field, bool f64, const Geometry& g, const double* points,
                      int count, double* out);

}  // namespace fluxview::probes
