#pragma once
// The model of one heat step, written from Vizitiu et al. 2014 (eq. 3, FTCS on the
// 7-point stencil) and docs/heat.md, with none of the solver's code:
//   T' = T + sum_a c_a (T(x - d_a) + T(x + d_a) - 2 T),   c_a = alpha dt / d_a^2,
// on a point-centred grid of n interior points per axis between two wall points, so
// d_a = L_a / (n_a + 1); the wall points hold the fixed wall temperatures (Dirichlet);
// an axis with one point is reduced (no walls, no term). Stable for
// alpha dt sum_a 1/d_a^2 <= 1/2; the automatic step is heat.safety times that limit.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/Parameter.hpp"
#include "tests/model/Tracked.hpp"

namespace fluxview::model {

struct HeatModel {
  std::array<int, 3> n{1, 1, 1};
  std::array<long double, 3> spacing{1, 1, 1};
  long double alpha = 0;
  long double wall[3][2] = {};  // [axis][0: at 0, 1: at L]

  static HeatModel from(const ParamSet& p) {
    HeatModel m;
    const char* nk[3] = {"grid.nx", "grid.ny", "grid.nz"};
    const char* lk[3] = {"grid.lx", "grid.ly", "grid.lz"};
    const char* wk[3][2] = {{"heat.T_xmin", "heat.T_xmax"},
                            {"heat.T_ymin", "heat.T_ymax"},
                            {"heat.T_zmin", "heat.T_zmax"}};
    for (int a = 0; a < 3; ++a) {
      m.n[a] = int(p.get_int(nk[a]));
      m.spacing[a] = (long double)p.get_real(lk[a]) / (m.n[a] + 1);
      for (int s = 0; s < 2; ++s) m.wall[a][s] = p.get_real(wk[a][s]);
    }
    m.alpha = p.get_real("heat.alpha");
    return m;
  }

  std::int64_t cells() const { return std::int64_t(n[0]) * n[1] * n[2]; }

  // The largest stable step: alpha dt sum 1/d^2 = 1/2 over the axes that are not reduced.
  long double stable_dt() const {
    long double inv = 0;
    for (int a = 0; a < 3; ++a)
      if (n[a] > 1) inv += 1 / (spacing[a] * spacing[a]);
    return 0.5L / (alpha * inv);
  }

  // One step of length dt from the interior temperatures T (x fastest).
  std::vector<Tracked> step(const std::vector<Tracked>& T, double dt) const {
    // The solver forms c_a in double (alpha dt, d^2, the quotient; d itself is L/(n+1)
    // in double) and converts it to its precision: five roundings.
    Tracked c[3];
    for (int a = 0; a < 3; ++a)
      c[a] = n[a] > 1 ? rounded(alpha * dt / (spacing[a] * spacing[a]), 5) : Tracked(0);
    Tracked walls[3][2];
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) walls[a][s] = rounded(wall[a][s], 1);  // T(wall temperature)

    auto at = [&](int i, int j, int k) { return T[(std::int64_t(k) * n[1] + j) * n[0] + i]; };
    std::vector<Tracked> out(T.size());
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i) {
          const int idx[3] = {i, j, k};
          const Tracked centre = at(i, j, k);
          Tracked t = centre;
          for (int a = 0; a < 3; ++a) {
            if (n[a] == 1) continue;
            Tracked nb[2];
            for (int s = 0; s < 2; ++s) {
              int q[3] = {idx[0], idx[1], idx[2]};
              q[a] += s == 0 ? -1 : 1;
              if (q[a] < 0 || q[a] >= n[a])
                nb[s] = walls[a][s];  // the wall point next to the interior
              else
                nb[s] = at(q[0], q[1], q[2]);
            }
            t = t + c[a] * (nb[0] + nb[1] - Tracked(2) * centre);
          }
          out[(std::int64_t(k) * n[1] + j) * n[0] + i] = t;
        }
    return out;
  }
};

}  // namespace fluxview::model
