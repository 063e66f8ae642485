// The CPU fd solver against the model of the Astaroth equations and scheme (FdModel.hpp),
// per cell, in float and double: both formulations of grad div u on a 3D periodic grid,
// with and without forcing, the reduced 2D and 1D grids, and a fixed time step.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "tests/model/FdModelChecks.hpp"

using namespace fluxview;
using namespace fluxview::model;

namespace {

// The CPU backend computes the single-pass formulation for 55point and the two-pass one
// for 19point (and for fast and the direct methods, which differ only on the GPU).
void check_method(const std::string& method) {
  for (Precision p : {Precision::f64, Precision::f32})
    for (bool forcing : {false, true}) {
      FdCase c;
      c.method = method;
      c.forcing = forcing;
      check_fd(BackendKind::cpu, p, c, method + (forcing ? " forced" : ""));
    }
}

TEST(FdModel, SinglePassMatchesTheModel) {
  check_method("55point");
}

TEST(FdModel, TwoPassMatchesTheModel) {
  check_method("19point");
}

TEST(FdModel, ReducedGridsMatchTheModel) {
  for (Precision p : {Precision::f64, Precision::f32})
    for (const char* method : {"55point", "19point"})
      for (std::array<int, 3> n : {std::array<int, 3>{16, 12, 1}, std::array<int, 3>{24, 1, 1},
                                   std::array<int, 3>{10, 1, 8}, std::array<int, 3>{1, 9, 7}}) {
        FdCase c;
        c.n = n;
        c.method = method;
        c.forcing = true;
        check_fd(BackendKind::cpu, p, c,
                 std::string(method) + " " + std::to_string(n[0]) + "x" + std::to_string(n[1]) +
                     "x" + std::to_string(n[2]));
      }
}

TEST(FdModel, FixedTimeStepMatchesTheModel) {
  for (Precision p : {Precision::f64, Precision::f32}) {
    FdCase c;
    c.forcing = true;
    c.fixed_dt = 0.01;
    check_fd(BackendKind::cpu, p, c, "fd.dt = 0.01");
  }
}

}  // namespace
