#!/usr/bin/env bash
# The GUI in a window while it steps, for docs/performance.md ("The GUI in a window on the
# GPU", issue 18): frames per second of the 3D view of a 256^3 CUDA run of each family,
# and the same run with five tool strokes from a steering file (what a stroke costs).
# Needs a display whose GLX renders on the GPU (on the GPU machine: Xvfb with the NVIDIA
# GLX vendor library, __GLX_VENDOR_LIBRARY_NAME=nvidia) and a fluxview built with the
# window. One summary line per run (`fluxview gui ... --exit-after-frames` prints it).
# usage: gpu-gui-frames.sh FLUXVIEW OUT_DIR [FRAMES]
set -uo pipefail
bin=${1:?usage: gpu-gui-frames.sh FLUXVIEW OUT_DIR [FRAMES]}
out=${2:?usage: gpu-gui-frames.sh FLUXVIEW OUT_DIR [FRAMES]}
frames=${3:-600}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
for run in "heat/hot-spot heat" "fd/shear-layers fd" "fv/sedov fv"; do
  set -- $run
  # The scenario's end is put out of reach: the runs step for every frame.
  common=(gui "$1" --backend cuda --set grid.n=256 --set run.steps=1000000 --set run.until=0
    --exit-after-frames "$frames")
  "$bin" "${common[@]}" --screenshot "$out/$2.png" >"$out/$2.txt" 2>&1
  echo "$1 256^3: $(grep 'frames in' "$out/$2.txt" || echo "failed (rc $?), see $out/$2.txt")"
  "$bin" "${common[@]}" --steer "$here/assets/steering/bench/$2-256.toml" >"$out/$2-steered.txt" 2>&1
  echo "$1 256^3 steered: $(grep 'frames in' "$out/$2-steered.txt" || echo "failed, see $out/$2-steered.txt")"
done
