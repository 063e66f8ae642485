#!/bin/sh
# Draws a probe line and pins a point in the window the way a person does, with the mouse
# (xdotool), for GuiProbeTest. Run on a virtual 1600x1000 screen (tests/support/own-xvfb.sh;
# the 1400x860 window whole): drags from (500, 450) to (1050, 450) across the 2D view of a 2D run and
# shift-clicks at (784, 451), the view's middle. The window exports the probes after its
# last frame into FOLDER/probes.
# usage: drag_probes.sh FLUXVIEW FOLDER
set -e
exe="$1"
dir="$2"
printf '{"folder": "%s/probes"}' "$dir" > "$dir/start.json"
"$exe" gui heat/sine-decay --backend cpu --set grid.nx=255 --set grid.ny=255 --set grid.nz=1 \
  --set heat.sine_amplitude=2 --exit-after-frames 500 --probe-file "$dir/start.json" \
  > "$dir/log.txt" 2>&1 &
pid=$!
wid=$(xdotool search --sync --name "fluxview - ")
sleep 1
xdotool mousemove --window "$wid" 500 450 sleep 0.2 mousedown 1 sleep 0.2 \
  mousemove --window "$wid" 600 450 sleep 0.2 mousemove --window "$wid" 800 450 sleep 0.2 \
  mousemove --window "$wid" 1050 450 sleep 0.3 mouseup 1 sleep 0.2
xdotool mousemove --window "$wid" 784 451 sleep 0.2 keydown shift sleep 0.2 click 1 sleep 0.2 \
  keyup shift
wait "$pid"
