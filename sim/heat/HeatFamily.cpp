#include <cmath>
#include <functional>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "sim/heat/HeatSolver.hpp"
#include "sim/heat/HeatStep.hpp"

namespace fluxview::heat {

namespace {

// Spacing of the heat grid: n interior points between two wall points, so the walls sit
// exactly on the ghost layer at 0 and L (point-centred; see HeatSolver.cpp).
double spacing(const ParamSet& p, const char* n_key, const char* l_key) {
  const auto n = p.get_int(n_key);
  return n > 1 ? p.get_real(l_key) / double(n + 1) : 0.0;
}

double min_spacing(const ParamSet& p) {
  double m = INFINITY;
  for (const auto& [n, l] :
       {std::pair{"grid.nx", "grid.lx"}, {"grid.ny", "grid.ly"}, {"grid.nz", "grid.lz"}})
    if (const double d = spacing(p, n, l); d > 0) m = std::fmin(m, d);
  return m;
}

std::vector<ParamSpec> heat_params() {
  const double inf = INFINITY;
  return {
      real_param("heat.alpha", 1.9e-5, "m^2/s", 0, inf, "thermal diffusivity", true),
      real_param("heat.dt", 0, "s", 0, inf,
                 "time step (0: heat.safety times the largest stable step)"),
      real_param("heat.safety", 0.9, "", 0, 1,
                 "fraction of the stability limit for the automatic time step", true),
      choice_param("heat.init", "uniform", {"uniform", "sine", "hot-spot"},
                   "initial temperature field"),
      real_param("heat.T_initial", 0, "degC", -273.15, 1e6,
                 "initial temperature (uniform and background)"),
      real_param("heat.T_xmin", 0, "degC", -273.15, 1e6, "wall temperature at x = 0"),
      real_param("heat.T_xmax", 0, "degC", -273.15, 1e6, "wall temperature at x = lx"),
      real_param("heat.T_ymin", 0, "degC", -273.15, 1e6, "wall temperature at y = 0"),
      real_param("heat.T_ymax", 0, "degC", -273.15, 1e6, "wall temperature at y = ly"),
      real_param("heat.T_zmin", 0, "degC", -273.15, 1e6, "wall temperature at z = 0"),
      real_param("heat.T_zmax", 0, "degC", -273.15, 1e6, "wall temperature at z = lz"),
      real_param("heat.sine_amplitude", 1, "K", -1e6, 1e6,
                 "amplitude A of the sine mode (init = sine)"),
      int_param("heat.sine_mx", 1, "", 1, 1024,
                "half-waves of the sine mode along x (k_x = mx pi / lx)"),
      int_param("heat.sine_my", 1, "", 1, 1024, "half-waves of the sine mode along y"),
      int_param("heat.sine_mz", 1, "", 1, 1024, "half-waves of the sine mode along z"),
      real_param("heat.spot_T", 100, "degC", -273.15, 1e6,
                 "temperature of the hot spot (init = hot-spot)"),
      real_param("heat.spot_radius", 0.15, "", 0, 1, "hot-spot radius as a fraction of the box",
                 true),
      real_param("heat.spot_x", 0.5, "", 0, 1, "hot-spot centre x as a fraction of lx"),
      real_param("heat.spot_y", 0.5, "", 0, 1, "hot-spot centre y as a fraction of ly"),
      real_param("heat.spot_z", 0.5, "", 0, 1, "hot-spot centre z as a fraction of lz"),
      choice_param("heat.kernel", "fast", kernel_names(),
                   "CUDA kernel: the seven of Vizitiu et al. 2014 or fluxview's fastest"),
      real_param("heat.steady_tol", 0, "K/s", 0, inf,
                 "stop when max |dT/dt| falls below this (0: never; the steady-state criterion)"),
      int_param("heat.check_every", 100, "steps", 1, 1 << 30, "steps between steady-state checks"),
  };
}

void validate(const ParamSet& p) {
  const double dt = p.get_real("heat.dt");
  if (dt > 0) {
    const double limit = max_stable_dt(p);
    if (dt > limit) {
      const double dx = min_spacing(p);
      std::ostringstream m;
      m.precision(6);
      m << "heat.dt = " << dt
        << " s is unstable: d = alpha*dt/dx^2 = " << p.get_real("heat.alpha") * dt / (dx * dx)
        << " must stay at or below 1/6 (FTCS stability); allowed: heat.dt <= " << limit
        << " s for this grid and alpha, or 0 for the automatic step";
      throw ConfigError(m.str());
    }
  }
  if (p.get_int("grid.nx") * p.get_int("grid.ny") * p.get_int("grid.nz") < 1)
    throw ConfigError("grid: at least one cell is needed");
}

}  // namespace

double max_stable_dt(const ParamSet& p) {
  double inv = 0;
  const char* nk[3] = {"grid.nx", "grid.ny", "grid.nz"};
  const char* lk[3] = {"grid.lx", "grid.ly", "grid.lz"};
  for (int a = 0; a < 3; ++a) {
    const double d = spacing(p, nk[a], lk[a]);
    if (d > 0) inv += 1.0 / (d * d);
  }
  if (inv == 0) return INFINITY;  // a single point: nothing diffuses
  return 0.5 / (p.get_real("heat.alpha") * inv);
}

SolverFamily family() {
  SolverFamily f;
  f.name = "heat";
  f.description = "3D heat equation, FTCS 7-point stencil, Dirichlet walls (Vizitiu et al. 2014)";
  f.params = heat_params();
  f.default_n = 64;
  f.supports_mpi = true;
  f.default_length = 0.1;
  f.create = make_solver;
  f.validate = validate;
  return f;
}

}  // namespace fluxview::heat
