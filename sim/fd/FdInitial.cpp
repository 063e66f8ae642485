#include "sim/fd/FdInitial.hpp"

#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "sim/core/ExecHost.hpp"
#include "sim/fd/FdForcing.hpp"

namespace fluxview::fd {

namespace {

constexpr double kPi = std::numbers::pi;

// The position of a point of this rank's box.
struct Position {
  const Grid& g;
  std::array<double, 3> operator()(int i, int j, int k) const {
    return {g.coord(0, g.offset[0] + i), g.coord(1, g.offset[1] + j), g.coord(2, g.offset[2] + k)};
  }
};

// Sets the four variables of every point to what `state(x, v)` writes into v, which starts
// as the fluid at rest at density rho0.
template <class T, class State>
void fill(Field<T>* f, const FdConfig& c, const Grid& g, State state) {
  const double lnrho0 = std::log(c.rho0);
  const Position at{g};
  exec::for_each_cell(exec::Host{}, exec::interior(f[0].layout()), [&](int i, int j, int k) {
    double v[kVars] = {lnrho0, 0, 0, 0};
    state(at(i, j, k), v);
    for (int q = 0; q < kVars; ++q) f[q](i, j, k) = T(v[q]);
  });
}

// fd.init = sine: u_y = u0 sin(2 pi k x / lx), the mode whose viscous decay the physics
// test compares with u0 exp(-nu k^2 t).
template <class T>
void fill_sine(Field<T>* f, const FdConfig& c, const Grid& g) {
  fill(f, c, g, [&](const std::array<double, 3>& x, double* v) {
    v[kUy] = c.u0 * std::sin(2 * kPi * double(c.k) * x[0] / c.grid.length[0]);
  });
}

// fd.init = explosion, eq. (23): a Gaussian shell of radial velocity around the box centre.
template <class T>
void fill_explosion(Field<T>* f, const FdConfig& c, const Grid& g) {
  fill(f, c, g, [&](const std::array<double, 3>& x, double* v) {
    double r2 = 0, d[3];
    for (int a = 0; a < 3; ++a) {
      d[a] = g.n[a] > 1 ? x[a] - 0.5 * c.grid.length[a] : 0;
      r2 += d[a] * d[a];
    }
    const double r = std::sqrt(r2);
    if (r > 0) {
      const double s =
          c.u_ampl * std::exp(-(r - c.r_shell) * (r - c.r_shell) / (2 * c.d_shell * c.d_shell)) / r;
      for (int a = 0; a < 3; ++a) v[kUx + a] = s * d[a];
    }
  });
}

// fd.init = shear: two opposite streams along x in the middle half of y, smooth (tanh)
// edges, and a 3D perturbation of u_y that seeds Kelvin-Helmholtz rolls on both layers.
template <class T>
void fill_shear(Field<T>* f, const FdConfig& c, const Grid& g) {
  const std::array<double, 3>& len = c.grid.length;
  const double width = c.shear_width * len[1];
  const double pert = c.perturb * c.u0;
  fill(f, c, g, [&](const std::array<double, 3>& x, double* v) {
    const double y = x[1], ly = len[1];
    const double prof = std::tanh((y - 0.25 * ly) / width) - std::tanh((y - 0.75 * ly) / width) - 1;
    v[kUx] = c.u0 * prof;
    const double env = std::exp(-std::pow((y - 0.25 * ly) / (4 * width), 2)) +
                       std::exp(-std::pow((y - 0.75 * ly) / (4 * width), 2));
    v[kUy] = pert * env * std::sin(2 * kPi * 2 * x[0] / len[0]) *
             (1 + 0.5 * std::cos(2 * kPi * x[2] / len[2]));
    v[kUz] = 0.5 * pert * env * std::sin(2 * kPi * x[2] / len[2]);
  });
}

// fd.init = random: a smooth random state, a few Fourier modes per variable with seeded
// amplitudes and phases (the same on every rank and in every run of the seed).
template <class T>
void fill_random(Field<T>* f, const FdConfig& c, const Grid& g) {
  struct Mode {
    int k[3];
    double a, ph;
  };
  std::vector<Mode> modes[kVars];
  ForcingRng r(c.seed ^ 0x5eedULL);
  for (int v = 0; v < kVars; ++v)
    for (int m = 0; m < 6; ++m) {
      Mode md;
      for (int a = 0; a < 3; ++a) md.k[a] = g.n[a] > 1 ? int(r.next() % 5) - 2 : 0;
      md.a = (v == kLnrho ? 0.1 : c.u0) * (r.uniform() - 0.5);
      md.ph = 2 * kPi * r.uniform();
      modes[v].push_back(md);
    }
  fill(f, c, g, [&](const std::array<double, 3>& x, double* v) {
    for (int q = 0; q < kVars; ++q)
      for (const Mode& md : modes[q]) {
        double ph = md.ph;
        for (int a = 0; a < 3; ++a) ph += 2 * kPi * md.k[a] * x[a] / c.grid.length[a];
        v[q] += md.a * std::sin(ph);
      }
  });
}

}  // namespace

template <class T>
void fill_initial(Field<T>* fields, const FdConfig& c, const Grid& grid) {
  switch (c.init) {
    case FdInit::rest:
      return fill(fields, c, grid, [](const std::array<double, 3>&, double*) {});
    case FdInit::sine:
      return fill_sine(fields, c, grid);
    case FdInit::explosion:
      return fill_explosion(fields, c, grid);
    case FdInit::shear:
      return fill_shear(fields, c, grid);
    case FdInit::random:
      return fill_random(fields, c, grid);
  }
}

template void fill_initial<float>(Field<float>*, const FdConfig&, const Grid&);
template void fill_initial<double>(Field<double>*, const FdConfig&, const Grid&);

}  // namespace fluxview::fd
