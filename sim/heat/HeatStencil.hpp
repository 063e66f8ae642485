#pragma once
// The pointwise physics of the heat solver, shared by the CPU loop and every CUDA
// kernel: FTCS on the 7-point stencil (Vizitiu et al. 2014, eq. 3), generalised to
// unequal spacing, T' = T + cx (Tw + Te - 2T) + cy (Ts + Tn - 2T) + cz (Tb + Tf - 2T)
// with c_a = alpha dt / d_a^2. For cubic cells cx = cy = cz = d and this is eq. 3.
#include "sim/core/HostDevice.hpp"

namespace fluxview::heat {

template <class T>
FLUXVIEW_HD T ftcs_update(T c, T xm, T xp, T ym, T yp, T zm, T zp, T cx, T cy, T cz) {
  return c + cx * (xm + xp - T(2) * c) + cy * (ym + yp - T(2) * c) + cz * (zm + zp - T(2) * c);
}

}  // namespace fluxview::heat
