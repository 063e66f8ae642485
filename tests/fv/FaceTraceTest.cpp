// A cell's trace on a face (sim/fv/FaceTrace.hpp), which hydro's degree-2 face passes
// evaluate instead of the cell's polynomial (kFaceTracesOn): at random points of each face, at
// random times, for degrees 0 to 2, each axis and side, with and without ADER's time modes, the
// trace's value is the polynomial's there (space_time_value) to rounding, for a
// polynomial whose every mode is random and of order one. And the trace holds what it
// should: 10 modes at degree 2 with time, 6 without.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "sim/fv/AderPredictor.hpp"
#include "sim/fv/FaceTrace.hpp"

using namespace fluxview::fv;

namespace {

static_assert(face_space_time_modes(2) == 10 && face_modes_up_to(2) == 6);
static_assert(face_space_time_modes(1) == 4 && face_space_time_modes(0) == 1);

template <int D, int M>
double worst_difference(std::mt19937& rng, int nt) {
  std::uniform_real_distribution<double> d(-1, 1), half(-0.5, 0.5), unit(0, 1);
  using Poly = SpaceTimePolynomial<double, 2, M>;
  constexpr int e1 = D == 0 ? 1 : 0, e2 = D == 2 ? 1 : 2;
  double worst = 0;
  for (int trial = 0; trial < 20; ++trial) {
    Poly st{};
    for (int m = 0; m < space_time_modes(M); ++m)
      for (int v = 0; v < 2; ++v) st.c[m].v[v] = d(rng);
    for (int side = 0; side < 2; ++side) {
      State<double, 2> tr[face_space_time_modes(M)];
      face_trace_of<D, M, State<double, 2>, double>(
          [&](int m) -> const State<double, 2>& { return st.c[m]; }, side, nt, tr);
      for (int p = 0; p < 10; ++p) {
        double pos[3];
        pos[D] = side == 0 ? 0.5 : -0.5;
        pos[e1] = half(rng);
        pos[e2] = half(rng);
        const double tau = unit(rng);
        const State<double, 2> want = space_time_value<M>(st, pos, tau, nt);
        const State<double, 2> got = face_trace_value_of<M, State<double, 2>>(
            [&](int m) -> const State<double, 2>& { return tr[m]; }, pos[e1], pos[e2], tau, nt);
        for (int v = 0; v < 2; ++v) worst = std::fmax(worst, std::fabs(got.v[v] - want.v[v]));
      }
    }
  }
  return worst;
}

template <int M>
void check_degree(std::mt19937& rng) {
  for (int nt : {0, M}) {
    const std::string what = "degree " + std::to_string(M) + ", time power " + std::to_string(nt);
    EXPECT_LT((worst_difference<0, M>(rng, nt)), 1e-14) << what << ", x faces";
    EXPECT_LT((worst_difference<1, M>(rng, nt)), 1e-14) << what << ", y faces";
    EXPECT_LT((worst_difference<2, M>(rng, nt)), 1e-14) << what << ", z faces";
  }
}

TEST(FaceTrace, TraceIsThePolynomialOnTheFace) {
  std::mt19937 rng(20261129);
  check_degree<0>(rng);
  check_degree<1>(rng);
  check_degree<2>(rng);
}

// Each of the cell's modes lands in one trace mode: the trace of a single mode is that
// mode's basis function on the face, so a cell mode that involves only the normal axis
// adds a constant (s or P2(s) = 1/6), and a mixed one a transverse P1 times s.
TEST(FaceTrace, EachModeLandsWhereItsBasisFunctionSays) {
  constexpr int M = 2;
  for (int side = 0; side < 2; ++side) {
    const double s = side == 0 ? 0.5 : -0.5;
    double tr[face_space_time_modes(M)];
    // P2(x) on an x face: the constant 1/6.
    face_trace_of<0, M, double, double>([](int m) { return m == mode_p2(0) ? 1.0 : 0.0; }, side, M,
                                        tr);
    EXPECT_NEAR(tr[0], 1.0 / 6, 1e-16);
    for (int k = 1; k < face_space_time_modes(M); ++k) EXPECT_EQ(tr[k], 0.0) << k;
    // P1(y) P1(z) on an x face: the transverse product, mode 5.
    face_trace_of<0, M, double, double>([](int m) { return m == mode_p1p1(1, 2) ? 1.0 : 0.0; },
                                        side, M, tr);
    EXPECT_EQ(tr[5], 1.0);
    // P1(z) P1(x) on a z face: s times the face's u (x), mode 1.
    face_trace_of<2, M, double, double>([](int m) { return m == mode_p1p1(2, 0) ? 1.0 : 0.0; },
                                        side, M, tr);
    EXPECT_EQ(tr[1], s);
    // The time mode tau P1(y) on a y face: s, in the first time power's constant.
    const int q1_y = time_coefficient_offset(M, 1) + mode_p1(1);
    face_trace_of<1, M, double, double>([&](int m) { return m == q1_y ? 1.0 : 0.0; }, side, M, tr);
    EXPECT_EQ(tr[face_time_offset(M, 1)], s);
    // Without time modes (nt = 0) the same mode is not read.
    face_trace_of<1, M, double, double>([&](int m) { return m == q1_y ? 1.0 : 0.0; }, side, 0, tr);
    for (int k = 0; k < face_space_time_modes(M); ++k) EXPECT_EQ(tr[k], 0.0) << k;
  }
}

}  // namespace
