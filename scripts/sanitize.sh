#!/usr/bin/env bash
# Builds the CPU code with AddressSanitizer and UndefinedBehaviorSanitizer (the asan
# preset) and runs the unit and physics tests under them.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset asan >/dev/null
cmake --build --preset asan -j"$(nproc)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan -L "unit|physics" -j"$(nproc)" --timeout 900
