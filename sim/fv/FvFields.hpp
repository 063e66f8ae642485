#pragma once
// The fields besides rho that the fv family's views derive from the state, with their
// units and meanings: the table the uniform grid (FvSolver.cpp) and the adaptive mesh
// (sim/amr/AmrFvSolver.cpp) both list and look names up in.
#include "sim/fv/FvStep.hpp"
#include "sim/fv/StateLayout.hpp"

namespace fluxview::fv {

struct DerivedInfo {
  const char* name;
  const char* unit;
  const char* description;
  Derived what;
};

// In Derived order (kDerived[int(what)] is what's entry).
inline constexpr DerivedInfo kDerived[] = {
    {"ux", "m/s", "velocity x", Derived::ux},
    {"uy", "m/s", "velocity y", Derived::uy},
    {"uz", "m/s", "velocity z", Derived::uz},
    {"p", "Pa", "pressure (of the gas)", Derived::p},
    {"tracer", "", "passive tracer concentration c (1: cloud or band material)", Derived::tracer},
    {"bx", "Pa^1/2", "magnetic field x", Derived::bx},
    {"by", "Pa^1/2", "magnetic field y", Derived::by},
    {"bz", "Pa^1/2", "magnetic field z", Derived::bz},
    {"b_magnitude", "Pa^1/2", "magnetic field strength |B|", Derived::b_magnitude},
    {"magnetic_pressure", "Pa", "magnetic pressure B^2/2", Derived::magnetic_pressure},
    {"plasma_beta", "", "plasma beta p / (B^2/2) (1e30 where B = 0)", Derived::plasma_beta},
    {"psi", "Pa^1/2 m/s", "GLM cleaning scalar psi", Derived::psi},
    {"divergence_b", "Pa^1/2/m", "div B by central differences (0 for an exact field)",
     Derived::divergence_b},
};

// Whether a run with `nv` variables has the field: the tracer's with a tracer, MHD's for MHD.
constexpr bool has_derived_field(Derived what, int nv) {
  if (what == Derived::tracer) return tracer_variables(nv);
  return int(what) < int(Derived::bx) || mhd_variables(nv);
}

}  // namespace fluxview::fv
