#include "sim/fd/FdSteering.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <variant>

#include "sim/core/Parallel.hpp"

namespace fluxview::fd {

namespace {

StrokeSums everywhere(StrokeSums s) {
  s.mass = parallel::allreduce_sum(s.mass);
  s.kinetic = parallel::allreduce_sum(s.kinetic);
  for (double& m : s.momentum) m = parallel::allreduce_sum(m);
  s.u2_max = parallel::allreduce_max(s.u2_max);
  s.cells = parallel::allreduce_sum(s.cells);
  return s;
}

}  // namespace

template <class T>
void FdSteering<T>::reset(BackendKind backend, const Grid& grid) {
  tools_ = make_tools<T>(backend);
  grid_ = grid;
}

template <class T>
std::vector<ToolSpec> FdSteering<T>::tools(const FdConfig& c) const {
  const std::array<double, 3> box = c.grid.length;
  std::vector<ToolSpec> t;
  ToolSpec vortex{"vortex", "Add a vortex",
                  "adds a swirl of peak speed `speed` at distance radius from its axis "
                  "(divergence free, density untouched); reports the kinetic energy added",
                  brush_args(box), "speed"};
  vortex.args.push_back(real_param("speed", 0.5, "", -1e6, 1e6,
                                   "peak swirl speed (negative: clockwise about the axis)"));
  vortex.args.push_back(int_param("axis", 2, "", 0, 2, "axis it turns about: 0 x, 1 y, 2 z"));
  t.push_back(vortex);
  ToolSpec kick{"kick", "Kick the flow",
                "adds velocity (ux, uy, uz) exp(-(r/radius)^2); reports the momentum and "
                "kinetic energy added",
                brush_args(box), "ux"};
  kick.args.push_back(real_param("ux", 0.5, "", -1e6, 1e6, "velocity added at the centre, x"));
  kick.args.push_back(real_param("uy", 0, "", -1e6, 1e6, "velocity added at the centre, y"));
  kick.args.push_back(real_param("uz", 0, "", -1e6, 1e6, "velocity added at the centre, z"));
  t.push_back(kick);
  ToolSpec bump{"density-bump", "Add a density bump",
                "multiplies the density by 1 + amplitude exp(-(r/radius)^2) (a negative "
                "amplitude, above -1, makes a hollow); reports the mass added",
                brush_args(box), "amplitude"};
  bump.args.push_back(real_param("amplitude", 0.5, "", -1, 1e3,
                                 "relative density change at the centre (> -1)", true));
  t.push_back(bump);
  return t;
}

template <class T>
ToolReport FdSteering<T>::apply(const ToolCall& call, T* const* f, const FieldLayout& l,
                                const FdConfig& c) {
  const std::array<double, 3> centre{call.arg("x"), call.arg("y"), call.arg("z")};
  const double radius = call.arg("radius");
  Stroke s;
  double reach = 3;  // exp(-9): the Gaussian's tail left out
  if (call.tool == "vortex") {
    s.kind = StrokeKind::vortex;
    s.speed = call.arg("speed");
    s.axis = int(call.arg("axis"));
    reach = 5;  // the swirl falls as s exp(-s^2/2): 3e-5 of its peak at 5 radii
  } else if (call.tool == "kick") {
    s.kind = StrokeKind::kick;
    s.velocity[0] = call.arg("ux");
    s.velocity[1] = call.arg("uy");
    s.velocity[2] = call.arg("uz");
  } else if (call.tool == "density-bump") {
    s.kind = StrokeKind::density_bump;
    s.amplitude = call.arg("amplitude");
  } else {
    throw SteeringError("fd has no tool '" + call.tool + "'");
  }
  const Brush b = make_brush(grid_, centre, radius, reach, {true, true, true});
  const StrokeSums check = everywhere(tools_->stroke(f, l, b, s, false));
  if (check.cells == 0)
    throw SteeringError(call.tool + ": the brush of radius " + short_number(radius) +
                        " m reaches no cell; allowed: a radius of at least half a cell");
  const double mach = std::sqrt(check.u2_max) / c.cs;
  if (!(mach <= kMaxStrokeMach))
    throw SteeringError(call.tool + ": the flow would reach Mach " + short_number(mach) +
                        " (|u| / fd.cs), which sixth-order central differences cannot carry (they "
                        "capture no shocks); allowed: a stroke that keeps the flow below Mach " +
                        short_number(kMaxStrokeMach));
  const StrokeSums d = everywhere(tools_->stroke(f, l, b, s, true));
  const double dv = grid_.spacing[0] * grid_.spacing[1] * grid_.spacing[2];
  ToolReport r;
  r.amounts = {{"mass_added", "", d.mass * dv},
               {"kinetic_energy_added", "", d.kinetic * dv},
               {"momentum_x_added", "", d.momentum[0] * dv},
               {"momentum_y_added", "", d.momentum[1] * dv},
               {"momentum_z_added", "", d.momentum[2] * dv},
               {"mach_max", "", mach},
               {"cells", "", double(d.cells)}};
  if (s.kind == StrokeKind::density_bump)
    r.summary = "density bump: mass " + std::string(d.mass >= 0 ? "+" : "") +
                short_number(d.mass * dv) + " over " + std::to_string(d.cells) + " cells";
  else
    r.summary = call.tool + ": kinetic energy " + (d.kinetic >= 0 ? "+" : "") +
                short_number(d.kinetic * dv) + " over " + std::to_string(d.cells) +
                " cells (Mach " + short_number(mach) + " at most)";
  return r;
}

template class FdSteering<float>;
template class FdSteering<double>;

}  // namespace fluxview::fd
