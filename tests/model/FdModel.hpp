#pragma once
// The model of one fd step, written from Pekkila et al. 2017 and docs/fd.md with none of
// the solver's code. Isothermal compressible viscous hydrodynamics in (ln rho, u):
//   d ln rho/dt = -u . grad ln rho - div u                                         (1)
//   du/dt = -(u . grad) u - cs^2 grad ln rho + f
//           + nu (lap u + 1/3 grad div u + 2 S . grad ln rho)                        (2)
//   S_ij = 1/2 (d_j u_i + d_i u_j - 2/3 delta_ij div u)                             (3)
// on a periodic cell-centred grid (n cells over [0, L), x_i = (i + 1/2) L / n), sixth-
// order central differences: first (6), second (7) and the bidiagonal mixed (8)
// derivatives, zero along a reduced axis (n = 1). grad div u is
//   single pass (fd.method 55point, direct55): d_ii u_i + sum_{j != i} d_ij u_j by (7), (8)
//   two passes (19point, fast): (6) applied to the field div u, itself by (6)
// Time: Williamson's 2N-storage RK3 (eq. 10), w <- alpha_s w + dt F(f), f <- f + beta_s w,
// alpha = 0, -5/9, -153/128, beta = 1/3, 15/16, 8/15, the forcing of the step held during
// its three substeps. The step: dt = C min(dx / (|u|max + cs), dx^2 / (5 nu)), dx the
// smallest spacing of an active axis, unless fd.dt fixes it.
//
// Periodicity is index arithmetic here (no ghost zones), so the model is also
// independent of the solver's ghost filling.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "sim/core/Parameter.hpp"
#include "sim/core/Types.hpp"
#include "tests/model/FdForcingModel.hpp"
#include "tests/model/Tracked.hpp"

namespace fluxview::model {

using FdState = std::array<std::vector<Tracked>, 4>;  // ln rho, ux, uy, uz; x fastest
inline const char* const kFdFields[4] = {"lnrho", "ux", "uy", "uz"};

class FdModel {
 public:
  std::array<int, 3> n{1, 1, 1};
  std::array<long double, 3> length{1, 1, 1}, spacing{1, 1, 1};
  long double cs = 1, nu = 0, courant = 0.4, fixed_dt = 0, f0 = 0;
  bool single_pass = false;
  bool forcing = false;
  ForcingModel force;

  // The model of a solver of precision `precision` (the step and the constants are
  // converted to it) with parameters p.
  static FdModel from(const ParamSet& p, Precision precision) {
    FdModel m;
    m.single_precision = precision == Precision::f32;
    const char* nk[3] = {"grid.nx", "grid.ny", "grid.nz"};
    const char* lk[3] = {"grid.lx", "grid.ly", "grid.lz"};
    for (int a = 0; a < 3; ++a) {
      m.n[a] = int(p.get_int(nk[a]));
      m.length[a] = p.get_real(lk[a]);
      m.spacing[a] = m.length[a] / m.n[a];
    }
    m.cs = p.get_real("fd.cs");
    m.nu = p.get_real("fd.nu");
    m.courant = p.get_real("fd.courant");
    m.fixed_dt = p.get_real("fd.dt");
    const std::string method = p.get_string("fd.method");
    m.single_pass = method == "55point" || method == "direct55";
    m.f0 = p.get_real("fd.f0");
    m.force =
        ForcingModel(p.get_real("fd.kmin"), p.get_real("fd.kmax"),
                     {m.n[0] > 1, m.n[1] > 1, m.n[2] > 1}, std::uint64_t(p.get_int("fd.seed")));
    m.forcing = p.get_bool("fd.forcing") && !m.force.empty();
    return m;
  }

  std::int64_t cells() const { return std::int64_t(n[0]) * n[1] * n[2]; }

  // The time step the solver should take from state s.
  long double time_step(const FdState& s) const {
    if (fixed_dt > 0) return fixed_dt;
    long double dx = INFINITY;
    for (int a = 0; a < 3; ++a)
      if (n[a] > 1) dx = std::min(dx, spacing[a]);
    if (!std::isfinite(dx)) return courant / cs;
    long double u2 = 0;
    for (std::int64_t c = 0; c < cells(); ++c) {
      const long double ux = s[1][c].v, uy = s[2][c].v, uz = s[3][c].v;
      u2 = std::max(u2, ux * ux + uy * uy + uz * uz);
    }
    return std::min(courant * dx / (std::sqrt(u2) + cs), courant * dx * dx / (5 * nu));
  }

  // One step of length dt (the solver's dt(), in double) from s. Draws the step's forcing.
  FdState step(const FdState& s, double dt) {
    const Force f = forcing ? make_force(dt) : Force{};
    const long double alpha[3] = {0, -5.0L / 9, -153.0L / 128};
    const long double beta[3] = {1.0L / 3, 15.0L / 16, 8.0L / 15};
    const Tracked h = dt_in_solver_precision(dt);
    FdState cur = s, w;
    for (auto& v : w) v.assign(cells(), Tracked(0));
    for (int sub = 0; sub < 3; ++sub) {
      // The solver forms alpha and beta in double and converts them: 2 roundings.
      const Tracked a = rounded(alpha[sub], 2), b = rounded(beta[sub], 2);
      const std::vector<Tracked> div = single_pass ? std::vector<Tracked>() : divergence(cur);
      FdState next = cur;
      for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j)
          for (int i = 0; i < n[0]; ++i) {
            const std::int64_t c = index(i, j, k);
            Tracked r[4];
            rates(cur, div, f, i, j, k, r);
            for (int v = 0; v < 4; ++v) {
              w[v][c] = sub == 0 ? h * r[v] : a * w[v][c] + h * r[v];
              next[v][c] = cur[v][c] + b * w[v][c];
            }
          }
      cur = next;
    }
    return cur;
  }

 private:
  bool single_precision = false;

  struct Force {
    bool on = false;
    Tracked amp[3];
    Tracked k[3];
    Tracked phase;
  };

  Tracked dt_in_solver_precision(double dt) const {
    return single_precision ? Tracked((long double)(float)dt) : Tracked((long double)dt);
  }

  Force make_force(double dt) {
    const ForcingDrawModel d = force.draw();
    Force f;
    f.on = true;
    long double k2 = 0, kphys[3];
    for (int a = 0; a < 3; ++a) {
      kphys[a] = 2 * std::numbers::pi_v<long double> * d.k[a] / length[a];
      k2 += kphys[a] * kphys[a];
    }
    const long double norm = f0 * cs * std::sqrt(std::sqrt(k2) * cs / dt);  // eq. 25
    for (int a = 0; a < 3; ++a) {
      // The solver draws and normalises in double (a unit vector from random angles, a
      // cross product with cancellation, |k|, square roots: about 40 roundings, each of
      // size up to N) and converts N f_k to its precision.
      f.amp[a] = with_error(norm * d.f_k[a], norm, 48);
      f.k[a] = rounded(kphys[a], 3);  // 2 pi k / L in double, then converted
    }
    f.phase = rounded(d.phase, 2);
    return f;
  }

  std::int64_t index(int i, int j, int k) const { return (std::int64_t(k) * n[1] + j) * n[0] + i; }
  // Field value at (i, j, k) shifted by o, periodic.
  Tracked at(const std::vector<Tracked>& f, int i, int j, int k, const int o[3]) const {
    const int q[3] = {((i + o[0]) % n[0] + n[0]) % n[0], ((j + o[1]) % n[1] + n[1]) % n[1],
                      ((k + o[2]) % n[2] + n[2]) % n[2]};
    return f[index(q[0], q[1], q[2])];
  }
  Tracked shifted(const std::vector<Tracked>& f, int i, int j, int k, int axis, int s) const {
    int o[3] = {0, 0, 0};
    o[axis] = s;
    return at(f, i, j, k, o);
  }

  // Eq. (6): (-f_-3 + 9 f_-2 - 45 f_-1 + 45 f_+1 - 9 f_+2 + f_+3) / (60 d).
  Tracked d1(const std::vector<Tracked>& f, int i, int j, int k, int a) const {
    if (n[a] == 1) return Tracked(0);
    auto F = [&](int s) { return shifted(f, i, j, k, a, s); };
    const Tracked sum = -F(-3) + Tracked(9) * F(-2) - Tracked(45) * F(-1) + Tracked(45) * F(1) -
                        Tracked(9) * F(2) + F(3);
    // 1/(60 d): d = L/n, 60 d, the quotient in double, then converted: 4 roundings.
    return rounded(1 / (60 * spacing[a]), 4) * sum;
  }

  // Eq. (7): (2 f_-3 - 27 f_-2 + 270 f_-1 - 490 f_0 + 270 f_+1 - 27 f_+2 + 2 f_+3) / (180 d^2).
  Tracked d2(const std::vector<Tracked>& f, int i, int j, int k, int a) const {
    if (n[a] == 1) return Tracked(0);
    auto F = [&](int s) { return shifted(f, i, j, k, a, s); };
    const Tracked sum = Tracked(2) * F(-3) - Tracked(27) * F(-2) + Tracked(270) * F(-1) -
                        Tracked(490) * F(0) + Tracked(270) * F(1) - Tracked(27) * F(2) +
                        Tracked(2) * F(3);
    return rounded(1 / (180 * spacing[a] * spacing[a]), 5) * sum;
  }

  // Eq. (8), the bidiagonal mixed derivative d^2 f / (d_a d_b), divided by 720 d_a d_b.
  Tracked dmix(const std::vector<Tracked>& f, int i, int j, int k, int a, int b) const {
    if (n[a] == 1 || n[b] == 1) return Tracked(0);
    auto F = [&](int s, int t) {
      int o[3] = {0, 0, 0};
      o[a] += s;
      o[b] += t;
      return at(f, i, j, k, o);
    };
    Tracked sum = Tracked(0);
    const long double weight[4] = {0, 270, -27, 2};
    for (int m = 1; m <= 3; ++m)
      sum = sum + Tracked(weight[m]) * (F(m, m) - F(-m, m) + F(-m, -m) - F(m, -m));
    return rounded(1 / (720 * spacing[a] * spacing[b]), 5) * sum;
  }

  // div u at every cell by (6): the first pass of the two-pass method.
  std::vector<Tracked> divergence(const FdState& s) const {
    std::vector<Tracked> d(cells());
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i)
          d[index(i, j, k)] = d1(s[1], i, j, k, 0) + d1(s[2], i, j, k, 1) + d1(s[3], i, j, k, 2);
    return d;
  }

  // d(ln rho, u)/dt at (i, j, k): eqs (1)-(3).
  void rates(const FdState& s, const std::vector<Tracked>& div_field, const Force& f, int i, int j,
             int k, Tracked r[4]) const {
    const std::int64_t c = index(i, j, k);
    const Tracked u[3] = {s[1][c], s[2][c], s[3][c]};
    Tracked gl[3], gu[3][3];  // gl[a] = d_a ln rho, gu[i][a] = d_a u_i
    for (int a = 0; a < 3; ++a) {
      gl[a] = d1(s[0], i, j, k, a);
      for (int q = 0; q < 3; ++q) gu[q][a] = d1(s[1 + q], i, j, k, a);
    }
    const Tracked div = gu[0][0] + gu[1][1] + gu[2][2];
    r[0] = -(u[0] * gl[0] + u[1] * gl[1] + u[2] * gl[2]) - div;

    Tracked body[3] = {Tracked(0), Tracked(0), Tracked(0)};  // f of eq. (2)
    if (f.on) {
      // x_a = x0_a + i_a d_a with x0 = d/2: the solver converts both to its precision.
      const int idx[3] = {i, j, k};
      Tracked arg = f.phase;
      for (int a = 0; a < 3; ++a) {
        const Tracked x = rounded(spacing[a] / 2, 2) + Tracked(idx[a]) * rounded(spacing[a], 2);
        arg = f.k[a] * x + arg;
      }
      const Tracked cosine = cos(arg);
      for (int a = 0; a < 3; ++a) body[a] = f.amp[a] * cosine;
    }

    const Tracked third = rounded(1.0L / 3, 2), two_thirds = rounded(2.0L / 3, 2);
    const Tracked cs2 = rounded(cs * cs, 2), visc = rounded(nu, 1);
    for (int q = 0; q < 3; ++q) {
      Tracked graddiv;
      if (single_pass) {
        graddiv = d2(s[1 + q], i, j, k, q);
        for (int p = 0; p < 3; ++p)
          if (p != q) graddiv = graddiv + dmix(s[1 + p], i, j, k, std::min(p, q), std::max(p, q));
      } else {
        graddiv = d1(div_field, i, j, k, q);
      }
      Tracked lap = d2(s[1 + q], i, j, k, 0) + d2(s[1 + q], i, j, k, 1) + d2(s[1 + q], i, j, k, 2);
      Tracked adv = Tracked(0), strain = Tracked(0);
      for (int p = 0; p < 3; ++p) {
        adv = adv + u[p] * gu[q][p];
        Tracked S = Tracked(0.5) * (gu[q][p] + gu[p][q]);  // S_qp
        if (p == q) S = S - Tracked(0.5) * two_thirds * div;
        strain = strain + S * gl[p];
      }
      r[1 + q] =
          -adv - cs2 * gl[q] + body[q] + visc * (lap + third * graddiv + Tracked(2) * strain);
    }
  }
};

}  // namespace fluxview::model
