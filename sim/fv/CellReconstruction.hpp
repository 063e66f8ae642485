#pragma once
// The polynomial of one cell, of total degree 0 to 3 (ModalPolynomial.hpp), from the
// cell averages around it: generic over the physics (the number and meaning of the
// variables) through a policy that says which variables a line is reconstructed in (its
// projection: to_fields, from_fields, and scale, the size of each variable below which
// the WENO weights see no structure; EulerCharacteristics.hpp).
//
// Pure modes (the powers of one axis) come from the line of cells through the cell along
// that axis, reconstructed by WenoReconstruction.hpp in the policy's variables (for the
// Euler equations: conserved, linearised primitive or characteristic, EulerCharacteristics.hpp).
// They are exact because every mode but the mean integrates to zero over the other two
// axes, so the averages along a line see only that line's pure modes.
//
// Cross modes come from the centred 3x3(x3) block of cells: with the means of P1, P2
// over the cell at offset j being j, j^2, the combinations
//   xy  = 1/4 [U(+,+) - U(+,-) - U(-,+) + U(-,-)]
//   xxy = 1/4 [(U(+,+) + U(-,+) - 2 U(0,+)) - (U(+,-) + U(-,-) - 2 U(0,-))]
//   xyz = 1/8 sum over the 8 corners of sx sy sz U(sx, sy, sz)
// are exact for every polynomial of total degree <= 3, in conserved variables (a linear
// combination needs no projection). They are multiplied by a switch that is 1 where the
// lines along both (all three) of their axes are smooth (the WENO weights stayed near
// their linear values) and 0 at a discontinuity (cross_mode_switch), so near shocks the
// polynomial falls back to the WENO-limited pure modes. This hybrid is ours: a compact
// block (27 cells, not the 7x7x7 of a tensor-product WENO) and few values live, exact on
// polynomials of the design degree.
//
// The stencil: the cell, 1 (plm, weno2), 2 (weno3) or 3 (weno4) cells each way along every
// active axis, and the block's edge (and, at degree 3, corner) neighbours. A face between
// two cells needs both cells' polynomials, so the ghost width is that reach plus one.
#include "sim/core/HostDevice.hpp"
#include "sim/fv/FvPhysics.hpp"
#include "sim/fv/ModalPolynomial.hpp"
#include "sim/fv/WenoReconstruction.hpp"

namespace fluxview::fv {

// Degree of the polynomial per reconstruction: constant 0, plm and weno2 1, weno3 2, weno4 3.
// How far the line stencil reaches from the cell along an axis.
FLUXVIEW_HD constexpr int line_reach(int degree) {
  return degree;
}
// Ghost layers a scheme of this degree needs: the reach of a neighbour's stencil.
FLUXVIEW_HD constexpr int modal_ghost_width(int degree) {
  return line_reach(degree) + 1;
}

// Pure modes along axis D: fills modes[P1(D)], [P2(D)], [P3(D)] as far as Degree, and
// returns how smooth the line was (the smallest `smooth` over the variables).
// at(dx, dy, dz): the conserved average of the cell at that offset.
template <int D, int Degree, class T, int NV, class Access, class Vars>
FLUXVIEW_HD T reconstruct_line(const Access& at, const Vars& vars, SlopeRule<T> slope,
                               State<T, NV>* modes) {
  constexpr int r = line_reach(Degree);
  const State<T, NV> u0 = at(0, 0, 0);
  const auto proj = vars.template along<D>(u0);
  // The line in the reconstruction's variables, as differences from the cell (the
  // reconstructions depend on differences only).
  State<T, NV> v[2 * r + 1];
#pragma unroll
  for (int s = -r; s <= r; ++s) {
    if (s == 0) {
#pragma unroll
      for (int m = 0; m < NV; ++m) v[r].v[m] = T(0);
      continue;
    }
    State<T, NV> d = at(D == 0 ? s : 0, D == 1 ? s : 0, D == 2 ? s : 0);
#pragma unroll
    for (int m = 0; m < NV; ++m) d.v[m] -= u0.v[m];
    v[s + r] = proj.to_fields(d);
  }
  State<T, NV> mx, mxx, mxxx;
  T smooth = T(1);
  // The WENO weights' floor needs the variables' scale (a square root: not for plm).
  State<T, NV> scale{};
  if (Degree > 1 || slope.weno) scale = proj.scale();
#pragma unroll
  for (int m = 0; m < NV; ++m) {
    LineModes<T> lm;
    if constexpr (Degree == 1) {
      if (slope.weno) {
        const T u[3] = {v[0].v[m], v[1].v[m], v[2].v[m]};
        lm = weno2_line_modes(u, weno_floor(scale.v[m], slope.weno_floor[D]));
      } else {
        lm = plm_line_modes(v[0].v[m], v[1].v[m], v[2].v[m], slope.theta);
      }
    } else if constexpr (Degree == 2) {
      const T u[5] = {v[0].v[m], v[1].v[m], v[2].v[m], v[3].v[m], v[4].v[m]};
      // MHD keeps the WENO mix (weno3_line_modes' `optimal`): with the optimal mix a 1-ulp
      // change of kappa on the 45 x 37 MHD vortex at weno3 + ADER grew to 4.9e-8 of psi's
      // size in 20 steps in primitive variables (MHD's default), against 7.3e-10 without;
      // switched on in some variables only, to 1e-6 and more (docs/fv.md).
      lm = weno3_line_modes(u, weno_floor(scale.v[m]), !is_mhd<NV>);
    } else {
      const T u[7] = {v[0].v[m], v[1].v[m], v[2].v[m], v[3].v[m], v[4].v[m], v[5].v[m], v[6].v[m]};
      lm = weno4_line_modes(u, weno_floor(scale.v[m]));
    }
    mx.v[m] = lm.x;
    mxx.v[m] = lm.xx;
    mxxx.v[m] = lm.xxx;
    // The passive tracer does not switch the flow's cross modes (its own edges would change
    // the density's polynomial, and a passive scalar must not move the flow), nor does
    // MHD's psi (in slot kPsi in every variable set), the cleaning field. Psi is born of
    // the truncation error of div B, and the smoothness of so small a field followed its
    // rounding: on the 45 x 37 MHD vortex at weno3 + ADER, a 1-ulp change of kappa grew
    // to 1.6e-4 in psi in 20 steps (characteristic variables; 3.3e-11 in primitive ones)
    // through the switch, and to 1.5e-11 (2.4e-13) with psi out of it (docs/mhd.md).
    const bool passive = (has_tracer<NV> && m == tracer_slot<NV>) || (is_mhd<NV> && m == kPsi);
    if (!passive) smooth = fv_min(smooth, lm.smooth);
  }
  modes[mode_p1(D)] = proj.from_fields(mx);
  if constexpr (Degree >= 2) modes[mode_p2(D)] = proj.from_fields(mxx);
  if constexpr (Degree >= 3) modes[mode_p3(D)] = proj.from_fields(mxxx);
  return smooth;
}

// The cell at offset s_a along axis a and s_b along axis b.
template <class Access>
FLUXVIEW_HD auto at_pair(const Access& at, int a, int sa, int b, int sb) {
  int o[3] = {0, 0, 0};
  o[a] = sa;
  o[b] = sb;
  return at(o[0], o[1], o[2]);
}

// The cross modes of the plane of axes a, b (a != b) from the block, times the switch w.
template <int Degree, class T, int NV, class Access>
FLUXVIEW_HD void reconstruct_pair(const Access& at, int a, int b, T w, State<T, NV>* modes) {
  const State<T, NV> pp = at_pair(at, a, 1, b, 1), pm = at_pair(at, a, 1, b, -1);
  const State<T, NV> mp = at_pair(at, a, -1, b, 1), mm = at_pair(at, a, -1, b, -1);
  const T q = T(0.25) * w;
  State<T, NV> ab;
#pragma unroll
  for (int m = 0; m < NV; ++m) ab.v[m] = q * ((pp.v[m] - pm.v[m]) - (mp.v[m] - mm.v[m]));
  modes[mode_p1p1(a, b)] = ab;
  if constexpr (Degree >= 3) {
    const State<T, NV> zp = at_pair(at, a, 0, b, 1), zm = at_pair(at, a, 0, b, -1);
    const State<T, NV> pz = at_pair(at, a, 1, b, 0), mz = at_pair(at, a, -1, b, 0);
    State<T, NV> aab, abb;
#pragma unroll
    for (int m = 0; m < NV; ++m) {
      aab.v[m] = q * ((pp.v[m] + mp.v[m] - T(2) * zp.v[m]) - (pm.v[m] + mm.v[m] - T(2) * zm.v[m]));
      abb.v[m] = q * ((pp.v[m] + pm.v[m] - T(2) * pz.v[m]) - (mp.v[m] + mm.v[m] - T(2) * mz.v[m]));
    }
    modes[mode_p2p1(a, b)] = aab;  // P2(a) P1(b)
    modes[mode_p2p1(b, a)] = abb;  // P2(b) P1(a)
  }
}

// The polynomial of a cell: modes[0 .. modes_up_to(Degree)) in conserved variables.
// active[a]: axis a has more than one cell (a reduced axis gets no modes and reads no
// neighbours). slope: how the degree-1 member (plm or weno2) takes its slope.
template <int Degree, class T, int NV, class Access, class Vars>
FLUXVIEW_HD void reconstruct_cell(const Access& at, const Vars& vars, const bool active[3],
                                  SlopeRule<T> slope, State<T, NV>* modes) {
  modes[0] = at(0, 0, 0);
  if constexpr (Degree >= 1) {
#pragma unroll
    for (int m = 1; m < modes_up_to(Degree); ++m)
#pragma unroll
      for (int k = 0; k < NV; ++k) modes[m].v[k] = T(0);
    T sw[3] = {T(0), T(0), T(0)};
    if (active[0]) sw[0] = cross_mode_switch(reconstruct_line<0, Degree>(at, vars, slope, modes));
    if (active[1]) sw[1] = cross_mode_switch(reconstruct_line<1, Degree>(at, vars, slope, modes));
    if (active[2]) sw[2] = cross_mode_switch(reconstruct_line<2, Degree>(at, vars, slope, modes));
    if constexpr (Degree >= 2) {
      if (active[0] && active[1]) reconstruct_pair<Degree>(at, 0, 1, fv_min(sw[0], sw[1]), modes);
      if (active[1] && active[2]) reconstruct_pair<Degree>(at, 1, 2, fv_min(sw[1], sw[2]), modes);
      if (active[2] && active[0]) reconstruct_pair<Degree>(at, 2, 0, fv_min(sw[2], sw[0]), modes);
    }
    if constexpr (Degree >= 3) {
      if (active[0] && active[1] && active[2]) {
        const T q = T(0.125) * fv_min(sw[0], fv_min(sw[1], sw[2]));
        State<T, NV> xyz;
#pragma unroll
        for (int k = 0; k < NV; ++k) xyz.v[k] = T(0);
#pragma unroll
        for (int c = 0; c < 8; ++c) {
          const int sx = (c & 1) ? 1 : -1, sy = (c & 2) ? 1 : -1, sz = (c & 4) ? 1 : -1;
          const State<T, NV> u = at(sx, sy, sz);
          const T s = T(sx * sy * sz);
#pragma unroll
          for (int k = 0; k < NV; ++k) xyz.v[k] += s * u.v[k];
        }
#pragma unroll
        for (int k = 0; k < NV; ++k) xyz.v[k] *= q;
        modes[kModeXyz] = xyz;
      }
    }
  }
}

}  // namespace fluxview::fv
