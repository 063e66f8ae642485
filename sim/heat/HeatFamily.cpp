// The heat family: its parameters (the only place their keys are spelled), the typed
// configuration read from them, the checks across them, and the grid they describe.
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "sim/core/Steering.hpp"
#include "sim/heat/HeatConfig.hpp"
#include "sim/heat/HeatSolver.hpp"
#include "sim/heat/HeatStep.hpp"

namespace fluxview::heat {

namespace {

std::vector<ParamSpec> heat_params() {
  const double inf = INFINITY;
  std::vector<ParamSpec> p = {
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
  // What may change while the run goes (Solver::set_live): the material, the step, the
  // walls (rewritten in the ghost layer), the kernel and the steady-state check.
  mark_live(p, {live_key("heat.alpha"), live_key("heat.dt"), live_key("heat.safety"),
                fixed_key("heat.T_initial", kInitialConditionReason), live_key("heat.T_*"),
                fixed_key("heat.init", kInitialConditionReason),
                fixed_key("heat.sine_*", kInitialConditionReason),
                fixed_key("heat.spot_*", kInitialConditionReason), live_key("heat.kernel"),
                live_key("heat.steady_tol"), live_key("heat.check_every")});
  return p;
}

void validate(const ParamSet& p) {
  const HeatConfig c = parse_config(p);
  const Grid g = heat_grid(c.grid);
  if (c.dt > 0) {
    const double limit = max_stable_dt(g, c.alpha);
    if (c.dt > limit) {
      double dx = INFINITY;
      for (int a = 0; a < 3; ++a)
        if (g.n[a] > 1) dx = std::fmin(dx, g.spacing[a]);
      std::ostringstream m;
      m.precision(6);
      m << "heat.dt = " << c.dt
        << " s is unstable: d = alpha*dt/dx^2 = " << c.alpha * c.dt / (dx * dx)
        << " must stay at or below 1/6 (FTCS stability); allowed: heat.dt <= " << limit
        << " s for this grid and alpha, or 0 for the automatic step";
      throw ConfigError(m.str());
    }
  }
  if (std::int64_t(c.grid.n[0]) * c.grid.n[1] * c.grid.n[2] < 1)
    throw ConfigError("grid: at least one cell is needed");
}

}  // namespace

HeatConfig parse_config(const ParamSet& p) {
  HeatConfig c;
  c.grid = grid_config(p);
  c.parallel = parallel_config(p);
  c.alpha = p.get_real("heat.alpha");
  c.dt = p.get_real("heat.dt");
  c.safety = p.get_real("heat.safety");
  const std::string& init = p.get_string("heat.init");
  c.init = init == "sine"       ? HeatInit::sine
           : init == "hot-spot" ? HeatInit::hot_spot
                                : HeatInit::uniform;
  c.T_initial = p.get_real("heat.T_initial");
  c.walls = {{{p.get_real("heat.T_xmin"), p.get_real("heat.T_xmax")},
              {p.get_real("heat.T_ymin"), p.get_real("heat.T_ymax")},
              {p.get_real("heat.T_zmin"), p.get_real("heat.T_zmax")}}};
  c.sine_amplitude = p.get_real("heat.sine_amplitude");
  c.sine_modes = {p.get_int("heat.sine_mx"), p.get_int("heat.sine_my"), p.get_int("heat.sine_mz")};
  c.spot_T = p.get_real("heat.spot_T");
  c.spot_radius = p.get_real("heat.spot_radius");
  c.spot_centre = {p.get_real("heat.spot_x"), p.get_real("heat.spot_y"), p.get_real("heat.spot_z")};
  c.kernel = parse_kernel(p.get_string("heat.kernel"));
  c.steady_tol = p.get_real("heat.steady_tol");
  c.check_every = p.get_int("heat.check_every");
  return c;
}

Grid heat_grid(const GridConfig& gc) {
  Grid g;
  g.n = gc.n;
  g.ghost = 1;
  g.centering = Centering::point;
  for (int a = 0; a < 3; ++a) {
    g.spacing[a] = gc.n[a] > 1 ? gc.length[a] / (gc.n[a] + 1) : gc.length[a];
    g.origin[a] = gc.n[a] > 1 ? g.spacing[a] : 0.5 * gc.length[a];
  }
  return g;
}

double inverse_spacing_sum(const Grid& g) {
  double inv = 0;
  for (int a = 0; a < 3; ++a)
    if (g.n[a] > 1) inv += 1 / (g.spacing[a] * g.spacing[a]);
  return inv;
}

double max_stable_dt(const Grid& g, double alpha) {
  const double inv = inverse_spacing_sum(g);
  if (inv == 0) return INFINITY;
  return 0.5 / (alpha * inv);
}

double time_step(const HeatConfig& c, const Grid& g) {
  const double dt = c.dt > 0 ? c.dt : c.safety * max_stable_dt(g, c.alpha);
  return std::isfinite(dt) ? dt : 1.0;
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
