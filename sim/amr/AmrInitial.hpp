#pragma once
// The fv initial conditions evaluated cell by cell at any resolution, for the blocks of
// the adaptive mesh (each level samples them at its own cell size).
//
// TRANSITIONAL: this restates FvSolver::fill_initial (sim/fv/FvSolver.cpp) for a single
// cell, because the uniform solver keeps its initial conditions inside the solver class.
// When the fv initial conditions move into their own files (the execution-layer change),
// this file is replaced by a call to them.
#include <array>

#include "sim/core/Parameter.hpp"
#include "sim/fv/FvPhysics.hpp"

namespace fluxview::amr {

class InitialCondition {
 public:
  // `box` the domain lengths; `active` the axes with more than one cell.
  InitialCondition(const ParamSet& p, std::array<double, 3> box, std::array<bool, 3> active);
  // Conservative state (rho, rho u, E, rho c) of the cell centred at x with widths dx.
  fv::State<double, 6> cell(const std::array<double, 3>& x, const std::array<double, 3>& dx) const;

 private:
  double inside_fraction(const std::array<double, 3>& x, const std::array<double, 3>& dx,
                         const double c[3], double r) const;
  const ParamSet* p_;
  std::array<double, 3> box_;
  std::array<bool, 3> active_;
};

}  // namespace fluxview::amr
