#pragma once
// The grid both fv models step on (hydro's FvModel, MhdModel): the cells, their spacing in
// long double, each face's boundary from the fv.bc keys, and the ghost rule by index
// arithmetic (the solver fills ghost layers; a model asks where a position beyond the grid
// takes its state from, so the two are written differently); and the stage both step
// with, the fallback and floors included (fv_model_stage).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/Parameter.hpp"
#include "tests/model/Tracked.hpp"

namespace fluxview::model {

struct FvModelGrid {
  enum class Bc { outflow, reflecting, periodic };

  std::array<int, 3> n{1, 1, 1};
  std::array<long double, 3> spacing{1, 1, 1};
  Bc bc[3][2] = {};

  // grid.n{x,y,z}, grid.l{x,y,z} and each face's most specific fv.bc key that is not
  // "inherit" (docs/fv.md, Boundaries).
  static FvModelGrid from(const ParamSet& p) {
    FvModelGrid g;
    const char* nk[3] = {"grid.nx", "grid.ny", "grid.nz"};
    const char* lk[3] = {"grid.lx", "grid.ly", "grid.lz"};
    const char* ax[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
      g.n[a] = int(p.get_int(nk[a]));
      g.spacing[a] = (long double)p.get_real(lk[a]) / g.n[a];
      for (int s = 0; s < 2; ++s) {
        std::string v = p.get_string(std::string("fv.bc_") + ax[a] + (s ? "max" : "min"));
        if (v == "inherit") v = p.get_string(std::string("fv.bc_") + ax[a]);
        if (v == "inherit") v = p.get_string("fv.bc");
        g.bc[a][s] = v == "periodic"     ? Bc::periodic
                     : v == "reflecting" ? Bc::reflecting
                                         : Bc::outflow;
      }
    }
    return g;
  }

  std::int64_t cells() const { return std::int64_t(n[0]) * n[1] * n[2]; }

  // 1/dx as the solver holds it: L/n and its inverse in double, converted to its precision.
  Tracked inv_dx(int a) const { return rounded(1 / spacing[a], 3); }

  std::int64_t index(const int q[3]) const {
    return (std::int64_t(q[2]) * n[1] + q[1]) * n[0] + q[0];
  }

  // The cell whose state the position pos (which may lie beyond the grid) takes: each
  // axis's ghost rule in turn (periodic wraps, outflow repeats the edge cell, reflecting
  // mirrors it), so a corner ghost is both. flip[a] says the reflecting rule of axis a was
  // applied: the caller negates what a wall normal to a mirrors.
  std::int64_t source_of(const int pos[3], bool flip[3]) const {
    int q[3] = {pos[0], pos[1], pos[2]};
    for (int a = 0; a < 3; ++a) {
      flip[a] = false;
      if (q[a] >= 0 && q[a] < n[a]) continue;
      const int side = q[a] < 0 ? 0 : 1;
      const int layer = side == 0 ? -1 - q[a] : q[a] - n[a];  // 0 next to the interior
      switch (bc[a][side]) {
        case Bc::periodic:
          q[a] = ((q[a] % n[a]) + n[a]) % n[a];
          break;
        case Bc::outflow:
          q[a] = side == 0 ? 0 : n[a] - 1;
          break;
        case Bc::reflecting:
          q[a] = side == 0 ? layer : n[a] - 1 - layer;
          flip[a] = true;
          break;
      }
    }
    return index(q);
  }
};

// One Runge-Kutta stage of an fv model over every cell, with the solver's fallback
// (docs/fv.md): out = in + h L(in) (w0 = 0) or w0 U0 + (1 - w0) (in + h L(in)), where
// rate(idx, first_order) is L at cell idx; a cell whose result is not admissible takes it
// again from the first-order rate (counted in `corrected`), and if still not, floor(r)
// (counted in `floored` too). State is an array of per-cell fields, nv of them in use.
template <class Vars, class State, class Rate, class Admissible, class Floor>
State fv_model_stage(const FvModelGrid& g, int nv, const State& u0, const State& in,
                     const Tracked& h, long double w0, const Rate& rate,
                     const Admissible& admissible, const Floor& floor, int& corrected,
                     int& floored) {
  State out;
  for (auto& f : out) f.assign(g.cells(), Tracked(0));
  const auto combine = [&](std::int64_t c, const Vars& l) {
    Vars r;
    for (int m = 0; m < int(r.size()); ++m) {
      if (m >= nv) {
        r[m] = Tracked(0);
        continue;
      }
      const Tracked advanced = in[m][c] + h * l[m];
      r[m] = w0 == 0 ? advanced : rounded(w0, 1) * u0[m][c] + rounded(1 - w0, 1) * advanced;
    }
    return r;
  };
  for (int k = 0; k < g.n[2]; ++k)
    for (int j = 0; j < g.n[1]; ++j)
      for (int i = 0; i < g.n[0]; ++i) {
        const int idx[3] = {i, j, k};
        const std::int64_t c = g.index(idx);
        Vars r = combine(c, rate(idx, false));
        if (!admissible(r)) {
          ++corrected;
          r = combine(c, rate(idx, true));
          if (!admissible(r)) {
            ++floored;
            r = floor(r);
          }
        }
        for (int m = 0; m < nv; ++m) out[m][c] = r[m];
      }
  return out;
}

// The Runge-Kutta schemes of both models, from stage(in, w0) = w0 U + (1 - w0) (in + dt
// L(in)) (w0 = 0: in + dt L(in)): TVD RK2 (stages 2), U1 = U + dt L(U), U' = 1/2 U + 1/2
// (U1 + dt L(U1)); SSP-RK3 (stages 3, Shu & Osher 1988), U2 = 3/4 U + 1/4 (U1 + dt L(U1)),
// U' = 1/3 U + 2/3 (U2 + dt L(U2)).
template <class State, class Stage>
State fv_model_runge_kutta(int stages, const State& u0, const Stage& stage) {
  const State u1 = stage(u0, 0);
  if (stages == 2) return stage(u1, 0.5L);
  return stage(stage(u1, 0.75L), 1.0L / 3);
}

}  // namespace fluxview::model
