#pragma once
// An fd run's parameters, read once from the ParamSet (FdFamily.cpp, where the keys are
// spelled).
#include <cstdint>

#include "sim/core/CommonConfig.hpp"
#include "sim/fd/FdStep.hpp"

namespace fluxview::fd {

// fd.init: one function each in FdInitial.cpp.
enum class FdInit { rest, sine, explosion, shear, random };

struct FdConfig {
  GridConfig grid;
  ParallelConfig parallel;
  double cs = 1;         // isothermal sound speed
  double nu = 5e-3;      // kinematic viscosity
  double rho0 = 1;       // background density
  double courant = 0.4;  // C of the automatic step
  double dt = 0;         // fixed step; 0: automatic
  Method method = Method::fast;
  FdInit init = FdInit::rest;
  double u0 = 1;              // velocity amplitude (sine, shear, random)
  std::int64_t k = 1;         // sine wavenumber, units of 2 pi / lx
  double u_ampl = 1;          // explosion peak velocity
  double r_shell = 0.8;       // explosion shell radius
  double d_shell = 0.2;       // explosion shell width
  double shear_width = 0.02;  // shear layer half-thickness, fraction of ly
  double perturb = 0.05;      // shear perturbation, fraction of u0
  bool forcing = false;
  double f0 = 0.02;           // forcing amplitude
  double kmin = 1, kmax = 2;  // forcing shell, units of 2 pi / L
  std::uint64_t seed = 1;
};

FdConfig parse_config(const ParamSet& p);

}  // namespace fluxview::fd
