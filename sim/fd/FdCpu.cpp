// The fd family's CPU backend: OpenMP over (z, y) rows, the physics from FdStencil.hpp.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/fd/FdStep.hpp"

namespace fluxview::fd {

namespace {

// Neighbours through strides; a reduced axis has stride 0 (its coefficients are 0 too).
template <class T, int N>
struct PtrAcc {
  const T* p[N];
  std::int64_t o, sy, sz;
  std::int64_t sx;
  T operator()(int f, int dx, int dy, int dz) const {
    return p[f][o + dx * sx + dy * sy + dz * sz];
  }
};

// Below this many cells a loop runs on one thread: for the small grids of tests and 1D
// problems the fork and join of a parallel region costs more than the work.
constexpr long long kParallelCells = 16384;

struct Strides {
  std::int64_t sx, sy, sz;
};
Strides strides(const FieldLayout& l) {
  return {l.n[0] > 1 ? 1 : 0, l.n[1] > 1 ? l.sy : 0, l.n[2] > 1 ? l.sz : 0};
}

}  // namespace

template <class T>
void fill_ghosts_cpu(T* const* fields, int count, const FieldLayout& l) {
  const GhostSpan s{{l.n[0], l.n[1], l.n[2]},
                    {l.ghost_along(0), l.ghost_along(1), l.ghost_along(2)}};
  const long long per = s.count(), total = per * count;
#pragma omp parallel for schedule(static) if (total > kParallelCells)
  for (long long c = 0; c < total; ++c) {
    const int f = int(c / per);
    int i, j, k, si, sj, sk;
    s.cell(c - f * per, i, j, k, si, sj, sk);
    T* p = fields[f];
    p[l.index(i, j, k)] = p[l.index(si, sj, sk)];
  }
}

template <class T>
void substep_cpu(Formulation form, const SubstepArgs<T>& a) {
  const FieldLayout& l = a.layout;
  const Strides st = strides(l);
  const bool par = l.interior_cells() > kParallelCells;
  if (form == Formulation::m19) {
    // Pass 1: div u everywhere in the interior, then its ghosts.
#pragma omp parallel for collapse(2) schedule(static) if (par)
    for (int k = 0; k < l.n[2]; ++k)
      for (int j = 0; j < l.n[1]; ++j) {
        PtrAcc<T, 4> acc{
            {a.in[0], a.in[1], a.in[2], a.in[3]}, l.index(0, j, k), st.sy, st.sz, st.sx};
        for (int i = 0; i < l.n[0]; ++i, ++acc.o) a.div[acc.o] = divergence(acc, a.c);
      }
    T* d = a.div;
    fill_ghosts_cpu(&d, 1, l);
    if (a.div_ghost_hook) a.div_ghost_hook(a.hook_context, d);
  }
#pragma omp parallel for collapse(2) schedule(static) if (par)
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      PtrAcc<T, 5> acc{
          {a.in[0], a.in[1], a.in[2], a.in[3], a.div}, l.index(0, j, k), st.sy, st.sz, st.sx};
      for (int i = 0; i < l.n[0]; ++i, ++acc.o) {
        Derivs<T> d;
        if (form == Formulation::m55)
          gather_55(acc, a.c, d);
        else
          gather_19(acc, a.c, d);
        update_point(a, d, acc.o, i, j, k);
      }
    }
}

template <class T>
FlowSums flow_sums_cpu(const T* const* f, const FieldLayout& l) {
  double mass = 0, kin = 0, u2s = 0, u2max = 0;
  long long bad = 0;
#pragma omp parallel for collapse(2) reduction(+ : mass, kin, u2s, bad) reduction(max : u2max) \
    schedule(static) if (l.interior_cells() > kParallelCells)
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      const std::int64_t o = l.index(0, j, k);
      for (int i = 0; i < l.n[0]; ++i) {
        const double rho = std::exp(double(f[0][o + i]));
        const double ux = f[1][o + i], uy = f[2][o + i], uz = f[3][o + i];
        const double u2 = ux * ux + uy * uy + uz * uz;
        if (!std::isfinite(rho) || !std::isfinite(u2)) {
          ++bad;
          continue;
        }
        mass += rho;
        kin += 0.5 * rho * u2;
        u2s += u2;
        u2max = std::max(u2max, u2);
      }
    }
  return {mass, kin, u2s, u2max, bad};
}

template <class T>
double max_u2_cpu(const T* const* f, const FieldLayout& l) {
  double m = 0;
  bool bad = false;
#pragma omp parallel for collapse(2) reduction(max                   \
                                               : m) reduction(||     \
                                                              : bad) \
    schedule(static) if (l.interior_cells() > kParallelCells)
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      const std::int64_t o = l.index(0, j, k);
      for (int i = 0; i < l.n[0]; ++i) {
        const double ux = f[1][o + i], uy = f[2][o + i], uz = f[3][o + i];
        const double u2 = ux * ux + uy * uy + uz * uz;
        if (!std::isfinite(u2)) bad = true;
        m = std::max(m, u2);
      }
    }
  return bad ? NAN : m;
}

#define FLUXVIEW_FD_INSTANTIATE(T)                                         \
  template void fill_ghosts_cpu<T>(T* const*, int, const FieldLayout&);    \
  template void substep_cpu<T>(Formulation, const SubstepArgs<T>&);        \
  template FlowSums flow_sums_cpu<T>(const T* const*, const FieldLayout&); \
  template double max_u2_cpu<T>(const T* const*, const FieldLayout&);
FLUXVIEW_FD_INSTANTIATE(float)
FLUXVIEW_FD_INSTANTIATE(double)
#undef FLUXVIEW_FD_INSTANTIATE

const std::vector<std::string>& method_names() {
  static const std::vector<std::string> names = {"55point", "19point", "fast", "direct55",
                                                 "direct19"};
  return names;
}

Method parse_method(std::string_view name) {
  const auto& n = method_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return Method(i);
  return Method::fast;
}

std::string_view method_name(Method m) {
  return method_names()[std::size_t(m)];
}

// "fast" runs the two-pass formulation (its unblocked CUDA kernels measured fastest,
// docs/performance.md); the CPU computes the same formulation, so the backends agree.
Formulation formulation_of(Method m) {
  switch (m) {
    case Method::p55:
    case Method::direct55:
      return Formulation::m55;
    default:
      return Formulation::m19;
  }
}

}  // namespace fluxview::fd
