#!/usr/bin/env bash
# The measurements of docs/amr.md on one GPU, in one session (issue 15, item 8):
#  1. side by side: cell updates per second of the AMR solver on a fully refined mesh
#     (64^3 top grid, two levels, every block at level 2: 256^3 cells) against the uniform
#     solver on the same 256^3 cells, per block size and precision; the ratio (target >= 0.7);
#  2. the cloud disruption (fv/cloud-disruption-amr): blocks per level, the time fractions of
#     stepping, ghost filling, flux correction and regridding, device memory in use;
#  3. its wall-clock time to t = 0.02 (scenario's run.until) from `fluxview run`'s run.json,
#     and, with --cpu-core, its cell updates per second on one CPU core for the paper's
#     GPU-over-one-core ratio (~8 in its sec. 6.3; a few steps, from the initial mesh).
# usage: gpu-amr-bench.sh FLUXVIEW OUT_DIR [--cpu-core] [--no-cloud-run]
#   --no-cloud-run leaves out 3 (the run to t = 0.02 takes longer than ten minutes on an H100)
set -uo pipefail
usage="usage: gpu-amr-bench.sh FLUXVIEW OUT_DIR [--cpu-core] [--no-cloud-run]"
exe=${1:?$usage}
out=${2:?$usage}
shift 2
cpu_core="" cloud_run=1
for a in "$@"; do
  case "$a" in
    --cpu-core) cpu_core=--cpu-core ;;
    --no-cloud-run) cloud_run=0 ;;
    *) echo "gpu-amr-bench.sh: unknown option $a; $usage" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
field() {  # json file, python expression on j
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null || echo nan
}

echo "== 1. fully refined AMR against uniform, same 256^3 cells" | tee "$out/summary.txt"
printf "%-8s %-6s %14s %14s %7s %9s %9s %9s\n" precision block "uniform cu/s" "amr cu/s" ratio \
  "copy GB/s" "u/copy" "amr/copy" | tee -a "$out/summary.txt"
for p in float double; do
  u="$out/uniform_$p.json"
  "$exe" bench fv/sedov --backend cuda --precision "$p" --set grid.n=256 >"$u" 2>>"$out/stderr.log"
  for b in 8 16 32; do
    a="$out/amr_b${b}_$p.json"
    "$exe" bench fv/sedov --backend cuda --precision "$p" --set grid.n=64 --set fv.mesh=amr \
      --set fv.amr.block="$b" --set fv.amr.min_level=2 --set fv.amr.max_level=2 \
      --set fv.amr.regrid_every=1000000 >"$a" 2>>"$out/stderr.log"
    cu=$(field "$u" 'j["cell_updates_per_second"]')
    ca=$(field "$a" 'j["cell_updates_per_second"]')
    printf "%-8s %-6s %14.4g %14.4g %7.3f %9.0f %9.3f %9.3f\n" "$p" "$b" "$cu" "$ca" \
      "$(python3 -c "print($ca / $cu)" 2>/dev/null || echo nan)" \
      "$(field "$a" 'j["copy_bytes_per_second"] / 1e9')" "$(field "$u" 'j["ratio_to_copy"]')" \
      "$(field "$a" 'j["ratio_to_copy"]')" | tee -a "$out/summary.txt"
  done
done

echo "== 2. the cloud disruption: phases and memory" | tee -a "$out/summary.txt"
for p in float double; do
  c="$out/cloud_$p.json"
  "$exe" bench fv/cloud-disruption-amr --backend cuda --precision "$p" >"$c" 2>>"$out/stderr.log"
  echo "$p: $(field "$c" 'j["cell_updates_per_second"]') cell updates/s (ratio to copy" \
    "$(field "$c" 'j["ratio_to_copy"]'), copy $(field "$c" 'j["copy_bytes_per_second"] / 1e9') GB/s)," \
    "$(field "$c" 'j["seconds_per_step"]') s/step," \
    "blocks per level $(field "$c" 'j["amr"]["blocks_per_level"]'), phase fractions" \
    "$(field "$c" 'j["amr"]["phase_fractions"]'), device memory in use $(field "$c" 'j["device_memory_used_bytes"]') bytes" |
    tee -a "$out/summary.txt"
done

if [[ $cloud_run == 1 ]]; then
  echo "== 3. the cloud disruption to t = 0.02 (double)" | tee -a "$out/summary.txt"
  "$exe" run fv/cloud-disruption-amr --backend cuda --precision double --quiet --output "$out/cloud_run" \
    2>>"$out/stderr.log"
  r="$out/cloud_run/run.json"
  echo "wall $(field "$r" 'j["wall_seconds"]') s, $(field "$r" 'j["steps_run"]') steps, t = $(field "$r" 'j["time"]')," \
    "status $(field "$r" 'j["status"]'), blocks $(field "$r" 'j["diagnostics"]["blocks"]["value"]')" | tee -a "$out/summary.txt"
fi
if [[ "$cpu_core" == "--cpu-core" ]]; then
  k="$out/cloud_cpu1.json"
  OMP_NUM_THREADS=1 "$exe" bench fv/cloud-disruption-amr --backend cpu --precision double --steps 4 --warmup 1 \
    >"$k" 2>>"$out/stderr.log"
  g="$out/cloud_double.json"
  echo "one CPU core: $(field "$k" 'j["cell_updates_per_second"]') cell updates/s; GPU over one core:" \
    "$(python3 -c "import json; a=json.load(open('$k')); b=json.load(open('$g')); print(b['cell_updates_per_second'] / a['cell_updates_per_second'])" 2>/dev/null || echo nan)" \
    "(the paper: ~8)" | tee -a "$out/summary.txt"
fi
