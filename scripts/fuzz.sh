#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (ASan + UBSan) and runs both at once for a bounded time
# (default 60 s each) from its kept corpus: fuzz_scenario over the scenario parser
# (tests/fuzz/corpus) and fuzz_cli over the command line (tests/fuzz/corpus_cli). New inputs
# that reach new code land in build-fuzz/corpus*; a crash fails the script and leaves the
# input as build-fuzz/crash-*.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
# -O1 with line tables, as the sanitizer preset: what the sanitizers need, and the harnesses'
# paths (parsing, option checks) are not loops that -O3 would speed up. The solvers' library
# at -O0: the harnesses parse and validate and never step a solver, and clang's -O1 under the
# sanitizers spent 130 s on its finite-volume loops (FvCpu.cpp; 27 s at -O0).
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DFLUXVIEW_SIM_CXX_OPTIMIZATION=-O0 \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DFLUXVIEW_FUZZ=ON -DFLUXVIEW_WITH_CUDA=OFF -DFLUXVIEW_WITH_GUI=OFF -DFLUXVIEW_WITH_CATALYST=OFF \
  -DFLUXVIEW_WITH_MPI=OFF -DFLUXVIEW_WITH_HDF5=OFF -DFLUXVIEW_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz --target fuzz_scenario fuzz_cli -j"$(nproc)"
cd build-fuzz
# The two harnesses at once: libFuzzer runs one process, and CI has two cores.
fuzz() {  # harness corpus
  mkdir -p "$2"
  ./tests/fuzz/fuzz_$1 -seed="${FUZZ_SEED:-1}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 "$2" "../tests/fuzz/$2" >"fuzz-$1.log" 2>&1
}
fuzz scenario corpus &
scenario=$!
fuzz cli corpus_cli &
cli=$!
status=0
for harness in scenario cli; do
  if wait "${!harness}"; then
    tail -n 15 "fuzz-$harness.log"
    echo "fuzz.sh: ${seconds} s of fuzzing the $harness harness found no crash"
  else
    tail -n 60 "fuzz-$harness.log"
    echo "fuzz.sh: the $harness harness failed (its input is in build-fuzz/crash-* or the log above)" >&2
    status=1
  fi
done
exit $status
