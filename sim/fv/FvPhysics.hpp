#pragma once
// The second-order scheme of the fv solver and the parts of a stage every scheme shares
// (for the Euler equations and for MHD alike),
// written once and shared by the CPU loops (FvCpu.cpp) and the CUDA kernels
// (cuda/FvKernels.cu): the theta-minmod PLM reconstruction (Wang, Abel & Kaehler 2010,
// eqs. 9-11), the flux through a face (the Riemann solvers are RiemannSolvers.hpp), the
// flux divergence, the RK combination (eq. 8) and the first-order fallback of a cell.
// The state and the EOS are EulerState.hpp.
#include <cmath>

#include "sim/core/HostDevice.hpp"
#include "sim/fv/EulerState.hpp"
#include "sim/fv/MhdRiemann.hpp"
#include "sim/fv/RiemannSolvers.hpp"

namespace fluxview::fv {

// ---- reconstruction (eqs. 9-11) -------------------------------------------------------

// minmod(a, b, c) = 1/4 (sgn a + sgn b) |sgn a + sgn c| min(|a|, |b|, |c|)   (eq. 11)
template <class T>
FLUXVIEW_HD T minmod3(T a, T b, T c) {
  return T(0.25) * (fv_sign(a) + fv_sign(b)) * fv_abs(fv_sign(a) + fv_sign(c)) *
         fv_min(fv_abs(a), fv_min(fv_abs(b), fv_abs(c)));
}

// Limited slope of a cell from its left and right differences: the generalised minmod
// of eqs. 9-10. Eqs. 9-10 as printed add the limited slope itself to the cell value;
// the face lies half a cell away, so the face value is u +- slope/2 (with that factor,
// linear data is reproduced exactly and theta = 1 is minmod, theta = 2 the MC limiter).
template <class T>
FLUXVIEW_HD T limited_slope(T dm, T dp, T theta) {
  return minmod3(theta * dm, theta * dp, T(0.5) * (dm + dp));
}

// Left and right states at the face between cells b and c of the stencil (a, b, c, d)
// along the face normal. Falls back to the cell values (first order at this face, on
// both of its sides, so conservation holds) when a reconstructed density or pressure is
// not positive.
template <class T, int NV>
FLUXVIEW_HD void reconstruct(const State<T, NV>& a, const State<T, NV>& b, const State<T, NV>& c,
                             const State<T, NV>& d, const Physics<T>& ph, State<T, NV>& left,
                             State<T, NV>& right) {
  if (!ph.plm) {
    left = b;
    right = c;
    return;
  }
#pragma unroll
  for (int m = 0; m < NV; ++m) {
    left.v[m] = b.v[m] + T(0.5) * limited_slope(b.v[m] - a.v[m], c.v[m] - b.v[m], ph.theta);
    right.v[m] = c.v[m] - T(0.5) * limited_slope(c.v[m] - b.v[m], d.v[m] - c.v[m], ph.theta);
  }
  if (!(left.v[kRho] > T(0) && left.v[kPressure] > T(0) && right.v[kRho] > T(0) &&
        right.v[kPressure] > T(0))) {
    left = b;
    right = c;
  }
}

// ---- fluxes ---------------------------------------------------------------------------

// The Riemann flux along axis D from the face states qL, qR, by the solver fv.riemann chose
// (an MHD state: MhdRiemann.hpp; the fallback's hlle is HLL there).
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> riemann_flux(const State<T, NV>& qL, const State<T, NV>& qR,
                                      const Physics<T>& ph) {
  if constexpr (is_mhd<NV>)
    return mhd_riemann_solve<D>(ph.riemann, qL, qR, ph);
  else
    return riemann_solve<D>(ph.riemann, qL, qR, ph.gamma);
}

// Flux through the face between b and c from the stencil (a, b, c, d) of primitives.
template <int D, class T, int NV>
FLUXVIEW_HD State<T, NV> face_flux(const State<T, NV>& a, const State<T, NV>& b,
                                   const State<T, NV>& c, const State<T, NV>& d,
                                   const Physics<T>& ph) {
  State<T, NV> l, r;
  reconstruct(a, b, c, d, ph, l, r);
  return riemann_flux<D>(l, r, ph);
}

// ---- the cell update of one RK2 stage (eq. 8) -----------------------------------------

// Flux divergence -L(U) of a cell from the fluxes through its six faces, summed in the
// order x, y, z on both backends (so that they agree to round-off).
template <class T, int NV>
FLUXVIEW_HD State<T, NV> flux_divergence(const State<T, NV>& xl, const State<T, NV>& xr,
                                         const State<T, NV>& yl, const State<T, NV>& yr,
                                         const State<T, NV>& zl, const State<T, NV>& zr,
                                         const T inv_dx[3]) {
  State<T, NV> l;
#pragma unroll
  for (int m = 0; m < NV; ++m)
    l.v[m] = (xl.v[m] - xr.v[m]) * inv_dx[0] + (yl.v[m] - yr.v[m]) * inv_dx[1] +
             (zl.v[m] - zr.v[m]) * inv_dx[2];
  return l;
}

// out = a U0 + b (U + dt L(U)); stage 1 of eq. 8 is a = 0, b = 1 and stage 2 a = b = 1/2.
template <class T, int NV>
FLUXVIEW_HD State<T, NV> rk_combine(const State<T, NV>& u0, const State<T, NV>& u,
                                    const State<T, NV>& l, T dt, T a, T b) {
  State<T, NV> o;
#pragma unroll
  for (int m = 0; m < NV; ++m) o.v[m] = a * u0.v[m] + b * (u.v[m] + dt * l.v[m]);
  return o;
}

// The first-order fallback of a cell: the same stage with piecewise-constant states on
// its six faces and the HLLE flux whatever fv.riemann is (neighbours given as primitives;
// unused along a reduced axis, where inv_dx is 0). Godunov's scheme with HLLE keeps
// density and pressure positive under the CFL condition (Einfeldt et al. 1991), which is
// why a cell whose high-order update is not admissible is recomputed with it; HLLC and
// LLF with the Davis speeds do not promise that.
template <class T, int NV>
FLUXVIEW_HD State<T, NV> first_order_divergence(const State<T, NV>& q, const State<T, NV>& xm,
                                                const State<T, NV>& xp, const State<T, NV>& ym,
                                                const State<T, NV>& yp, const State<T, NV>& zm,
                                                const State<T, NV>& zp, const Physics<T>& ph0,
                                                const T inv_dx[3]) {
  Physics<T> ph = ph0;
  ph.plm = false;
  ph.riemann = Riemann::hlle;
  // Zero flux differences along a reduced axis: inv_dx is 0 there, and the neighbour is the
  // cell itself, so the terms vanish either way.
  return flux_divergence(riemann_flux<0>(xm, q, ph), riemann_flux<0>(q, xp, ph),
                         riemann_flux<1>(ym, q, ph), riemann_flux<1>(q, yp, ph),
                         riemann_flux<2>(zm, q, ph), riemann_flux<2>(q, zp, ph), inv_dx);
}

// L of a cell with its sources added: for MHD the damping of psi, -c_h^2/c_p^2 psi
// (Dedner et al. 2002's mixed GLM), inside the stage so that it takes the time stepper's
// order; c_h dt / dx <= cfl keeps it far from stiff.
template <class T, int NV>
FLUXVIEW_HD State<T, NV> with_sources(State<T, NV> l, const State<T, NV>& u, const Physics<T>& ph) {
  if constexpr (is_mhd<NV>) l.v[kPsi] -= ph.psi_decay * u.v[kPsi];
  return l;
}

// The update of one cell in a stage: w0 U0 + w (U + dt L) with the high-order flux
// divergence l and the sources. Where that state is not admissible, the same with the cell's
// first-order divergence (first_order(), called only then, so that its neighbours are read only
// then), and where even that is not, the floors; `corrected` counts such cells. Both backends
// update every cell through it.
template <class T, int NV, class FirstOrder>
FLUXVIEW_HD State<T, NV> update_cell(const State<T, NV>& u0, const State<T, NV>& u,
                                     const State<T, NV>& l, T dt, T w0, T w, const Physics<T>& ph,
                                     const FirstOrder& first_order, unsigned long long& corrected) {
  State<T, NV> r = rk_combine(u0, u, with_sources(l, u, ph), dt, w0, w);
  if (!admissible(r, ph)) {
    r = rk_combine(u0, u, with_sources(first_order(), u, ph), dt, w0, w);
    if (!admissible(r, ph)) r = apply_floors(r, ph);
    ++corrected;
  }
  return r;
}

}  // namespace fluxview::fv
