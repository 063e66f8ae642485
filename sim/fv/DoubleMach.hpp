#pragma once
// The double Mach reflection of Woodward & Colella (1984, sec. IVc): a Mach 10 shock in
// air (gamma 1.4) meets a wall at 60 degrees. In the box [0, 4] x [0, 1] the wall is the
// bottom face from x = 1/6; the shock crosses the bottom at x = 1/6 at t = 0, inclined at
// 60 degrees to it, and moves at 10 along its normal, so at time t it lies on
//   x = 1/6 + (y + 20 t) / sqrt(3).
// Ahead of it the gas is at rest, rho = 1.4, p = 1; behind it rho = 8, p = 116.5 and the
// velocity 8.25 along the shock normal, (8.25 cos 30, -8.25 sin 30). The boundaries: the
// post-shock state enters at the left and along the bottom before the wall, the top
// follows the exact shock, the wall reflects and the right is outflow. Shared by the
// initial state and the ghost fill of both backends.
#include "sim/core/HostDevice.hpp"
#include "sim/fv/EulerState.hpp"

namespace fluxview::fv {

inline constexpr double kDoubleMachWallStart = 1.0 / 6.0;

// The x of the shock at height y and time t.
FLUXVIEW_HD double double_mach_shock_x(double y, double t) {
  return kDoubleMachWallStart + (y + 20.0 * t) * 0.57735026918962576451;  // 1/sqrt(3)
}

// The primitive state (rho, u, v, w, p) the exact solution has at (x, y) away from the
// reflection: post-shock behind the shock, pre-shock ahead.
FLUXVIEW_HD State<double, 5> double_mach_state(double x, double y, double t) {
  if (x < double_mach_shock_x(y, t))
    return State<double, 5>{{8.0, 7.1447096663934758, -4.125, 0.0, 116.5}};
  return State<double, 5>{{1.4, 0.0, 0.0, 0.0, 1.0}};
}

}  // namespace fluxview::fv
