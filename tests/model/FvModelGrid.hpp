#pragma once
// The grid both fv models step on (hydro's FvModel, MhdModel): the cells, their spacing in
// long double, each face's boundary from the fv.bc keys, and the ghost rule by index
// arithmetic (the solver fills ghost layers; a model asks where a position beyond the grid
// takes its state from, so the two are written differently).
#include <array>
#include <cstdint>
#include <string>

#include "sim/core/Parameter.hpp"

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

}  // namespace fluxview::model
