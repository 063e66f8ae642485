#pragma once
// The grid both fv models step on (hydro's FvModel, MhdModel): the cells, their spacing in
// long double, each face's boundary from the fv.bc keys, and the ghost rule by index
// arithmetic (the solver fills ghost layers; a model asks where a position beyond the grid
// takes its state from, so the two are written differently); and what both step with:
// the stage, the fallback and floors included (fv_model_stage), the Runge-Kutta schemes
// (fv_model_runge_kutta), WENO-Z's face states (fv_model_wenoz_states) and the band a face
// state must lie in (fv_model_in_face_band).
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/Parameter.hpp"
#include "tests/model/Tracked.hpp"
#include "tests/model/WenoModel.hpp"

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
// (docs/fv.md): out = w0 U0 + w (in + s h L(in)) (RkWeights; w0 = 0, w = s = 1: in + h
// L(in)), where rate(idx, first_order) is L at cell idx; a cell whose result is not
// admissible takes it again from the first-order rate (counted in `corrected`), and if
// still not, floor(r) (counted in `floored` too). State is an array of per-cell fields, nv
// of them in use.
struct RkWeights {
  long double w0 = 0, w = 1, s = 1;
};
template <class Vars, class State, class Rate, class Admissible, class Floor>
State fv_model_stage(const FvModelGrid& g, int nv, const State& u0, const State& in,
                     const Tracked& h, const RkWeights& k, const Rate& rate,
                     const Admissible& admissible, const Floor& floor, int& corrected,
                     int& floored) {
  State out;
  for (auto& f : out) f.assign(g.cells(), Tracked(0));
  // s h: the solver's dt_per_h = b / a in double (three roundings), times h.
  const Tracked hs = k.s == 1 ? h : rounded(k.s, 3) * h;
  const auto combine = [&](std::int64_t c, const Vars& l) {
    Vars r;
    for (int m = 0; m < int(r.size()); ++m) {
      if (m >= nv) {
        r[m] = Tracked(0);
        continue;
      }
      const Tracked advanced = in[m][c] + hs * l[m];
      r[m] = k.w0 == 0 && k.w == 1 ? advanced
             : k.w0 == 0           ? rounded(k.w, 1) * advanced
                                   : rounded(k.w0, 1) * u0[m][c] + rounded(k.w, 1) * advanced;
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

// WENO-Z's two face states (docs/fv.md, "Higher orders") from the conserved states c[0..5]
// of the six cells across a face (the face between c[2] and c[3]), as both models make
// them: the differences from the mean U_m of c[2] and c[3] mapped to the run's variables
// about U_m's primitives (to_fields(dU, q), from_fields(dW, q)), each of the first nv
// variables' two face values by WENO-Z5 from the five cells on its side, mapped back and
// added to U_m; c[2] and c[3] themselves if either state is not trusted(u, cl, cr) against
// the two cells' primitives. Returns {below the face, above it}.
template <class Vars, class Primitive, class ToFields, class FromFields, class Trusted>
std::array<Vars, 2> fv_model_wenoz_states(const Vars (&c)[6], int nv, const Primitive& primitive,
                                          const ToFields& to_fields, const FromFields& from_fields,
                                          const Trusted& trusted) {
  const int size = int(c[0].size());
  Vars mean;
  for (int m = 0; m < size; ++m) mean[m] = Tracked(0.5) * (c[2][m] + c[3][m]);
  const Vars qm = primitive(mean);
  Vars w[6];
  for (int s = 0; s < 6; ++s) {
    Vars d;
    for (int m = 0; m < size; ++m) d[m] = c[s][m] - mean[m];
    w[s] = to_fields(d, qm);
  }
  Vars wl, wr;
  for (int m = 0; m < size; ++m) {
    const Tracked below[5] = {w[0][m], w[1][m], w[2][m], w[3][m], w[4][m]};
    const Tracked above[5] = {w[5][m], w[4][m], w[3][m], w[2][m], w[1][m]};
    wl[m] = m < nv ? wenoz5_model(below) : Tracked(0);
    wr[m] = m < nv ? wenoz5_model(above) : Tracked(0);
  }
  std::array<Vars, 2> out = {from_fields(wl, qm), from_fields(wr, qm)};
  for (Vars& u : out)
    for (int m = 0; m < size; ++m) u[m] = m < nv ? u[m] + mean[m] : Tracked(0);
  const Vars cl = primitive(c[2]), cr = primitive(c[3]);
  if (!(trusted(out[0], cl, cr) && trusted(out[1], cl, cr))) return {c[2], c[3]};
  return out;
}

// The band a face state must lie in to be trusted (docs/fv.md, the face fallback): its
// density rho and gas pressure p within a factor 10 of the range of the two cells beside
// the face (primitives cl, cr; the pressure in slot kp). note(x, threshold) records each
// comparison's distance from its threshold.
template <class Vars, class Note>
bool fv_model_in_face_band(const Tracked& rho, const Tracked& p, const Vars& cl, const Vars& cr,
                           int kp, const Note& note) {
  const Tracked ten(10);
  for (const auto& [x, lo, hi] : {std::tuple{rho, min(cl[0], cr[0]), max(cl[0], cr[0])},
                                  std::tuple{p, min(cl[kp], cr[kp]), max(cl[kp], cr[kp])}}) {
    note(x, lo / ten);
    note(x, hi * ten);
    if (!(x.v >= (lo / ten).v && x.v <= (hi * ten).v)) return false;
  }
  return true;
}

// The Runge-Kutta schemes of both models (fv.time; docs/fv.md), from stage(U0, in, k) =
// k.w0 U0 + k.w (in + k.s dt L(in)) (fv_model_stage):
//   rk2 (TVD RK2), U1 = U + dt L(U), U' = 1/2 U + 1/2 (U1 + dt L(U1));
//   ssprk3 (Shu & Osher 1988), U2 = 3/4 U + 1/4 (U1 + dt L(U1)), U' = 1/3 U + 2/3 (U2 + dt
//   L(U2));
//   rk4, SSP RK(5,4) (Spiteri & Ruuth 2002; the coefficients of Gottlieb, Ketcheson & Shu
//   2011, ch. 6, with a_54 = 0.386708617503268 so that a_52 + a_53 + a_54 = 1, as
//   docs/fv.md says), in the form U_i = a_i0 U + a_i,i-1 U_i-1 + b_i,i-1 dt L(U_i-1) and
//   U' = a_52 U2 + a_53 U3 + b_53 dt L(U3) + a_54 U4 + b_54 dt L(U4), each written as
//   w0 U0 + w (in + (b / w) dt L(in)).
enum class FvModelTime { rk2, ssprk3, rk4 };
inline FvModelTime fv_model_time(const std::string& name) {
  if (name == "rk2") return FvModelTime::rk2;
  if (name == "ssprk3") return FvModelTime::ssprk3;
  if (name == "rk4") return FvModelTime::rk4;
  throw std::invalid_argument("the fv models step with rk2, ssprk3 or rk4, not " + name);
}
template <class State, class Stage>
State fv_model_runge_kutta(FvModelTime time, const State& u0, const Stage& stage) {
  const auto k = [](long double w0, long double w, long double b) {
    return RkWeights{w0, w, b / w};
  };
  if (time == FvModelTime::rk2) return stage(u0, stage(u0, u0, {}), {0.5L, 0.5L, 1});
  if (time == FvModelTime::ssprk3) {
    const State u1 = stage(u0, u0, {});
    return stage(u0, stage(u0, u1, {0.75L, 0.25L, 1}), {1.0L / 3, 2.0L / 3, 1});
  }
  const State u1 = stage(u0, u0, RkWeights{0, 1, 0.391752226571890L});
  const State u2 = stage(u0, u1, k(0.444370493651235L, 0.555629506348765L, 0.368410593050371L));
  const State u3 = stage(u0, u2, k(0.620101851488403L, 0.379898148511597L, 0.251891774271694L));
  const State u4 = stage(u0, u3, k(0.178079954393132L, 0.821920045606868L, 0.544974750228521L));
  const State part = stage(u2, u3, k(0.517231671970585L, 0.096059710526147L, 0.063692468666290L));
  return stage(part, u4, k(1, 0.386708617503268L, 0.226007483236906L));
}

}  // namespace fluxview::model
