#include "sim/heat/HeatSteering.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <variant>

namespace fluxview::heat {

namespace {

constexpr double kAbsoluteZero = -273.15;  // degC

exec::Box join(const exec::Box& a, const exec::Box& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  exec::Box r;
  for (int d = 0; d < 3; ++d) {
    r.lo[d] = std::min(a.lo[d], b.lo[d]);
    r.hi[d] = std::max(a.hi[d], b.hi[d]);
  }
  return r;
}

// What a stroke did on every rank together.
StrokeSums everywhere(StrokeSums s) {
  s.added = parallel::allreduce_sum(s.added);
  s.lowest = parallel::allreduce_min(s.lowest);
  s.cells = parallel::allreduce_sum(s.cells);
  return s;
}

}  // namespace

template <class T>
void HeatSteering<T>::reset(BackendKind backend, const Grid& grid, const parallel::LocalBox& box) {
  tools_ = make_tools<T>(backend);
  grid_ = grid;
  box_ = box;
  held_ = Field<T>();
  held_box_ = exec::Box{};
}

template <class T>
std::vector<ToolSpec> HeatSteering<T>::tools(const HeatConfig& c) const {
  const std::array<double, 3> box = c.grid.length;
  std::vector<ToolSpec> t;
  ToolSpec spot{"heat-spot", "Add or remove heat",
                "adds amplitude exp(-(r/radius)^2) to the temperature (a negative amplitude "
                "takes heat away; refused below absolute zero); reports the change of "
                "T_integral",
                brush_args(box), "amplitude"};
  spot.args.push_back(real_param("amplitude", 50, "K", -1e6, 1e6,
                                 "temperature added at the centre (negative: removed)"));
  t.push_back(spot);
  ToolSpec obstacle{"heat-obstacle", "Hold at a temperature",
                    "holds the points within radius at a fixed temperature from now on (an "
                    "obstacle: a wall inside the box); reports the change of T_integral",
                    brush_args(box), "temperature"};
  obstacle.args.push_back(real_param("temperature", 0, "degC", kAbsoluteZero, 1e6,
                                     "the temperature the points are held at"));
  t.push_back(obstacle);
  t.push_back({"heat-free", "Free held points", "lets the held points within radius evolve again",
               brush_args(box), ""});
  return t;
}

template <class T>
void HeatSteering<T>::ensure_held_field(const FieldLayout& layout) {
  if (held_.layout().size == layout.size && held_.data()) return;
  held_ = Field<T>(layout.n, layout.ghost, tools_->where());
  tools_->fill(held_.data(), held_.layout(), exec::with_ghosts(held_.layout()), T(NAN));
}

template <class T>
ToolReport HeatSteering<T>::apply(const ToolCall& call, Field<T>& cur) {
  const std::array<double, 3> centre{call.arg("x"), call.arg("y"), call.arg("z")};
  const double radius = call.arg("radius");
  const FieldLayout& l = cur.layout();
  const T* fixed = held_.data();
  double dv = 1;
  for (int a = 0; a < 3; ++a) dv *= grid_.spacing[a];
  const auto none = [&](const std::string& tool) {
    double d = INFINITY;
    for (int a = 0; a < 3; ++a)
      if (grid_.n[a] > 1) d = std::fmin(d, grid_.spacing[a]);
    return SteeringError(tool + ": the brush at (" + short_number(centre[0]) + ", " +
                         short_number(centre[1]) + ", " + short_number(centre[2]) +
                         ") m of radius " + short_number(radius) +
                         " m reaches no free grid point; allowed: a centre inside the box and a "
                         "radius of at least half the spacing (" +
                         short_number(0.5 * d) + " m)");
  };
  ToolReport r;
  if (call.tool == "heat-spot") {
    const Brush b = make_brush(grid_, centre, radius, 3.0, {false, false, false});
    const double amplitude = call.arg("amplitude");
    const StrokeSums check =
        everywhere(tools_->heat_spot(cur.data(), fixed, l, b, amplitude, false));
    if (check.cells == 0) throw none(call.tool);
    if (check.lowest < kAbsoluteZero)
      throw SteeringError("heat-spot: amplitude " + short_number(amplitude) +
                          " K would cool a point to " + short_number(check.lowest) +
                          " degC, below absolute zero (-273.15 degC); allowed: a smaller "
                          "amplitude where it is this cold");
    const StrokeSums s = everywhere(tools_->heat_spot(cur.data(), fixed, l, b, amplitude, true));
    r.amounts = {{"T_integral_added", "degC m^3", s.added * dv}, {"points", "", double(s.cells)}};
    r.summary = std::string(amplitude >= 0 ? "heat added" : "heat removed") + ": T_integral " +
                (s.added >= 0 ? "+" : "") + short_number(s.added * dv) + " degC m^3 over " +
                std::to_string(s.cells) + " points";
  } else if (call.tool == "heat-obstacle") {
    const Brush b = make_brush(grid_, centre, radius, 1.0, {false, false, false});
    ensure_held_field(l);
    const StrokeSums s =
        everywhere(tools_->hold_cells(cur.data(), held_.data(), l, b, call.arg("temperature")));
    if (s.cells == 0) throw none(call.tool);
    held_box_ = join(held_box_, brush_box(b, l.n));
    r.amounts = {{"T_integral_added", "degC m^3", s.added * dv}, {"points", "", double(s.cells)}};
    r.summary = "obstacle: " + std::to_string(s.cells) + " points held at " +
                short_number(call.arg("temperature")) + " degC (T_integral " +
                (s.added >= 0 ? "+" : "") + short_number(s.added * dv) + " degC m^3)";
  } else if (call.tool == "heat-free") {
    const Brush b = make_brush(grid_, centre, radius, 1.0, {false, false, false});
    const std::int64_t n =
        held_.data() ? parallel::allreduce_sum(tools_->free_cells(held_.data(), l, b)) : 0;
    r.amounts = {{"points", "", double(n)}};
    r.summary = "freed " + std::to_string(n) + " held points";
  } else {
    throw SteeringError("heat has no tool '" + call.tool + "'");
  }
  return r;
}

template <class T>
void HeatSteering<T>::hold(Field<T>& cur) {
  if (held_box_.empty()) return;
  tools_->hold(cur.data(), held_.data(), cur.layout(), held_box_);
}

template <class T>
void HeatSteering<T>::set_walls(Field<T>& f, const HeatConfig& c) {
  const auto& n = f.layout().n;
  for (int a = 0; a < 3; ++a) {
    if (n[a] == 1) continue;
    for (int side = 0; side < 2; ++side) {
      if (!(side == 0 ? box_.at_low_edge(a) : box_.at_high_edge(a))) continue;
      exec::Box face = exec::interior(f.layout());
      face.lo[a] = side == 0 ? -1 : n[a];
      face.hi[a] = face.lo[a] + 1;
      tools_->fill(f.data(), f.layout(), face, T(c.walls[a][side]));
    }
  }
}

template <class T>
void HeatSteering<T>::save(SolverState& st) const {
  if (held_box_.empty()) return;
  st.arrays.push_back(
      {kHeldArray, gather_interior(held_.view(kHeldArray, "degC", Centering::point))});
}

template <class T>
void HeatSteering<T>::load(const SolverState& st, const FieldLayout& layout) {
  held_ = Field<T>();
  held_box_ = exec::Box{};
  for (const StateArray& a : st.arrays) {
    if (a.name != kHeldArray) continue;
    ensure_held_field(layout);
    scatter_interior(a.values, held_.data(), held_.layout(), held_.where());
    held_box_ = exec::interior(layout);
  }
}

template class HeatSteering<float>;
template class HeatSteering<double>;

}  // namespace fluxview::heat
