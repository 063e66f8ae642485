// Steering the fv solver (the class: FvSolverImpl.hpp; docs/gui.md): live changes of its
// parameters, the tools (blast, cloud, obstacles; their loops in FvTools.hpp), the stage
// that honours obstacles, and the obstacles in checkpoints.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/Reduce.hpp"
#include "sim/fv/FvLiveConfig.hpp"
#include "sim/fv/FvSolver.hpp"
#include "sim/fv/FvSolverImpl.hpp"
#include "sim/fv/FvToolSpecs.hpp"

namespace fluxview::fv {

namespace {

PaintSums everywhere(PaintSums s) {
  s.mass = parallel::allreduce_sum(s.mass);
  s.energy = parallel::allreduce_sum(s.energy);
  for (double& m : s.momentum) m = parallel::allreduce_sum(m);
  s.cells = parallel::allreduce_sum(s.cells);
  return s;
}

}  // namespace

FvConfig live_config(const FvConfig& now, const ParamSet& changed, const std::string& key,
                     const ParamValue& value, const std::function<double()>& lowest_pressure) {
  const FvConfig c = parse_config(changed);
  const char* axes = "xyz";
  for (int a = 0; a < 3; ++a)
    if ((c.bc[a][0] == Bc::periodic) != (now.bc[a][0] == Bc::periodic))
      throw SteeringError(key + ": the " + std::string(1, axes[a]) + " faces would become " +
                          (c.bc[a][0] == Bc::periodic ? "periodic" : "non-periodic") +
                          ", but periodic faces are joined when the run is set up (the split "
                          "over MPI ranks depends on them); allowed: outflow <-> reflecting "
                          "while running, periodic only with Reset");
  if (c.physics.gamma != now.physics.gamma) {
    const double factor = (c.physics.gamma - 1) / (now.physics.gamma - 1);
    const double p_min = lowest_pressure();
    if (!(p_min * factor > c.physics.p_floor))
      throw SteeringError(key + " = " + format_value(value) + ": the lowest pressure, " +
                          short_number(p_min) + " Pa, would fall to " +
                          short_number(p_min * factor) +
                          " Pa, at or below fv.p_floor = " + short_number(c.physics.p_floor) +
                          " Pa; allowed: a gamma closer to " + short_number(now.physics.gamma));
  }
  return c;
}

template <class T>
void FvSolver<T>::set_live(const std::string& key, const ParamValue& value) {
  const ParamSet p = live_change(params_, key, value, family().validate);
  const FvConfig c = live_config(
      config_, p, key, value, [&] { return parallel::allreduce_min(field_stats(view("p")).min); });
  params_ = p;
  config_ = c;
  ph_ = physics_in<T>(config_);
  tile_rows_ = tile_rows();
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s)
      if (ghosts_.bc[a][s] != Bc::neighbour) ghosts_.bc[a][s] = config_.bc[a][s];
  fill_ghosts(fields_of(state_), time_);
  fill_solid_ghosts();
  rate_from_state();
}

std::vector<ToolSpec> fluid_tools(const std::array<double, 3>& box) {
  std::vector<ToolSpec> t;
  ToolSpec blast{"blast", "Set off a blast",
                 "adds `energy` as heat, shared evenly by volume among the fluid cells within "
                 "radius (a Sedov-Taylor blast); reports the energy added",
                 brush_args(box), "energy"};
  blast.args.push_back(real_param("energy", 1, "J", 0, 1e30, "energy added", true));
  t.push_back(blast);
  ToolSpec cloud{"cloud", "Drop a dense cloud",
                 "multiplies the density of the fluid cells within radius by density_ratio, "
                 "keeping their pressure and velocity (tracer 1 where the run has one); "
                 "reports the mass added",
                 brush_args(box), "density_ratio"};
  cloud.args.push_back(
      real_param("density_ratio", 10, "", 0, 1e6, "cloud density over the gas it replaces", true));
  t.push_back(cloud);
  return t;
}

ToolReport fluid_tool_report(const std::string& tool, const PaintSums& s) {
  ToolReport r;
  if (tool == "blast") {
    r.amounts = {{"energy_added", "J", s.energy}, {"cells", "", double(s.cells)}};
    r.summary =
        "blast: " + short_number(s.energy) + " J added in " + std::to_string(s.cells) + " cells";
  } else {
    r.amounts = {{"mass_added", "kg", s.mass},
                 {"energy_added", "J", s.energy},
                 {"momentum_x_added", "kg m/s", s.momentum[0]},
                 {"momentum_y_added", "kg m/s", s.momentum[1]},
                 {"momentum_z_added", "kg m/s", s.momentum[2]},
                 {"cells", "", double(s.cells)}};
    r.summary =
        "cloud: " + short_number(s.mass) + " kg added in " + std::to_string(s.cells) + " cells";
  }
  return r;
}

SteeringError brush_holds_no_cell(const ToolCall& call, double half_cell) {
  return SteeringError(call.tool + ": the brush at (" + short_number(call.arg("x")) + ", " +
                       short_number(call.arg("y")) + ", " + short_number(call.arg("z")) +
                       ") m of radius " + short_number(call.arg("radius")) +
                       " m holds no fluid cell centre; allowed: a centre inside the box, off "
                       "the obstacles, and a radius of at least half a cell (" +
                       short_number(half_cell) + " m)");
}

template <class T>
std::vector<ToolSpec> FvSolver<T>::tools() const {
  std::vector<ToolSpec> t = fluid_tools(config_.grid.length);
  const std::array<double, 3> box = config_.grid.length;
  t.push_back({"obstacle", "Draw a solid obstacle",
               "makes the cells within radius solid and at rest: reflecting walls the flow goes "
               "around; reports the mass they hold",
               brush_args(box), ""});
  t.push_back({"obstacle-clear", "Erase obstacles",
               "makes the solid cells within radius fluid again (at rest, as they were held)",
               brush_args(box), ""});
  return t;
}

template <class T>
ToolReport FvSolver<T>::apply_tool(const ToolCall& call) {
  const std::array<double, 3> centre{call.arg("x"), call.arg("y"), call.arg("z")};
  const double radius = call.arg("radius");
  std::array<bool, 3> periodic{};
  for (int a = 0; a < 3; ++a) periodic[a] = config_.bc[a][0] == Bc::periodic;
  const Brush b = make_brush(grid_, centre, radius, 1.0, periodic);
  const Conserved<T> u = fields_of(state_);
  double dv = 1;
  for (int a = 0; a < 3; ++a) dv *= grid_.spacing[a];
  T* solid = solid_cells_ > 0 ? solid_.data() : nullptr;
  const auto paint = [&](const Paint& p) {
    return everywhere(tools_->paint(u, nv_, solid, layout(), b, p));
  };
  const auto none = [&] { return brush_holds_no_cell(call, 0.5 * grid_.spacing[0]); };
  // The sums per cell times the cell's volume.
  const auto amounts = [&](PaintSums s) {
    s.mass *= dv;
    s.energy *= dv;
    for (double& m : s.momentum) m *= dv;
    return s;
  };
  ToolReport r;
  if (call.tool == "blast") {
    const std::int64_t cells = paint({PaintKind::count}).cells;
    if (cells == 0) throw none();
    const double energy = call.arg("energy");
    r = fluid_tool_report("blast",
                          amounts(paint({PaintKind::blast, energy / (double(cells) * dv)})));
  } else if (call.tool == "cloud") {
    const PaintSums s = paint({PaintKind::cloud, 0, call.arg("density_ratio")});
    if (s.cells == 0) throw none();
    r = fluid_tool_report("cloud", amounts(s));
  } else if (call.tool == "obstacle") {
    // The stage that honours obstacles is the second-order one (FvTools.hpp).
    if (stage_path(config_) != StagePath::plm_faces || config_.time != TimeStepper::rk2)
      throw SteeringError("obstacle: this run's scheme is " + scheme_name(config_) +
                          "; allowed: obstacles with fv.reconstruction = plm or constant and "
                          "fv.time = rk2 (the stage that honours them is second order)");
    if (!solid) {
      solid_ = Field<T>(layout().n, ghost_, where());
      solid = solid_.data();
    }
    const PaintSums s = paint({PaintKind::make_solid});
    if (s.cells == 0) {
      if (solid_cells_ == 0) solid_ = Field<T>();
      throw none();
    }
    solid_cells_ += s.cells;
    fill_solid_ghosts();
    r.amounts = {{"mass_enclosed", "kg", s.mass * dv},
                 {"energy_added", "J", s.energy * dv},
                 {"momentum_x_added", "kg m/s", s.momentum[0] * dv},
                 {"momentum_y_added", "kg m/s", s.momentum[1] * dv},
                 {"momentum_z_added", "kg m/s", s.momentum[2] * dv},
                 {"cells", "", double(s.cells)}};
    r.summary = "obstacle: " + std::to_string(s.cells) + " cells made solid (" +
                short_number(s.mass * dv) + " kg held at rest)";
  } else if (call.tool == "obstacle-clear") {
    const std::int64_t freed = solid ? paint({PaintKind::free_solid}).cells : 0;
    solid_cells_ -= freed;
    if (solid_cells_ == 0)
      solid_ = Field<T>();  // no obstacle left: the fused stage again
    else
      fill_solid_ghosts();
    r.amounts = {{"cells", "", double(freed)}};
    r.summary = "freed " + std::to_string(freed) + " solid cells";
  } else {
    throw SteeringError("fv has no tool '" + call.tool + "'");
  }
  fill_ghosts(u, time_);
  rate_from_state();
  return r;
}

template <class T>
void FvSolver<T>::stage(const StageArgs<T>& a) {
  if (solid_cells_ > 0)
    tools_->stage_with_solids(a, solid_.data());
  else
    backend_->stage(a);
}

template <class T>
void FvSolver<T>::fill_solid_ghosts() {
  if (solid_cells_ == 0) return;
  Conserved<T> m;
  m.f[0] = solid_.data();
  backend_->fill_boundary_ghosts(m, 1, layout(), ghosts_);
  void* fields[1] = {solid_.data()};
  exchange_.exchange(fields, 1);
}

template <class T>
void FvSolver<T>::save_solids(SolverState& st) const {
  if (solid_cells_ == 0) return;
  st.arrays.push_back(
      {kSolidArray, gather_interior(solid_.view(kSolidArray, "", Centering::cell))});
}

template <class T>
void FvSolver<T>::load_solids(const SolverState& st) {
  solid_ = Field<T>();
  solid_cells_ = 0;
  for (const StateArray& a : st.arrays) {
    if (a.name != kSolidArray) continue;
    solid_ = Field<T>(layout().n, ghost_, where());
    scatter_interior(a.values, solid_.data(), layout(), where());
    const FieldStats s = field_stats(solid_.view(kSolidArray, "", Centering::cell));
    solid_cells_ = std::int64_t(std::llround(parallel::allreduce_sum(s.sum)));
    if (solid_cells_ == 0)
      solid_ = Field<T>();
    else
      fill_solid_ghosts();
  }
}

#define FLUXVIEW_FV_STEERING(T)                                               \
  template void FvSolver<T>::set_live(const std::string&, const ParamValue&); \
  template std::vector<ToolSpec> FvSolver<T>::tools() const;                  \
  template ToolReport FvSolver<T>::apply_tool(const ToolCall&);               \
  template void FvSolver<T>::stage(const StageArgs<T>&);                      \
  template void FvSolver<T>::fill_solid_ghosts();                             \
  template void FvSolver<T>::save_solids(SolverState&) const;                 \
  template void FvSolver<T>::load_solids(const SolverState&);
FLUXVIEW_FV_STEERING(float)
FLUXVIEW_FV_STEERING(double)
#undef FLUXVIEW_FV_STEERING

}  // namespace fluxview::fv
