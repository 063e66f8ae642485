// Ideal MHD with GLM cleaning through the solver, on the CPU (docs/mhd.md): Brio-Wu against
// a 3200-cell run of the same scheme (Wang, Abel & Kaehler 2010, sec. 7.2), along every
// axis; the Orszag-Tang vortex conserves what it must and its div B stays small with the
// cleaning and grows without it; the hydrodynamic limit; parameters that are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "tests/fv/FvTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;

namespace {

// Brio-Wu's density at t = 0.1 on n cells along x.
std::vector<double> brio_wu(int n, const std::vector<std::string>& extra = {},
                            Precision precision = Precision::f64) {
  std::vector<std::string> o = {"grid.nx=" + std::to_string(n)};
  o.insert(o.end(), extra.begin(), extra.end());
  auto s = make_solver("fv/brio-wu", o, BackendKind::cpu, precision);
  run_until(*s, 0.1);
  return interior_values(*s, "rho");
}

// The 3200-cell reference, computed once.
const std::vector<double>& reference() {
  static const std::vector<double> r = brio_wu(3200);
  return r;
}

// L1 distance of an n-cell profile from the reference averaged onto its cells.
double l1_from_reference(const std::vector<double>& rho) {
  const int n = int(rho.size()), f = 3200 / n;
  double e = 0;
  for (int i = 0; i < n; ++i) {
    double avg = 0;
    for (int k = 0; k < f; ++k) avg += reference()[std::size_t(i) * f + k];
    e += std::fabs(rho[i] - avg / f) / n;
  }
  return e;
}

}  // namespace

TEST(MhdBrioWu, DensityConvergesToTheReferenceRun) {
  const double e200 = l1_from_reference(brio_wu(200)), e400 = l1_from_reference(brio_wu(400));
  std::printf("Brio-Wu L1(rho) against 3200 cells: n=200 %.5f  n=400 %.5f\n", e200, e400);
  const auto& r = reference();
  for (int i = 0; i < 3200; i += 100) std::printf("%.4f %.5f\n", (i + 0.5) / 3200, r[i]);
  EXPECT_LT(e400, 0.7 * e200);
}
