#pragma once
// A random velocity field with a power-law spectrum, the initial state of decaying
// turbulence (Wang, Abel & Kaehler 2010, sec. 7.4, after Stone, Ostriker & Gammie 1998 and
// Mac Low et al. 1998): a sum of Fourier modes k = 2 pi (m_x / l_x, m_y / l_y, m_z / l_z)
// with kmin <= |m| <= kmax over the axes that have more than one cell, each velocity
// component of each mode with a Gaussian random complex amplitude whose variance follows
// the shell-integrated spectrum E(k) ~ k^slope (-2: Burgers-like, the paper's P(k) ~ k^-2),
// i.e. |a_m|^2 ~ |m|^(slope - (d - 1)) in d dimensions. The field is scaled so that its
// root-mean-square speed over the box is exactly `rms_speed` (Parseval: the box mean of
// |u|^2 is the sum of the modes' 2 |a_m|^2 while the grid resolves every mode, so no
// reduction over MPI ranks is needed), and has no mean.
//
// The same seed gives the same field at every resolution's cell centres and on any number
// of MPI ranks, bit for bit: each rank draws every amplitude in one fixed order and sums
// the modes of each of its cells in one fixed order, from the cell's global position.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/Grid.hpp"

namespace fluxview::fv {

struct TurbulenceSpec {
  double rms_speed = 1;
  double slope = -2;
  int kmin = 1, kmax = 8;  // |m|, in wavelengths across the box
  std::uint64_t seed = 1;
  std::array<double, 3> length{1, 1, 1};  // the box
};

// The velocity (u_x, u_y, u_z) at the centres of a box of cells: `count` cells per axis
// starting at global index `first`, of the grid g; x fastest, as (3 * cell + component).
std::vector<double> turbulent_velocity(const TurbulenceSpec& s, const Grid& g,
                                       const std::array<int, 3>& first,
                                       const std::array<int, 3>& count);

}  // namespace fluxview::fv
