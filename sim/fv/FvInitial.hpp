#pragma once
// The initial state of an fv run, built on the host (FvSolver copies it to its backend):
// one function per value of fv.init. The state is written conservative.
#include <vector>

#include "sim/core/Field.hpp"
#include "sim/core/Grid.hpp"
#include "sim/fv/AccuracyProblems.hpp"
#include "sim/fv/FvConfig.hpp"
#include "sim/fv/MhdProblems.hpp"

namespace fluxview::fv {

// Fills the interiors of the conservative fields (5, or 6 with the tracer; MHD 9 or 10) over this
// rank's box; grid.offset says where the box lies in the global grid.
template <class T>
void fill_initial(std::vector<Field<T>>& fields, const FvConfig& c, const Grid& grid);

// The exact solutions of fv.init = isentropic-vortex, smooth-wave and mhd-vortex for this
// run (the error diagnostics compare the state with them).
VortexSpec vortex_spec(const FvConfig& c);
MhdVortexSpec mhd_vortex_spec(const FvConfig& c);
WaveSpec wave_spec(const FvConfig& c);
// The wave of fv.init = alfven-wave for this run.
AlfvenWave alfven_wave(const FvConfig& c);

}  // namespace fluxview::fv
