#!/usr/bin/env bash
# Side by side on one GPU, in one session: every `fluxview bench` case of docs/performance.md
# with two builds (before and after a change), alternating A, B, B, A per case so that drift
# of the machine falls on both. Prints one line per case: the two seconds-per-step medians,
# the ratio B/A, and each run's ratio to the copy bandwidth measured in the same process.
# usage: gpu-bench-compare.sh FLUXVIEW_A FLUXVIEW_B OUT_DIR [CASE_FILTER_REGEX]
set -uo pipefail
a=${1:?usage: gpu-bench-compare.sh FLUXVIEW_A FLUXVIEW_B OUT_DIR [FILTER]}
b=${2:?}
out=${3:?}
filter=${4:-.}
mkdir -p "$out"
cases=()
for k in 3DBase 3DShMOverL 3DShMNoOverL 2DBase 2DReg 2DShM 2DShMReg fast; do
  for n in 128 512; do cases+=("heat/hot-wall --set heat.kernel=$k --set grid.n=$n"); done
done
for n in 128 512; do cases+=("heat/hot-wall --set grid.n=$n --precision float"); done
cases+=("heat/hot-wall --set grid.n=512 --set heat.steady_tol=0")
for m in fast 19point 55point direct55; do
  for n in 128 256; do
    for p in float double; do cases+=("fd/forced-turbulence --set grid.n=$n --set fd.method=$m --precision $p"); done
  done
done
for n in 128 256; do
  for p in float double; do
    for r in hllc hll; do cases+=("fv/sedov --set grid.n=$n --set fv.riemann=$r --set fv.cuda_tile=32x8 --precision $p"); done
  done
done
for p in float double; do cases+=("fv/sedov --set grid.n=256 --set fv.cuda_tile=32x4 --precision $p"); done
for p in float double; do cases+=("fv/cloud-disruption --set fv.cuda_tile=32x8 --precision $p"); done
cases+=("fv/kelvin-helmholtz --precision float")
# The higher orders (docs/performance.md, Higher-order schemes): the paper's 192^3 vortex.
for s in "weno2 ader" "weno3 ader" "weno3 ssprk3" "weno4 ader" "weno4 rk4" "wenoz5 rk4"; do
  set -- $s
  cases+=("fv/isentropic-vortex --precision double --set grid.n=192 --set grid.lz=10 --set fv.reconstruction=$1 --set fv.time=$2")
done
# The same vortex on a 2048^2 x-y grid: the face passes built for that shape.
for t in ader ssprk3; do
  cases+=("fv/isentropic-vortex --precision double --set grid.nx=2048 --set grid.ny=2048 --set fv.reconstruction=weno3 --set fv.time=$t")
done
for r in weno3 weno4; do
  cases+=("fv/mhd-vortex --precision double --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set fv.reconstruction=$r")
done

one() {  # binary, case -> seconds_per_step ratio_to_copy
  "$1" bench $2 --backend cuda 2>>"$out/stderr.log" | tail -1 |
    python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["seconds_per_step"], j["ratio_to_copy"])' 2>/dev/null ||
    echo "nan nan"
}
printf "%-88s %12s %12s %7s %7s %7s\n" case "A s/step" "B s/step" "B/A" "A:copy" "B:copy" | tee "$out/compare.txt"
for c in "${cases[@]}"; do
  [[ "$c" =~ $filter ]] || continue
  read -r a1 ra1 < <(one "$a" "$c")
  read -r b1 rb1 < <(one "$b" "$c")
  read -r b2 rb2 < <(one "$b" "$c")
  read -r a2 ra2 < <(one "$a" "$c")
  python3 - "$c" "$a1" "$a2" "$b1" "$b2" "$ra1" "$ra2" "$rb1" "$rb2" <<'PY' | tee -a "$out/compare.txt"
import sys, math
c = sys.argv[1]
v = [float(x) for x in sys.argv[2:]]
A = min(v[0], v[1]); B = min(v[2], v[3])  # the better of two: noise only ever slows a run
rA = max(v[4], v[5]); rB = max(v[6], v[7])
print(f"{c:88s} {A:12.4e} {B:12.4e} {B/A if A > 0 else math.nan:7.3f} {rA:7.3f} {rB:7.3f}")
PY
done
