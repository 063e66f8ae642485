#pragma once
// The number type of the model solvers: a long double value that also carries what a
// solver's rounding errors on the way to it can add up to, so that a comparison can say
// how many units in the last place (of the solver's precision) a difference is worth.
//
// Forward error analysis to first order in the unit roundoff u (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., sec. 2.2 and 3.1): if a solver computes a
// value from exact inputs with at most `ops` roundings along any path from the inputs to
// the value, its error is at most ops * u * mag, where mag is built up by
//   a +- b : mag_a + mag_b
//   a * b  : mag_a |b| + |a| mag_b          (mag_a |b| alone when b is exact)
//   a / b  : (mag_a + |a/b| mag_b) / |b|
//   sqrt a : mag_a / sqrt(a)
//   cos a  : 1 + |sin a| mag_a              (the math library's own error, <= 2 ulp on
//                                            CUDA, is counted as 4 roundings of 1)
// and ops by max(ops_a, ops_b) + 1 for each rounded operation. Each rule is the first-
// order error of the operation bounded with |x| <= mag_x; mag is therefore "the magnitude
// of the values involved": for a plain sum it is the sum of the absolute values of the
// terms, and it is large wherever terms cancel, which is where rounding errors are large
// relative to the result. Since u * mag < ulp(mag), the solver's error in units of
// ulp(mag) is below ops: that is the bound each test states.
//
// The model itself computes in long double (64-bit mantissa, 2^11 times finer than
// double), so its own error is negligible at the scale of the solver's ulps.
#include <algorithm>
#include <cmath>
#include <limits>

namespace fluxview::model {

struct Tracked {
  long double v = 0;    // the value
  long double mag = 0;  // magnitude of the values involved
  int ops = 0;          // roundings along the longest path from exact inputs

  Tracked() = default;
  // An input the solver holds exactly (a state value, an integer, a power of two).
  Tracked(long double x) : v(x), mag(std::fabs(x)), ops(0) {}  // NOLINT: implicit on purpose
};

// A constant that the solver computes or converts with `roundings` roundings (1/(60 dx),
// T(1.4), ...); the model takes its exact value and counts the roundings.
inline Tracked rounded(long double x, int roundings) {
  Tracked t(x);
  t.ops = roundings;
  return t;
}

// A value whose error the caller bounds by roundings * u * magnitude, for inputs whose
// error is not relative to their own size (a component of a unit vector computed with
// cancellation, say).
inline Tracked with_error(long double x, long double magnitude, int roundings) {
  Tracked t(x);
  t.mag = std::max(std::fabs(x), magnitude);
  t.ops = roundings;
  return t;
}

inline Tracked operator-(const Tracked& a) {
  Tracked r = a;
  r.v = -a.v;
  return r;
}

inline Tracked operator+(const Tracked& a, const Tracked& b) {
  Tracked r;
  r.v = a.v + b.v;
  r.mag = a.mag + b.mag;
  r.ops = std::max(a.ops, b.ops) + 1;
  return r;
}

inline Tracked operator-(const Tracked& a, const Tracked& b) {
  return a + (-b);
}

inline Tracked operator*(const Tracked& a, const Tracked& b) {
  Tracked r;
  r.v = a.v * b.v;
  if (a.ops && b.ops)
    r.mag = a.mag * std::fabs(b.v) + std::fabs(a.v) * b.mag;
  else if (a.ops)
    r.mag = a.mag * std::fabs(b.v);  // b exact: the product's own rounding is within this
  else if (b.ops)
    r.mag = std::fabs(a.v) * b.mag;
  else
    r.mag = std::fabs(r.v);
  r.ops = std::max(a.ops, b.ops) + 1;
  return r;
}

inline Tracked operator/(const Tracked& a, const Tracked& b) {
  Tracked r;
  r.v = a.v / b.v;
  const long double q = std::fabs(r.v), db = std::fabs(b.v);
  r.mag = (std::max(a.mag, std::fabs(a.v)) + (b.ops ? q * b.mag : 0)) / db;
  r.ops = std::max(a.ops, b.ops) + 1;
  return r;
}

inline Tracked& operator+=(Tracked& a, const Tracked& b) {
  return a = a + b;
}
inline Tracked& operator-=(Tracked& a, const Tracked& b) {
  return a = a - b;
}

inline Tracked sqrt(const Tracked& a) {
  Tracked r;
  r.v = std::sqrt(a.v);
  r.mag = r.v > 0 ? a.mag / r.v : 0;
  r.ops = a.ops + 1;
  return r;
}

inline Tracked cos(const Tracked& a) {
  Tracked r;
  r.v = std::cos(a.v);
  r.mag = 1 + std::fabs(std::sin(a.v)) * a.mag;
  r.ops = a.ops + 4;
  return r;
}

inline Tracked abs(const Tracked& a) {
  Tracked r = a;
  r.v = std::fabs(a.v);
  return r;
}

// max and min return the chosen operand; their error is at most the larger of the two
// operands' errors, so the budget is the larger of both.
inline Tracked max(const Tracked& a, const Tracked& b) {
  Tracked r = a.v >= b.v ? a : b;
  r.mag = std::max(a.mag, b.mag);
  r.ops = std::max(a.ops, b.ops);
  return r;
}
inline Tracked min(const Tracked& a, const Tracked& b) {
  Tracked r = a.v <= b.v ? a : b;
  r.mag = std::max(a.mag, b.mag);
  r.ops = std::max(a.ops, b.ops);
  return r;
}

// One unit in the last place of a number of magnitude m in the floating-point type T (the
// spacing of T's numbers there; the smallest subnormal for m = 0).
template <class T>
long double ulp_at(long double m) {
  const long double tiny = std::numeric_limits<T>::denorm_min();
  if (!(m > std::numeric_limits<T>::min())) return tiny;
  return std::ldexp(1.0L, std::ilogb(m) - (std::numeric_limits<T>::digits - 1));
}

}  // namespace fluxview::model
