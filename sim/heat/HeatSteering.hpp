#pragma once
// Steering a heat run (docs/gui.md): the tools it offers and what they do to the field, the
// obstacles it holds between steps, and the wall temperatures a live change rewrites. The
// solver (HeatSolver.cpp) owns one and calls it; the loops are HeatTools.hpp.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/Field.hpp"
#include "sim/core/Grid.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Solver.hpp"
#include "sim/heat/HeatConfig.hpp"
#include "sim/heat/HeatTools.hpp"

namespace fluxview::heat {

// The name of the held temperatures in a checkpoint (absent when nothing is held).
inline constexpr const char* kHeldArray = "T_held";

template <class T>
class HeatSteering {
 public:
  // A new run: nothing held.
  void reset(BackendKind backend, const Grid& grid, const parallel::LocalBox& box);

  std::vector<ToolSpec> tools(const HeatConfig& c) const;
  // Applies a resolved call to the field `cur`; throws SteeringError, changing nothing,
  // for a stroke that reaches no point or would cool a point below absolute zero.
  ToolReport apply(const ToolCall& call, Field<T>& cur);

  // After every step: the held points back to their temperature. Nothing when none is.
  void hold(Field<T>& cur);
  // The wall temperatures of `c` into the wall ghosts of f (the faces on the global
  // boundary), as reset() puts them there.
  void set_walls(Field<T>& f, const HeatConfig& c);

  // Checkpoints: the held temperatures travel as one more array.
  void save(SolverState& st) const;
  // Reads kHeldArray from a checkpoint's arrays if there, else holds nothing.
  void load(const SolverState& st, const FieldLayout& layout);

 private:
  void ensure_held_field(const FieldLayout& layout);

  std::unique_ptr<HeatTools<T>> tools_;
  Grid grid_;
  parallel::LocalBox box_;
  Field<T> held_;         // NaN where free; allocated at the first obstacle
  exec::Box held_box_{};  // the local points an obstacle ever covered
};

}  // namespace fluxview::heat
