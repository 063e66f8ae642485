#pragma once
// The stages of the higher-order schemes, written once over the execution space
// (sim/core/Exec.hpp) and instantiated on the host (FvCpu.cpp) and on the device
// (cuda/FvModalKernels*.cu). The pointwise pieces are those of the paper's three-part
// scheme: reconstruction (CellReconstruction.hpp), the ADER predictor (AderPredictor.hpp)
// and the Riemann-solver corrector (ModalFaceFlux.hpp); the update of a cell with its
// positivity fallback is the one every path shares (FvPhysics.hpp).
//
// A stage works through the grid in slabs of z planes, each in four passes (the paper's
// Limiter, Predictor, Make_Flux and Make_dU_dt/Update subroutines, Fig. 1):
//   1. reconstruct: the polynomial of every cell of the slab and one layer around it (the
//      cells beside a face of the slab) into a scratch of modes, one array per mode and
//      variable;
//   2. predict (ADER only): the predictor evolves each of those polynomials in place;
//   3. faces: along each active axis, the flux through every face of the slab's cells
//      from the polynomials on both sides, into a scratch, then its difference into the
//      flux divergence of each cell (at fourth order first the values of each polynomial
//      at its faces' points, one variable at a time, into a scratch of their own: 3a);
//   4. update: each cell's stage outputs with the fallback, the corrected-cell count and
//      the next CFL rate.
// Slabs bound the scratch: the polynomials of a fourth-order ADER cell are 35 modes of
// each variable, which for the whole of a 512^3 grid would not fit on a GPU; a slab is as
// many planes as a budget holds, its two extra planes of polynomials the price.
//
// The WENO-Z path has no polynomials: its face pass reconstructs the two face values from
// the six cells across the face and calls the Riemann solver at the face centre (the
// dimension-by-dimension scheme of codes that use WENO-Z); passes 3 and 4 as above.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "sim/core/Buffer.hpp"
#include "sim/core/Exec.hpp"
#include "sim/fv/AderPredictor.hpp"
#include "sim/fv/CellReconstruction.hpp"
#include "sim/fv/EulerPolicies.hpp"
#include "sim/fv/FaceTrace.hpp"
#include "sim/fv/FvStep.hpp"
#include "sim/fv/ModalFaceFlux.hpp"
#include "sim/fv/WenoReconstruction.hpp"
#include "sim/fv/WenoZFaceFlux.hpp"

namespace fluxview::fv {

// Waits for the work queued on a space (to time a pass): nothing on the host, the device
// synchronised on the device. Defined beside each instantiation.
void wait_for(const exec::Host&);
void wait_for(const exec::Device&);
// Bytes of scratch a stage may take on a space (the slabs are sized to it).
std::size_t scratch_budget(const exec::Host&);
std::size_t scratch_budget(const exec::Device&);

// A box of cells stored contiguously in a scratch: cell (i, j, k) of [lo, lo + ext) at
// local(i, j, k); array a of such cells starts at a * cells.
struct ScratchBox {
  int lo[3] = {0, 0, 0}, ext[3] = {1, 1, 1};
  std::int64_t cells = 1;
  FLUXVIEW_HD std::int64_t local(int i, int j, int k) const {
    return (i - lo[0]) + std::int64_t(ext[0]) * ((j - lo[1]) + std::int64_t(ext[1]) * (k - lo[2]));
  }
  // The cell below face i-1/2 along D (the one above is local(i, j, k)).
  template <int D>
  FLUXVIEW_HD std::int64_t below(int i, int j, int k) const {
    return local(i - (D == 0), j - (D == 1), k - (D == 2));
  }
  // The cells it covers, as a loop's box.
  exec::Box box() const {
    exec::Box b;
    for (int d = 0; d < 3; ++d) {
      b.lo[d] = lo[d];
      b.hi[d] = lo[d] + ext[d];
    }
    return b;
  }
};

inline ScratchBox scratch_box(const int lo[3], const int hi[3]) {
  ScratchBox b;
  b.cells = 1;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = lo[a];
    b.ext[a] = hi[a] - lo[a];
    b.cells *= b.ext[a];
  }
  return b;
}

// What a slab's passes share: the fields and the scratch arrays.
template <class T>
struct SlabArrays {
  ScratchBox poly;  // cells whose polynomial is stored
  ScratchBox face;  // faces (face i-1/2 along D at cell i), all axes share it
  ScratchBox cell;  // the slab's own cells (the flux divergence)
  T* modes = nullptr;
  T* points = nullptr;  // degree 3: values at the face points of one axis (poly box)
  T* flux = nullptr;
  T* div = nullptr;
};

// From this degree on the face fluxes come from values at the face points stored by a pass
// of their own (3a) rather than from the two polynomials a face thread would hold. On the
// H100 (docs/performance.md, 2026-11-24) that made fourth order 1.7 times faster with
// ADER and 2.4 times with rk4, and third order 0.7 times as fast: its two polynomials of
// 15 modes fit a thread well enough that the extra pass's traffic costs more.
inline constexpr int kFacePointsFromDegree = 3;
// At this degree MHD's face pass on the device streams each cell's stored modes one time
// layer at a time (layered_face_fluxes) rather than holding the two polynomials
// (polynomial_face_fluxes), which for nine or ten variables spill heavily. Measured on an
// H200 (docs/performance.md, 2026-11-28, side by side in two calls): the MHD vortex at
// 128^3 with weno3 and ADER 1.32 times faster; hydro's 192^3 vortex 1.78 times slower with
// ADER and 1.54 with SSP-RK3 (its five variables' polynomials fit well enough), and on the
// host MHD 15-20% slower. MHD's Runge-Kutta stages take it too (not timed: its
// polynomials, 2 x 10 modes x 9, spill as well). The sums are the same in the same order:
// the same bits.
inline constexpr int kLayeredFacesDegree = 2;
template <class Space, int NV>
inline constexpr bool kLayeredFacesOn = std::is_same_v<Space, exec::Device>&& NV >= 9;

// One cell's output of a stage from its flux divergence lv, the update every higher-order
// path shares (and the adaptive mesh's WENO-Z stage, sim/amr): out = w0 U0 + w (in + dt L),
// with the first-order (HLLE) fallback from the cell's face neighbours in `in` where that
// is not admissible (`step`: the index strides along x, y, z, 0 along a reduced axis).
template <int NV, class T>
FLUXVIEW_HD State<T, NV> stage_output(const Conserved<T>& u0, const Conserved<T>& in,
                                      std::int64_t c, const std::int64_t step[3],
                                      const State<T, NV>& lv, T dt, T weight_u0, T weight_in,
                                      const Physics<T>& ph, const T inv_dx[3],
                                      unsigned long long& corrected) {
  const auto first_order = [&] {
    auto prim = [&](std::int64_t at) { return cons_to_prim(load_state<NV>(in, at), ph); };
    return first_order_divergence(prim(c), prim(c - step[0]), prim(c + step[0]), prim(c - step[1]),
                                  prim(c + step[1]), prim(c - step[2]), prim(c + step[2]), ph,
                                  inv_dx);
  };
  return update_cell(load_state<NV>(u0, c), load_state<NV>(in, c), lv, dt, weight_u0, weight_in, ph,
                     first_order, corrected);
}

namespace modal_detail {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <int NV, class T>
FLUXVIEW_HD State<T, NV> load_cell(const Conserved<T>& u, const FieldLayout& l, int i, int j,
                                   int k) {
  return load_state<NV>(u, l.index(i, j, k));
}

// Pass 1: the polynomial of every cell of the poly box.
template <int M, int NV, class Space, class T>
void reconstruct_pass(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s,
                      const bool act0, const bool act1, const bool act2) {
  const FieldLayout l = a.layout;
  const Conserved<T> in = a.in;
  EulerLineVariables<T, NV> vars;
  vars.vars = a.vars;
  vars.ph = a.ph;
  SlopeRule<T> slope;
  slope.theta = a.ph.theta;
  slope.weno = a.weno_slope;
  for (int d = 0; d < 3; ++d) slope.weno_floor[d] = a.weno2_floor[d];
  const ScratchBox pb = s.poly;
  T* modes = s.modes;
  exec::for_each_cell(
      space, pb.box(),
      [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
        const bool active[3] = {act0, act1, act2};
        auto at = [&](int di, int dj, int dk) {
          return load_cell<NV>(in, l, i + di, j + dj, k + dk);
        };
        State<T, NV> c[modes_up_to(M)];
        reconstruct_cell<M>(at, vars, active, slope, c);
        const std::int64_t q = pb.local(i, j, k);
        for (int m = 0; m < modes_up_to(M); ++m)
          for (int v = 0; v < NV; ++v) modes[(std::int64_t(m) * NV + v) * pb.cells + q] = c[m].v[v];
      },
      exec::Block<32, 2, 1>{});
}

// Pass 2: the ADER predictor, in place.
template <int M, int NV, class Space, class T>
void predict_pass(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s,
                  const bool act0, const bool act1, const bool act2) {
  EulerFlux<T, NV> fl;
  fl.ph = a.ph;
  const T nu0 = a.dt * a.inv_dx[0], nu1 = a.dt * a.inv_dx[1], nu2 = a.dt * a.inv_dx[2];
  const ScratchBox pb = s.poly;
  T* modes = s.modes;
  exec::for_each_cell(
      space, pb.box(),
      [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
        const bool active[3] = {act0, act1, act2};
        const T nu[3] = {nu0, nu1, nu2};
        const std::int64_t q = pb.local(i, j, k);
        SpaceTimePolynomial<T, NV, M> st;
        for (int m = 0; m < modes_up_to(M); ++m)
          for (int v = 0; v < NV; ++v)
            st.c[m].v[v] = modes[(std::int64_t(m) * NV + v) * pb.cells + q];
        ader_predict<M>(fl, st, active, nu);
        for (int m = modes_up_to(M); m < space_time_modes(M); ++m)
          for (int v = 0; v < NV; ++v)
            modes[(std::int64_t(m) * NV + v) * pb.cells + q] = st.c[m].v[v];
      },
      exec::Block<32, 2, 1>{});
}

// The stored polynomial of a cell (its first `count` modes; the rest zero).
template <int M, int NV, class T>
FLUXVIEW_HD void load_poly(const T* modes, const ScratchBox& pb, std::int64_t q, int count,
                           SpaceTimePolynomial<T, NV, M>& st) {
  for (int m = 0; m < space_time_modes(M); ++m)
    for (int v = 0; v < NV; ++v)
      st.c[m].v[v] = m < count ? modes[(std::int64_t(m) * NV + v) * pb.cells + q] : T(0);
}

// A cell's average (its stored mode 0): the face passes that work from face values
// (layered, stored points) hand the two beside a face to the face flux with the values.
template <int NV, class T>
FLUXVIEW_HD State<T, NV> stored_mean(const T* modes, const ScratchBox& pb, std::int64_t q) {
  State<T, NV> u;
  for (int v = 0; v < NV; ++v) u.v[v] = modes[std::int64_t(v) * pb.cells + q];
  return u;
}

// The flux differences of one axis into the divergence of the slab's cells (set on the
// first active axis, added after, in the order x, y, z as the second-order path does).
template <int D, int NV, class Space, class T>
void add_divergence(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s, bool first) {
  const ScratchBox fb = s.face, cb = s.cell;
  const T* flux = s.flux;
  T* div = s.div;
  const T inv = a.inv_dx[D];
  exec::for_each_cell(space, cb.box(), [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
    const std::int64_t lo = fb.local(i, j, k),
                       hi = fb.local(i + (D == 0), j + (D == 1), k + (D == 2)),
                       c = cb.local(i, j, k);
    for (int v = 0; v < NV; ++v) {
      const T d = (flux[v * fb.cells + lo] - flux[v * fb.cells + hi]) * inv;
      div[v * cb.cells + c] = first ? d : div[v * cb.cells + c] + d;
    }
  });
}

// The boxes of faces i-1/2 along D of the slab's cells and the one beyond.
template <int D, class T>
exec::Box slab_faces(const SlabArrays<T>& s) {
  exec::Box faces;
  for (int d = 0; d < 3; ++d) {
    faces.lo[d] = s.cell.lo[d];
    faces.hi[d] = s.cell.lo[d] + s.cell.ext[d] + (d == D ? 1 : 0);
  }
  return faces;
}

// Pass 3's frame, one axis: for each face i-1/2 along D of the slab's cells and the one
// beyond (slab_faces), the flux `face(i, j, k)` returns (a State<T, NV>), stored at the
// face's place in the slab's face scratch. Every face pass below is this loop with its own
// way of making a face's flux (from the polynomials, in time layers, from the stored face
// points, from WENO-Z's six cells).
template <int D, int NV, class Space, class T, class Face>
void face_flux_pass(const Space& space, const SlabArrays<T>& s, const Face& face) {
  const ScratchBox fb = s.face;
  T* flux = s.flux;
  exec::for_each_cell(
      space, slab_faces<D>(s),
      [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
        const State<T, NV> f = face(i, j, k);
        const std::int64_t q = fb.local(i, j, k);
        for (int v = 0; v < NV; ++v) flux[v * fb.cells + q] = f.v[v];
      },
      exec::Block<32, 2, 1>{});
}

// Pass 3a, one axis, degree 3: each cell's values at the points of its two faces
// normal to D (the rule of face_rule_of), for the cells beside a face of the slab, into
// points[((side * P + p) * NV + v) * cells + cell] (side 0: its +1/2 face, the state below
// that face; 1: its -1/2 face). A thread holds one variable's modes at a time: the whole
// space-time polynomial of a fourth-order cell (35 modes of each variable), and two of
// them in the face pass, are far more than a GPU thread's registers. For the same reason
// the basis at each point is evaluated again for each variable rather than kept (20
// values at each of up to 16 points).
template <int D, int M, int NV, class Space, class T>
void face_points_pass(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s,
                      const FaceRule<D, T>& rule) {
  const int nt = a.ader ? M : 0;
  const int count = a.ader ? space_time_modes(M) : modes_up_to(M);
  const ScratchBox pb = s.poly;
  const T* modes = s.modes;
  T* points = s.points;
  exec::Box cells = slab_faces<D>(s);  // the cells above each face, and those below:
  cells.lo[D] -= 1;
  exec::for_each_cell(
      space, cells,
      [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
        const std::int64_t q = pb.local(i, j, k);
        const int n = rule.points();
        for (int v = 0; v < NV; ++v) {
          T c[space_time_modes(M)];
          for (int m = 0; m < space_time_modes(M); ++m)
            c[m] = m < count ? modes[(std::int64_t(m) * NV + v) * pb.cells + q] : T(0);
          for (int side = 0; side < 2; ++side)
            for (int p = 0; p < n; ++p) {
              T pos[3], tau;
              rule.point(p, side, pos, tau);
              T phi[modes_up_to(M)];
              basis_at<M>(pos, phi);
              points[((std::int64_t(side) * n + p) * NV + v) * pb.cells + q] =
                  space_time_value_of<M, T>([&](int m) { return c[m]; }, phi, tau, nt);
            }
        }
      },
      exec::Block<32, 2, 1>{});
}

// The shape of a face pass's rule: which axes are active and the time degree of the
// polynomials (nt, as face_rule_of). RuntimeFaceShape carries it as values; FixedFaceShape
// as constants, so that a kernel built for it has the rule's points, weights and basis
// values as constants and its loops over the points unrolled (Act2 false: an x-y grid).
struct RuntimeFaceShape {
  bool act0 = true, act1 = true, act2 = true;
  int nt = 0;
};
template <int NT, bool Act2 = true>
struct FixedFaceShape {
  static constexpr bool act0 = true, act1 = true, act2 = Act2;
  static constexpr int nt = NT;
};

// A cell's trace on the face normal to D (FaceTrace.hpp), built as its stored modes are
// read: each mode of each variable read once and added to the trace, so that the cell's
// whole polynomial is never held.
template <int D, int M, int NV, class T>
FLUXVIEW_HD void load_face_trace(const T* modes, const ScratchBox& pb, std::int64_t q, int side,
                                 int nt, FaceTrace<T, NV, M>& tr) {
  face_trace_of<D, M, State<T, NV>, T>(
      [&](int m) {
        State<T, NV> c;
        for (int v = 0; v < NV; ++v) c.v[v] = modes[(std::int64_t(m) * NV + v) * pb.cells + q];
        return c;
      },
      side, nt, tr.c);
}

// The flux through the face along D between the stored cells ql (below) and qr (above),
// their modes up to time degree nt: from their traces on the face where kFaceTracesOn (a
// thread holds up to 10 modes of each variable a side), else from their polynomials (up
// to 15). (A function rather than the pass's lambda: nvcc's extended lambdas may not
// capture inside `if constexpr`.)
template <int D, int M, int NV, class T>
FLUXVIEW_HD State<T, NV> stored_face_flux(const EulerFaceSolver<T, NV>& rs, const T* modes,
                                          const ScratchBox& pb, std::int64_t ql, std::int64_t qr,
                                          const bool active[3], int nt) {
  bool fell_back = false;
  if constexpr (kFaceTracesOn<M, NV>) {
    FaceTrace<T, NV, M> L, R;
    load_face_trace<D, M, NV>(modes, pb, ql, 0, nt, L);
    load_face_trace<D, M, NV>(modes, pb, qr, 1, nt, R);
    return trace_face_flux<D, M>(rs, face_rule_of<D, M, T>(active, nt),
                                 stored_mean<NV>(modes, pb, ql), stored_mean<NV>(modes, pb, qr), L,
                                 R, nt, fell_back);
  } else {
    const int count = nt > 0 ? space_time_modes(M) : modes_up_to(M);
    SpaceTimePolynomial<T, NV, M> L, R;
    load_poly<M, NV>(modes, pb, ql, count, L);
    load_poly<M, NV>(modes, pb, qr, count, R);
    return modal_face_flux<D, M>(rs, L, R, active, nt, fell_back);
  }
}

// Pass 3, one axis, degrees 1 and 2: the fluxes from the two cells beside each face
// (stored_face_flux), for a rule of the shape `shape`.
template <int D, int M, int NV, class Space, class T, class Shape>
void polynomial_face_fluxes_of(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s,
                               const Shape shape) {
  const EulerFaceSolver<T, NV> rs{a.ph};
  const ScratchBox pb = s.poly;
  const T* modes = s.modes;
  face_flux_pass<D, NV>(space, s, [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
    const bool active[3] = {shape.act0, shape.act1, shape.act2};
    return stored_face_flux<D, M, NV>(rs, modes, pb, pb.below<D>(i, j, k), pb.local(i, j, k),
                                      active, shape.nt);
  });
}

// The same for the stage's shape. On the device a degree-2 face pass of a 3D grid, or of an
// x-y grid, takes a kernel built for that shape (FixedFaceShape); everything else takes the
// one built for any shape. Measured on an H200 (docs/performance.md, 2026-11-29, side by
// side): with the two polynomials held, the fixed shape made weno3 + SSP-RK3 on the 192^3
// vortex 1.73 times faster and ADER not at all (1.005); with the traces (kFaceTracesOn)
// and the fixed shape for ADER and x-y grids as well, weno3 then took 0.81 (ADER) and 0.89
// (SSP-RK3) of the time a step at 192^3, and 0.85 and 0.50 on a 2048^2 x-y grid.
template <int D, int M, int NV, class Space, class T>
void polynomial_face_fluxes(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s,
                            const bool act0, const bool act1, const bool act2) {
  if constexpr (std::is_same_v<Space, exec::Device> && M == 2) {
    if (act0 && act1 && act2) {
      if (a.ader)
        polynomial_face_fluxes_of<D, M, NV>(space, a, s, FixedFaceShape<M>{});
      else
        polynomial_face_fluxes_of<D, M, NV>(space, a, s, FixedFaceShape<0>{});
      return;
    }
    if (act0 && act1 && D < 2) {
      if (a.ader)
        polynomial_face_fluxes_of<D, M, NV>(space, a, s, FixedFaceShape<M, false>{});
      else
        polynomial_face_fluxes_of<D, M, NV>(space, a, s, FixedFaceShape<0, false>{});
      return;
    }
  }
  polynomial_face_fluxes_of<D, M, NV>(space, a, s,
                                      RuntimeFaceShape{act0, act1, act2, a.ader ? M : 0});
}

// Variable v's values at a face's spatial points at the rule's time xt[t], from the stored
// modes (count of them, up to time degree nt) of the cell q on side `side`, into u[p]:
// through its trace where kFaceTracesOn (hydro, whose face pass takes the traces; this
// pass runs there only in LayeredFacesTest, which keeps the two passes' bits together),
// else from its polynomial, one variable's modes held (layered_face_fluxes).
template <int D, int M, int NV, class T>
FLUXVIEW_HD void layer_values(const T* modes, const ScratchBox& pb, std::int64_t q, int side, int v,
                              const FaceRule<D, T>& rule, int t, int nt, int count,
                              State<T, NV>* u) {
  const int ns = rule.n1 * rule.n2;
  if constexpr (kFaceTracesOn<M, NV>) {
    T tr[face_space_time_modes(M)];
    face_trace_of<D, M, T, T>(
        [&](int m) { return modes[(std::int64_t(m) * NV + v) * pb.cells + q]; }, side, nt, tr);
    for (int p = 0; p < ns; ++p) {
      T pos[3];
      rule.position(p / rule.n2, p % rule.n2, side, pos);
      u[p].v[v] = face_trace_value_of<M, T>([&](int m) { return tr[m]; }, pos[rule.e1],
                                            pos[rule.e2], rule.xt[t], nt);
    }
  } else {
    T c[space_time_modes(M)];
    for (int m = 0; m < space_time_modes(M); ++m)
      c[m] = m < count ? modes[(std::int64_t(m) * NV + v) * pb.cells + q] : T(0);
    for (int p = 0; p < ns; ++p) {
      T pos[3];
      rule.position(p / rule.n2, p % rule.n2, side, pos);
      T phi[modes_up_to(M)];
      basis_at<M>(pos, phi);
      u[p].v[v] = space_time_value_of<M, T>([&](int m) { return c[m]; }, phi, rule.xt[t], nt);
    }
  }
}

// Pass 3, one axis, degree 2, MHD on the device (kLayeredFacesOn): the fluxes from the
// stored modes of the two cells beside each face, one time point of the rule at a time
// (face_flux_in_layers). A thread holds one variable's 15 modes of one cell while it
// evaluates them at the face's spatial points, then the states of one layer (2 x 4 points
// of NV values) and the first layer's four fluxes: with nine variables about 150 values,
// where the two polynomials alone are 270 (2 x 15 modes x 9), which spill (hydro's 150
// spill too: docs/performance.md, 2026-11-28, 255 registers, bound by spills; for hydro
// this pass measured slower all the same). Each mode is read once a layer: twice a face
// with ADER. The same terms in the same order as polynomial_face_fluxes (through the
// traces where that takes them, kFaceTracesOn), which tests/fv/LayeredFacesTest.cpp checks
// on the host, bit for bit.
template <int D, int M, int NV, class Space, class T>
void layered_face_fluxes(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s,
                         const FaceRule<D, T>& rule) {
  const EulerFaceSolver<T, NV> rs{a.ph};
  const int nt = a.ader ? M : 0;
  const int count = a.ader ? space_time_modes(M) : modes_up_to(M);
  const ScratchBox pb = s.poly;
  const T* modes = s.modes;
  face_flux_pass<D, NV>(space, s, [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
    const std::int64_t cell[2] = {pb.below<D>(i, j, k), pb.local(i, j, k)};
    const State<T, NV> meanL = stored_mean<NV>(modes, pb, cell[0]),
                       meanR = stored_mean<NV>(modes, pb, cell[1]);
    const auto layer = [&](int t, State<T, NV>(*u)[kMaxFaceSpacePoints]) {
      for (int v = 0; v < NV; ++v)
        for (int side = 0; side < 2; ++side)
          layer_values<D, M, NV>(modes, pb, cell[side], side, v, rule, t, nt, count, u[side]);
    };
    bool fell_back = false;
    return face_flux_in_layers<D>(rs, rule, meanL, meanR, layer, fell_back);
  });
}

// Pass 3, one axis, degree 3: the fluxes from the values at the face points (pass 3a) and
// the two cells' averages.
template <int D, int NV, class Space, class T>
void point_face_fluxes(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s,
                       const FaceRule<D, T>& rule) {
  const EulerFaceSolver<T, NV> rs{a.ph};
  const ScratchBox pb = s.poly;
  const T* modes = s.modes;
  const T* points = s.points;
  face_flux_pass<D, NV>(space, s, [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
    const std::int64_t ql = pb.below<D>(i, j, k), qr = pb.local(i, j, k);
    const int n = rule.points();
    const State<T, NV> meanL = stored_mean<NV>(modes, pb, ql),
                       meanR = stored_mean<NV>(modes, pb, qr);
    const auto value = [&](int side, int p, const T*, T) {
      const std::int64_t c = side == 0 ? ql : qr;
      State<T, NV> u;
      for (int v = 0; v < NV; ++v)
        u.v[v] = points[((std::int64_t(side) * n + p) * NV + v) * pb.cells + c];
      return u;
    };
    bool fell_back = false;
    return face_flux_at_points<D>(rs, rule, meanL, meanR, value, fell_back);
  });
}

// Pass 3, one axis: fluxes through the faces i-1/2 (along D) of the slab's cells and the
// one beyond, from the polynomials or (from kFacePointsFromDegree on) from the values at
// the face points (passes 3a and 3), then their differences into the divergence.
template <int D, int M, int NV, class Space, class T>
void modal_face_pass(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s,
                     const bool act0, const bool act1, const bool act2, bool first) {
  if constexpr (M >= kFacePointsFromDegree) {
    const bool act[3] = {act0, act1, act2};
    const FaceRule<D, T> rule = face_rule_of<D, M, T>(act, a.ader ? M : 0);
    face_points_pass<D, M, NV>(space, a, s, rule);
    point_face_fluxes<D, NV>(space, a, s, rule);
  } else if constexpr (M == kLayeredFacesDegree && kLayeredFacesOn<Space, NV>) {
    const bool act[3] = {act0, act1, act2};
    layered_face_fluxes<D, M, NV>(space, a, s, face_rule_of<D, M, T>(act, a.ader ? M : 0));
  } else {
    polynomial_face_fluxes<D, M, NV>(space, a, s, act0, act1, act2);
  }
  add_divergence<D, NV>(space, a, s, first);
}

// Pass 3 of the WENO-Z path, one axis: the face values from the six cells across each
// face, in the run's variables linearised about the mean of the two cells beside it.
template <int D, int NV, class Space, class T>
void wenoz_face_pass(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s,
                     bool first) {
  const EulerFaceSolver<T, NV> rs{a.ph};
  const FieldLayout l = a.layout;
  const Conserved<T> in = a.in;
  const ReconstructionVariables vars = a.vars;
  face_flux_pass<D, NV>(space, s, [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
    // Cells i-3 .. i+2 along D: the face lies between index 2 and 3.
    State<T, NV> u[6];
    for (int s6 = 0; s6 < 6; ++s6) {
      const int o = s6 - 3;
      u[s6] = load_cell<NV>(in, l, i + (D == 0) * o, j + (D == 1) * o, k + (D == 2) * o);
    }
    return wenoz_face_flux<D, NV>(u, rs, vars);
  });
  add_divergence<D, NV>(space, a, s, first);
}

struct UpdateAcc {
  exec::Sum<unsigned long long> corrected;
  exec::MaxKeepNaN<double> rate{0.0};
  FLUXVIEW_HD void join(const UpdateAcc& o) {
    corrected.join(o.corrected);
    rate.join(o.rate);
  }
};

// Pass 4: the outputs of every cell of the slab, each with the first-order (HLLE)
// fallback where it is not admissible.
template <int NV, class Space, class T>
UpdateAcc update_pass(const Space& space, const StageArgs<T>& a, const SlabArrays<T>& s) {
  const StageArgs<T> g = a;
  const ScratchBox cb = s.cell;
  const T* div = s.div;
  const bool with_rate = a.rate_bits != nullptr;
  return exec::reduce_cells(
      space, cb.box(), UpdateAcc{}, [=] FLUXVIEW_LAMBDA(int i, int j, int k, UpdateAcc& acc) {
        const FieldLayout& l = g.layout;
        const std::int64_t c = l.index(i, j, k);
        const std::int64_t step[3] = {l.n[0] > 1 ? 1 : 0, l.n[1] > 1 ? l.sy : 0,
                                      l.n[2] > 1 ? l.sz : 0};
        State<T, NV> lv;
        const std::int64_t q = cb.local(i, j, k);
        for (int v = 0; v < NV; ++v) lv.v[v] = div[v * cb.cells + q];
        unsigned long long corrected = 0;
        const State<T, NV> r = stage_output(g.u0, g.in, c, step, lv, g.dt, g.weight_u0, g.weight_in,
                                            g.ph, g.inv_dx, corrected);
        if (g.outputs == 2)
          store_state<NV>(g.out_2, c,
                          stage_output(g.u0_2, g.in, c, step, lv, g.dt_2, g.weight_u0_2,
                                       g.weight_in_2, g.ph, g.inv_dx, corrected));
        store_state<NV>(g.out, c, r);
        acc.corrected.add(corrected);
        if (with_rate) acc.rate.add(cell_signal_rate(r, g.ph, g.inv_dx));
      });
}

}  // namespace modal_detail

// A stage of the modal path (degree M = 1..3) or, for M = -1, of the WENO-Z path, on a
// space. The scratch grows to what the slabs need and is kept for the next stage.
// Returns what the update counted; the caller puts it where the solver reads it.
template <int M, int NV, class Space, class T>
modal_detail::UpdateAcc higher_order_stage(const Space& space, const StageArgs<T>& a,
                                           Buffer& scratch) {
  using namespace modal_detail;
  const FieldLayout& l = a.layout;
  const bool act[3] = {l.n[0] > 1, l.n[1] > 1, l.n[2] > 1};
  // Modes stored per cell: the polynomial, and with ADER its time coefficients.
  const int stored = M < 0 ? 0 : (a.ader ? space_time_modes(M) : modes_up_to(M));
  const int hx = M < 0 ? 0 : int(act[0]), hy = M < 0 ? 0 : int(act[1]),
            hz = M < 0 ? 0 : int(act[2]);
  // Bytes per z plane: polynomials (with their one-cell ring), face fluxes, divergence.
  // Degree 3 also keeps the values at the face points of one axis (pass 3a).
  const int point_values = M >= kFacePointsFromDegree ? 2 * kMaxFacePoints : 0;
  const std::size_t plane =
      sizeof(T) * NV *
      (std::size_t(stored + point_values) * (l.n[0] + 2 * hx) * (l.n[1] + 2 * hy) +
       std::size_t(l.n[0] + 1) * (l.n[1] + 1) + std::size_t(l.n[0]) * l.n[1]);
  const std::size_t budget = scratch_budget(space);
  int slab = int(std::max<std::size_t>(1, budget / plane));
  slab = std::min(slab, l.n[2]);
  if (hz) slab = std::max(slab, std::min(l.n[2], 4));  // at least 4 planes when it can
  const std::size_t need = plane * std::size_t(slab + 2 * hz + 1);
  if (scratch.bytes() < need) scratch = Buffer(location_of(space), need);
  UpdateAcc total;
  for (int k0 = 0; k0 < l.n[2]; k0 += slab) {
    const int k1 = std::min(l.n[2], k0 + slab);
    SlabArrays<T> s;
    const int plo[3] = {-hx, -hy, k0 - hz}, phi[3] = {l.n[0] + hx, l.n[1] + hy, k1 + hz};
    const int flo[3] = {0, 0, k0}, fhi[3] = {l.n[0] + 1, l.n[1] + 1, k1 + 1};
    const int clo[3] = {0, 0, k0}, chi[3] = {l.n[0], l.n[1], k1};
    s.poly = scratch_box(plo, phi);
    s.face = scratch_box(flo, fhi);
    s.cell = scratch_box(clo, chi);
    T* base = static_cast<T*>(scratch.data());
    s.modes = base;
    s.points = s.modes + std::size_t(stored) * NV * (M < 0 ? 0 : s.poly.cells);
    s.flux = s.points + std::size_t(point_values) * NV * (M < 0 ? 0 : s.poly.cells);
    s.div = s.flux + std::size_t(NV) * s.face.cells;
    auto t0 = std::chrono::steady_clock::now();
    auto lap = [&](double PassTimes::*field) {
      if (!a.times) return;
      wait_for(space);
      a.times->*field += seconds_since(t0);
      t0 = std::chrono::steady_clock::now();
    };
    bool first = true;
    if constexpr (M >= 1) {
      reconstruct_pass<M, NV>(space, a, s, act[0], act[1], act[2]);
      lap(&PassTimes::reconstruct);
      if (a.ader) {
        predict_pass<M, NV>(space, a, s, act[0], act[1], act[2]);
        lap(&PassTimes::predict);
      }
      if (act[0])
        modal_face_pass<0, M, NV>(space, a, s, act[0], act[1], act[2], std::exchange(first, false));
      if (act[1])
        modal_face_pass<1, M, NV>(space, a, s, act[0], act[1], act[2], std::exchange(first, false));
      if (act[2])
        modal_face_pass<2, M, NV>(space, a, s, act[0], act[1], act[2], std::exchange(first, false));
    } else {
      if (act[0]) wenoz_face_pass<0, NV>(space, a, s, std::exchange(first, false));
      if (act[1]) wenoz_face_pass<1, NV>(space, a, s, std::exchange(first, false));
      if (act[2]) wenoz_face_pass<2, NV>(space, a, s, std::exchange(first, false));
    }
    if (first) {  // a single cell: nothing flows
      T* div = s.div;
      const std::int64_t n = std::int64_t(NV) * s.cell.cells;
      exec::for_each_cell(space, exec::range(n),
                          [=] FLUXVIEW_LAMBDA(int i, int, int) { div[i] = T(0); });
    }
    lap(&PassTimes::faces);
    const UpdateAcc done = update_pass<NV>(space, a, s);
    lap(&PassTimes::update);
    total.join(done);
  }
  return total;
}

}  // namespace fluxview::fv
