#!/usr/bin/env bash
# On a machine with NVIDIA GPUs and Open MPI: the MPI decomposition on the CUDA backend.
# Each case runs serially and on 2 or 4 ranks (ranks share the GPUs when there are fewer
# GPUs than ranks) and tests/mpi/compare_parallel.py requires every snapshot to be equal
# bit for bit. Every case runs with each device transport of the ghost exchange: host
# staging, CUDA IPC between the ranks of the node, and device pointers handed to MPI where
# the library is CUDA-aware (the adaptive mesh: host staging and CUDA IPC).
# usage: scripts/gpu-mpi-check.sh BIN_DIR OUT_DIR
set -uo pipefail
bin=$1
out=$2
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/mpi-device.txt"
cuda_aware=$(ompi_info --parsable --all 2>/dev/null | grep -m1 'mpi_built_with_cuda_support:value' | cut -d: -f7)
echo "Open MPI built with CUDA support: ${cuda_aware:-unknown}" | tee -a "$out/mpi-device.txt"
transports="host ipc"
[ "$cuda_aware" = "true" ] && transports="host ipc mpi"
status=0
check() {  # name, ranks, run arguments...
  local name=$1 np=$2 par=()
  shift 2
  if [ "${1:-}" = "--parallel-args" ]; then par=(--parallel-args "$2"); shift 2; fi
  for t in $transports; do
    if python3 "$here/tests/mpi/compare_parallel.py" "$bin/fluxview" "$np" "$out/work/$name-$t" --exact \
         "${par[@]}" -- "$@" --backend cuda --set run.ghosts=$t >"$out/$name-$t.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
    echo "$name (np $np, ghosts $t): $r: $(tail -1 "$out/$name-$t.log")" | tee -a "$out/mpi-gpu.log"
  done
}
heat=(heat/hot-spot --set grid.nx=70 --set grid.ny=37 --set grid.nz=29 --steps 30 --every 10)
for k in fast 3DShMNoOverL 2DShMReg 3DBase; do
  check "heat-$k-np2" 2 "${heat[@]}" --set heat.kernel=$k
done
check heat-fast-np4 4 "${heat[@]}"
check heat-fast-float-np4 4 "${heat[@]}" --precision float
check heat-fast-x-split 2 --parallel-args "--mpi-dims 2,1,1" "${heat[@]}"
check heat-fast-xy-split 4 --parallel-args "--mpi-dims 2,2,1" "${heat[@]}"
check heat-2d-np4 4 heat/hot-spot --set grid.nx=80 --set grid.ny=60 --set grid.nz=1 --steps 20 --every 10
fd=(fd/forced-turbulence --set grid.nx=32 --set grid.ny=24 --set grid.nz=16 --set fd.spectrum=false --steps 12 --every 4)
check fd-np2 2 "${fd[@]}"
check fd-np4 4 "${fd[@]}" --precision float
check fd-overlap-np4 4 "${fd[@]}" --set run.mpi_overlap=on
check fd-55point-np4 4 fd/radial-explosion --set grid.n=24 --set fd.method=55point --steps 6 --every 3
check fv-sedov-np2 2 fv/sedov --set grid.nx=40 --set grid.ny=32 --set grid.nz=24 --set fv.bc=reflecting \
  --set fv.bc_x=outflow --steps 12 --every 4
check fv-sedov-np4 4 fv/sedov --set grid.n=32 --steps 12 --every 4 --precision float
check fv-kh-np4 4 fv/kelvin-helmholtz --set grid.nx=48 --set grid.ny=48 --set grid.nz=8 --steps 12 --every 4
# The adaptive mesh: ghost blocks through host memory and through CUDA IPC (run.ghosts = mpi is
# refused there); every piece of 3 snapshots equal to the serial run's, regrids every 2 steps.
amr=(fv/sedov --backend cuda --set grid.n=32 --set fv.mesh=amr --set fv.amr.block=8 --set fv.amr.max_level=2
  --set fv.amr.regrid_every=2 --set fv.bc=periodic --set fv.blast_x=0.3)
check_amr() {  # name, ranks, steps, run arguments...
  local name=$1 np=$2 steps=$3
  shift 3
  for t in host ipc; do
    if python3 "$here/tests/mpi/compare_amr_parallel.py" "$bin/fluxview" "$np" "$out/work/$name-$t" "$steps" \
         -- "${amr[@]}" "$@" --set run.ghosts=$t >"$out/$name-$t.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
    echo "$name (np $np, ghosts $t): $r: $(tail -1 "$out/$name-$t.log")" | tee -a "$out/mpi-gpu.log"
  done
}
check_amr amr-sedov-np2 2 20
check_amr amr-sedov-float-tracer-np3 3 16 --precision float --set fv.tracer=true
check_amr amr-sedov-np4 4 12
rm -rf "$out/work"
exit $status
