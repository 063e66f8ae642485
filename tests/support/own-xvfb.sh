#!/bin/sh
# own-xvfb.sh SCREEN COMMAND [ARGS...]: runs COMMAND on a virtual X server of its own (Xvfb
# with one screen of SCREEN, e.g. 1600x1000x24) and exits with COMMAND's status.
#
# Why not `xvfb-run -a`: it takes the first display number without a lock file and only
# then starts Xvfb there, so two tests that start at once can take the same number; one
# server wins, and the other test's client, holding its own cookie, is refused by the
# winner's server (tests/insitu/CMakeLists.txt gives each Catalyst test its own starting
# number for this). `Xvfb -displayfd` chooses the first free number itself, under its own
# lock, and writes it down once it accepts connections. The server has no cookie: only this
# machine's clients reach it (-nolisten tcp). It resets when its last client leaves, as
# xvfb-run's does, so the tests see what a user's `xvfb-run fluxview gui` sees.
set -u
if [ $# -lt 2 ]; then
  echo "usage: own-xvfb.sh SCREEN COMMAND [ARGS...]  (SCREEN e.g. 1280x800x24)" >&2
  exit 2
fi
screen=$1
shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/own-xvfb.XXXXXX") || exit 1
Xvfb -displayfd 3 -screen 0 "$screen" -nolisten tcp 3>"$dir/display" 2>"$dir/log" &
xvfb=$!
stop_server() {
  kill "$xvfb" 2>/dev/null
  wait "$xvfb" 2>/dev/null
  rm -rf "$dir"
}
trap 'stop_server; exit 143' HUP INT TERM

# Up to 30 s for the server (a loaded two-core machine takes well under one).
waited=0
until [ -s "$dir/display" ]; do
  if ! kill -0 "$xvfb" 2>/dev/null; then
    echo "own-xvfb.sh: Xvfb did not start:" >&2
    cat "$dir/log" >&2
    rm -rf "$dir"
    exit 1
  fi
  waited=$((waited + 1))
  if [ "$waited" -gt 600 ]; then
    echo "own-xvfb.sh: Xvfb named no display within 30 s" >&2
    stop_server
    exit 1
  fi
  sleep 0.05
done

DISPLAY=":$(cat "$dir/display")" XAUTHORITY=/dev/null "$@"
status=$?
stop_server
exit "$status"
