// The CPU heat solver against the model of FTCS (HeatModel.hpp), per cell, in float and
// double: every face in turn as the hot wall of a 3D block, the reduced 2D and 1D grids,
// and a fixed time step.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "tests/model/HeatModelChecks.hpp"

using namespace fluxview;
using namespace fluxview::model;

namespace {

// Wall temperatures that no two faces share and that float does not hold exactly, with
// face `hot` at 100 degC.
void walls_with_hot(int hot, double w[6]) {
  for (int f = 0; f < 6; ++f) w[f] = f == hot ? 100.0 : 3.3 + 7.1 * f;
}

// One test for all six faces: each test is a process of its own under ctest, and starting
// one costs more than these checks.
TEST(HeatModel, EachWallMatchesTheModel) {
  for (Precision p : {Precision::f64, Precision::f32})
    for (int hot = 0; hot < 6; ++hot) {
      double w[6];
      walls_with_hot(hot, w);
      check_heat(BackendKind::cpu, p, heat_overrides({13, 11, 9}, w, "fast"),
                 "hot face " + std::to_string(hot));
    }
}

TEST(HeatModel, ReducedGridsMatchTheModel) {
  double w[6];
  walls_with_hot(3, w);
  for (Precision p : {Precision::f64, Precision::f32})
    for (std::array<int, 3> n : {std::array<int, 3>{17, 13, 1}, std::array<int, 3>{23, 1, 1},
                                 std::array<int, 3>{1, 15, 11}, std::array<int, 3>{14, 1, 10}})
      check_heat(BackendKind::cpu, p, heat_overrides(n, w, "fast"),
                 std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]));
}

TEST(HeatModel, GivenTimeStepMatchesTheModel) {
  double w[6];
  walls_with_hot(0, w);
  // Half the stability limit of this grid: alpha dt sum 1/d^2 = 1/4.
  const HeatModel m = HeatModel::from(
      load_scenario("heat/hot-wall", heat_overrides({12, 10, 8}, w, "fast")).params);
  const double dt = double(0.5L * m.stable_dt());
  for (Precision p : {Precision::f64, Precision::f32})
    check_heat(BackendKind::cpu, p, heat_overrides({12, 10, 8}, w, "fast", dt), "heat.dt given");
}

}  // namespace
