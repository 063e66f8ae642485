#pragma once
// The initial temperature of a heat run, built on the host (HeatSolver copies it to its
// backend): one function per value of heat.init, then the Dirichlet walls.
#include "sim/core/Field.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/heat/HeatConfig.hpp"

namespace fluxview::heat {

// Fills the interior of this rank's box (grid.offset says where it lies) by heat.init,
// and the ghost layer of every face on the global boundary with its wall temperature.
template <class T>
void fill_initial(Field<T>& f, const HeatConfig& c, const Grid& grid,
                  const parallel::LocalBox& box);

}  // namespace fluxview::heat
