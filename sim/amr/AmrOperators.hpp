#pragma once
// The pointwise operators between levels of the adaptive mesh, written once for the CPU
// loops and the CUDA kernels (FLUXVIEW_HD):
//
//   prolongation (coarse -> fine): conservative, limited linear. A fine cell at offset o
//     from the centre of its coarse cell (in coarse cell widths, o = +-1/4 one level down)
//     gets U_c + sum_a s_a o_a, with the minmod slope s_a of the coarse cell and its two
//     neighbours along a. The offsets of the 2^d children sum to zero, so their mean is
//     U_c: mass, momentum and energy are conserved. Linear data is reproduced exactly
//     (both one-sided differences are equal, minmod keeps them).
//   Positivity: a child with density or pressure not positive would stop the scheme.
//     Density is linear in the slopes and pressure p = (g-1)(E - |m|^2/2 rho) is concave
//     in the conserved variables, so over the box of children both are lowest at its
//     corners: if the 2^d corner children are admissible, every child is. If one is not,
//     every child takes U_c (slopes zero for this coarse cell): still conservative, and
//     the same decision in every child, because each computes it from the same data.
//   restriction (fine -> coarse): the mean of the 2^d fine cells, summed in a fixed order.
//   Loehner's estimator (Loehner 1987; the form of FLASH, Fryxell et al. 2000): per axis
//     the second difference over the sum of the two first differences plus a filter
//     eps (|u+| + 2|u0| + |u-|), squared and summed over the axes. It is 0 for linear
//     data and approaches 1 at a jump; it is dimensionless, so one threshold serves every
//     level. Only the diagonal terms are used: the mixed derivatives need edge ghosts,
//     which the finite-volume stencil (a cross) never reads, so they are not filled.
#include "sim/core/HostDevice.hpp"
#include "sim/fv/FvPhysics.hpp"

namespace fluxview::amr {

using fv::State;

template <class T>
FLUXVIEW_HD T minmod(T a, T b) {
  if (a * b <= T(0)) return T(0);
  return (a < T(0) ? -a : a) < (b < T(0) ? -b : b) ? a : b;
}

// The minmod slopes of a coarse cell c from its neighbours along each axis (m: lower,
// p: upper); zero along an inactive axis.
template <class T, int NV>
FLUXVIEW_HD void prolongation_slopes(const State<T, NV>& c, const State<T, NV> m[3],
                                     const State<T, NV> p[3], const bool active[3],
                                     State<T, NV> s[3]) {
#pragma unroll
  for (int a = 0; a < 3; ++a)
#pragma unroll
    for (int v = 0; v < NV; ++v)
      s[a].v[v] = active[a] ? minmod(c.v[v] - m[a].v[v], p[a].v[v] - c.v[v]) : T(0);
}

template <class T, int NV>
FLUXVIEW_HD State<T, NV> linear_at(const State<T, NV>& c, const State<T, NV> s[3], const T o[3]) {
  State<T, NV> u;
#pragma unroll
  for (int v = 0; v < NV; ++v)
    u.v[v] = c.v[v] + (s[0].v[v] * o[0] + s[1].v[v] * o[1] + s[2].v[v] * o[2]);
  return u;
}

// The value of the fine cell at offset o (coarse widths) inside coarse cell c. `reach` is
// the largest |o| of any child (1/4 one level down, 1/2 - 2^-(k+1) for k levels) and
// `admissible(state)` says whether a state may be used.
template <class T, int NV, class Admissible>
FLUXVIEW_HD State<T, NV> prolongate(const State<T, NV>& c, const State<T, NV> m[3],
                                    const State<T, NV> p[3], const bool active[3], const T o[3],
                                    T reach, const Admissible& admissible) {
  State<T, NV> s[3];
  prolongation_slopes(c, m, p, active, s);
  // The corner children, every sign combination over the active axes.
#pragma unroll
  for (int corner = 0; corner < 8; ++corner) {
    T oc[3];
    bool used = true;
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      const int bit = (corner >> a) & 1;
      if (!active[a] && bit) used = false;
      oc[a] = active[a] ? (bit ? reach : -reach) : T(0);
    }
    if (used && !admissible(linear_at(c, s, oc))) return c;
  }
  return linear_at(c, s, o);
}

// Loehner's terms along one axis from the values below, at and above a cell.
template <class T>
FLUXVIEW_HD void lohner_axis(T um, T u0, T up, T eps, T& num, T& den) {
  const T second = up - T(2) * u0 + um;
  const T dp = up - u0, dm = u0 - um;
  const T d =
      (dp < T(0) ? -dp : dp) + (dm < T(0) ? -dm : dm) +
      eps * ((up < T(0) ? -up : up) + T(2) * (u0 < T(0) ? -u0 : u0) + (um < T(0) ? -um : um));
  num += second * second;
  den += d * d;
}

template <class T>
FLUXVIEW_HD T lohner_value(T num, T den) {
  return den > T(0) ? std::sqrt(num / den) : T(0);
}

}  // namespace fluxview::amr
