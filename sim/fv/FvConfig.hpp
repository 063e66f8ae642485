#pragma once
// An fv run's parameters, read once from the ParamSet (FvFamily.cpp, where the keys are
// spelled).
#include <array>
#include <cstdint>
#include <string>

#include "sim/core/CommonConfig.hpp"
#include "sim/fv/EulerCharacteristics.hpp"
#include "sim/fv/FvPhysics.hpp"
#include "sim/fv/FvStep.hpp"
#include "sim/fv/TimeSteppers.hpp"

namespace fluxview::fv {

// fv.init: one function each in FvInitial.cpp.
enum class FvInit {
  uniform,
  shock_tube,
  blast,
  kelvin_helmholtz,
  isentropic_vortex,
  smooth_wave,
  double_mach,
  orszag_tang,
  alfven_wave,
  mhd_vortex,
  turbulence
};

// fv.reconstruction: what a stage builds in each cell from the averages around it.
enum class Reconstruction { constant, plm, weno2, weno3, weno4, wenoz5 };

// fv.cuda_tile: rows of the device's block tile; automatic takes the faster of each
// precision on an H200 (8 rows for float, 4 for double).
enum class TileChoice { automatic, rows8, rows4 };

// The two states of a shock tube.
struct TubeSide {
  double rho = 1, p = 1, u = 0;  // u along the tube's axis
  // MHD: the magnetic field across the tube, along axes (axis+1)%3 and (axis+2)%3.
  std::array<double, 2> bt{0, 0};
};

struct FvConfig {
  GridConfig grid;
  ParallelConfig parallel;
  Physics<double> physics;  // gamma, theta, reconstruction, Riemann solver, floors
  double cfl = 0.4;
  Reconstruction reconstruction = Reconstruction::plm;
  TimeStepper time = TimeStepper::rk2;
  // fv.variables with auto resolved: primitive for constant and plm (the second-order
  // scheme of Wang et al.), characteristic for the WENO orders.
  ReconstructionVariables variables = ReconstructionVariables::primitive;
  bool allow_scheme_change = false;  // a restart may continue with another scheme
  bool time_passes = false;          // time each pass of a step (run facts)
  // Physical boundary of each face, [axis][0: min, 1: max]: outflow, reflecting or
  // periodic (the fallbacks fv.bc_<axis><side> -> fv.bc_<axis> -> fv.bc resolved).
  std::array<std::array<Bc, 2>, 3> bc{};
  bool tracer = false;
  // fv.physics = mhd: ideal MHD with GLM cleaning (MhdState.hpp); cleaning false is
  // fv.mhd_divergence = none (c_h = 0); glm_alpha the damping of psi, fv.glm_alpha.
  bool mhd = false;
  bool cleaning = true;
  double glm_alpha = 0.1;
  TileChoice tile = TileChoice::automatic;
  FvInit init = FvInit::uniform;
  // uniform and blast: the background
  double ambient_rho = 1, ambient_p = 1;
  std::array<double, 3> velocity{0, 0, 0};
  std::array<double, 3> field{0, 0, 0};  // MHD: the background magnetic field
  double tube_bn = 0;                    // MHD shock tube: B along the tube's axis
  // MHD circularly polarised Alfven wave along tube_axis (AlfvenWave in MhdProblems.hpp)
  double alfven_b0 = 1, alfven_amplitude = 0.1;
  // shock tube
  int tube_axis = 0;       // 0, 1, 2
  double interface = 0.5;  // fraction of the box along the axis
  TubeSide left, right{0.125, 0.1, 0};
  // a ripple on the right density, rho_R (1 + a sin(k (x - lx/2))) (Shu & Osher 1989)
  double ripple_amplitude = 0, ripple_wavenumber = 5;
  // blast (Sedov-Taylor) and cloud; centres as fractions of the box
  double blast_energy = 1, blast_radius = 0.1;
  std::array<double, 3> blast_centre{0.5, 0.5, 0.5};
  double cloud_radius = 0, cloud_density_ratio = 10;
  std::array<double, 3> cloud_centre{0.75, 0.5, 0.5};
  // Kelvin-Helmholtz shear layer in the x-y plane
  double kh_rho_inner = 2, kh_rho_outer = 1, kh_shear = 0.5, kh_p = 2.5;
  double kh_amplitude = 0.01, kh_band = 0.25, kh_seed_width = 0.05;
  std::int64_t kh_modes = 2;
  // isentropic vortex (Balsara & Shu 2000, sec. IV.b) and MHD vortex (Balsara 2004, sec.
  // 6), axis along z, centre as fractions; the MHD vortex's field strength mu
  double vortex_strength = 5, vortex_field = 1;
  std::array<double, 2> vortex_centre{0.5, 0.5};
  // smooth wave: rho = ambient_rho (1 + a sin(2 pi modes x_axis / l_axis)), axis tube_axis
  double wave_amplitude = 0.2;
  std::int64_t wave_modes = 1;
  // turbulence: a random velocity of rms Mach number turbulence_mach (TurbulentVelocity.hpp)
  double turbulence_mach = 10, turbulence_slope = -2;
  std::int64_t turbulence_kmin = 1, turbulence_kmax = 8, turbulence_seed = 1;
};

// The degree of the polynomial a reconstruction gives each cell (0 constant, 1 plm and
// weno2, 2 weno3, 3 weno4); wenoz5 gives face values only (-1).
int reconstruction_degree(Reconstruction r);

// Ghost layers a scheme reads: a face needs the polynomials (or face values) of the cells
// on both sides, so the stencil's reach plus one. plm, weno2 and constant 2, weno3 and wenoz5 3,
// weno4 4.
int ghost_width(Reconstruction r);

// The path a stage of this scheme takes (StagePath, FvStep.hpp).
StagePath stage_path(const FvConfig& c);

// The scheme in words, for run facts and checkpoints: "weno4 characteristic, hllc, ader".
std::string scheme_name(const FvConfig& c);

// A checkpoint written by the scheme `written` (as scheme_name spells it) continues this
// run only when it is this run's scheme, the Riemann solver aside (it may change while the
// run goes, and a restart gets it back from the journal), or when fv.allow_scheme_change
// asks for it; otherwise this throws, naming both schemes and the way out.
void check_checkpoint_scheme(const std::string& written, const FvConfig& c);

FvConfig parse_config(const ParamSet& p);

// The physics in the solver's precision.
template <class T>
Physics<T> physics_in(const FvConfig& c) {
  Physics<T> ph;
  ph.gamma = T(c.physics.gamma);
  ph.theta = T(c.physics.theta);
  ph.plm = c.physics.plm;
  ph.riemann = c.physics.riemann;
  ph.rho_floor = T(c.physics.rho_floor);
  ph.p_floor = T(c.physics.p_floor);
  return ph;
}

// As fv.riemann, fv.reconstruction, fv.time and fv.variables spell them.
const char* riemann_name(Riemann r);
const char* reconstruction_name(Reconstruction r);
const char* time_stepper_name(TimeStepper t);
const char* variables_name(ReconstructionVariables v);
const char* bc_name(Bc b);

}  // namespace fluxview::fv
