// The fd family's parameters and the checks across them.
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/ConfigError.hpp"
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
  return {
      real_param("fd.cs", 1.0, "", 0, inf, "isothermal sound speed c_s", true),
      real_param("fd.nu", 5e-3, "", 0, inf, "kinematic viscosity nu", true),
      real_param("fd.rho0", 1.0, "", 0, inf, "background density rho_0", true),
      real_param("fd.courant", 0.4, "", 0, kMaxCourant,
                 "Courant factor C: dt = C min(dx/(|u|max + cs), dx^2/(5 nu)); stable up to 0.5",
                 true),
      real_param("fd.dt", 0, "", 0, inf, "fixed time step (0: automatic from fd.courant)"),
      choice_param("fd.method", "fast", method_names(),
                   "55point (single pass, mixed derivatives), 19point (two passes: div u "
                   "first), fast (fluxview's fastest), direct55/direct19 (unblocked CUDA "
                   "reference kernels)"),
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
}

std::string fmt(double v) {
  std::ostringstream o;
  o.precision(6);
  o << v;
  return o.str();
}

void validate(const ParamSet& p) {
  const char* nk[3] = {"grid.nx", "grid.ny", "grid.nz"};
  for (const char* k : nk) {
    const auto n = p.get_int(k);
    if (n != 1 && n < kMinCells)
      throw ConfigError(std::string(k) + " = " + std::to_string(n) +
                        " is smaller than the sixth-order stencil (radius 3); allowed: 1 (a "
                        "reduced axis) or at least " +
                        std::to_string(kMinCells) + " cells");
  }
  if (!(p.get_real("fd.nu") > 0))
    throw ConfigError("fd.nu = " + fmt(p.get_real("fd.nu")) +
                      " must be positive: the central scheme needs viscosity; allowed: fd.nu > 0");
  if (!(p.get_real("fd.cs") > 0))
    throw ConfigError("fd.cs = " + fmt(p.get_real("fd.cs")) +
                      " must be positive; allowed: fd.cs > 0");
  const double c = p.get_real("fd.courant");
  if (!(c > 0) || c > kMaxCourant)
    throw ConfigError("fd.courant = " + fmt(c) +
                      " is unstable for RK3 with sixth-order differences; allowed: 0 < "
                      "fd.courant <= " +
                      fmt(kMaxCourant));
  std::array<bool, 3> active{};
  double dxmin = INFINITY;
  const char* lk[3] = {"grid.lx", "grid.ly", "grid.lz"};
  for (int a = 0; a < 3; ++a) {
    active[a] = p.get_int(nk[a]) > 1;
    if (active[a]) dxmin = std::fmin(dxmin, p.get_real(lk[a]) / double(p.get_int(nk[a])));
  }
  const double dt = p.get_real("fd.dt");
  if (dt > 0 && std::isfinite(dxmin)) {
    const double limit = kMaxCourant * dxmin * dxmin / (5 * p.get_real("fd.nu"));
    const double limit_a = kMaxCourant * dxmin / p.get_real("fd.cs");
    if (dt > std::fmin(limit, limit_a))
      throw ConfigError("fd.dt = " + fmt(dt) + " is unstable for this grid, nu and cs; allowed: " +
                        "fd.dt <= " + fmt(std::fmin(limit, limit_a)) + " (or 0 for automatic)");
  }
  if (p.get_bool("fd.forcing")) {
    const double kmin = p.get_real("fd.kmin"), kmax = p.get_real("fd.kmax");
    if (kmin > kmax)
      throw ConfigError("fd.kmin = " + fmt(kmin) + " is larger than fd.kmax = " + fmt(kmax) +
                        "; allowed: fd.kmin <= fd.kmax");
    if (make_shell(kmin, kmax, active).k.empty())
      throw ConfigError("fd.kmin = " + fmt(kmin) + ", fd.kmax = " + fmt(kmax) +
                        ": the forcing shell holds no integer wave vector; widen it");
  } else if (p.get_real("fd.kmin") > p.get_real("fd.kmax")) {
    throw ConfigError("fd.kmin = " + fmt(p.get_real("fd.kmin")) + " is larger than fd.kmax = " +
                      fmt(p.get_real("fd.kmax")) + "; allowed: fd.kmin <= fd.kmax");
  }
}

}  // namespace

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
  return f;
}

}  // namespace fluxview::fd
