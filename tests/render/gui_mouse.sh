#!/bin/sh
# Runs `fluxview gui ARGS` and works the mouse over its window as ACTIONS say (xdotool
# commands, WID standing for the window's id), for the GUI tests that need a person's hand
# (GuiToolTest). Run on a virtual 1600x1000 screen (tests/support/own-xvfb.sh), so that the
# 1400x860 window is there whole. The window's output goes to FOLDER/log.txt; the exit code is the window's.
# usage: gui_mouse.sh FLUXVIEW FOLDER "ARGS" "ACTIONS"
exe="$1"
dir="$2"
# ARGS split into words on purpose (the tests' paths have no spaces).
# shellcheck disable=SC2086
"$exe" gui $3 > "$dir/log.txt" 2>&1 &
pid=$!
wid=$(xdotool search --sync --name "fluxview - ")
sleep 1
# shellcheck disable=SC2046
xdotool $(echo "$4" | sed "s/WID/$wid/g") || echo "gui_mouse.sh: xdotool failed" >&2
wait "$pid"
