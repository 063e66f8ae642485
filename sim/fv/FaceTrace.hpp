#pragma once
// A cell's polynomial on one of its faces (its trace there): the space-time polynomial of
// total degree M <= 2 (AderPredictor.hpp's layout) with the coordinate normal to the face
// fixed at the face, which leaves a polynomial of the same degree in the face's two
// transverse coordinates (u along e1, w along e2, as FaceRule names them) and time. Its
// modes, for each time power n, are the scaled Legendre basis of total degree <= M - n in
// (u, w), q_0's first:
//   0  1     1  u     2  w     3  P2(u)     4  P2(w)     5  u w
// At degree 2 that is 6 + 3 + 1 = 10 modes a variable with ADER's time modes, where the
// cell's polynomial has 15, and 6 at a Runge-Kutta stage, where it has 10. A face flux needs
// the two cells' values on the face only, so a face pass that builds the two traces as it
// reads the stored modes holds two thirds (ADER) or three fifths (Runge-Kutta) of the values
// the two polynomials would take (docs/performance.md says what that bought).
//
// Each mode of the cell's polynomial adds to exactly one mode of the trace, times the
// normal basis function's value on the face (1, s, or P2(s) = 1/6 at s = +-1/2):
// trace_term says which. Degree 3 keeps its own face pass (stored face points,
// FvModalLoops.hpp), so the trace stops at degree 2.
#include "sim/core/HostDevice.hpp"
#include "sim/fv/AderPredictor.hpp"
#include "sim/fv/ModalPolynomial.hpp"

namespace fluxview::fv {

// Modes of a polynomial of total degree <= d in the face's two variables (0 for d < 0).
FLUXVIEW_HD constexpr int face_modes_up_to(int d) {
  return d < 0 ? 0 : (d + 1) * (d + 2) / 2;
}
// Modes of a trace of total degree M (with every time power) and where time power n starts.
FLUXVIEW_HD constexpr int face_time_offset(int m, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k) s += face_modes_up_to(m - k);
  return s;
}
FLUXVIEW_HD constexpr int face_space_time_modes(int m) {
  return face_time_offset(m, m + 1);
}

// Where the cell's spatial mode m (ModalPolynomial.hpp's numbering, degree <= 2) goes in
// the trace on a face normal to D, and the power of the normal coordinate s it carries
// there: 0 (the mode does not involve the normal axis), 1 (P1(s) = s) or 2 (P2(s)).
struct TraceTerm {
  int slot;
  int power;
};
FLUXVIEW_HD constexpr TraceTerm trace_term(int D, int m) {
  const int e1 = D == 0 ? 1 : 0;
  if (m == 0) return {0, 0};
  if (m < 4) {  // P1 of axis m - 1
    const int a = m - 1;
    return a == D ? TraceTerm{0, 1} : TraceTerm{a == e1 ? 1 : 2, 0};
  }
  if (m < 7) {  // P2 of axis m - 4
    const int a = m - 4;
    return a == D ? TraceTerm{0, 2} : TraceTerm{a == e1 ? 3 : 4, 0};
  }
  // P1 P1: 7 xy, 8 yz, 9 zx.
  const int a = m == 9 ? 2 : m - 7, b = m == 9 ? 0 : m - 6;
  if (a != D && b != D) return {5, 0};
  const int other = a == D ? b : a;
  return {other == e1 ? 1 : 2, 1};
}

// The trace on the face normal to D of a cell's space-time polynomial whose mode m is
// coef(m) (SpaceTimePolynomial's layout; a State of every variable or one variable's T),
// up to time power nt (0: the spatial polynomial alone, as a Runge-Kutta stage uses it),
// into out[0 .. face_space_time_modes(M)); modes of time powers above nt are zero.
// side 0: the cell below the face (its +1/2 face); 1: the cell above (its -1/2 face).
// coef is called once for each mode it reads, so a pass can hand it the stored modes.
template <int D, int M, class V, class T, class Coef>
FLUXVIEW_HD void face_trace_of(const Coef& coef, int side, int nt, V* out) {
  static_assert(M >= 0 && M <= 2, "the trace is written for degrees 0 to 2");
  const T s = side == 0 ? T(0.5) : T(-0.5);
  const T normal[3] = {T(1), s, legendre_p2(s)};
#pragma unroll
  for (int k = 0; k < face_space_time_modes(M); ++k) out[k] = V{};
#pragma unroll
  for (int n = 0; n <= M; ++n) {
    if (n > nt) break;
#pragma unroll
    for (int m = 0; m < modes_up_to(M - n); ++m) {
      const TraceTerm t = trace_term(D, m);
      detail::add_mode(out[face_time_offset(M, n) + t.slot],
                       coef(time_coefficient_offset(M, n) + m), normal[t.power]);
    }
  }
}

// The trace's layout, as CellModes (AderPredictor.hpp) is the cell polynomial's.
struct FaceModes {
  FLUXVIEW_HD static constexpr int up_to(int d) { return face_modes_up_to(d); }
  FLUXVIEW_HD static constexpr int offset(int m, int n) { return face_time_offset(m, n); }
};

// Value at (u, w) on the face and time tau in [0, 1] of a trace of degree M whose mode k
// is coef(k), up to time power nt: the same sum as a cell polynomial's (space_time_sum),
// for every variable (State or T).
template <int M, class V, class T, class Coef>
FLUXVIEW_HD V face_trace_value_of(const Coef& coef, T u, T w, T tau, int nt) {
  const T phi[6] = {T(1), u, w, legendre_p2(u), legendre_p2(w), u * w};
  return space_time_sum<M, FaceModes, V>(coef, phi, tau, nt);
}

// A face's trace of every variable.
template <class T, int NV, int M>
struct FaceTrace {
  State<T, NV> c[face_space_time_modes(M)];
};

}  // namespace fluxview::fv
