#pragma once
// The Euler equations as the policies the generic pieces of the higher-order schemes ask
// for: which variables a line is reconstructed in (CellReconstruction.hpp), the physical
// flux (AderPredictor.hpp), and which point values a face trusts and the Riemann flux of
// two conserved states (ModalFaceFlux.hpp). An MHD state (9 or 10 variables) takes the
// same three, each handing it to MhdState.hpp and MhdRiemann.hpp.
#include "sim/core/HostDevice.hpp"
#include "sim/fv/EulerCharacteristics.hpp"
#include "sim/fv/FvPhysics.hpp"
#include "sim/fv/RiemannSolvers.hpp"

namespace fluxview::fv {

template <class T, int NV>
struct EulerLineVariables {
  ReconstructionVariables vars = ReconstructionVariables::characteristic;
  Physics<T> ph;
  template <int D>
  FLUXVIEW_HD EulerProjection<D, T, NV> along(const State<T, NV>& u0) const {
    return EulerProjection<D, T, NV>(u0, vars, ph);
  }
};

template <class T, int NV>
struct EulerFlux {
  Physics<T> ph;
  template <int D>
  FLUXVIEW_HD State<T, NV> flux(const State<T, NV>& u) const {
    if constexpr (is_mhd<NV>)
      return mhd_glm_flux<D>(cons_to_prim(u, ph), u, ph.ch);
    else
      return physical_flux<D>(cons_to_prim(u, ph), u);
  }
};

template <class T, int NV>
struct EulerFaceSolver {
  Physics<T> ph;  // the Riemann solver is ph.riemann (fv.riemann)
  // What a point value beside a face may be, given the averages a and b of the two cells:
  // admissible, with density and pressure within a factor kFaceBand of the range of the
  // two cells'. Admissible is not enough: in a 24^3 Sedov run at fourth order (weno4 +
  // ADER) a cell took a density of 9e35 on step 19 from point values that were admissible
  // (likely the predictor's m^2 / rho at a node near the density floor; docs/fv.md). A
  // smooth flow never leaves the band (the design orders are unchanged with it).
  static constexpr T kFaceBand = T(10);
  struct Band {
    T rho_lo, rho_hi, p_lo, p_hi;
  };
  FLUXVIEW_HD Band band(const State<T, NV>& a, const State<T, NV>& b) const {
    const State<T, NV> qa = cons_to_prim(a, ph), qb = cons_to_prim(b, ph);
    return {fv_min(qa.v[kRho], qb.v[kRho]) / kFaceBand, fv_max(qa.v[kRho], qb.v[kRho]) * kFaceBand,
            fv_min(qa.v[kPressure], qb.v[kPressure]) / kFaceBand,
            fv_max(qa.v[kPressure], qb.v[kPressure]) * kFaceBand};
  }
  FLUXVIEW_HD bool trusted_state(const State<T, NV>& u, const Band& b) const {
    const T rho = u.v[kRho];
    if (!(rho > ph.rho_floor && rho >= b.rho_lo && rho <= b.rho_hi)) return false;  // NaN too
    const T p = raw_pressure(u, ph);
    return p > ph.p_floor && p >= b.p_lo && p <= b.p_hi;
  }
  template <int D>
  FLUXVIEW_HD State<T, NV> flux(const State<T, NV>& uL, const State<T, NV>& uR) const {
    return riemann_flux<D>(cons_to_prim(uL, ph), cons_to_prim(uR, ph), ph);
  }
};

}  // namespace fluxview::fv
