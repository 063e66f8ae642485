#include "app/gui/Lessons.hpp"

namespace fluxview::app {

const std::vector<Lesson>& lessons() {
  static const std::vector<Lesson> table = {
      {"Diffusion: a hot spot spreads",
       "heat/hot-spot",
       {"grid.n=64"},
       render::ViewMode::slices3d,
       "Heat flows down the gradient: the peak falls and the spot widens like sqrt(alpha t).\n"
       "Watch max(T) in the diagnostics fall while the mean stays put until heat reaches the "
       "walls."},
      {"Steady state: a hot wall",
       "heat/hot-wall",
       {"grid.nx=96", "grid.ny=96", "grid.nz=1"},
       render::ViewMode::slice2d,
       "One wall at 100 degC, three at 0: the field relaxes to the solution of Laplace's "
       "equation.\n"
       "The run pauses by itself when dT/dt falls below heat.steady_tol."},
      {"Exact solution: a sine mode decays",
       "heat/sine-decay",
       {"grid.n=32"},
       render::ViewMode::slice2d,
       "A single Fourier mode keeps its shape and decays as exp(-alpha |k|^2 t).\n"
       "Try heat.sine_mx = 2: four times faster decay."},
      {"Shock tube (Sod), 1D",
       "fv/sod",
       {},
       render::ViewMode::slice2d,
       "A diaphragm bursts: a shock, a contact and a rarefaction run apart (exact Riemann "
       "solution).\n"
       "A 1D run: the View section plots the profile along x."},
      {"Kelvin-Helmholtz billows (2D)",
       "fv/kelvin-helmholtz",
       {"grid.nx=128", "grid.ny=128"},
       render::ViewMode::slice2d,
       "Two streams sliding past each other: small ripples roll up into vortices."},
      {"Blast wave (Sedov-Taylor)",
       "fv/sedov",
       {"grid.n=48"},
       render::ViewMode::slices3d,
       "A point explosion: the shock radius grows as t^(2/5). Show the field rho."},
      {"Shear layers roll up (fd)",
       "fd/shear-layers",
       {"grid.n=48"},
       render::ViewMode::slices3d,
       "Two shear layers in a periodic box roll up into Kelvin-Helmholtz vortices."},
      {"Radial explosion (fd)",
       "fd/radial-explosion",
       {"grid.n=48"},
       render::ViewMode::slices3d,
       "A Gaussian shell of outward velocity: the flow stays spherically symmetric."},
  };
  return table;
}

}  // namespace fluxview::app
