// The Sedov shock radius on the adaptive mesh at effective 256^3 within 2% (measured
// +1.27%), on the CPU: about five minutes of one core, so it has its own label, `long`,
// to leave it out of a quick `ctest -LE long`; the whole suite (scripts/test.sh, CI) runs
// it. tests/amr/AmrGpuTest.cpp runs the full box on the GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "tests/amr/AmrSedovOctant.hpp"

TEST(AmrSedovLong, OctantAtEffective256WithinTwoPercent) {
  EXPECT_LT(std::fabs(fluxview::amr::test::octant_sedov_error(2)), 0.02);
}
