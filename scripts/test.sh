#!/usr/bin/env bash
# Installs the Debian packages, builds fluxview (CUDA for one architecture, so CI stays
# short) and runs the whole test suite. Tests that need a GPU skip with a message where
# there is none; tests that draw or run ParaView get a virtual X display (Xvfb + Mesa).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset ci
cmake --build --preset ci -j"$(nproc)"
exec xvfb-run -a -s "-screen 0 1280x1024x24" ctest --preset ci -j"$(nproc)" --timeout 900 "$@"
