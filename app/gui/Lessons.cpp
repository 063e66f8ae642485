#include "app/gui/Lessons.hpp"

namespace fluxview::app {

const std::vector<Lesson>& lessons() {
  static const std::vector<Lesson> table = {
      {"Diffusion: a hot spot spreads",
       "heat/hot-spot",
       {"grid.n=64"},
       render::ViewMode::slices3d,
       false,
       "Heat flows down the gradient: the peak falls and the spot widens like sqrt(alpha t).\n"
       "Watch max(T) in the diagnostics fall while the mean stays put until heat reaches the "
       "walls.",
       "Try: Steering tools > Add or remove heat, click a second spot beside the first; or set "
       "heat.alpha twice as large while it runs."},
      {"Steady state: a hot wall",
       "heat/hot-wall",
       {"grid.nx=96", "grid.ny=96", "grid.nz=1"},
       render::ViewMode::slice2d,
       false,
       "One wall at 100 degC, three at 0: the field relaxes to the solution of Laplace's "
       "equation.\n"
       "The run pauses by itself when dT/dt falls below heat.steady_tol.",
       "Try: Draw a fixed-temperature obstacle at 100 degC in the middle and watch the "
       "isotherms bend around it; then change heat.T_xmin while it runs."},
      {"Exact solution: a sine mode decays",
       "heat/sine-decay",
       {"grid.n=32"},
       render::ViewMode::slice2d,
       false,
       "A single Fourier mode keeps its shape and decays as exp(-alpha |k|^2 t).\n"
       "Try heat.sine_mx = 2: four times faster decay.",
       "Try: set heat.alpha twice as large while it runs: the decay rate doubles from that "
       "step on (the marker on the plot)."},
      {"Shock tube (Sod), 1D",
       "fv/sod",
       {},
       render::ViewMode::slice2d,
       false,
       "A diaphragm bursts: a shock, a contact and a rarefaction run apart (exact Riemann "
       "solution).\n"
       "A 1D run: the View section plots the profile along x.",
       "Try: untick as fast as possible and set the pace to 0.02 sim s / s, so the waves "
       "take seven seconds to reach the end at t = 0.14 s, where the run pauses."},
      {"Kelvin-Helmholtz billows (2D)",
       "fv/kelvin-helmholtz",
       {"grid.nx=128", "grid.ny=128"},
       render::ViewMode::slice2d,
       false,
       "Two streams sliding past each other: small ripples roll up into vortices.",
       "Try: Draw a solid obstacle in one stream and watch the billows wrap around it."},
      {"Blast wave (Sedov-Taylor)",
       "fv/sedov",
       {"grid.n=48"},
       render::ViewMode::slices3d,
       false,
       "A point explosion: the shock radius grows as t^(2/5). Show the field rho.",
       "Try: in the 2D slice, drop a dense cloud in front of the blast and watch it shred; "
       "set off a second blast and see the two shocks meet."},
      {"Shear layers roll up (fd)",
       "fd/shear-layers",
       {"grid.n=48"},
       render::ViewMode::slices3d,
       false,
       "Two shear layers in a periodic box roll up into Kelvin-Helmholtz vortices.",
       "Try: Add a vortex between the layers, or raise fd.nu while it runs and watch the "
       "small eddies fade."},
      {"Radial explosion (fd)",
       "fd/radial-explosion",
       {"grid.n=48"},
       render::ViewMode::slices3d,
       false,
       "A Gaussian shell of outward velocity: the flow stays spherically symmetric.",
       "Try: a velocity kick off the centre breaks the symmetry; the shell no longer stays "
       "round."},
      {"Cloud in a blast (adaptive mesh)",
       "fv/cloud-disruption-amr",
       {"grid.nx=64", "grid.ny=64", "grid.nz=1", "fv.amr.max_level=3", "fv.amr.outside_level=1",
        "fv.cloud_radius=0.03", "fv.cloud_x=0.7", "run.until=0.04"},
       render::ViewMode::slice2d,
       true,
       "The paper's cloud disruption in 2D, on the adaptive mesh: fine blocks follow the shock "
       "and the cloud, coarse ones cover the quiet gas.\n"
       "Outlines show the blocks, coloured by level; the Diagnostics plot blocks per level.",
       "Try: switch the block outlines off and on in View; then set fv.amr.max_level = 2 and "
       "Reset: the cloud is a few cells across and the blast shreds it differently."},
  };
  return table;
}

}  // namespace fluxview::app
