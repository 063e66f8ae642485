// The fv family: parameters (every value of a scenario is one of these, and this is the
// only place their keys are spelled), the typed configuration read from them, the checks
// across parameters, and the factory.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "sim/amr/AmrParams.hpp"
#include "sim/amr/MeshSelectingSolver.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Steering.hpp"
#include "sim/fv/FvConfig.hpp"
#include "sim/fv/FvSolver.hpp"

namespace fluxview::fv {

namespace {

std::vector<ParamSpec> fv_params() {
  const double inf = INFINITY;
  const std::vector<std::string> bcs = {"outflow", "reflecting", "periodic"};
  const std::vector<std::string> inherit = {"inherit", "outflow", "reflecting", "periodic"};
  std::vector<ParamSpec> p = {
      real_param("fv.gamma", 1.4, "", 1, 10, "adiabatic index of the ideal gas (> 1)", true),
      real_param("fv.cfl", 0.4, "", 0, 1, "Courant number: dt = cfl / max sum_a (|u_a| + c) / dx_a",
                 true),
      choice_param("fv.reconstruction", "plm",
                   {"constant", "plm", "weno2", "weno3", "weno4", "wenoz5"},
                   "what a stage builds in each cell: constant (first order), plm (second: "
                   "theta-minmod, eqs. 9-11), weno2, weno3, weno4 (second, third, fourth: "
                   "finite-volume WENO of whole polynomials; weno2 keeps smooth extrema that plm "
                   "clips), wenoz5 (WENO-Z face values, fifth order along a line)"),
      choice_param("fv.time", "rk2", {"rk2", "ssprk3", "rk4", "ader"},
                   "time stepper: rk2 (TVD RK2), ssprk3 (SSP RK3), rk4 (SSP RK(5,4), five "
                   "stages), ader (predictor in each cell, one corrector step, at the order of "
                   "the reconstruction)"),
      choice_param("fv.variables", "auto", {"auto", "characteristic", "primitive", "conserved"},
                   "variables a reconstruction works in, linearised about each cell: auto is "
                   "primitive for constant and plm, characteristic for the WENO orders "
                   "(primitive for mhd, whose characteristic variables are an option)"),
      real_param("fv.theta", 1.5, "", 0, 2,
                 "theta of the minmod limiter: 0 first order, 1 minmod, 2 monotonised central"),
      choice_param("fv.physics", "hydro", {"hydro", "mhd"},
                   "equations: hydro (compressible Euler) or mhd (ideal MHD with GLM "
                   "divergence cleaning, Wang et al. eqs. 14-16; every reconstruction, time "
                   "stepper and fv.variables on the uniform mesh; plm, constant or wenoz5 with "
                   "rk2, ssprk3 or rk4 on the adaptive mesh, as hydro)"),
      choice_param("fv.riemann", "auto", {"auto", "llf", "hll", "hlle", "hllc", "hlli", "hlld"},
                   "Riemann solver: llf (eq. 12), hll (Davis speeds; for mhd the fast speeds), "
                   "hlle (Einfeldt speeds; for mhd as hll), hllc (with contact), hlli (HLLE with "
                   "the intermediate waves restored), hlld (mhd: Miyoshi & Kusano 2005); auto is "
                   "hllc for hydro and hlld for mhd"),
      choice_param("fv.mhd_divergence", "glm", {"glm", "none"},
                   "mhd: how div B is kept small: glm (hyperbolic cleaning, Dedner et al. 2002, "
                   "with c_h the fastest signal speed the step's CFL allows) or none (no "
                   "cleaning: psi stays 0)"),
      real_param("fv.glm_alpha", 0.1, "", 0, 1,
                 "mhd: damping of psi, which decays as exp(-alpha c_h t / dx_min) besides "
                 "propagating (alpha = dx c_h / c_p^2, Mignone & Tzeferacos 2010); 0 none"),
      real_param("fv.rho_floor", 1e-10, "kg/m^3", 0, inf, "density floor", true),
      real_param("fv.p_floor", 1e-12, "Pa", 0, inf, "pressure floor", true),
      choice_param("fv.cuda_tile", "auto", {"auto", "32x8", "32x4"},
                   "CUDA: cells of an x-y tile per block (auto: 32x8 for float, 32x4 for double, "
                   "the faster of each on an H200)"),
      bool_param("fv.tracer", false, "carry a passive tracer (conserved as rho c)"),
      bool_param("fv.allow_scheme_change", false,
                 "restart: continue a checkpoint written with another fv.reconstruction, "
                 "fv.time, fv.riemann or fv.variables (refused otherwise)"),
      bool_param("fv.time_passes", false,
                 "time each pass of a step (waiting for the device after each) and report the "
                 "ADER predictor's share of the step in run facts"),
      choice_param("fv.bc", "outflow", bcs, "boundary condition of every face not set otherwise"),
  };
  for (const char* axis : {"x", "y", "z"}) {
    p.push_back(choice_param(
        std::string("fv.bc_") + axis, "inherit", inherit,
        std::string("boundary condition of both ") + axis + " faces (inherit: fv.bc)"));
    for (const char* side : {"min", "max"})
      p.push_back(choice_param(std::string("fv.bc_") + axis + side, "inherit", inherit,
                               std::string("boundary condition of the ") + axis + side +
                                   " face (inherit: fv.bc_" + axis + ")"));
  }
  const std::vector<ParamSpec> more = {
      choice_param(
          "fv.init", "uniform",
          {"uniform", "shock-tube", "blast", "kelvin-helmholtz", "isentropic-vortex", "smooth-wave",
           "double-mach", "orszag-tang", "alfven-wave", "mhd-vortex", "turbulence"},
          "initial condition (orszag-tang: the mhd vortex of Orszag & Tang 1979 in the "
          "x-y plane, set up as in Athena's test: gamma 5/3, the box 1 x 1; "
          "alfven-wave: the mhd circularly polarised Alfven wave along fv.axis, "
          "exact cell averages; mhd-vortex: the mhd vortex of Balsara 2004 about z, "
          "exact cell averages; turbulence: uniform rho, p and B with a random "
          "velocity, fv.turbulence_*)"),
      // uniform and blast background
      real_param("fv.ambient_rho", 1, "kg/m^3", 0, inf, "background density", true),
      real_param("fv.ambient_p", 1, "Pa", 0, inf, "background pressure", true),
      real_param("fv.ux", 0, "m/s", -inf, inf, "background velocity x (uniform, blast)"),
      real_param("fv.uy", 0, "m/s", -inf, inf, "background velocity y (uniform, blast)"),
      real_param("fv.uz", 0, "m/s", -inf, inf, "background velocity z (uniform, blast)"),
      real_param("fv.bx", 0, "Pa^1/2", -inf, inf,
                 "mhd: background magnetic field x (uniform, blast, turbulence; B^2/2 is its "
                 "pressure)"),
      real_param("fv.by", 0, "Pa^1/2", -inf, inf, "mhd: background magnetic field y"),
      real_param("fv.bz", 0, "Pa^1/2", -inf, inf, "mhd: background magnetic field z"),
      // shock tube
      choice_param("fv.axis", "x", {"x", "y", "z"},
                   "shock tube: axis along which the states differ"),
      real_param("fv.interface", 0.5, "", 0, 1,
                 "shock tube: interface position as a fraction of the box"),
      real_param("fv.left_rho", 1, "kg/m^3", 0, inf, "shock tube: left density", true),
      real_param("fv.left_p", 1, "Pa", 0, inf, "shock tube: left pressure", true),
      real_param("fv.left_u", 0, "m/s", -inf, inf, "shock tube: left velocity along the axis"),
      real_param("fv.right_rho", 0.125, "kg/m^3", 0, inf, "shock tube: right density", true),
      real_param("fv.right_p", 0.1, "Pa", 0, inf, "shock tube: right pressure", true),
      real_param("fv.right_u", 0, "m/s", -inf, inf, "shock tube: right velocity along the axis"),
      real_param("fv.tube_bn", 0, "Pa^1/2", -inf, inf,
                 "mhd shock tube: magnetic field along the axis, both sides"),
      real_param("fv.left_bt1", 0, "Pa^1/2", -inf, inf,
                 "mhd shock tube: left field along the next axis (y for a tube along x)"),
      real_param("fv.left_bt2", 0, "Pa^1/2", -inf, inf,
                 "mhd shock tube: left field along the axis after (z for a tube along x)"),
      real_param("fv.right_bt1", 0, "Pa^1/2", -inf, inf, "mhd shock tube: right field, next axis"),
      real_param("fv.right_bt2", 0, "Pa^1/2", -inf, inf, "mhd shock tube: right field, axis after"),
      real_param("fv.ripple_amplitude", 0, "", 0, 1,
                 "shock tube: right density rho_R (1 + a sin(k (x - l/2))), a < 1 (Shu-Osher)"),
      real_param("fv.ripple_wavenumber", 5, "1/m", 0, inf, "shock tube: k of the ripple"),
      // blast (Sedov-Taylor) and cloud
      real_param("fv.blast_energy", 1, "J", 0, inf,
                 "blast: energy E, deposited as p = 3 (gamma-1) E / (4 pi r0^3) inside r0", true),
      real_param("fv.blast_radius", 0.1, "m", 0, inf, "blast: radius r0 of the explosion region",
                 true),
      real_param("fv.blast_x", 0.5, "", 0, 1, "blast: centre x as a fraction of lx"),
      real_param("fv.blast_y", 0.5, "", 0, 1, "blast: centre y as a fraction of ly"),
      real_param("fv.blast_z", 0.5, "", 0, 1, "blast: centre z as a fraction of lz"),
      real_param("fv.cloud_radius", 0, "m", 0, inf, "blast: radius of a dense cloud (0: none)"),
      real_param("fv.cloud_density_ratio", 10, "", 0, inf,
                 "blast: cloud density over background (pressure equilibrium)", true),
      real_param("fv.cloud_x", 0.75, "", 0, 1, "blast: cloud centre x as a fraction of lx"),
      real_param("fv.cloud_y", 0.5, "", 0, 1, "blast: cloud centre y as a fraction of ly"),
      real_param("fv.cloud_z", 0.5, "", 0, 1, "blast: cloud centre z as a fraction of lz"),
      // Kelvin-Helmholtz shear layer (x-y plane)
      real_param("fv.kh_rho_inner", 2, "kg/m^3", 0, inf, "KH: density of the middle band", true),
      real_param("fv.kh_rho_outer", 1, "kg/m^3", 0, inf, "KH: density outside the band", true),
      real_param("fv.kh_shear", 0.5, "m/s", 0, inf, "KH: band moves at +u, the outside at -u"),
      real_param("fv.kh_p", 2.5, "Pa", 0, inf, "KH: uniform pressure", true),
      real_param("fv.kh_amplitude", 0.01, "m/s", 0, inf, "KH: amplitude of the seed uy"),
      int_param("fv.kh_modes", 2, "", 1, 1024, "KH: wavelengths of the seed across lx"),
      real_param("fv.kh_band", 0.25, "", 0, 0.5,
                 "KH: half-width of the middle band as a fraction of ly", true),
      real_param("fv.kh_seed_width", 0.05, "", 0, 1,
                 "KH: Gaussian width of the seed about each interface, fraction of ly", true),
      // isentropic vortex and smooth wave (accuracy tests with an exact solution)
      real_param("fv.vortex_strength", 5, "", 0, 10,
                 "isentropic vortex: strength beta (Balsara & Shu 2000: 5); mhd vortex: its "
                 "velocity's strength kappa (Balsara 2004: 1)"),
      real_param("fv.vortex_field", 1, "Pa^1/2", 0, 10,
                 "mhd vortex: its field's strength mu (Balsara 2004: 1)"),
      real_param("fv.vortex_x", 0.5, "", 0, 1,
                 "isentropic and mhd vortex: centre x, fraction of lx"),
      real_param("fv.vortex_y", 0.5, "", 0, 1,
                 "isentropic and mhd vortex: centre y, fraction of ly"),
      real_param("fv.wave_amplitude", 0.2, "", 0, 1,
                 "smooth wave: density ambient_rho (1 + a sin(2 pi m x / l)) along fv.axis, a < 1"),
      int_param("fv.wave_modes", 1, "", 1, 1024,
                "smooth wave and Alfven wave: wavelengths m across the box"),
      real_param("fv.alfven_b0", 1, "Pa^1/2", 0, inf,
                 "mhd Alfven wave: the field along fv.axis (the wave runs at B0 / sqrt(rho))",
                 true),
      real_param("fv.alfven_amplitude", 0.1, "Pa^1/2", 0, inf,
                 "mhd Alfven wave: amplitude of the field across the axis"),
      // decaying turbulence (Wang et al. 2010 sec. 7.4)
      real_param("fv.turbulence_mach", 10, "", 0, 1000,
                 "turbulence: rms speed of the random velocity over the sound speed of "
                 "ambient_rho and ambient_p"),
      real_param("fv.turbulence_slope", -2, "", -10, 10,
                 "turbulence: the spectrum's slope, E(k) ~ k^slope shell-integrated (-2: "
                 "Burgers-like)"),
      int_param("fv.turbulence_kmin", 1, "", 1, 1024,
                "turbulence: the smallest |m| of the modes, in wavelengths across the box"),
      int_param("fv.turbulence_kmax", 8, "", 1, 64,
                "turbulence: the largest |m|; every active axis needs more than 2 kmax cells"),
      int_param("fv.turbulence_seed", 1, "", 0, 2147483647,
                "turbulence: seed of the random amplitudes (the same field on any rank count)"),
  };
  p.insert(p.end(), more.begin(), more.end());
  const std::vector<ParamSpec> amr = amr::amr_params();  // fv.mesh, fv.amr.*
  p.insert(p.end(), amr.begin(), amr.end());
  // What may change while the run goes (Solver::set_live): the scheme and its numbers
  // (a state that passes one scheme's step is a state for any), gamma (the conserved state
  // kept: each pressure scales by (gamma'-1)/(gamma-1)), and boundaries other than periodic
  // ones (FvSteering.cpp refuses a change of periodicity).
  std::vector<LiveRule> rules = {
      live_key("fv.gamma"),
      live_key("fv.cfl"),
      // The scheme's ghost width and state registers are allocated at Reset.
      fixed_key("fv.reconstruction", "the ghost layers its stencil needs are allocated at Reset"),
      fixed_key("fv.time", "the state registers of the time stepper are allocated at Reset"),
      fixed_key("fv.variables", "the scheme is set at Reset"),
      fixed_key("fv.allow_scheme_change", "read once, when a checkpoint is loaded"),
      fixed_key("fv.time_passes", "the pass timers are set up at Reset"),
      live_key("fv.theta"),
      live_key("fv.riemann"),
      live_key("fv.rho_floor"),
      live_key("fv.p_floor"),
      live_key("fv.cuda_tile"),
      fixed_key("fv.tracer", "the number of conserved fields is set at Reset"),
      fixed_key("fv.physics", "the number of conserved fields is set at Reset"),
      live_key("fv.mhd_divergence"),
      live_key("fv.glm_alpha"),
      live_key("fv.bc*"),
      fixed_key("fv.mesh", "the mesh (uniform or adaptive) is built at Reset"),
      fixed_key("fv.amr.*", "the adaptive mesh's blocks and levels are laid out at Reset"),
  };
  // The initial condition's keys, each named: a key added to fv later must say whether it
  // is live (mark_live refuses a key no rule names).
  for (const char* k :
       {"fv.init",        "fv.ambient_*", "fv.ux",       "fv.uy",      "fv.uz",
        "fv.axis",        "fv.interface", "fv.left_*",   "fv.right_*", "fv.tube_bn",
        "fv.bx",          "fv.by",        "fv.bz",       "fv.blast_*", "fv.cloud_*",
        "fv.kh_*",        "fv.ripple_*",  "fv.vortex_*", "fv.wave_*",  "fv.alfven_*",
        "fv.turbulence_*"})
    rules.push_back(fixed_key(k, kInitialConditionReason));
  mark_live(p, rules);
  return p;
}

// The boundary condition of one face ("outflow", "reflecting" or "periodic") after the
// fallbacks fv.bc_<axis><side> -> fv.bc_<axis> -> fv.bc. axis 0..2, side 0 (min) or 1 (max).
std::string resolved_bc(const ParamSet& p, int axis, int side) {
  const char* axes[3] = {"x", "y", "z"};
  const std::string face = std::string("fv.bc_") + axes[axis] + (side == 0 ? "min" : "max");
  const std::string both = std::string("fv.bc_") + axes[axis];
  if (p.get_string(face) != "inherit") return p.get_string(face);
  if (p.get_string(both) != "inherit") return p.get_string(both);
  return p.get_string("fv.bc");
}

// The combinations of fv.physics with the rest that are refused, each naming what is
// allowed.
void validate_physics(const ParamSet& p, const FvConfig& c) {
  const std::string riemann = p.get_string("fv.riemann");
  if (!c.mhd) {
    if (riemann == "hlld")
      throw ConfigError(
          "fv.riemann = hlld is a solver of the MHD equations and fv.physics = hydro; allowed "
          "with hydro: auto, llf, hll, hlle, hllc, hlli (or set fv.physics = mhd)");
    if (c.init == FvInit::orszag_tang || c.init == FvInit::alfven_wave ||
        c.init == FvInit::mhd_vortex)
      throw ConfigError("fv.init = " + p.get_string("fv.init") +
                        " is an MHD problem and fv.physics = hydro; set fv.physics = mhd");
    return;
  }
  if (riemann == "hllc" || riemann == "hlli")
    throw ConfigError("fv.riemann = " + riemann +
                      " solves the Euler equations and fv.physics = mhd; allowed with mhd: "
                      "auto (hlld), hlld, hll, hlle, llf");
  if (c.init == FvInit::double_mach)
    throw ConfigError(
        "fv.init = double-mach with fv.physics = mhd: the double Mach reflection's boundary "
        "states are hydrodynamic; allowed with mhd: every other fv.init");
  if (c.init == FvInit::orszag_tang && (p.get_int("grid.nx") == 1 || p.get_int("grid.ny") == 1))
    throw ConfigError("fv.init = orszag-tang needs grid.nx > 1 and grid.ny > 1 (an x-y problem)");
}

void validate(const ParamSet& p) {
  const char* axes[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    const std::string lo = resolved_bc(p, a, 0), hi = resolved_bc(p, a, 1);
    if ((lo == "periodic") != (hi == "periodic"))
      throw ConfigError(std::string("fv.bc_") + axes[a] + "min = " + lo + ", fv.bc_" + axes[a] +
                        "max = " + hi + ": periodic must be set on both " + axes[a] +
                        " faces or on neither");
  }
  const FvConfig c = parse_config(p);
  const std::string rec = p.get_string("fv.reconstruction");
  // A stencil reads ghost_width cells beyond the edge; an active axis must hold them.
  const int cells_min = std::max(2, ghost_width(c.reconstruction));
  const char* nk[3] = {"grid.nx", "grid.ny", "grid.nz"};
  for (int a = 0; a < 3; ++a) {
    const auto n = p.get_int(nk[a]);
    if (n > 1 && n < cells_min)
      throw ConfigError(std::string(nk[a]) + " = " + std::to_string(n) +
                        ": fv.reconstruction = " + rec + " reads " + std::to_string(cells_min) +
                        " ghost cells, so an active axis needs at least " +
                        std::to_string(cells_min) + " cells (or 1 to drop the axis)");
  }
  if (c.time == TimeStepper::ader && c.reconstruction == Reconstruction::wenoz5)
    throw ConfigError(
        "fv.time = ader with fv.reconstruction = wenoz5: the ADER predictor evolves a cell's "
        "polynomial and WENO-Z gives face values only; allowed: fv.time = rk2, ssprk3 or rk4 "
        "with wenoz5, or ader with constant, plm, weno2, weno3 or weno4");
  if ((c.init == FvInit::isentropic_vortex || c.init == FvInit::double_mach ||
       c.init == FvInit::mhd_vortex) &&
      (p.get_int("grid.nx") == 1 || p.get_int("grid.ny") == 1))
    throw ConfigError("fv.init = " + p.get_string("fv.init") +
                      " needs grid.nx > 1 and grid.ny > 1 (an x-y problem)");
  if ((c.init == FvInit::smooth_wave || c.init == FvInit::alfven_wave) &&
      p.get_int("grid.n" + p.get_string("fv.axis")) == 1)
    throw ConfigError("fv.axis = " + p.get_string("fv.axis") + " but grid.n" +
                      p.get_string("fv.axis") +
                      " = 1 (a reduced axis); the wave needs an axis with more than one cell");
  if (c.init == FvInit::turbulence) {
    if (c.turbulence_kmin > c.turbulence_kmax)
      throw ConfigError("fv.turbulence_kmin = " + std::to_string(c.turbulence_kmin) +
                        " > fv.turbulence_kmax = " + std::to_string(c.turbulence_kmax) +
                        ": no modes; allowed: kmin <= kmax");
    for (int a = 0; a < 3; ++a) {
      const auto n = p.get_int(nk[a]);
      if (n > 1 && n <= 2 * c.turbulence_kmax)
        throw ConfigError(
            std::string(nk[a]) + " = " + std::to_string(n) +
            " cannot resolve fv.turbulence_kmax = " + std::to_string(c.turbulence_kmax) +
            " wavelengths across the box; allowed: more than 2 kmax cells (or "
            "lower fv.turbulence_kmax)");
    }
  }
  if (p.get_string("fv.init") == "shock-tube") {
    const std::string ax = p.get_string("fv.axis");
    const std::string nkey = "grid.n" + ax;
    if (p.get_int(nkey) == 1)
      throw ConfigError("fv.axis = " + ax + " but " + nkey +
                        " = 1 (a reduced axis); allowed: an axis with more than one cell");
  }
  if (p.get_string("fv.init") == "kelvin-helmholtz" &&
      (p.get_int("grid.nx") == 1 || p.get_int("grid.ny") == 1))
    throw ConfigError(
        "fv.init = kelvin-helmholtz needs grid.nx > 1 and grid.ny > 1 (an x-y shear layer)");
  validate_physics(p, c);
  amr::validate_amr(p);
}

Bc parse_bc(const std::string& s) {
  if (s == "periodic") return Bc::periodic;
  if (s == "reflecting") return Bc::reflecting;
  return Bc::outflow;
}

Riemann parse_riemann(const std::string& s, bool mhd) {
  if (s == "auto") return mhd ? Riemann::hlld : Riemann::hllc;
  if (s == "hlld") return Riemann::hlld;
  if (s == "hll") return Riemann::hll;
  if (s == "llf") return Riemann::llf;
  if (s == "hlle") return Riemann::hlle;
  if (s == "hlli") return Riemann::hlli;
  return Riemann::hllc;
}

Reconstruction parse_reconstruction(const std::string& s) {
  if (s == "constant") return Reconstruction::constant;
  if (s == "weno2") return Reconstruction::weno2;
  if (s == "weno3") return Reconstruction::weno3;
  if (s == "weno4") return Reconstruction::weno4;
  if (s == "wenoz5") return Reconstruction::wenoz5;
  return Reconstruction::plm;
}

TimeStepper parse_time(const std::string& s) {
  if (s == "ssprk3") return TimeStepper::ssprk3;
  if (s == "rk4") return TimeStepper::rk4;
  if (s == "ader") return TimeStepper::ader;
  return TimeStepper::rk2;
}

FvInit parse_init(const std::string& s) {
  if (s == "shock-tube") return FvInit::shock_tube;
  if (s == "blast") return FvInit::blast;
  if (s == "kelvin-helmholtz") return FvInit::kelvin_helmholtz;
  if (s == "isentropic-vortex") return FvInit::isentropic_vortex;
  if (s == "smooth-wave") return FvInit::smooth_wave;
  if (s == "double-mach") return FvInit::double_mach;
  if (s == "orszag-tang") return FvInit::orszag_tang;
  if (s == "alfven-wave") return FvInit::alfven_wave;
  if (s == "mhd-vortex") return FvInit::mhd_vortex;
  if (s == "turbulence") return FvInit::turbulence;
  return FvInit::uniform;
}

}  // namespace

FvConfig parse_config(const ParamSet& p) {
  FvConfig c;
  c.grid = grid_config(p);
  c.parallel = parallel_config(p);
  c.physics.gamma = p.get_real("fv.gamma");
  c.physics.theta = p.get_real("fv.theta");
  c.reconstruction = parse_reconstruction(p.get_string("fv.reconstruction"));
  c.physics.plm = c.reconstruction != Reconstruction::constant;
  c.mhd = p.get_string("fv.physics") == "mhd";
  c.cleaning = p.get_string("fv.mhd_divergence") == "glm";
  c.glm_alpha = p.get_real("fv.glm_alpha");
  c.physics.riemann = parse_riemann(p.get_string("fv.riemann"), c.mhd);
  c.time = parse_time(p.get_string("fv.time"));
  const std::string& vars = p.get_string("fv.variables");
  const bool second_order =
      c.reconstruction == Reconstruction::constant || c.reconstruction == Reconstruction::plm;
  c.variables = vars == "characteristic" ? ReconstructionVariables::characteristic
                : vars == "primitive"    ? ReconstructionVariables::primitive
                : vars == "conserved"    ? ReconstructionVariables::conserved
                : second_order || c.mhd  ? ReconstructionVariables::primitive
                                         : ReconstructionVariables::characteristic;
  c.allow_scheme_change = p.get_bool("fv.allow_scheme_change");
  c.time_passes = p.get_bool("fv.time_passes");
  c.physics.rho_floor = p.get_real("fv.rho_floor");
  c.physics.p_floor = p.get_real("fv.p_floor");
  c.cfl = p.get_real("fv.cfl");
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) c.bc[a][side] = parse_bc(resolved_bc(p, a, side));
  c.tracer = p.get_bool("fv.tracer");
  const std::string& tile = p.get_string("fv.cuda_tile");
  c.tile = tile == "32x8"   ? TileChoice::rows8
           : tile == "32x4" ? TileChoice::rows4
                            : TileChoice::automatic;
  c.init = parse_init(p.get_string("fv.init"));
  c.ambient_rho = p.get_real("fv.ambient_rho");
  c.ambient_p = p.get_real("fv.ambient_p");
  c.velocity = {p.get_real("fv.ux"), p.get_real("fv.uy"), p.get_real("fv.uz")};
  c.field = {p.get_real("fv.bx"), p.get_real("fv.by"), p.get_real("fv.bz")};
  c.tube_bn = p.get_real("fv.tube_bn");
  c.tube_axis = p.get_string("fv.axis")[0] - 'x';
  c.interface = p.get_real("fv.interface");
  c.left = {p.get_real("fv.left_rho"),
            p.get_real("fv.left_p"),
            p.get_real("fv.left_u"),
            {p.get_real("fv.left_bt1"), p.get_real("fv.left_bt2")}};
  c.right = {p.get_real("fv.right_rho"),
             p.get_real("fv.right_p"),
             p.get_real("fv.right_u"),
             {p.get_real("fv.right_bt1"), p.get_real("fv.right_bt2")}};
  c.ripple_amplitude = p.get_real("fv.ripple_amplitude");
  c.ripple_wavenumber = p.get_real("fv.ripple_wavenumber");
  c.blast_energy = p.get_real("fv.blast_energy");
  c.blast_radius = p.get_real("fv.blast_radius");
  c.blast_centre = {p.get_real("fv.blast_x"), p.get_real("fv.blast_y"), p.get_real("fv.blast_z")};
  c.cloud_radius = p.get_real("fv.cloud_radius");
  c.cloud_density_ratio = p.get_real("fv.cloud_density_ratio");
  c.cloud_centre = {p.get_real("fv.cloud_x"), p.get_real("fv.cloud_y"), p.get_real("fv.cloud_z")};
  c.kh_rho_inner = p.get_real("fv.kh_rho_inner");
  c.kh_rho_outer = p.get_real("fv.kh_rho_outer");
  c.kh_shear = p.get_real("fv.kh_shear");
  c.kh_p = p.get_real("fv.kh_p");
  c.kh_amplitude = p.get_real("fv.kh_amplitude");
  c.kh_modes = p.get_int("fv.kh_modes");
  c.kh_band = p.get_real("fv.kh_band");
  c.kh_seed_width = p.get_real("fv.kh_seed_width");
  c.vortex_strength = p.get_real("fv.vortex_strength");
  c.vortex_field = p.get_real("fv.vortex_field");
  c.vortex_centre = {p.get_real("fv.vortex_x"), p.get_real("fv.vortex_y")};
  c.wave_amplitude = p.get_real("fv.wave_amplitude");
  c.wave_modes = p.get_int("fv.wave_modes");
  c.alfven_b0 = p.get_real("fv.alfven_b0");
  c.alfven_amplitude = p.get_real("fv.alfven_amplitude");
  c.turbulence_mach = p.get_real("fv.turbulence_mach");
  c.turbulence_slope = p.get_real("fv.turbulence_slope");
  c.turbulence_kmin = p.get_int("fv.turbulence_kmin");
  c.turbulence_kmax = p.get_int("fv.turbulence_kmax");
  c.turbulence_seed = p.get_int("fv.turbulence_seed");
  return c;
}

const char* riemann_name(Riemann r) {
  switch (r) {
    case Riemann::llf:
      return "llf";
    case Riemann::hll:
      return "hll";
    case Riemann::hlle:
      return "hlle";
    case Riemann::hlli:
      return "hlli";
    case Riemann::hlld:
      return "hlld";
    case Riemann::hllc:
      break;
  }
  return "hllc";
}

const char* reconstruction_name(Reconstruction r) {
  switch (r) {
    case Reconstruction::constant:
      return "constant";
    case Reconstruction::weno2:
      return "weno2";
    case Reconstruction::weno3:
      return "weno3";
    case Reconstruction::weno4:
      return "weno4";
    case Reconstruction::wenoz5:
      return "wenoz5";
    case Reconstruction::plm:
      break;
  }
  return "plm";
}

const char* time_stepper_name(TimeStepper t) {
  switch (t) {
    case TimeStepper::ssprk3:
      return "ssprk3";
    case TimeStepper::rk4:
      return "rk4";
    case TimeStepper::ader:
      return "ader";
    case TimeStepper::rk2:
      break;
  }
  return "rk2";
}

const char* variables_name(ReconstructionVariables v) {
  switch (v) {
    case ReconstructionVariables::conserved:
      return "conserved";
    case ReconstructionVariables::characteristic:
      return "characteristic";
    case ReconstructionVariables::primitive:
      break;
  }
  return "primitive";
}

int reconstruction_degree(Reconstruction r) {
  switch (r) {
    case Reconstruction::constant:
      return 0;
    case Reconstruction::weno2:
      return 1;
    case Reconstruction::weno3:
      return 2;
    case Reconstruction::weno4:
      return 3;
    case Reconstruction::wenoz5:
      return -1;
    case Reconstruction::plm:
      break;
  }
  return 1;
}

int ghost_width(Reconstruction r) {
  return r == Reconstruction::wenoz5 ? 3 : std::max(2, reconstruction_degree(r) + 1);
}

StagePath stage_path(const FvConfig& c) {
  if (c.reconstruction == Reconstruction::wenoz5) return StagePath::wenoz_faces;
  if (c.reconstruction == Reconstruction::constant) return StagePath::plm_faces;
  if (c.reconstruction == Reconstruction::plm && c.time != TimeStepper::ader &&
      c.variables == ReconstructionVariables::primitive)
    return StagePath::plm_faces;
  return StagePath::modal;
}

std::string scheme_name(const FvConfig& c) {
  // Cleaning (fv.mhd_divergence) is left out: it may change while the run goes.
  std::string s = c.mhd ? "mhd " : "";
  s += reconstruction_name(c.reconstruction);
  if (c.reconstruction != Reconstruction::constant)
    s += std::string(" ") + variables_name(c.variables);
  return s + ", " + riemann_name(c.physics.riemann) + ", " + time_stepper_name(c.time);
}

void check_checkpoint_scheme(const std::string& written, const FvConfig& c) {
  // The Riemann solver is the middle of "plm primitive, hllc, rk2".
  const auto without_riemann = [](const std::string& scheme) {
    const std::size_t a = scheme.find(", "), b = scheme.rfind(", ");
    return a == std::string::npos || a == b ? scheme : scheme.substr(0, a) + scheme.substr(b);
  };
  if (without_riemann(written) != without_riemann(scheme_name(c)) && !c.allow_scheme_change)
    throw std::runtime_error("fv checkpoint was written by the scheme '" + written +
                             "' but this run is '" + scheme_name(c) +
                             "'; restart with the same fv.reconstruction, fv.variables and "
                             "fv.time, or set fv.allow_scheme_change = true");
}

const char* bc_name(Bc b) {
  switch (b) {
    case Bc::reflecting:
      return "reflecting";
    case Bc::periodic:
      return "periodic";
    case Bc::neighbour:
      return "MPI neighbour";
    case Bc::outflow:
      break;
  }
  return "outflow";
}

SolverFamily family() {
  SolverFamily f;
  f.name = "fv";
  f.description =
      "compressible Euler (ideal gas) or ideal MHD with GLM cleaning, finite volume: PLM "
      "theta-minmod, HLL/HLLC/HLLD, TVD RK2 (Wang, Abel & Kaehler 2010), WENO and ADER to "
      "fourth order (Subramanian, Balsara et al.)";
  f.params = fv_params();
  f.default_n = 64;
  f.supports_mpi = true;
  f.default_length = 1.0;
  f.create = [](BackendKind b, Precision p) {
    return amr::make_mesh_selecting_solver(b, p, make_solver);  // fv.mesh: uniform or amr
  };
  f.validate = validate;
  return f;
}

}  // namespace fluxview::fv
