// The fv family: parameters (every value of a scenario is one of these, and this is the
// only place their keys are spelled), the typed configuration read from them, the checks
// across parameters, and the factory.
#include <array>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <memory>
#include <sstream>
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
      choice_param(
          "fv.reconstruction", "plm", {"plm", "constant"},
          "plm: piecewise linear, theta-minmod limited (eqs. 9-11); constant: first order"),
      real_param("fv.theta", 1.5, "", 0, 2,
                 "theta of the minmod limiter: 0 first order, 1 minmod, 2 monotonised central"),
      choice_param("fv.riemann", "hllc", {"hll", "hllc", "llf"},
                   "Riemann solver: hll (two waves), hllc (with contact), llf (eq. 12)"),
      real_param("fv.rho_floor", 1e-10, "kg/m^3", 0, inf, "density floor", true),
      real_param("fv.p_floor", 1e-12, "Pa", 0, inf, "pressure floor", true),
      choice_param("fv.cuda_tile", "auto", {"auto", "32x8", "32x4"},
                   "CUDA: cells of an x-y tile per block (auto: 32x8 for float, 32x4 for double, "
                   "the faster of each on an H200)"),
      bool_param("fv.tracer", false, "carry a passive tracer (conserved as rho c)"),
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
      choice_param("fv.init", "uniform", {"uniform", "shock-tube", "blast", "kelvin-helmholtz"},
                   "initial condition"),
      // uniform and blast background
      real_param("fv.ambient_rho", 1, "kg/m^3", 0, inf, "background density", true),
      real_param("fv.ambient_p", 1, "Pa", 0, inf, "background pressure", true),
      real_param("fv.ux", 0, "m/s", -inf, inf, "background velocity x (uniform, blast)"),
      real_param("fv.uy", 0, "m/s", -inf, inf, "background velocity y (uniform, blast)"),
      real_param("fv.uz", 0, "m/s", -inf, inf, "background velocity z (uniform, blast)"),
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
      live_key("fv.reconstruction"),
      live_key("fv.theta"),
      live_key("fv.riemann"),
      live_key("fv.rho_floor"),
      live_key("fv.p_floor"),
      live_key("fv.cuda_tile"),
      fixed_key("fv.tracer", "the number of conserved fields is set at Reset"),
      live_key("fv.bc*")};
  // The mesh (uniform or adaptive) and the adaptive mesh's settings are chosen when the
  // solver is made (MeshSelectingSolver) and its hierarchy built.
  rules.push_back(fixed_key("fv.mesh", "the mesh is chosen at Reset"));
  rules.push_back(fixed_key("fv.amr.*", "the adaptive mesh is set up at Reset"));
  // The initial condition's keys, each named: a key added to fv later must say whether it
  // is live (mark_live refuses a key no rule names).
  for (const char* k :
       {"fv.init", "fv.ambient_*", "fv.ux", "fv.uy", "fv.uz", "fv.axis", "fv.interface",
        "fv.left_*", "fv.right_*", "fv.blast_*", "fv.cloud_*", "fv.kh_*"})
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

void validate(const ParamSet& p) {
  const char* axes[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    const std::string lo = resolved_bc(p, a, 0), hi = resolved_bc(p, a, 1);
    if ((lo == "periodic") != (hi == "periodic"))
      throw ConfigError(std::string("fv.bc_") + axes[a] + "min = " + lo + ", fv.bc_" + axes[a] +
                        "max = " + hi + ": periodic must be set on both " + axes[a] +
                        " faces or on neither");
  }
  const int cells_min = 2;  // the PLM stencil reads two ghost cells
  const char* nk[3] = {"grid.nx", "grid.ny", "grid.nz"};
  for (int a = 0; a < 3; ++a) {
    const auto n = p.get_int(nk[a]);
    if (n > 1 && n < cells_min)
      throw ConfigError(std::string(nk[a]) + " = " + std::to_string(n) +
                        ": an active axis needs at least 2 cells (or 1 to drop the axis)");
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
  amr::validate_amr(p);
}

Bc parse_bc(const std::string& s) {
  if (s == "periodic") return Bc::periodic;
  if (s == "reflecting") return Bc::reflecting;
  return Bc::outflow;
}

Riemann parse_riemann(const std::string& s) {
  if (s == "hll") return Riemann::hll;
  if (s == "llf") return Riemann::llf;
  return Riemann::hllc;
}

FvInit parse_init(const std::string& s) {
  if (s == "shock-tube") return FvInit::shock_tube;
  if (s == "blast") return FvInit::blast;
  if (s == "kelvin-helmholtz") return FvInit::kelvin_helmholtz;
  return FvInit::uniform;
}

}  // namespace

FvConfig parse_config(const ParamSet& p) {
  FvConfig c;
  c.grid = grid_config(p);
  c.parallel = parallel_config(p);
  c.physics.gamma = p.get_real("fv.gamma");
  c.physics.theta = p.get_real("fv.theta");
  c.physics.plm = p.get_string("fv.reconstruction") == "plm";
  c.physics.riemann = parse_riemann(p.get_string("fv.riemann"));
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
  c.tube_axis = p.get_string("fv.axis")[0] - 'x';
  c.interface = p.get_real("fv.interface");
  c.left = {p.get_real("fv.left_rho"), p.get_real("fv.left_p"), p.get_real("fv.left_u")};
  c.right = {p.get_real("fv.right_rho"), p.get_real("fv.right_p"), p.get_real("fv.right_u")};
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
  return c;
}

const char* riemann_name(Riemann r) {
  switch (r) {
    case Riemann::hll:
      return "hll";
    case Riemann::llf:
      return "llf";
    case Riemann::hllc:
      break;
  }
  return "hllc";
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
      "compressible Euler (ideal gas), finite volume: PLM theta-minmod, HLL/HLLC, TVD RK2 "
      "(Wang, Abel & Kaehler 2010)";
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
