#!/usr/bin/env bash
# Installs the Debian packages, builds fluxview and runs the default scenario: the GUI
# where a display exists, otherwise headless, printing where the output went.
# The build is for this machine: CUDA code for the GPU found here, or compute_75 PTX that the
# driver compiles for any GPU where there is none (cmake/FluxviewCudaArchitectures.cmake;
# `cmake --preset portable` for native code for every GPU); only the executable is built
# (scripts/test.sh builds and runs the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
# (nproc without OMP_NUM_THREADS, which it would take as the count of cores)
cmake --build --preset default -j"$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)" --target fluxview
exec ./build/app/fluxview "$@"
