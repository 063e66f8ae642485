// The fd family: its parameters (the only place their keys are spelled), the typed
// configuration read from them, and the checks across them.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/ConfigError.hpp"
#include "sim/core/Steering.hpp"
#include "sim/fd/FdConfig.hpp"
#include "sim/fd/FdForcing.hpp"
#include "sim/fd/FdSolver.hpp"
#include "sim/fd/FdStep.hpp"

namespace fluxview::fd {

namespace {

// RK3's stability region with sixth-order central differences (docs/fd.md): advection
// needs (|u| + cs) dt / dx <= 0.63 along a diagonal, viscosity nu dt / dx^2 <= 0.10 in 3D.
// The automatic step is courant * dx / (|u| + cs) and courant * dx^2 / (5 nu), so
// courant <= 0.5 keeps both inside.
constexpr double kMaxCourant = 0.5;
constexpr int kMinCells = 2 * kRadius;

std::vector<ParamSpec> fd_params() {
  const double inf = INFINITY;
  std::vector<ParamSpec> p = {
      real_param("fd.cs", 1.0, "", 0, inf, "isothermal sound speed c_s", true),
      real_param("fd.nu", 5e-3, "", 0, inf, "kinematic viscosity nu", true),
      real_param("fd.rho0", 1.0, "", 0, inf, "background density rho_0", true),
      real_param("fd.courant", 0.4, "", 0, kMaxCourant,
                 "Courant factor C: dt = C min(dx/(|u|max + cs), dx^2/(5 nu)); stable up to 0.5",
                 true),
      real_param("fd.dt", 0, "", 0, inf, "fixed time step (0: automatic from fd.courant)"),
      choice_param("fd.method", "fast", method_names(),
                   "55point (single pass, mixed derivatives), 19point (two passes: div u "
                   "first), fast (fluxview's fastest: 19point unblocked), direct55 (55point "
                   "unblocked, its CUDA reference)"),
      choice_param("fd.init", "rest", {"rest", "sine", "explosion", "shear", "random"},
                   "initial state: rest, sine (u0 sin(k x) e_y), explosion (eq. 23), shear "
                   "(two shear layers), random (smooth random state)"),
      real_param("fd.u0", 1.0, "", -1e6, 1e6, "velocity amplitude (sine, shear and random states)"),
      int_param("fd.k", 1, "", 1, 4096, "wavenumber of the sine state (units of 2 pi / lx)"),
      real_param("fd.u_ampl", 1.0, "", -1e6, 1e6, "explosion peak velocity u_ampl"),
      real_param("fd.r_shell", 0.8, "", 0, inf, "explosion shell radius r_shell"),
      real_param("fd.d_shell", 0.2, "", 0, inf, "explosion shell width d_shell", true),
      real_param("fd.shear_width", 0.02, "", 0, 1, "shear layer half-thickness as a fraction of ly",
                 true),
      real_param("fd.perturb", 0.05, "", 0, 1e6,
                 "perturbation amplitude of the shear state (fraction of u0)"),
      bool_param("fd.forcing", false, "non-helical random forcing (eqs 24-25)"),
      real_param("fd.f0", 0.02, "", 0, inf, "forcing amplitude f_0"),
      real_param("fd.kmin", 1.0, "", 0, 1e4, "forcing shell: smallest |k| (units of 2 pi / L)"),
      real_param("fd.kmax", 2.0, "", 0, 1e4, "forcing shell: largest |k| (units of 2 pi / L)"),
      int_param("fd.seed", 1, "", 0, std::int64_t(1) << 62,
                "seed of the forcing (and random-state) generator"),
      bool_param("fd.spectrum", false,
                 "write the shell-averaged kinetic energy spectrum at each output"),
  };
  // What may change while the run goes (Solver::set_live): the fluid (sound speed,
  // viscosity), the step and the forcing (on or off, amplitude, shell).
  mark_live(p, {live_key("fd.cs"),
                live_key("fd.nu"),
                fixed_key("fd.rho0", kInitialConditionReason),
                live_key("fd.courant"),
                live_key("fd.dt"),
                fixed_key("fd.method",
                          "the fields a method needs (the div u field of the two-pass ones) are "
                          "allocated at Reset"),
                fixed_key("fd.init", kInitialConditionReason),
                fixed_key("fd.u0", kInitialConditionReason),
                fixed_key("fd.k", kInitialConditionReason),
                fixed_key("fd.u_ampl", kInitialConditionReason),
                fixed_key("fd.r_shell", kInitialConditionReason),
                fixed_key("fd.d_shell", kInitialConditionReason),
                fixed_key("fd.shear_width", kInitialConditionReason),
                fixed_key("fd.perturb", kInitialConditionReason),
                live_key("fd.forcing"),
                live_key("fd.f0"),
                live_key("fd.kmin"),
                live_key("fd.kmax"),
                fixed_key("fd.seed",
                          "the forcing's random generator is seeded at Reset and goes on from "
                          "its state (checkpoints carry it), so a run can be replayed"),
                fixed_key("fd.spectrum",
                          "the runner decides what each output writes when the run starts")});
  return p;
}

std::string fmt(double v) {
  std::ostringstream o;
  o.precision(6);
  o << v;
  return o.str();
}

void validate(const ParamSet& p) {
  const FdConfig c = parse_config(p);
  const char* nk[3] = {"grid.nx", "grid.ny", "grid.nz"};
  for (int a = 0; a < 3; ++a) {
    const int n = c.grid.n[a];
    if (n != 1 && n < kMinCells)
      throw ConfigError(std::string(nk[a]) + " = " + std::to_string(n) +
                        " is smaller than the sixth-order stencil (radius 3); allowed: 1 (a "
                        "reduced axis) or at least " +
                        std::to_string(kMinCells) + " cells");
  }
  if (!(c.nu > 0))
    throw ConfigError("fd.nu = " + fmt(c.nu) +
                      " must be positive: the central scheme needs viscosity; allowed: fd.nu > 0");
  if (!(c.cs > 0))
    throw ConfigError("fd.cs = " + fmt(c.cs) + " must be positive; allowed: fd.cs > 0");
  if (!(c.courant > 0) || c.courant > kMaxCourant)
    throw ConfigError("fd.courant = " + fmt(c.courant) +
                      " is unstable for RK3 with sixth-order differences; allowed: 0 < "
                      "fd.courant <= " +
                      fmt(kMaxCourant));
  std::array<bool, 3> active{};
  double dxmin = INFINITY;
  for (int a = 0; a < 3; ++a) {
    active[a] = c.grid.n[a] > 1;
    if (active[a]) dxmin = std::fmin(dxmin, c.grid.length[a] / double(c.grid.n[a]));
  }
  if (c.dt > 0 && std::isfinite(dxmin)) {
    const double limit = kMaxCourant * dxmin * dxmin / (5 * c.nu);
    const double limit_a = kMaxCourant * dxmin / c.cs;
    if (c.dt > std::fmin(limit, limit_a))
      throw ConfigError("fd.dt = " + fmt(c.dt) +
                        " is unstable for this grid, nu and cs; allowed: " + "fd.dt <= " +
                        fmt(std::fmin(limit, limit_a)) + " (or 0 for automatic)");
  }
  if (c.kmin > c.kmax)
    throw ConfigError("fd.kmin = " + fmt(c.kmin) + " is larger than fd.kmax = " + fmt(c.kmax) +
                      "; allowed: fd.kmin <= fd.kmax");
  if (c.forcing && make_shell(c.kmin, c.kmax, active).k.empty())
    throw ConfigError("fd.kmin = " + fmt(c.kmin) + ", fd.kmax = " + fmt(c.kmax) +
                      ": the forcing shell holds no integer wave vector; widen it");
}

FdInit parse_init(const std::string& s) {
  if (s == "sine") return FdInit::sine;
  if (s == "explosion") return FdInit::explosion;
  if (s == "shear") return FdInit::shear;
  if (s == "random") return FdInit::random;
  return FdInit::rest;
}

}  // namespace

FdConfig parse_config(const ParamSet& p) {
  FdConfig c;
  c.grid = grid_config(p);
  c.parallel = parallel_config(p);
  c.cs = p.get_real("fd.cs");
  c.nu = p.get_real("fd.nu");
  c.rho0 = p.get_real("fd.rho0");
  c.courant = p.get_real("fd.courant");
  c.dt = p.get_real("fd.dt");
  c.method = parse_method(p.get_string("fd.method"));
  c.init = parse_init(p.get_string("fd.init"));
  c.u0 = p.get_real("fd.u0");
  c.k = p.get_int("fd.k");
  c.u_ampl = p.get_real("fd.u_ampl");
  c.r_shell = p.get_real("fd.r_shell");
  c.d_shell = p.get_real("fd.d_shell");
  c.shear_width = p.get_real("fd.shear_width");
  c.perturb = p.get_real("fd.perturb");
  c.forcing = p.get_bool("fd.forcing");
  c.f0 = p.get_real("fd.f0");
  c.kmin = p.get_real("fd.kmin");
  c.kmax = p.get_real("fd.kmax");
  c.seed = std::uint64_t(p.get_int("fd.seed"));
  return c;
}

bool writes_spectrum(const ParamSet& p) {
  return p.has("fd.spectrum") && p.get_bool("fd.spectrum");
}

SolverFamily family() {
  SolverFamily f;
  f.name = "fd";
  f.description =
      "isothermal compressible viscous hydro in (ln rho, u), sixth-order finite differences, "
      "RK3 (Pekkila et al. 2017)";
  f.params = fd_params();
  f.default_n = 64;
  f.supports_mpi = true;
  f.default_length = 2 * 3.14159265358979323846;
  f.create = make_solver;
  f.validate = validate;
  f.write_output_files = [](const Solver& s, const ParamSet& p, const std::filesystem::path& dir) {
    if (!writes_spectrum(p)) return;
    char name[48];
    std::snprintf(name, sizeof name, "spectrum_%06lld.csv", static_cast<long long>(s.step()));
    write_spectrum_csv(s, (dir / name).string());
  };
  return f;
}

}  // namespace fluxview::fd
