// The CPU fv solver with fv.physics = mhd against the model of its second-order step
// (MhdModel.hpp), per cell, in float and double: HLLD, HLL and LLF with outflow,
// reflecting, periodic and mixed boundaries on 1D, 2D and 3D grids; without cleaning, a
// stronger damping, constant reconstruction and the tracer; near-degenerate HLLD states
// (its 0/0 guard's branch); and the robustness path (first-order fallback and floors).
// The cases are in MhdModelChecks.hpp; ModelGpuTest.cpp runs them on the CUDA kernel.
#include <gtest/gtest.h>

#include <memory>

#include "sim/core/Types.hpp"
#include "tests/model/MhdModelChecks.hpp"

using namespace fluxview;
using namespace fluxview::model;

namespace {

TEST(MhdModel, HlldMatchesTheModel) {
  check_mhd_riemann(BackendKind::cpu, "hlld");
}

TEST(MhdModel, HllMatchesTheModel) {
  check_mhd_riemann(BackendKind::cpu, "hll");
}

TEST(MhdModel, LlfMatchesTheModel) {
  check_mhd_riemann(BackendKind::cpu, "llf");
}

TEST(MhdModel, VariantsMatchTheModel) {
  check_mhd_variants(BackendKind::cpu);
}

TEST(MhdModel, HlldNearDegenerateStatesMatchTheModel) {
  check_mhd_guard(BackendKind::cpu);
}

TEST(MhdModel, FallbackAndFloorsMatchTheModel) {
  check_mhd_fallback(BackendKind::cpu);
}

TEST(MhdModel, WenoZStepsMatchTheModel) {
  check_mhd_wenoz(BackendKind::cpu);
}

}  // namespace
