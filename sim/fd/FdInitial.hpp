#pragma once
// The initial state of an fd run, built on the host (FdSolver copies it to its backend):
// one function per value of fd.init.
#include "sim/core/Field.hpp"
#include "sim/core/Grid.hpp"
#include "sim/fd/FdConfig.hpp"

namespace fluxview::fd {

// Fills the interiors of ln rho, ux, uy, uz (fields[kLnrho] ... fields[kUz]) over this
// rank's box; grid.offset says where the box lies in the global grid.
template <class T>
void fill_initial(Field<T>* fields, const FdConfig& c, const Grid& grid);

}  // namespace fluxview::fd
