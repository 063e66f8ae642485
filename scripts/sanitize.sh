#!/usr/bin/env bash
# Builds the CPU code with AddressSanitizer and UndefinedBehaviorSanitizer (the asan
# preset, with line tables: the solvers' library at -O1, which builds in a third of the
# time -O3 takes and keeps their loops quick enough for the physics tests; the rest, whose
# code the tests run little of, at -O0, which builds in 60% of -O1's time and is what the
# sanitizers see best) and runs the unit and physics tests under them. In a clean clone
# (2026-11-29) -O0 took about 110 s off the build and added 68 s to the tests (the model
# solvers and the scheme-order tests run loops instantiated in the test sources: the two
# ModalSchemeOrder tests 15-18 s -> 39-41 s); the phase went from 736 s to 696 s.
#
# Processes that start Open MPI (the adaptive mesh's tests and runs, named Amr or
# AdaptiveMesh: p4est needs a communicator) end with LeakSanitizer reports from inside
# Open MPI's start-up whose frames stay unsymbolised (likely its plugins, unloaded at its
# end), which no suppression by library or function name matched. Those tests run
# without leak detection, so they stay under ASan and UBSan. Left out here, and run in
# the main suite: the runs that take half a minute or more under the sanitizers and whose
# loops a smaller test runs here too: Shu-Osher, Sedov's octant and the vortex's orders
# (Sod, the symmetric blast and the wave's orders), the adaptive mesh's Sedov, its periodic
# blast and its magnetised one (its Sod and blast, MHD's fully refined mesh run), the MHD
# vortex's orders (the Alfven wave's), WENO-Z's vortex errors on the mesh (two minutes
# under the sanitizers; its fully refined mesh and periodic blast run the same loops), the
# model solver's 2D and 3D WENO steps (15 s without the sanitizers, its long-double model
# most of it; its 1D steps run here, and the 2D and 3D stages in the physics tests). And,
# since a clean-clone run of 2026-11-28 took 50 minutes (this phase 908 s), the three
# longest runs on the mesh (90, 69 and 64 s here): the mesh's restarts through the file
# (the CLI's restart of a mesh run and the uniform grid's restarts through the file run
# here), the Runge-Kutta schemes' error across coarse-fine faces (their fully refined and
# periodic-blast runs on the mesh run here) and MHD's Brio-Wu on the mesh (its fully
# refined MHD run does). And, since CI's run of 2026-11-29 took 64 minutes, the two longest
# here (57 and 51 s in a clean clone that day): the modal schemes' vortex orders, whose loop
# is the test's own composition of the reconstruction, ADER predictor and Runge-Kutta pieces
# that the solvers' Sod, Sedov and ADER-predictor tests run here, and Brio-Wu's convergence
# (30 s; its solver loops run here in Brio-Wu's higher orders and Athena++ comparison).
set -euo pipefail
cd "$(dirname "$0")/.."
# The cores, for the build and ctest. nproc reads OMP_NUM_THREADS, set to 1 for the tests
# below (with it exported first, ctest ran one test at a time: 694 s, 2026-11-29), so the
# cores are counted without it.
jobs=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
cmake --preset asan >/dev/null
# Only the test programs of the two labels run here (and the executable they call).
cmake --build --preset asan -j"$jobs" --target tests_unit tests_physics
starts_mpi="Amr|AdaptiveMesh|insitu_amr|Cli.FolderOptionsAreChecked"
slow="FvSchemeShocks.ShuOsher|FvSedov.Octant|FvSchemeOrder.Vortex|AmrSedov.Octant|\
AmrConservation.PeriodicBlast|AmrMhd.PeriodicMagnetisedBlast|MhdVortex.EveryScheme|\
AmrWenoZ.KeepsTheUniformGridsError|FvModel.WenoStepsIn2DAnd3D|\
Checkpoint.AdaptiveMeshRestartsThroughTheFile|AmrRungeKutta.TheHigherOrderSchemesCutTheError|\
AmrMhd.BrioWuWithinTwentyPercent|ModalSchemeOrder.Vortex|MhdBrioWu.DensityConverges"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# One OpenMP thread a test, as in test.sh (ctest runs a test on each core); the tests of the
# threaded paths set their own count.
export OMP_NUM_THREADS=1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  ctest --preset asan -L "unit|physics" -j"$jobs" --timeout 900 \
  -E "$starts_mpi|$slow"
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  ctest --preset asan -L "unit|physics" -j"$jobs" --timeout 900 -R "$starts_mpi" -E "$slow"
