#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: every gpu test, compute-sanitizer (memcheck and
# racecheck) over representative gpu tests, and the benchmarks of docs/performance.md.
# usage: scripts/gpu-check.sh BIN_DIR OUT_DIR
#   BIN_DIR holds fluxview and the gpu test executables (flat, as copied from a build of
#   the `device` preset); OUT_DIR receives gpu-tests.log, sanitizer.log, bench.jsonl.
set -uo pipefail
bin=$1
out=$2
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
status=0

echo "== gpu tests" | tee "$out/gpu-tests.log"
for t in test_heat_gpu test_fd_gpu test_fv_gpu test_insitu_field_copy test_render_interop; do
  [ -x "$bin/$t" ] || { echo "$t: not built" | tee -a "$out/gpu-tests.log"; continue; }
  if "$bin/$t" --gtest_brief=1 >"$out/$t.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
  echo "$t: $r ($(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$t.log" | tr '\n' ' '))" | tee -a "$out/gpu-tests.log"
done

echo "== compute-sanitizer ($(date -u +%F))" | tee "$out/sanitizer.log"
sanitize() {  # tool, executable, gtest filter
  if timeout 170 compute-sanitizer --tool "$1" --error-exitcode 9 "$bin/$2" --gtest_filter="$3" --gtest_brief=1 \
       >"$out/san-$1-$2.log" 2>&1; then r=clean; else r="NOT CLEAN (exit $?)"; status=1; fi
  echo "$1 $2 [$3]: $r; $(grep -E 'ERROR SUMMARY' "$out/san-$1-$2.log" | tail -1)" | tee -a "$out/sanitizer.log"
}
sanitize memcheck test_heat_gpu '*f64_45x37x29*:*f64_45x37x1*'
sanitize racecheck test_heat_gpu '*f64_45x37x29*'
sanitize memcheck test_fd_gpu '*_double_40*'
sanitize racecheck test_fd_gpu '*55point_double_40*:*19point_double_40*:*fast_double_40*'
sanitize memcheck test_fv_gpu 'FvCuda.SedovMatchesCpuAfter100Steps:FvCuda.ReducedAxesMatchCpu:FvCuda.CloudWithTracerMatchesCpu'
sanitize racecheck test_fv_gpu 'FvCuda.SedovMatchesCpuAfter100Steps'
sanitize memcheck test_insitu_field_copy '*'

echo "== benchmarks" | tee "$out/bench.log"
bench() { "$bin/fluxview" bench "$@" | tee -a "$out/bench.jsonl"; }
bench heat/hot-wall --backend cuda
bench heat/hot-wall --backend cuda --set grid.n=512
bench heat/hot-wall --backend cuda --set grid.n=512 --set heat.steady_tol=0
bench heat/hot-wall --backend cuda --set grid.n=512 --precision float
bench fd/forced-turbulence --backend cuda --set grid.n=256 --precision float
bench fd/forced-turbulence --backend cuda --set grid.n=256
bench fv/sedov --backend cuda --set grid.n=256 --precision float
bench fv/sedov --backend cuda --set grid.n=256
exit $status
