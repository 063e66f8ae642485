#include "sim/fv/FvInitial.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>

#include "sim/core/ExecHost.hpp"
#include "sim/fv/AccuracyProblems.hpp"
#include "sim/fv/DoubleMach.hpp"
#include "sim/fv/TurbulentVelocity.hpp"

namespace fluxview::fv {

namespace {

// The primitive state (rho, u, p, tracer concentration c, magnetic field b) of a point;
// b is read only by MHD runs.
struct Prim {
  double rho, u[3], p, c;
  double b[3] = {0, 0, 0};
};

// Stores a conserved state at cell (i, j, k) of the run's nv fields (StateLayout.hpp). An
// Euler state (rho, rho u, E, rho c) goes to an MHD run with B = 0 and psi = 0, which
// leaves E as it is; an MHD state (rho, rho u, E, B, psi [, rho c]) has the slots of nv = 9
// or 10: a run without the tracer takes the first nine, one with it and a state without it
// gets rho c = 0.
template <class T, int N>
void store(std::vector<Field<T>>& f, int i, int j, int k, const State<double, N>& u) {
  static_assert(N == 6 || N == 9 || N == 10);
  const int nv = int(f.size());
  if constexpr (N >= 9) {  // an MHD state; a tracer slot it lacks starts at 0
    for (int m = 0; m < nv; ++m) f[m](i, j, k) = T(m < N ? u.v[m] : 0.0);
  } else {
    for (int m = 0; m < 5; ++m) f[m](i, j, k) = T(u.v[m]);
    for (int m = 5; m < nv; ++m) f[m](i, j, k) = T(0);
    if (tracer_variables(nv)) f[nv - 1](i, j, k) = T(u.v[5]);
  }
}

// Stores the primitive state q at cell (i, j, k) as the run's conserved state.
template <class T>
void store_primitive(std::vector<Field<T>>& f, int i, int j, int k, const Prim& q, double gamma) {
  if (mhd_variables(int(f.size()))) {
    const State<double, 10> w{{q.rho, q.u[0], q.u[1], q.u[2], q.p, q.b[0], q.b[1], q.b[2], 0, q.c}};
    store(f, i, j, k, prim_to_cons(w, gamma));
  } else {
    const State<double, 6> w{{q.rho, q.u[0], q.u[1], q.u[2], q.p, q.c}};
    store(f, i, j, k, prim_to_cons(w, gamma));
  }
}

// Sets every cell of this rank's box from the primitive state `prim(x)` returns at its
// centre x.
template <class T, class PrimAt>
void fill(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g, PrimAt prim) {
  exec::for_each_cell(exec::Host{}, exec::interior(f[0].layout()), [&](int i, int j, int k) {
    const double x[3] = {g.coord(0, g.offset[0] + i), g.coord(1, g.offset[1] + j),
                         g.coord(2, g.offset[2] + k)};
    store_primitive(f, i, j, k, prim(x), c.physics.gamma);
  });
}

// Sets every cell of this rank's box to the conserved state (Euler's of 6 slots or MHD's of
// 10, see store) `cons(x)` returns for the cell centred at x (an exact cell average where
// the problem has one).
template <class T, class ConsAt>
void fill_conserved(std::vector<Field<T>>& f, const Grid& g, ConsAt cons) {
  exec::for_each_cell(exec::Host{}, exec::interior(f[0].layout()), [&](int i, int j, int k) {
    const double x[3] = {g.coord(0, g.offset[0] + i), g.coord(1, g.offset[1] + j),
                         g.coord(2, g.offset[2] + k)};
    store(f, i, j, k, cons(x));
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
  return {c.ambient_rho,
          {c.velocity[0], c.velocity[1], c.velocity[2]},
          c.ambient_p,
          0,
          {c.field[0], c.field[1], c.field[2]}};
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
    q.b[axis] = c.tube_bn;
    q.b[(axis + 1) % 3] = s.bt[0];
    q.b[(axis + 2) % 3] = s.bt[1];
    if (!left && c.ripple_amplitude > 0) {
      // rho_R (1 + a sin(k (x - l/2))) averaged over the cell (Shu & Osher 1989).
      const double k = c.ripple_wavenumber, h = g.spacing[axis];
      const double xs = x[axis] - 0.5 * c.grid.length[axis];
      q.rho = s.rho * (1 + c.ripple_amplitude * std::sin(k * xs) *
                               (k * h > 0 ? std::sin(0.5 * k * h) / (0.5 * k * h) : 1.0));
    }
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

// fv.init = isentropic-vortex: the exact cell averages of the vortex (AccuracyProblems.hpp).
template <class T>
void fill_isentropic_vortex(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  const VortexSpec s = vortex_spec(c);
  fill_conserved(f, g, [&](const double* x) {
    State<double, 5> u;
    vortex_density_average(s, x[0], x[1], g.spacing[0], g.n[1] > 1 ? g.spacing[1] : 0.0, 0, &u);
    return State<double, 6>{{u.v[0], u.v[1], u.v[2], u.v[3], u.v[4], 0}};
  });
}

// fv.init = smooth-wave: the exact cell averages of the density wave in uniform flow.
template <class T>
void fill_smooth_wave(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  const WaveSpec s = wave_spec(c);
  fill_conserved(f, g, [&](const double* x) {
    const double rho = wave_density_average(s, x[s.axis], g.spacing[s.axis], 0);
    // Uniform velocity and pressure: the conserved averages are linear in rho's.
    const State<double, 6> q{{rho, s.u[0], s.u[1], s.u[2], s.p_inf, 0}};
    return prim_to_cons(q, c.physics.gamma);
  });
}

// fv.init = double-mach: the Mach 10 shock at t = 0 (DoubleMach.hpp).
template <class T>
void fill_double_mach(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  fill(f, c, g, [&](const double* x) {
    const State<double, 5> q = double_mach_state(x[0], x[1], 0);
    return Prim{q.v[0], {q.v[1], q.v[2], q.v[3]}, q.v[4], 0};
  });
}

// fv.init = orszag-tang: rho = 25/(36 pi), p = 5/(12 pi), u = (-sin 2 pi y, sin 2 pi x),
// B = B0 (-sin 2 pi y, sin 4 pi x), B0 = 1/sqrt(4 pi), with x and y as fractions of the box
// (Orszag & Tang 1979; the set-up of Athena's test, in units where B^2/2 is the magnetic
// pressure). The point values at cell centres give div B = 0 by central differences.
template <class T>
void fill_orszag_tang(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  const double pi = std::numbers::pi, b0 = 1 / std::sqrt(4 * pi);
  fill(f, c, g, [&](const double* x) {
    const double X = x[0] / c.grid.length[0], Y = x[1] / c.grid.length[1];
    Prim q{25 / (36 * pi), {-std::sin(2 * pi * Y), std::sin(2 * pi * X), 0}, 5 / (12 * pi), 0};
    q.b[0] = -b0 * std::sin(2 * pi * Y);
    q.b[1] = b0 * std::sin(4 * pi * X);
    return q;
  });
}

// fv.init = alfven-wave: the exact cell averages of the wave (MhdProblems.hpp) along
// fv.axis; validation makes it an MHD run.
template <class T>
void fill_alfven_wave(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  const AlfvenWave w = alfven_wave(c);
  fill_conserved(
      f, g, [&](const double* x) { return w.conserved_average(x[w.axis], g.spacing[w.axis]); });
}

// fv.init = mhd-vortex: the exact cell averages of the MHD vortex (AccuracyProblems.hpp);
// validation makes it an MHD run.
template <class T>
void fill_mhd_vortex(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  const MhdVortexSpec s = mhd_vortex_spec(c);
  fill_conserved(f, g, [&](const double* x) {
    return mhd_vortex_average(s, x[0], x[1], g.spacing[0], g.n[1] > 1 ? g.spacing[1] : 0.0, 0);
  });
}

// fv.init = turbulence: uniform density, pressure and field (fv.bx, by, bz) with a random
// velocity of rms Mach number fv.turbulence_mach (TurbulentVelocity.hpp).
template <class T>
void fill_turbulence(std::vector<Field<T>>& f, const FvConfig& c, const Grid& g) {
  TurbulenceSpec s;
  s.rms_speed = c.turbulence_mach * std::sqrt(c.physics.gamma * c.ambient_p / c.ambient_rho);
  s.slope = c.turbulence_slope;
  s.kmin = int(c.turbulence_kmin);
  s.kmax = int(c.turbulence_kmax);
  s.seed = std::uint64_t(c.turbulence_seed);
  s.length = c.grid.length;
  const FieldLayout& l = f[0].layout();
  const std::vector<double> u = turbulent_velocity(s, g, g.offset, l.n);
  exec::for_each_cell(exec::Host{}, exec::interior(l), [&](int i, int j, int k) {
    const double* v = &u[3 * ((std::size_t(k) * l.n[1] + j) * l.n[0] + i)];
    Prim q{c.ambient_rho, {v[0], v[1], v[2]}, c.ambient_p, 0};
    for (int a = 0; a < 3; ++a) q.b[a] = c.field[a];
    store_primitive(f, i, j, k, q, c.physics.gamma);
  });
}

}  // namespace

AlfvenWave alfven_wave(const FvConfig& c) {
  AlfvenWave w;
  w.axis = c.tube_axis;
  w.rho = c.ambient_rho;
  w.p = c.ambient_p;
  w.b0 = c.alfven_b0;
  w.amplitude = c.alfven_amplitude;
  w.gamma = c.physics.gamma;
  w.wavenumber = 2 * std::numbers::pi * double(c.wave_modes) / c.grid.length[w.axis];
  return w;
}

namespace {

// What the isentropic and the MHD vortex share: the gas, the flow they ride, where they
// start and the periodic box.
template <class Spec>
Spec vortex_frame(const FvConfig& c) {
  Spec s;
  s.gamma = c.physics.gamma;
  s.rho_inf = c.ambient_rho;
  s.p_inf = c.ambient_p;
  for (int a = 0; a < 3; ++a) s.u[a] = c.velocity[a];
  for (int a = 0; a < 2; ++a) {
    s.centre[a] = c.vortex_centre[a] * c.grid.length[a];
    s.period[a] = c.grid.length[a];
  }
  return s;
}

}  // namespace

VortexSpec vortex_spec(const FvConfig& c) {
  VortexSpec s = vortex_frame<VortexSpec>(c);
  s.beta = c.vortex_strength;
  return s;
}

MhdVortexSpec mhd_vortex_spec(const FvConfig& c) {
  MhdVortexSpec s = vortex_frame<MhdVortexSpec>(c);
  s.kappa = c.vortex_strength;
  s.mu = c.vortex_field;
  return s;
}

WaveSpec wave_spec(const FvConfig& c) {
  WaveSpec s;
  s.amplitude = c.wave_amplitude;
  s.rho_inf = c.ambient_rho;
  s.p_inf = c.ambient_p;
  for (int a = 0; a < 3; ++a) s.u[a] = c.velocity[a];
  s.axis = c.tube_axis;
  s.wavenumber = 2 * std::numbers::pi * double(c.wave_modes) / c.grid.length[s.axis];
  return s;
}

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
    case FvInit::isentropic_vortex:
      return fill_isentropic_vortex(fields, c, grid);
    case FvInit::smooth_wave:
      return fill_smooth_wave(fields, c, grid);
    case FvInit::double_mach:
      return fill_double_mach(fields, c, grid);
    case FvInit::orszag_tang:
      return fill_orszag_tang(fields, c, grid);
    case FvInit::alfven_wave:
      return fill_alfven_wave(fields, c, grid);
    case FvInit::mhd_vortex:
      return fill_mhd_vortex(fields, c, grid);
    case FvInit::turbulence:
      return fill_turbulence(fields, c, grid);
  }
}

template void fill_initial<float>(std::vector<Field<float>>&, const FvConfig&, const Grid&);
template void fill_initial<double>(std::vector<Field<double>>&, const FvConfig&, const Grid&);

}  // namespace fluxview::fv
