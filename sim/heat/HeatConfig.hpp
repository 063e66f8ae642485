#pragma once
// A heat run's parameters, read once from the ParamSet (HeatFamily.cpp, where the keys are
// spelled), and the grid they describe.
#include <array>
#include <cstdint>

#include "sim/core/CommonConfig.hpp"
#include "sim/core/Grid.hpp"
#include "sim/heat/HeatStep.hpp"

namespace fluxview::heat {

// heat.init: one function each in HeatInitial.cpp.
enum class HeatInit { uniform, sine, hot_spot };

struct HeatConfig {
  GridConfig grid;
  ParallelConfig parallel;
  double alpha = 1.9e-5;  // m^2/s
  double dt = 0;          // s; 0: `safety` times the largest stable step
  double safety = 0.9;
  HeatInit init = HeatInit::uniform;
  double T_initial = 0;                              // degC, the uniform value and the background
  std::array<std::array<double, 2>, 3> walls{};      // [axis][0: min face, 1: max face], degC
  double sine_amplitude = 1;                         // K
  std::array<std::int64_t, 3> sine_modes{1, 1, 1};   // half-waves along each axis
  double spot_T = 100;                               // degC
  double spot_radius = 0.15;                         // fraction of the box
  std::array<double, 3> spot_centre{0.5, 0.5, 0.5};  // fractions of the box
  HeatKernel kernel = HeatKernel::fast;
  double steady_tol = 0;  // K/s; 0: never stop
  std::int64_t check_every = 100;
};

HeatConfig parse_config(const ParamSet& p);

// The point-centred heat grid: n points along an axis between two wall points at 0 and L,
// so the spacing is L / (n + 1) and the walls sit on the ghost layer. A reduced axis (one
// point) has that point in the middle of the box and no walls.
Grid heat_grid(const GridConfig& g);
// sum over the axes that are not reduced of 1 / d_a^2.
double inverse_spacing_sum(const Grid& g);
// Largest stable dt of FTCS: alpha dt sum_a 1/d_a^2 <= 1/2 (d = alpha dt/dx^2 <= 1/6 for
// cubic cells); infinite for a single point, where nothing diffuses.
double max_stable_dt(const Grid& g, double alpha);
// The time step of a run: heat.dt, or heat.safety times the largest stable one (1 s for a
// single point, where any step is exact).
double time_step(const HeatConfig& c, const Grid& g);

}  // namespace fluxview::heat
