#pragma once
// What the adaptive mesh's shock-tube tests (Sod, Brio-Wu) assert of a tube on the mesh
// against the uniform run at its finest resolution: L1(rho) no worse than 1.2 times the
// uniform run's, on at most half its cell updates, and the same tube along every axis,
// bit for bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace fluxview::amr::test {

struct TubeRun {
  std::vector<double> rho;  // on the view grid (the finest level's cells)
  double l1 = 0;            // against the exact or a reference solution
  double updates = 0;       // cells advanced, summed over steps
  std::int64_t steps = 0;
};

// `first`: the density of the first axis run (empty before it).
inline void expect_tube_as_good_on_half_the_cells(const char* name, const std::string& axis,
                                                  const TubeRun& amr, const TubeRun& uniform,
                                                  std::vector<double>& first) {
  std::printf(
      "%s along %s: AMR L1(rho) %.5f on %.0f cell updates (%lld steps); uniform %zu: %.5f on "
      "%.0f (%lld steps)\n",
      name, axis.c_str(), amr.l1, amr.updates, static_cast<long long>(amr.steps),
      uniform.rho.size(), uniform.l1, uniform.updates, static_cast<long long>(uniform.steps));
  ASSERT_EQ(amr.rho.size(), uniform.rho.size());  // viewed on the finest level's grid
  EXPECT_LE(amr.l1, 1.2 * uniform.l1);
  EXPECT_LE(amr.updates, 0.5 * uniform.updates);
  if (first.empty())
    first = amr.rho;
  else
    EXPECT_EQ(amr.rho, first);
}

}  // namespace fluxview::amr::test
