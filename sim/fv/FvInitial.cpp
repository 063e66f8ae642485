#include "sim/fv/FvInitial.hpp"

#include <array>
#include <cmath>
#include <numbers>

#include "sim/core/ExecHost.hpp"

namespace fluxview::fv {

namespace {

// The primitive state (rho, u, p, tracer concentration c) of a point.
struct Prim {
  double rho, u[3], p, c;
};

// Sets every cell of this rank's box from the primitive state `prim(x)` returns at its
// centre x.
template <class T, class PrimAt>
void fill(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g, PrimAt prim) {
  const int nv = int(f.size());
  const double gamma = c.physics.gamma;
  exec::for_each_cell(exec::Host{}, exec::interior(f[0].layout()), [&](int i, int j, int k) {
    const double x[3] = {g.coord(0, g.offset[0] + i), g.coord(1, g.offset[1] + j),
                         g.coord(2, g.offset[2] + k)};
    const Prim q = prim(x);
    const State<double, 6> w{{q.rho, q.u[0], q.u[1], q.u[2], q.p, q.c}};
    const State<double, 6> u = prim_to_cons(w, gamma);
    for (int m = 0; m < nv; ++m) f[m](i, j, k) = T(u.v[m]);
  });
}

// Fraction of the cell at x inside a sphere of radius r about `centre` (a cylinder or slab
// along reduced axes), by sampling 4 points per active axis in cells the surface cuts.
double inside_fraction(const Grid& g, const double x[3], const double centre[3], double r) {
  const auto& n = g.n;
  double d2 = 0, diag2 = 0;
  for (int a = 0; a < 3; ++a)
    if (n[a] > 1) {
      d2 += (x[a] - centre[a]) * (x[a] - centre[a]);
      diag2 += 0.25 * g.spacing[a] * g.spacing[a];
    }
  const double d = std::sqrt(d2), h = std::sqrt(diag2);
  if (d + h <= r) return 1.0;
  if (d - h >= r) return 0.0;
  const int s[3] = {n[0] > 1 ? 4 : 1, n[1] > 1 ? 4 : 1, n[2] > 1 ? 4 : 1};
  int in = 0;
  for (int c2 = 0; c2 < s[2]; ++c2)
    for (int c1 = 0; c1 < s[1]; ++c1)
      for (int c0 = 0; c0 < s[0]; ++c0) {
        const int cs[3] = {c0, c1, c2};
        double e2 = 0;
        for (int a = 0; a < 3; ++a) {
          if (n[a] == 1) continue;
          const double y = x[a] + ((cs[a] + 0.5) / s[a] - 0.5) * g.spacing[a];
          e2 += (y - centre[a]) * (y - centre[a]);
        }
        in += e2 <= r * r;
      }
  return double(in) / (s[0] * s[1] * s[2]);
}

Prim background(const FvConfig& c) {
  return {c.ambient_rho, {c.velocity[0], c.velocity[1], c.velocity[2]}, c.ambient_p, 0};
}

// fv.init = uniform: the background everywhere.
template <class T>
void fill_uniform(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  fill(f, c, g, [&](const double*) { return background(c); });
}

// fv.init = shock-tube: two states at rest or moving along the tube's axis, meeting at the
// interface; the left state carries the tracer.
template <class T>
void fill_shock_tube(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  const int axis = c.tube_axis;
  const double at = c.interface * c.grid.length[axis];
  fill(f, c, g, [&](const double* x) {
    const bool left = x[axis] < at;
    const TubeSide& s = left ? c.left : c.right;
    Prim q{s.rho, {0, 0, 0}, s.p, left ? 1.0 : 0.0};
    q.u[axis] = s.u;
    return q;
  });
}

// fv.init = blast: the Sedov-Taylor energy E as pressure p = 3 (gamma-1) E / (4 pi r0^3)
// inside r0 (the cells the sphere cuts by volume fraction), and optionally a dense cloud in
// pressure equilibrium carrying the tracer.
template <class T>
void fill_blast(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  const auto& len = c.grid.length;
  const double bc[3] = {c.blast_centre[0] * len[0], c.blast_centre[1] * len[1],
                        c.blast_centre[2] * len[2]};
  const double cc[3] = {c.cloud_centre[0] * len[0], c.cloud_centre[1] * len[1],
                        c.cloud_centre[2] * len[2]};
  const double r0 = c.blast_radius, rc = c.cloud_radius;
  const double p_blast =
      3 * (c.physics.gamma - 1) * c.blast_energy / (4 * std::numbers::pi * r0 * r0 * r0);
  fill(f, c, g, [&](const double* x) {
    Prim q = background(c);
    const double fb = inside_fraction(g, x, bc, r0);
    q.p = c.ambient_p + fb * (p_blast - c.ambient_p);
    if (rc > 0) {
      const double fc = inside_fraction(g, x, cc, rc);
      q.rho = c.ambient_rho * (1 + fc * (c.cloud_density_ratio - 1));
      q.c = fc;
    }
    return q;
  });
}

// fv.init = kelvin-helmholtz: a dense band moving at +u between lighter gas at -u, in
// pressure equilibrium, with a seed of u_y about both interfaces; the band carries the
// tracer.
template <class T>
void fill_kelvin_helmholtz(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  const auto& len = c.grid.length;
  const double hw = c.kh_band, w = c.kh_seed_width;
  fill(f, c, g, [&](const double* x) {
    const double y = x[1] / len[1];
    const bool band = std::fabs(y - 0.5) < hw;
    Prim q{band ? c.kh_rho_inner : c.kh_rho_outer, {0, 0, 0}, c.kh_p, band ? 1.0 : 0.0};
    q.u[0] = band ? c.kh_shear : -c.kh_shear;
    q.u[1] = c.kh_amplitude * std::sin(2 * std::numbers::pi * c.kh_modes * x[0] / len[0]) *
             (std::exp(-std::pow((y - 0.5 + hw) / w, 2) / 2) +
              std::exp(-std::pow((y - 0.5 - hw) / w, 2) / 2));
    return q;
  });
}

}  // namespace

template <class T>
void fill_initial(std::vector<Field<T>>& fields, const FvConfig& c, const Grid& grid) {
  switch (c.init) {
    case FvInit::uniform:
      return fill_uniform(fields, c, grid);
    case FvInit::shock_tube:
      return fill_shock_tube(fields, c, grid);
    case FvInit::blast:
      return fill_blast(fields, c, grid);
    case FvInit::kelvin_helmholtz:
      return fill_kelvin_helmholtz(fields, c, grid);
  }
}

template void fill_initial<float>(std::vector<Field<float>>&, const FvConfig&, const Grid&);
template void fill_initial<double>(std::vector<Field<double>>&, const FvConfig&, const Grid&);

}  // namespace fluxview::fv
