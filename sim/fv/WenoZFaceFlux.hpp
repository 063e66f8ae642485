#pragma once
// The flux through one face of the WENO-Z path from the six cells across it, a pointwise
// function so that every place that needs that flux computes the same bits: the uniform
// grid's face pass (FvModalLoops.hpp), the adaptive mesh's block stage and its refluxing
// (sim/amr), on the host and the device.
//
// The face values are reconstructed in the run's variables (conserved, primitive or
// characteristic) linearised about the mean of the two cells beside the face; where a face
// value is not trusted (EulerFaceSolver::trusted_state) both sides fall back to the two
// cell averages, the first-order flux of that face.
#include "sim/core/HostDevice.hpp"
#include "sim/fv/EulerCharacteristics.hpp"
#include "sim/fv/EulerPolicies.hpp"
#include "sim/fv/WenoReconstruction.hpp"

namespace fluxview::fv {

// The flux along D through the face between u[2] and u[3] of the conserved states u[0 .. 5]
// of six consecutive cells.
template <int D, int NV, class T>
FLUXVIEW_HD State<T, NV> wenoz_face_flux(const State<T, NV> u[6], const EulerFaceSolver<T, NV>& rs,
                                         ReconstructionVariables vars) {
  State<T, NV> ref;
  for (int v = 0; v < NV; ++v) ref.v[v] = T(0.5) * (u[2].v[v] + u[3].v[v]);
  const EulerProjection<D, T, NV> proj(ref, vars, rs.ph);
  State<T, NV> w[6];
  for (int s6 = 0; s6 < 6; ++s6) {
    State<T, NV> d;
    for (int v = 0; v < NV; ++v) d.v[v] = u[s6].v[v] - ref.v[v];
    w[s6] = proj.to_fields(d);
  }
  State<T, NV> wl, wr;
  for (int v = 0; v < NV; ++v) {
    const T left[5] = {w[0].v[v], w[1].v[v], w[2].v[v], w[3].v[v], w[4].v[v]};
    const T right[5] = {w[5].v[v], w[4].v[v], w[3].v[v], w[2].v[v], w[1].v[v]};
    wl.v[v] = wenoz5_face(left);
    wr.v[v] = wenoz5_face(right);
  }
  State<T, NV> ul = proj.from_fields(wl), ur = proj.from_fields(wr);
  for (int v = 0; v < NV; ++v) {
    ul.v[v] += ref.v[v];
    ur.v[v] += ref.v[v];
  }
  const auto band = rs.band(u[2], u[3]);
  if (!(rs.trusted_state(ul, band) && rs.trusted_state(ur, band))) {
    ul = u[2];
    ur = u[3];
  }
  return rs.template flux<D>(ul, ur);
}

}  // namespace fluxview::fv
