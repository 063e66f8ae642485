#pragma once
// The fd family: isothermal compressible viscous hydrodynamics in (ln rho, u) with
// sixth-order central differences and 2N-storage RK3 (Pekkila et al. 2017, "Astaroth").
// docs/fd.md describes the equations, methods, scenarios and parameters.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/Solver.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::fd {

// The fd family for the registry: parameters, checks and the factory.
SolverFamily family();

// Makes an fd solver for a backend and precision (FdSolver<T> in FdSolver.cpp).
std::unique_ptr<Solver> make_solver(BackendKind backend, Precision precision);

// Shell-averaged kinetic energy spectrum of the velocity of any solver with fields ux, uy,
// uz: pairs (k, E(k)) for integer shells k = 0, 1, ..., k_max (|k| in units of 2 pi / lx,
// shell k holds k - 1/2 <= |k| < k + 1/2), with E normalised so that sum_k E(k) = <u^2>/2.
// Copies the three velocity fields to the host (a "skinny" transfer) and FFTs them there.
// Collective under MPI: every rank's box is gathered to rank 0, which alone computes and
// returns the spectrum (the other ranks get an empty vector).
std::vector<std::pair<double, double>> kinetic_spectrum(const Solver& s);

// Whether a run of these parameters asks for spectra at each output (fd.spectrum).
bool writes_spectrum(const ParamSet& p);
// Writes kinetic_spectrum(s) as CSV ("k,E" header) to `path`, atomically (temp + rename).
// Collective under MPI; rank 0 writes the file.
void write_spectrum_csv(const Solver& s, const std::string& path);

}  // namespace fluxview::fd
