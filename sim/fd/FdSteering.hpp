#pragma once
// Steering an fd run (docs/gui.md): the tools it offers (a vortex, a velocity kick, a
// density bump) and what they do to ln rho and u. The solver (FdSolver.cpp) owns one and
// refills the ghosts and the time step after a stroke; the loops are FdTools.hpp.
#include <memory>
#include <vector>

#include "sim/core/Grid.hpp"
#include "sim/core/Solver.hpp"
#include "sim/fd/FdConfig.hpp"
#include "sim/fd/FdTools.hpp"

namespace fluxview::fd {

// The fastest flow a stroke may leave, in units of the sound speed: sixth-order central
// differences capture no shocks, so a strongly supersonic flow steepens into one and the
// run blows up (docs/fd.md).
inline constexpr double kMaxStrokeMach = 2.0;

template <class T>
class FdSteering {
 public:
  void reset(BackendKind backend, const Grid& grid);
  std::vector<ToolSpec> tools(const FdConfig& c) const;
  // Applies a resolved call to the fields f (ln rho, ux, uy, uz; interiors); throws
  // SteeringError, changing nothing, for a stroke that reaches no cell or leaves a flow
  // faster than kMaxStrokeMach.
  ToolReport apply(const ToolCall& call, T* const* f, const FieldLayout& l, const FdConfig& c);

 private:
  std::unique_ptr<FdTools<T>> tools_;
  Grid grid_;
};

}  // namespace fluxview::fd
