#!/usr/bin/env bash
# The fv solver's higher orders on one GPU, for docs/performance.md (issue 16, the paper's
# Tables II and III): zones updated per second at each order and time stepper on the 3D
# isentropic vortex at 96^3, 144^3, 192^3, 256^3 and 512^3 in double (the paper's
# precision), the CPU backend of the same machine at 96^3 for the ratio, and with
# fv.time_passes the share of a step in each pass (the ADER predictor's is the paper's
# Table III). One JSON object per run in OUT_DIR, one summary line per run on stdout. A run
# whose JSON is already in OUT_DIR is not run again, so an interrupted call can be resumed.
# 512^3 and larger take 1 warm-up step and 5 timed ones (a fourth-order step is seconds).
# usage: gpu-bench-higher-order.sh FLUXVIEW OUT_DIR [SIZES]
set -uo pipefail
bin=${1:?usage: gpu-bench-higher-order.sh FLUXVIEW OUT_DIR [SIZES]}
out=${2:?}
sizes=${3:-96 144 192 256 512}
mkdir -p "$out"
schemes=("plm rk2" "plm ader" "weno2 rk2" "weno2 ader" "weno3 ssprk3" "weno3 ader" "weno4 rk4" "weno4 ader" "wenoz5 rk4")
run() {  # name backend n rec time [extra --set ...]
  local name=$1 backend=$2 n=$3 rec=$4 time=$5
  shift 5
  if ! python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out/$name.json" 2>/dev/null; then
    if [ "$n" -ge 512 ]; then set -- --warmup 1 --steps 5 "$@"; fi
    "$bin" bench fv/isentropic-vortex --backend "$backend" --precision double \
      --set grid.n="$n" --set grid.lz=10 --set fv.reconstruction="$rec" --set fv.time="$time" \
      "$@" >"$out/$name.json" 2>"$out/$name.err"
  fi
  python3 - "$out/$name.json" "$name" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"{sys.argv[2]}: no result ({e})"); sys.exit(0)
f = j["solver_facts"]
print(f'{sys.argv[2]}: {j["cell_updates_per_second"]:.3e} zones/s, {j["seconds_per_step"]*1e3:.2f} ms/step,'
      f' ratio to copy {j["ratio_to_copy"]:.3f}, predictor {f.get("predictor_fraction", "-")}')
PY
}
for n in $sizes; do
  for s in "${schemes[@]}"; do
    set -- $s
    run "cuda-$n-$1-$2" cuda "$n" "$1" "$2"
  done
done
# The pass shares (each pass waited for; the rate of these runs is not the one to quote).
for s in "plm ader" "weno3 ader" "weno4 ader"; do
  set -- $s
  run "passes-192-$1-$2" cuda 192 "$1" "$2" --set fv.time_passes=true
done
# The CPU backend of the same machine, for the ratio (96^3, a few steps).
for s in "${schemes[@]}"; do
  set -- $s
  run "cpu-96-$1-$2" cpu 96 "$1" "$2" --warmup 1 --steps 3
done
