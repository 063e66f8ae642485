#pragma once
// Helpers shared by the fv tests: make a solver from a built-in scenario with overrides,
// run it to a time, read a diagnostic or a field's interior.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "sim/core/FieldView.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"
#include "tests/support/SolverTestUtil.hpp"

namespace fluxview::fv::test {

using fluxview::test::diagnostic;
using fluxview::test::interior_values;
using fluxview::test::make_solver;

// The message of the ConfigError loading `scenario` with overrides `o` throws ("" if none).
inline std::string config_error(const std::string& scenario, const std::vector<std::string>& o) {
  try {
    load_scenario(scenario, o);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

inline void run_until(Solver& s, double t) {
  while (s.time() < t * (1 - 1e-14)) s.advance_until(t, std::int64_t(1) << 30);
  s.synchronize();
}

// A shock-tube scenario along `axis` (x, y or z) on n cells, the other axes dropped, with
// the overrides `extra`, run to time t.
inline std::unique_ptr<Solver> tube_run_to(const std::string& scenario, const std::string& axis,
                                           int n, const std::vector<std::string>& extra, double t) {
  std::vector<std::string> o = {"grid.nx=1", "grid.ny=1", "grid.nz=1", "fv.axis=" + axis,
                                "grid.n" + axis + "=" + std::to_string(n)};
  o.insert(o.end(), extra.begin(), extra.end());
  auto s = make_solver(scenario, o);
  run_until(*s, t);
  return s;
}

// Shock radius of a blast centred at c (absolute coordinates) from the density: the
// density averaged in shells one cell thick, then the radius outside the shell of
// largest density where the average falls half-way from that peak to the ambient value.
inline double shock_radius(const Solver& s, const double c[3], double rho_ambient) {
  const auto rho = interior_values(s, "rho");
  const Grid& g = s.grid();
  const double dr = g.spacing[0];
  const int bins = int(2 * g.n[0] + 2);
  std::vector<double> sum(bins, 0), count(bins, 0);
  for (int k = 0; k < g.n[2]; ++k)
    for (int j = 0; j < g.n[1]; ++j)
      for (int i = 0; i < g.n[0]; ++i) {
        const double x = g.coord(0, i) - c[0], y = g.coord(1, j) - c[1], z = g.coord(2, k) - c[2];
        const int b = int(std::sqrt(x * x + y * y + z * z) / dr);
        if (b >= bins) continue;
        sum[b] += rho[(std::int64_t(k) * g.n[1] + j) * g.n[0] + i];
        count[b] += 1;
      }
  int peak = 0;
  double best = 0;
  for (int b = 0; b < bins; ++b)
    if (count[b] > 0 && sum[b] / count[b] > best) best = sum[b] / count[b], peak = b;
  const double half = 0.5 * (best + rho_ambient);
  for (int b = peak; b + 1 < bins; ++b) {
    if (count[b + 1] == 0) break;
    const double r0 = sum[b] / count[b], r1 = sum[b + 1] / count[b + 1];
    if (r1 <= half) return (b + 0.5 + (r0 - half) / (r0 - r1)) * dr;
  }
  return (peak + 0.5) * dr;
}

// Shock radius along one ray from c (direction d, normalised here): the outermost point
// where the density, sampled at the nearest cell every quarter cell, is above the
// half-way level between `peak` and the ambient value.
inline double ray_shock_radius(const std::vector<double>& rho, const Grid& g, const double c[3],
                               const double d[3], double peak, double rho_ambient) {
  const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  const double half = 0.5 * (peak + rho_ambient), h = 0.25 * g.spacing[0];
  double last = 0;
  for (double r = 0;; r += h) {
    int idx[3];
    for (int a = 0; a < 3; ++a) {
      idx[a] = int(std::floor((c[a] + r * d[a] / len) / g.spacing[a]));
      if (idx[a] < 0 || idx[a] >= g.n[a]) return last;
    }
    if (rho[(std::int64_t(idx[2]) * g.n[1] + idx[1]) * g.n[0] + idx[0]] > half) last = r;
  }
}

// R = xi0 (E t^2 / rho)^(1/5): the Sedov-Taylor shock radius, xi0 = 1.033 for gamma 1.4.
inline double sedov_radius(double E, double t, double rho, double xi0 = 1.033) {
  return xi0 * std::pow(E * t * t / rho, 0.2);
}

}  // namespace fluxview::fv::test
