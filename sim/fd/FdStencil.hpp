#pragma once
// The pointwise physics of the fd family, written once and shared by the CPU loops and
// every CUDA kernel (Pekkila et al. 2017, "Astaroth"): isothermal compressible viscous
// hydrodynamics in (ln rho, u),
//   d ln rho/dt = -u . grad ln rho - div u                                       (1)
//   du/dt = -(u . grad) u - cs^2 grad ln rho + f
//           + nu (lap u + 1/3 grad div u + 2 S . grad ln rho)                      (2)
//   S_ij = 1/2 (d_j u_i + d_i u_j - 2/3 delta_ij div u)                           (3)
// with sixth-order central differences (eqs 6-8) and the 2N-storage RK3 of Williamson.
//
// A kernel reads its neighbours through an accessor `acc(f, dx, dy, dz)` (field f at the
// offset): a pointer with strides on the CPU, global memory, a shared-memory cache or a
// register queue on the GPU. Every offset below is a literal, so after inlining each read
// is a fixed address (or a fixed register) and no backend pays for the abstraction.
#include <cmath>

#include "sim/core/HostDevice.hpp"

namespace fluxview::fd {

// Field slots as the accessors number them. kDiv is the divergence field of the
// two-pass (19-point) method.
inline constexpr int kLnrho = 0, kUx = 1, kUy = 2, kUz = 3, kDiv = 4;
inline constexpr int kRadius = 3;  // stencil radius R = 3: sixth order, ghost width 3
inline constexpr int kVars = 4;

// Williamson (1980) 2N-storage RK3: w <- alpha_s w + dt F(f); f <- f + beta_s w.
inline constexpr double kRkAlpha[3] = {0.0, -5.0 / 9.0, -153.0 / 128.0};
inline constexpr double kRkBeta[3] = {1.0 / 3.0, 15.0 / 16.0, 8.0 / 15.0};

// Scale factors of the difference formulas; 0 along a reduced (single-cell) axis, so the
// derivatives along it vanish (and its accessor stride is 0, keeping reads in bounds).
template <class T>
struct Coeffs {
  T d1[3];  // 1 / (60 d_a)            eq. (6)
  T d2[3];  // 1 / (180 d_a^2)         eq. (7)
  T dm[3];  // 1 / (720 d_a d_b) for (x,y), (x,z), (y,z)   eq. (8)
};

// Offset (s along axis A) as (dx, dy, dz).
template <int A>
struct Ax {
  static constexpr int x(int s) { return A == 0 ? s : 0; }
  static constexpr int y(int s) { return A == 1 ? s : 0; }
  static constexpr int z(int s) { return A == 2 ? s : 0; }
};

// First derivative along axis A, eq. (6) (c = 1 / (60 d_A)).
template <int A, int F, class T, class Acc>
FLUXVIEW_HD T d1(const Acc& a, T c) {
  using X = Ax<A>;
  const T p1 = a(F, X::x(1), X::y(1), X::z(1)), m1 = a(F, X::x(-1), X::y(-1), X::z(-1));
  const T p2 = a(F, X::x(2), X::y(2), X::z(2)), m2 = a(F, X::x(-2), X::y(-2), X::z(-2));
  const T p3 = a(F, X::x(3), X::y(3), X::z(3)), m3 = a(F, X::x(-3), X::y(-3), X::z(-3));
  return c * (T(45) * (p1 - m1) - T(9) * (p2 - m2) + (p3 - m3));
}

// Second derivative along axis A, eq. (7) (c = 1 / (180 d_A^2)); f0 is the centre value.
template <int A, int F, class T, class Acc>
FLUXVIEW_HD T d2(const Acc& a, T f0, T c) {
  using X = Ax<A>;
  const T s1 = a(F, X::x(1), X::y(1), X::z(1)) + a(F, X::x(-1), X::y(-1), X::z(-1));
  const T s2 = a(F, X::x(2), X::y(2), X::z(2)) + a(F, X::x(-2), X::y(-2), X::z(-2));
  const T s3 = a(F, X::x(3), X::y(3), X::z(3)) + a(F, X::x(-3), X::y(-3), X::z(-3));
  return c * (T(2) * s3 - T(27) * s2 + T(270) * s1 - T(490) * f0);
}

// Mixed derivative d^2/(dA dB), the bidiagonal scheme of eq. (8) (c = 1 / (720 d_A d_B)).
template <int A, int B, int F, class T, class Acc>
FLUXVIEW_HD T dmix(const Acc& a, T c) {
  using P = Ax<A>;
  using Q = Ax<B>;
  auto at = [&](int s, int t) {
    return a(F, P::x(s) + Q::x(t), P::y(s) + Q::y(t), P::z(s) + Q::z(t));
  };
  const T r1 = at(1, 1) - at(-1, 1) + at(-1, -1) - at(1, -1);
  const T r2 = at(2, 2) - at(-2, 2) + at(-2, -2) - at(2, -2);
  const T r3 = at(3, 3) - at(-3, 3) + at(-3, -3) - at(3, -3);
  return c * (T(270) * r1 - T(27) * r2 + T(2) * r3);
}

// Everything the right-hand side needs at one point.
template <class T>
struct Derivs {
  T lnrho;
  T u[3];
  T glnrho[3];   // d_a ln rho
  T gu[3][3];    // gu[i][a] = d_a u_i
  T lapu[3];     // lap u_i
  T graddiv[3];  // d_i (div u)
};

// First and second derivatives along the axes (the 19-point part shared by both methods).
template <int F, class T, class Acc>
FLUXVIEW_HD void velocity_axes(const Acc& a, const Coeffs<T>& c, T& u0, T g[3], T& lap) {
  u0 = a(F, 0, 0, 0);
  g[0] = d1<0, F>(a, c.d1[0]);
  g[1] = d1<1, F>(a, c.d1[1]);
  g[2] = d1<2, F>(a, c.d1[2]);
  lap = d2<0, F>(a, u0, c.d2[0]) + d2<1, F>(a, u0, c.d2[1]) + d2<2, F>(a, u0, c.d2[2]);
}

template <class T, class Acc>
FLUXVIEW_HD void gather_axes(const Acc& a, const Coeffs<T>& c, Derivs<T>& d) {
  d.lnrho = a(kLnrho, 0, 0, 0);
  d.glnrho[0] = d1<0, kLnrho>(a, c.d1[0]);
  d.glnrho[1] = d1<1, kLnrho>(a, c.d1[1]);
  d.glnrho[2] = d1<2, kLnrho>(a, c.d1[2]);
  velocity_axes<kUx>(a, c, d.u[0], d.gu[0], d.lapu[0]);
  velocity_axes<kUy>(a, c, d.u[1], d.gu[1], d.lapu[1]);
  velocity_axes<kUz>(a, c, d.u[2], d.gu[2], d.lapu[2]);
}

// The single-pass 55-point method: grad div u from second and mixed derivatives,
// (grad div u)_i = d_ii u_i + sum_{j != i} d_ij u_j.
template <class T, class Acc>
FLUXVIEW_HD void gather_55(const Acc& a, const Coeffs<T>& c, Derivs<T>& d) {
  gather_axes(a, c, d);
  const T uxy = dmix<0, 1, kUy>(a, c.dm[0]), uxz = dmix<0, 2, kUz>(a, c.dm[1]);
  const T vxy = dmix<0, 1, kUx>(a, c.dm[0]), vyz = dmix<1, 2, kUz>(a, c.dm[2]);
  const T wxz = dmix<0, 2, kUx>(a, c.dm[1]), wyz = dmix<1, 2, kUy>(a, c.dm[2]);
  d.graddiv[0] = d2<0, kUx>(a, d.u[0], c.d2[0]) + uxy + uxz;
  d.graddiv[1] = d2<1, kUy>(a, d.u[1], c.d2[1]) + vxy + vyz;
  d.graddiv[2] = d2<2, kUz>(a, d.u[2], c.d2[2]) + wxz + wyz;
}

// div u at a point (first pass of the 19-point method).
template <class T, class Acc>
FLUXVIEW_HD T divergence(const Acc& a, const Coeffs<T>& c) {
  return d1<0, kUx>(a, c.d1[0]) + d1<1, kUy>(a, c.d1[1]) + d1<2, kUz>(a, c.d1[2]);
}

// Second pass of the 19-point method: grad div u as the first derivative of the stored
// divergence field (eq. 9), so only axis-aligned neighbours are read.
template <class T, class Acc>
FLUXVIEW_HD void gather_19(const Acc& a, const Coeffs<T>& c, Derivs<T>& d) {
  gather_axes(a, c, d);
  d.graddiv[0] = d1<0, kDiv>(a, c.d1[0]);
  d.graddiv[1] = d1<1, kDiv>(a, c.d1[1]);
  d.graddiv[2] = d1<2, kDiv>(a, c.d1[2]);
}

// d(ln rho, u)/dt at a point, eqs (1)-(3); `force` is the body force f there.
template <class T>
FLUXVIEW_HD void rates(const Derivs<T>& d, T cs2, T nu, const T force[3], T r[4]) {
  const T div = d.gu[0][0] + d.gu[1][1] + d.gu[2][2];
  r[0] = -(d.u[0] * d.glnrho[0] + d.u[1] * d.glnrho[1] + d.u[2] * d.glnrho[2]) - div;
  const T third = T(1) / T(3);
  for (int i = 0; i < 3; ++i) {
    T adv = 0, sgl = 0;
    for (int j = 0; j < 3; ++j) {
      adv += d.u[j] * d.gu[i][j];
      sgl += (T(0.5) * (d.gu[i][j] + d.gu[j][i])) * d.glnrho[j];
    }
    sgl -= third * div * d.glnrho[i];  // the trace part of S
    r[1 + i] =
        -adv - cs2 * d.glnrho[i] + force[i] + nu * (d.lapu[i] + third * d.graddiv[i] + T(2) * sgl);
  }
}

// The forcing of one step (eqs 24-25), non-helical: f(x) = amp cos(k . x + phase)
// with amp = N f_k real, f_k = k x e / |k x e|. k in radians per unit length.
template <class T>
struct ForceArgs {
  bool on = false;
  T k[3] = {0, 0, 0};
  T amp[3] = {0, 0, 0};
  T phase = 0;
  T x0[3] = {0, 0, 0};        // coordinate of global cell (0,0,0)
  int offset[3] = {0, 0, 0};  // global index of this rank's cell (0,0,0) (MPI)
  T dx[3] = {1, 1, 1};        // spacing
};

template <class T>
FLUXVIEW_HD void force_at(const ForceArgs<T>& f, int i, int j, int k, T out[3]) {
  if (!f.on) {
    out[0] = out[1] = out[2] = T(0);
    return;
  }
  // From the global index, so that a decomposed run forces exactly as a serial one.
  const T x = f.x0[0] + T(i + f.offset[0]) * f.dx[0], y = f.x0[1] + T(j + f.offset[1]) * f.dx[1],
          z = f.x0[2] + T(k + f.offset[2]) * f.dx[2];
  using std::cos;
  const T c = cos(f.k[0] * x + f.k[1] * y + f.k[2] * z + f.phase);
  out[0] = f.amp[0] * c;
  out[1] = f.amp[1] * c;
  out[2] = f.amp[2] * c;
}

// One 2N-storage RK substep at a point: w <- alpha w + dt r, f <- f + beta w.
// `first` (alpha = 0) skips reading w; the caller skips writing it on the last substep.
template <class T>
FLUXVIEW_HD void rk_update(T f0, T r, T& w, T alpha, T beta, T dt, bool first, T& f_out) {
  w = (first ? T(0) : alpha * w) + dt * r;
  f_out = f0 + beta * w;
}

// The ghost cells of a periodic field, numbered 0..ghost_count-1: first the two z slabs
// (full x and y extent with ghosts), then the two y slabs (interior z), then the x slabs
// (interior y and z). Each ghost cell copies the interior cell it wraps to.
struct GhostSpan {
  int n[3];
  int g[3];  // ghost width along each axis (0 when reduced)
  FLUXVIEW_HD long long zslab() const { return 2LL * g[2] * (n[0] + 2 * g[0]) * (n[1] + 2 * g[1]); }
  FLUXVIEW_HD long long yslab() const { return 2LL * g[1] * (n[0] + 2 * g[0]) * n[2]; }
  FLUXVIEW_HD long long xslab() const { return 2LL * g[0] * n[1] * n[2]; }
  FLUXVIEW_HD long long count() const { return zslab() + yslab() + xslab(); }
  // Ghost cell number c -> (i, j, k) of the ghost and (si, sj, sk) of its source. Index is
  // int where the ghost count fits (32-bit divisions cost a third of 64-bit ones on a GPU,
  // and this decode is most of the fill's work), long long otherwise.
  template <class Index>
  FLUXVIEW_HD void cell(Index c, int& i, int& j, int& k, int& si, int& sj, int& sk) const {
    const Index wx = n[0] + 2 * g[0], wy = n[1] + 2 * g[1];
    const Index zs = Index(zslab()), ys = Index(yslab());
    if (c < zs) {
      i = int(c % wx) - g[0];
      c /= wx;
      j = int(c % wy) - g[1];
      c /= wy;
      const int q = int(c);  // 0 .. 2g-1
      k = q < g[2] ? q - g[2] : n[2] + (q - g[2]);
    } else if ((c -= zs) < ys) {
      i = int(c % wx) - g[0];
      c /= wx;
      const int q = int(c % (2 * g[1]));
      k = int(c / (2 * g[1]));
      j = q < g[1] ? q - g[1] : n[1] + (q - g[1]);
    } else {
      c -= ys;
      const int q = int(c % (2 * g[0]));
      c /= 2 * g[0];
      j = int(c % n[1]);
      k = int(c / n[1]);
      i = q < g[0] ? q - g[0] : n[0] + (q - g[0]);
    }
    si = (i + n[0]) % n[0];
    sj = (j + n[1]) % n[1];
    sk = (k + n[2]) % n[2];
  }
};

}  // namespace fluxview::fd
