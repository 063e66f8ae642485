#pragma once
// The Euler equations as the policies the generic pieces of the higher-order schemes ask
// for: which variables a line is reconstructed in (CellReconstruction.hpp), the physical
// flux (AderPredictor.hpp), and admissibility and the Riemann flux of two conserved
// states (ModalFaceFlux.hpp). Another physics (MHD) supplies the same three.
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
    return physical_flux<D>(cons_to_prim(u, ph), u);
  }
};

template <class T, int NV>
struct EulerFaceSolver {
  Physics<T> ph;
  Riemann riemann = Riemann::hllc;
  FLUXVIEW_HD bool admissible_state(const State<T, NV>& u) const { return admissible(u, ph); }
  template <int D>
  FLUXVIEW_HD State<T, NV> flux(const State<T, NV>& uL, const State<T, NV>& uR) const {
    return riemann_solve<D>(riemann, cons_to_prim(uL, ph), cons_to_prim(uR, ph), ph.gamma);
  }
};

}  // namespace fluxview::fv
