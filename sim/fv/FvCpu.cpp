// The CPU backend of the finite-volume solver: OpenMP loops over the SoA fields. A stage
// converts the input to primitives once (ghosts included), then for each active axis
// computes the flux through every face once into a scratch field and accumulates its
// difference into the divergence, then updates each cell. The CUDA backend fuses these
// passes; both call the same FvPhysics.hpp functions in the same order.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#include "sim/fv/FvPhysics.hpp"
#include "sim/fv/FvStep.hpp"

namespace fluxview::fv {

namespace {

template <class T>
Conserved<T> work_fields(T* base, int nv, std::int64_t size, int slot) {
  Conserved<T> w;
  for (int m = 0; m < nv; ++m) w.f[m] = base + (std::int64_t(slot) * nv + m) * size;
  return w;
}

// Threads only where there is enough work: a 1D tube of a few hundred cells runs far
// faster on one thread than through the fork and join of every loop.
bool parallel(const FieldLayout& l) {
  return l.interior_cells() >= 16384;
}

std::int64_t stride_of(const FieldLayout& l, int axis) {
  return axis == 0 ? 1 : axis == 1 ? l.sy : l.sz;
}

// Face fluxes along axis D into F (face i-1/2 stored at cell i), for the faces of every
// interior cell (n_D + 1 per line), then their difference accumulated into acc.
template <int D, class T, int NV>
void axis_pass(const Conserved<T>& W, const Conserved<T>& F, const Conserved<T>& acc,
               const FieldLayout& l, const Physics<T>& ph, T inv_dx, bool first) {
  const std::int64_t s = stride_of(l, D);
  const int hi[3] = {l.n[0] + (D == 0), l.n[1] + (D == 1), l.n[2] + (D == 2)};
#pragma omp parallel for collapse(2) schedule(static) if (parallel(l))
  for (int k = 0; k < hi[2]; ++k)
    for (int j = 0; j < hi[1]; ++j) {
      const std::int64_t o = l.index(0, j, k);
      for (int i = 0; i < hi[0]; ++i) {
        const std::int64_t c = o + i;
        store_state<NV>(F, c,
                        face_flux<D>(load_state<NV>(W, c - 2 * s), load_state<NV>(W, c - s),
                                     load_state<NV>(W, c), load_state<NV>(W, c + s), ph));
      }
    }
#pragma omp parallel for collapse(2) schedule(static) if (parallel(l))
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      const std::int64_t o = l.index(0, j, k);
      for (int m = 0; m < NV; ++m) {
        const T* f = F.f[m] + o;
        T* a = acc.f[m] + o;
        if (first)
          for (int i = 0; i < l.n[0]; ++i) a[i] = (f[i] - f[i + s]) * inv_dx;
        else
          for (int i = 0; i < l.n[0]; ++i) a[i] = a[i] + (f[i] - f[i + s]) * inv_dx;
      }
    }
}

template <class T, int NV>
void stage_nv(const StageArgs<T>& a) {
  const FieldLayout& l = a.layout;
  const Conserved<T> W = work_fields(a.cpu_work, NV, l.size, 0);
  const Conserved<T> F = work_fields(a.cpu_work, NV, l.size, 1);
  const Conserved<T> acc = work_fields(a.cpu_work, NV, l.size, 2);
  const Physics<T> ph = a.ph;

  // Primitives of every cell the stencils read: the interior and its ghost layers (the
  // row padding is skipped; edge and corner ghosts are converted but never read).
  const int gx = l.ghost_along(0), gy = l.ghost_along(1), gz = l.ghost_along(2);
#pragma omp parallel for collapse(2) schedule(static) if (parallel(l))
  for (int k = -gz; k < l.n[2] + gz; ++k)
    for (int j = -gy; j < l.n[1] + gy; ++j) {
      const std::int64_t o = l.index(0, j, k);
      for (int i = -gx; i < l.n[0] + gx; ++i)
        store_state<NV>(W, o + i, cons_to_prim(load_state<NV>(a.in, o + i), ph));
    }

  bool first = true;
  if (l.n[0] > 1) axis_pass<0, T, NV>(W, F, acc, l, ph, a.inv_dx[0], std::exchange(first, false));
  if (l.n[1] > 1) axis_pass<1, T, NV>(W, F, acc, l, ph, a.inv_dx[1], std::exchange(first, false));
  if (l.n[2] > 1) axis_pass<2, T, NV>(W, F, acc, l, ph, a.inv_dx[2], std::exchange(first, false));
  if (first) {  // a single cell: nothing flows
#pragma omp parallel for schedule(static) if (parallel(l))
    for (std::int64_t c = 0; c < l.size; ++c)
      for (int m = 0; m < NV; ++m) acc.f[m][c] = 0;
  }

  const std::int64_t sx = l.n[0] > 1 ? 1 : 0, sy = l.n[1] > 1 ? l.sy : 0,
                     sz = l.n[2] > 1 ? l.sz : 0;
  unsigned long long corrected = 0;
  double rate = 0;
  bool bad_rate = false;
#pragma omp parallel for collapse(2) schedule(static) if (parallel(l)) reduction(+ : corrected) \
    reduction(max : rate) reduction(|| : bad_rate)
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      const std::int64_t o = l.index(0, j, k);
      for (int i = 0; i < l.n[0]; ++i) {
        const std::int64_t c = o + i;
        const State<T, NV> u = load_state<NV>(a.in, c);
        const State<T, NV> u0 = load_state<NV>(a.u0, c);
        State<T, NV> r = rk_combine(u0, u, load_state<NV>(acc, c), a.dt, a.a, a.b);
        if (!admissible(r, ph)) {
          const State<T, NV> lo = first_order_divergence(
              load_state<NV>(W, c), load_state<NV>(W, c - sx), load_state<NV>(W, c + sx),
              load_state<NV>(W, c - sy), load_state<NV>(W, c + sy), load_state<NV>(W, c - sz),
              load_state<NV>(W, c + sz), ph, a.inv_dx);
          r = rk_combine(u0, u, lo, a.dt, a.a, a.b);
          if (!admissible(r, ph)) r = apply_floors(r, ph);
          ++corrected;
        }
        store_state<NV>(a.out, c, r);
        if (a.rate_bits) {
          const double s = double(signal_rate(cons_to_prim(r, ph), ph.gamma, a.inv_dx));
          if (std::isfinite(s))
            rate = std::max(rate, s);
          else
            bad_rate = true;
        }
      }
    }
  if (a.corrected) *a.corrected += corrected;
  if (a.rate_bits) {
    const double r = bad_rate ? std::numeric_limits<double>::quiet_NaN() : rate;
    std::memcpy(a.rate_bits, &r, sizeof r);
  }
}

// Fills the ghosts of one face from the interior: outflow copies the nearest interior
// cell, reflecting mirrors the cells and flips the normal momentum, periodic wraps.
template <class T>
void fill_face(const Conserved<T>& u, int nv, const FieldLayout& l, int axis, int side, Bc bc) {
  const int n = l.n[axis];
  const int g = l.ghost_along(axis);
  const int b = (axis + 1) % 3, e = (axis + 2) % 3;
  // Along axes already filled (lower-numbered) the ghosts are included, so edges and
  // corners hold values too.
  const int gb = b < axis ? l.ghost_along(b) : 0, ge = e < axis ? l.ghost_along(e) : 0;
#pragma omp parallel for collapse(2) schedule(static) if (parallel(l))
  for (int q = -ge; q < l.n[e] + ge; ++q)
    for (int p = -gb; p < l.n[b] + gb; ++p)
      for (int h = 0; h < g; ++h) {
        const int ghost = side == 0 ? -1 - h : n + h;
        const int src = ghost_source(bc, side, h, n);
        int gi[3], si[3];
        gi[axis] = ghost;
        si[axis] = src;
        gi[b] = si[b] = p;
        gi[e] = si[e] = q;
        const std::int64_t dc = l.index(gi[0], gi[1], gi[2]), sc = l.index(si[0], si[1], si[2]);
        for (int m = 0; m < nv; ++m) {
          const T v = u.f[m][sc];
          u.f[m][dc] = (bc == Bc::reflecting && m == 1 + axis) ? -v : v;
        }
      }
}

template <class T, int NV>
double max_rate_nv(const Conserved<T>& u, const FieldLayout& l, const Physics<T>& ph,
                   const T inv_dx[3]) {
  double rate = 0;
  bool bad = false;
#pragma omp parallel for collapse(2) schedule(static) if (parallel(l)) reduction(max     \
                                                                                 : rate) \
    reduction(||                                                                         \
              : bad)
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i) {
        const double s = double(
            signal_rate(cons_to_prim(load_state<NV>(u, l.index(i, j, k)), ph), ph.gamma, inv_dx));
        if (std::isfinite(s))
          rate = std::max(rate, s);
        else
          bad = true;
      }
  return bad ? std::numeric_limits<double>::quiet_NaN() : rate;
}

}  // namespace

template <class T>
void fill_ghosts_cpu(const Conserved<T>& u, int nv, const FieldLayout& l, const GhostArgs& g) {
  for (int axis = 0; axis < 3; ++axis) {
    if (l.n[axis] == 1) continue;
    for (int side = 0; side < 2; ++side)
      if (g.bc[axis][side] != Bc::neighbour) fill_face(u, nv, l, axis, side, g.bc[axis][side]);
  }
}

template <class T>
void stage_cpu(const StageArgs<T>& a) {
  if (a.nv == 6)
    stage_nv<T, 6>(a);
  else
    stage_nv<T, 5>(a);
}

template <class T>
double max_rate_cpu(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                    const T inv_dx[3]) {
  return nv == 6 ? max_rate_nv<T, 6>(u, l, ph, inv_dx) : max_rate_nv<T, 5>(u, l, ph, inv_dx);
}

template <class T>
Totals totals_cpu(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph) {
  double mass = 0, mx = 0, my = 0, mz = 0, en = 0, tr = 0, mixed = 0, mach = 0;
  std::int64_t bad = 0;
#pragma omp parallel for collapse(2) schedule(static) if (parallel(l)) reduction(+ : mass, mx, my, mz, en, tr, \
                                                                    mixed, bad) reduction(max : mach)
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i) {
        const std::int64_t c = l.index(i, j, k);
        const double r = u.f[0][c], px = u.f[1][c], py = u.f[2][c], pz = u.f[3][c], e = u.f[4][c];
        if (!(std::isfinite(r) && std::isfinite(px) && std::isfinite(py) && std::isfinite(pz) &&
              std::isfinite(e))) {
          ++bad;
          continue;
        }
        mass += r;
        mx += px;
        my += py;
        mz += pz;
        en += e;
        const State<T, 5> q = cons_to_prim(load_state<5>(u, c), ph);
        const double v2 =
            double(q.v[1]) * q.v[1] + double(q.v[2]) * q.v[2] + double(q.v[3]) * q.v[3];
        mach = std::max(mach, std::sqrt(v2) / double(sound_speed(q.v[0], q.v[4], ph.gamma)));
        if (nv > 5) {
          const double rc = u.f[5][c], conc = rc / r;
          tr += rc;
          if (conc > 0.1 && conc < 0.9) mixed += rc;
        }
      }
  Totals t;
  t.mass = mass;
  t.momentum[0] = mx;
  t.momentum[1] = my;
  t.momentum[2] = mz;
  t.energy = en;
  t.tracer_mass = tr;
  t.mixed_mass = mixed;
  t.max_mach = mach;
  t.nonfinite = bad;
  return t;
}

template <class T>
void derived_cpu(const Conserved<T>& u, int nv, const FieldLayout& l, const Physics<T>& ph,
                 Derived what, T* out) {
  (void)nv;
#pragma omp parallel for collapse(2) schedule(static) if (parallel(l))
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i) {
        const std::int64_t c = l.index(i, j, k);
        const State<T, 5> q = cons_to_prim(load_state<5>(u, c), ph);
        out[c] = derived_value(q, what == Derived::tracer ? u.f[5][c] : T(0), what);
      }
}

#define FLUXVIEW_FV_CPU(T)                                                                         \
  template void fill_ghosts_cpu<T>(const Conserved<T>&, int, const FieldLayout&,                   \
                                   const GhostArgs&);                                              \
  template void stage_cpu<T>(const StageArgs<T>&);                                                 \
  template double max_rate_cpu<T>(const Conserved<T>&, int, const FieldLayout&, const Physics<T>&, \
                                  const T[3]);                                                     \
  template Totals totals_cpu<T>(const Conserved<T>&, int, const FieldLayout&, const Physics<T>&);  \
  template void derived_cpu<T>(const Conserved<T>&, int, const FieldLayout&, const Physics<T>&,    \
                               Derived, T*);
FLUXVIEW_FV_CPU(float)
FLUXVIEW_FV_CPU(double)
#undef FLUXVIEW_FV_CPU

}  // namespace fluxview::fv
