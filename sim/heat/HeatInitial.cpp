#include "sim/heat/HeatInitial.hpp"

#include <array>
#include <cmath>
#include <numbers>

#include "sim/core/ExecHost.hpp"

namespace fluxview::heat {

namespace {

// heat.init = uniform: T_initial everywhere.
template <class T>
void fill_uniform(Field<T>& f, const HeatConfig& c) {
  exec::for_each_cell(exec::Host{}, exec::interior(f.layout()),
                      [&](int i, int j, int k) { f(i, j, k) = T(c.T_initial); });
}

// heat.init = sine: A prod_a sin(m_a pi x_a / L_a) over the axes that are not reduced, the
// mode whose decay the physics test compares with exp(-alpha |k|^2 t).
template <class T>
void fill_sine(Field<T>& f, const HeatConfig& c, const Grid& g) {
  const double pi = std::numbers::pi;
  double wave[3];
  for (int a = 0; a < 3; ++a) wave[a] = double(c.sine_modes[a]) * pi / c.grid.length[a];
  exec::for_each_cell(exec::Host{}, exec::interior(f.layout()), [&](int i, int j, int k) {
    const double x = g.coord(0, g.offset[0] + i), y = g.coord(1, g.offset[1] + j),
                 z = g.coord(2, g.offset[2] + k);
    f(i, j, k) =
        T(c.sine_amplitude * (g.n[0] > 1 ? std::sin(wave[0] * x) : 1) *
          (g.n[1] > 1 ? std::sin(wave[1] * y) : 1) * (g.n[2] > 1 ? std::sin(wave[2] * z) : 1));
  });
}

// heat.init = hot-spot: spot_T inside a ball (a disc or slab along reduced axes) of
// spot_radius, measured in box fractions so the spot is round in a cubic box; T_initial
// outside.
template <class T>
void fill_hot_spot(Field<T>& f, const HeatConfig& c, const Grid& g) {
  const double r = c.spot_radius;
  exec::for_each_cell(exec::Host{}, exec::interior(f.layout()), [&](int i, int j, int k) {
    const double xs[3] = {g.coord(0, g.offset[0] + i), g.coord(1, g.offset[1] + j),
                          g.coord(2, g.offset[2] + k)};
    double d2 = 0;
    for (int a = 0; a < 3; ++a)
      if (g.n[a] > 1) d2 += std::pow(xs[a] / c.grid.length[a] - c.spot_centre[a], 2);
    f(i, j, k) = T(d2 <= r * r ? c.spot_T : c.T_initial);
  });
}

// The walls: the ghost layer of each face on the global boundary (an inner face's ghosts
// come from the neighbouring rank); none along a reduced axis.
template <class T>
void fill_walls(Field<T>& f, const HeatConfig& c, const parallel::LocalBox& box) {
  const auto& n = f.layout().n;
  for (int a = 0; a < 3; ++a) {
    if (n[a] == 1) continue;
    for (int side = 0; side < 2; ++side) {
      if (!(side == 0 ? box.at_low_edge(a) : box.at_high_edge(a))) continue;
      exec::Box face = exec::interior(f.layout());
      face.lo[a] = side == 0 ? -1 : n[a];
      face.hi[a] = face.lo[a] + 1;
      const T wall = T(c.walls[a][side]);
      exec::for_each_cell(exec::Host{}, face, [&](int i, int j, int k) { f(i, j, k) = wall; });
    }
  }
}

}  // namespace

template <class T>
void fill_initial(Field<T>& f, const HeatConfig& c, const Grid& grid,
                  const parallel::LocalBox& box) {
  switch (c.init) {
    case HeatInit::uniform:
      fill_uniform(f, c);
      break;
    case HeatInit::sine:
      fill_sine(f, c, grid);
      break;
    case HeatInit::hot_spot:
      fill_hot_spot(f, c, grid);
      break;
  }
  fill_walls(f, c, box);
}

template void fill_initial<float>(Field<float>&, const HeatConfig&, const Grid&,
                                  const parallel::LocalBox&);
template void fill_initial<double>(Field<double>&, const HeatConfig&, const Grid&,
                                   const parallel::LocalBox&);

}  // namespace fluxview::heat
