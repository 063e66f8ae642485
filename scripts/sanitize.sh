#!/usr/bin/env bash
# Builds the CPU code with AddressSanitizer and UndefinedBehaviorSanitizer (the asan
# preset: -O1 with line tables, which is what the sanitizers need and builds in a third of
# the time -O3 takes) and runs the unit and physics tests under them.
#
# Processes that start Open MPI (the adaptive mesh's tests and runs, named Amr or
# AdaptiveMesh: p4est needs a communicator) end with LeakSanitizer reports from inside
# Open MPI's start-up whose frames stay unsymbolised (likely its plugins, unloaded at its
# end), which no suppression by library or function name matched. Those tests run
# without leak detection, so they stay under ASan and UBSan. Left out here, and run in
# the main suite: the three runs that take minutes under the sanitizers (Shu-Osher, the
# adaptive mesh's Sedov and its periodic blast), whose loops the smaller Sod, blast and
# regrid tests run here too.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset asan >/dev/null
# Only the test programs of the two labels run here (and the executable they call).
cmake --build --preset asan -j"$(nproc)" --target tests_unit tests_physics
starts_mpi="Amr|AdaptiveMesh|insitu_amr|Cli.FolderOptionsAreChecked"
slow="FvSchemeShocks.ShuOsher|AmrSedov.Octant|AmrConservation.PeriodicBlast"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  ctest --preset asan -L "unit|physics" -j"$(nproc)" --timeout 900 \
  -E "$starts_mpi|$slow"
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  ctest --preset asan -L "unit|physics" -j"$(nproc)" --timeout 900 -R "$starts_mpi" -E "$slow"
