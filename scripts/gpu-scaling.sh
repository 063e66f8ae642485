#!/usr/bin/env bash
# Weak and strong scaling of every solver family over the GPUs of one node, one MPI rank
# per GPU, with `fluxview bench` (the slowest rank's time; the roofline is the sum of the
# ranks' copy bandwidths measured in the same run).
#   strong: one global grid (512^3) on 1, 2 and 4 GPUs
#   weak:   512^3 per GPU, the grid doubled along z, then y
# usage: scripts/gpu-scaling.sh BIN_DIR OUT_DIR [GPU counts, default "1 2 4"] [families, default "heat fd fv"]
set -uo pipefail
bin=$1
out=$2
counts=${3:-"1 2 4"}
only=${4:-"heat fd fv"}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee "$out/scaling-device.txt"
nvidia-smi topo -m >>"$out/scaling-device.txt" 2>&1
log=$out/scaling.jsonl
: >"$log"
bench() {  # label, ranks, bench arguments...
  local label=$1 np=$2
  shift 2
  local line
  line=$(mpirun --oversubscribe --bind-to none -np "$np" \
           "$bin/fluxview" bench "$@" --backend cuda 2>"$out/err-$label-$np.log" | tail -1)
  if [ -z "$line" ]; then
    echo "{\"label\":\"$label\",\"ranks\":$np,\"error\":\"$(tail -1 "$out/err-$label-$np.log" | tr '"' "'")\"}" >>"$log"
  else
    echo "$line" | python3 -c "import json,sys; j=json.load(sys.stdin); j['label']='$label'; j['ranks']=$np; print(json.dumps(j))" >>"$log"
  fi
}
weak_grid() {  # ranks -> grid overrides for 512^3 per rank
  case $1 in
    1) echo "--set grid.nx=512 --set grid.ny=512 --set grid.nz=512" ;;
    2) echo "--set grid.nx=512 --set grid.ny=512 --set grid.nz=1024" ;;
    4) echo "--set grid.nx=512 --set grid.ny=1024 --set grid.nz=1024" ;;
  esac
}
families=(
  "heat|heat/hot-wall --set heat.steady_tol=0 --precision double"
  "fd|fd/forced-turbulence --set fd.spectrum=false --precision float"
  "fv|fv/sedov --precision float"
)
for entry in "${families[@]}"; do
  name=${entry%%|*}
  args=${entry#*|}
  [[ " $only " == *" $name "* ]] || continue
  for np in $counts; do
    bench "$name-strong" "$np" $args --set grid.n=512
    [ "$np" != 1 ] && bench "$name-weak" "$np" $args $(weak_grid "$np")
  done
done
# What the overlap of the exchange with the interior update gains (heat and fd).
for np in $counts; do
  [ "$np" = 1 ] && continue
  for i in 0 1; do
    name=${families[$i]%%|*}
    [[ " $only " == *" $name "* ]] || continue
    bench "$name-strong-overlap-$([ $i = 0 ] && echo off || echo on)" "$np" \
      ${families[$i]#*|} --set grid.n=512 --set run.mpi_overlap=$([ $i = 0 ] && echo off || echo on)
  done
done
python3 - "$log" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
base = {}
print(f"{'case':28s} {'ranks':>5s} {'grid':>16s} {'s/step':>10s} {'cell-upd/s':>11s} {'x copy':>7s} {'eff.':>6s}")
for r in rows:
    if "error" in r:
        print(f"{r['label']:28s} {r['ranks']:5d}  ERROR {r['error']}")
        continue
    fam = r["label"].split("-")[0]
    per_gpu = r["cell_updates_per_second"] / r["ranks"]
    if r["ranks"] == 1:
        base[fam] = per_gpu
    eff = per_gpu / base[fam] if fam in base else float("nan")
    g = "x".join(str(v) for v in r["grid"])
    print(f"{r['label']:28s} {r['ranks']:5d} {g:>16s} {r['seconds_per_step']:10.4g} "
          f"{r['cell_updates_per_second']:11.3e} {r['ratio_to_copy']:7.3f} {eff:6.2f}")
PY
