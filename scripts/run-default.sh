#!/usr/bin/env bash
# Installs the Debian packages, builds fluxview and runs the default scenario: the GUI
# where a display exists, otherwise headless, printing where the output went.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default -j"$(nproc)"
exec ./build/app/fluxview "$@"
