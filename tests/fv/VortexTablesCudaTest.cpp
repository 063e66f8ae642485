// The paper's accuracy tables on the GPU (label `paper`: minutes each, and some assert
// targets the schemes do not meet yet; docs/fv.md and docs/mhd.md say which): the 3D
// isentropic vortex of its Table XII and the 3D MHD vortex of its Table XIII at 48^3, 96^3,
// 144^3 and 192^3 once round the box (t = 10), with the paper's errors as the bound and
// the orders (1.9, 2.8, 3.8) on the finest pair. The vortices are uniform along z,
// so the tables run on slabs of 4 cells along z with the cube's spacing, which give the
// cube's errors (the first test checks it) at 4/n of its cost.
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "tests/fv/VortexTables.hpp"
#include "tests/support/NeedCuda.hpp"

using namespace fluxview;
using namespace fluxview::fv::test;

namespace {

// The paper's Tables XII and XIII (A100, double): L1 and L-infinity errors at 48^3, 96^3,
// 144^3, 192^3 at second, third and fourth order.
struct PaperRow {
  double l1[4], linf[4];
};
const PaperRow kPaperXII[3] = {
    {{1.60e-3, 4.03e-4, 1.63e-4, 8.74e-5}, {2.82e-2, 7.47e-3, 3.00e-3, 1.55e-3}},
    {{1.09e-3, 2.25e-4, 7.07e-5, 3.03e-5}, {1.84e-2, 3.21e-3, 1.06e-3, 4.63e-4}},
    {{1.03e-3, 9.46e-5, 1.84e-5, 5.48e-6}, {6.50e-2, 1.15e-2, 9.64e-4, 4.38e-4}},
};
const PaperRow kPaperXIII[3] = {
    {{4.65e-3, 1.24e-3, 5.58e-4, 3.15e-4}, {6.18e-2, 1.54e-2, 6.83e-3, 3.85e-3}},
    {{1.43e-3, 1.92e-4, 5.73e-5, 2.42e-5}, {2.46e-2, 3.01e-3, 8.32e-4, 3.59e-4}},
    {{1.40e-3, 6.16e-5, 1.02e-5, 3.00e-6}, {9.32e-2, 4.45e-3, 6.57e-4, 1.72e-4}},
};
const int kSizes[4] = {48, 96, 144, 192};

// The end time of the table runs: t = 10, once round the box (the paper does not give
// its time), unless FLUXVIEW_VORTEX_UNTIL says otherwise.
double table_until() {
  const char* v = std::getenv("FLUXVIEW_VORTEX_UNTIL");
  return v ? std::atof(v) : 10.0;
}

// One order of a table on the GPU; order 0: WENO-Z 5 with rk4, which has no row in the
// paper (printed, second order asymptotically in 3D).
void vortex_table(const VortexTable& table, const PaperRow* paper, int order, const Scheme& s,
                  double min_order) {
  VortexErrors e[4];
  const double until = table_until();
  std::printf("%s %s %s to t = %g\n", table.name, s.reconstruction, s.time, until);
  for (int r = 0; r < 4; ++r) {
    e[r] = vortex_errors(table, s, vortex_slab(kSizes[r]), until, BackendKind::cuda);
    const double ratio = std::log(double(kSizes[r]) / kSizes[std::max(r - 1, 0)]);
    const double o1 = r ? std::log(e[r - 1].l1 / e[r].l1) / ratio : 0;
    const double oi = r ? std::log(e[r - 1].linf / e[r].linf) / ratio : 0;
    std::printf("| %s %s | %d^3 | %.3e | %.2f | %.3e | %.2f |", s.reconstruction, s.time, kSizes[r],
                e[r].l1, o1, e[r].linf, oi);
    if (order > 0)
      std::printf(" paper %.2e / %.2e |", paper[order - 2].l1[r], paper[order - 2].linf[r]);
    std::printf("\n");
    std::fflush(stdout);
    if (order > 0) {
      EXPECT_LE(e[r].l1, paper[order - 2].l1[r]) << "L1 at " << kSizes[r] << "^3, order " << order;
      EXPECT_LE(e[r].linf, paper[order - 2].linf[r])
          << "Linf at " << kSizes[r] << "^3, order " << order;
    }
  }
  const double finest = std::log(e[2].l1 / e[3].l1) / std::log(192.0 / 144.0);
  EXPECT_GT(finest, min_order) << s.reconstruction << " " << s.time;
}

}  // namespace

// The slab's errors are the cube's: 48^3 against 48 x 48 x 4 at fourth order (the most
// sensitive to the time step) for both vortices.
TEST(VortexTablesCuda, SlabGivesTheCubesErrors) {
  FLUXVIEW_NEED_CUDA();
  for (const VortexTable* table : {&kTableXII, &kTableXIII}) {
    const Scheme s{"weno4", "ader"};
    const VortexErrors cube = vortex_errors(*table, s, vortex_cube(48), 1.0, BackendKind::cuda),
                       slab = vortex_errors(*table, s, vortex_slab(48), 1.0, BackendKind::cuda);
    std::printf("%s 48^3 cube L1 %.15e Linf %.15e, slab L1 %.15e Linf %.15e\n", table->name,
                cube.l1, cube.linf, slab.l1, slab.linf);
    EXPECT_NEAR(slab.l1, cube.l1, 1e-12 * cube.l1) << table->name;
    EXPECT_NEAR(slab.linf, cube.linf, 1e-12 * cube.linf) << table->name;
  }
}

// Second order with the paper's WENO slope (weno2): plm's theta-minmod clips the vortex's
// smooth extrema, which leaves its L-infinity error first order and above the paper's.
TEST(VortexTablesCuda, TableXIIOrder2) {
  FLUXVIEW_NEED_CUDA();
  vortex_table(kTableXII, kPaperXII, 2, {"weno2", "ader"}, 1.9);
}
TEST(VortexTablesCuda, TableXIIOrder3) {
  FLUXVIEW_NEED_CUDA();
  vortex_table(kTableXII, kPaperXII, 3, {"weno3", "ader"}, 2.8);
}
TEST(VortexTablesCuda, TableXIIOrder4) {
  FLUXVIEW_NEED_CUDA();
  vortex_table(kTableXII, kPaperXII, 4, {"weno4", "ader"}, 3.8);
}
TEST(VortexTablesCuda, TableXIIWenoZ5) {
  FLUXVIEW_NEED_CUDA();
  vortex_table(kTableXII, kPaperXII, 0, {"wenoz5", "rk4"}, 1.9);
}
TEST(VortexTablesCuda, TableXIIIOrder2) {
  FLUXVIEW_NEED_CUDA();
  vortex_table(kTableXIII, kPaperXIII, 2, {"weno2", "ader"}, 1.9);
}
TEST(VortexTablesCuda, TableXIIIOrder3) {
  FLUXVIEW_NEED_CUDA();
  vortex_table(kTableXIII, kPaperXIII, 3, {"weno3", "ader"}, 2.8);
}
TEST(VortexTablesCuda, TableXIIIOrder4) {
  FLUXVIEW_NEED_CUDA();
  vortex_table(kTableXIII, kPaperXIII, 4, {"weno4", "ader"}, 3.8);
}
