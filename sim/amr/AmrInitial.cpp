// The fv initial conditions cell by cell (see AmrInitial.hpp: transitional).
#include "sim/amr/AmrInitial.hpp"

#include <array>
#include <cmath>
#include <numbers>
#include <string>

namespace fluxview::amr {

InitialCondition::InitialCondition(const ParamSet& p, std::array<double, 3> box,
                                   std::array<bool, 3> active)
    : p_(&p), box_(box), active_(active) {}

// Fraction of a cell inside a sphere (a cylinder or slab along inactive axes): 4 samples
// per active axis in cells the surface cuts, as the uniform solver does.
double InitialCondition::inside_fraction(const std::array<double, 3>& x,
                                         const std::array<double, 3>& dx, const double c[3],
                                         double r) const {
  double d2 = 0, diag2 = 0;
  for (int a = 0; a < 3; ++a)
    if (active_[a]) {
      d2 += (x[a] - c[a]) * (x[a] - c[a]);
      diag2 += 0.25 * dx[a] * dx[a];
    }
  const double d = std::sqrt(d2), h = std::sqrt(diag2);
  if (d + h <= r) return 1.0;
  if (d - h >= r) return 0.0;
  const int s[3] = {active_[0] ? 4 : 1, active_[1] ? 4 : 1, active_[2] ? 4 : 1};
  int in = 0;
  for (int c2 = 0; c2 < s[2]; ++c2)
    for (int c1 = 0; c1 < s[1]; ++c1)
      for (int c0 = 0; c0 < s[0]; ++c0) {
        const int cs[3] = {c0, c1, c2};
        double e2 = 0;
        for (int a = 0; a < 3; ++a) {
          if (!active_[a]) continue;
          const double y = x[a] + ((cs[a] + 0.5) / s[a] - 0.5) * dx[a];
          e2 += (y - c[a]) * (y - c[a]);
        }
        in += e2 <= r * r;
      }
  return double(in) / (s[0] * s[1] * s[2]);
}

fv::State<double, 6> InitialCondition::cell(const std::array<double, 3>& x,
                                            const std::array<double, 3>& dx) const {
  const ParamSet& p = *p_;
  const std::string& init = p.get_string("fv.init");
  const double g = p.get_real("fv.gamma");
  double rho = p.get_real("fv.ambient_rho"), pr = p.get_real("fv.ambient_p");
  double u[3] = {p.get_real("fv.ux"), p.get_real("fv.uy"), p.get_real("fv.uz")}, c = 0;
  if (init == "shock-tube") {
    const int axis = p.get_string("fv.axis")[0] - 'x';
    const bool left = x[axis] < p.get_real("fv.interface") * box_[axis];
    rho = left ? p.get_real("fv.left_rho") : p.get_real("fv.right_rho");
    pr = left ? p.get_real("fv.left_p") : p.get_real("fv.right_p");
    u[0] = u[1] = u[2] = 0;
    u[axis] = left ? p.get_real("fv.left_u") : p.get_real("fv.right_u");
    c = left ? 1 : 0;
  } else if (init == "blast") {
    const double bc[3] = {p.get_real("fv.blast_x") * box_[0], p.get_real("fv.blast_y") * box_[1],
                          p.get_real("fv.blast_z") * box_[2]};
    const double r0 = p.get_real("fv.blast_radius"), rc = p.get_real("fv.cloud_radius");
    const double p_blast =
        3 * (g - 1) * p.get_real("fv.blast_energy") / (4 * std::numbers::pi * r0 * r0 * r0);
    const double fb = inside_fraction(x, dx, bc, r0);
    pr = pr + fb * (p_blast - pr);
    if (rc > 0) {
      const double cc[3] = {p.get_real("fv.cloud_x") * box_[0], p.get_real("fv.cloud_y") * box_[1],
                            p.get_real("fv.cloud_z") * box_[2]};
      const double fc = inside_fraction(x, dx, cc, rc);
      rho = rho * (1 + fc * (p.get_real("fv.cloud_density_ratio") - 1));
      c = fc;
    }
  } else if (init == "kelvin-helmholtz") {
    const double y = x[1] / box_[1];
    const double hw = p.get_real("fv.kh_band"), w = p.get_real("fv.kh_seed_width");
    const bool band = std::fabs(y - 0.5) < hw;
    rho = band ? p.get_real("fv.kh_rho_inner") : p.get_real("fv.kh_rho_outer");
    pr = p.get_real("fv.kh_p");
    const double s = p.get_real("fv.kh_shear");
    u[0] = band ? s : -s;
    u[1] = p.get_real("fv.kh_amplitude") *
           std::sin(2 * std::numbers::pi * double(p.get_int("fv.kh_modes")) * x[0] / box_[0]) *
           (std::exp(-std::pow((y - 0.5 + hw) / w, 2) / 2) +
            std::exp(-std::pow((y - 0.5 - hw) / w, 2) / 2));
    u[2] = 0;
    c = band ? 1 : 0;
  }
  const fv::State<double, 6> q{{rho, u[0], u[1], u[2], pr, c}};
  return fv::prim_to_cons(q, g);
}

}  // namespace fluxview::amr
