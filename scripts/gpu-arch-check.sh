#!/usr/bin/env bash
# On the GPU machine (see ../shared/device/README.md; .gl and .devdeps carried): the checks
# behind the architecture promises of cmake/FluxviewCudaArchitectures.cmake.
#  1. The default build (no CMAKE_CUDA_ARCHITECTURES: the GPU found at configure time) with
#     the machine's compiler passes every gpu test.
#  2. The fallbacks for old architectures are right: a build for compute_75 PTX only, which
#     the driver compiles for this GPU, runs the sm_75 code paths (cp.async replaced) here;
#     the heat gpu tests and the heat model-solver comparison must pass with it.
#  3. A GPU no built architecture covers is refused with its compute capability named: a
#     build for sm_100 only, run on an older GPU (Hopper), must say so and fall back to the CPU.
# usage: scripts/gpu-arch-check.sh OUT_DIR
set -uo pipefail
out=${1:?usage: gpu-arch-check.sh OUT_DIR}
mkdir -p "$out"
status=0
common=(-DFLUXVIEW_WITH_WINDOW=OFF -DFLUXVIEW_WITH_CATALYST=OFF)
step() { echo "== $*" | tee -a "$out/summary.txt"; }

step "1. default build ($(gcc --version | head -1))"
bash .devdeps/build.sh build-dev "${common[@]}" >"$out/build-dev.log" 2>&1 || { echo "build failed" | tee -a "$out/summary.txt"; tail -30 "$out/build-dev.log"; exit 1; }
source .devdeps/env.sh
grep "CUDA backend" "$out/build-dev.log" | tee -a "$out/summary.txt"
./build-dev/app/fluxview --version | tee -a "$out/summary.txt"
ctest --test-dir build-dev -L gpu -LE paper -j4 --timeout 600 >"$out/ctest-gpu.log" 2>&1 || status=1
tail -15 "$out/ctest-gpu.log" | tee -a "$out/summary.txt"

step "2. compute_75 PTX only (the sm_75 fallbacks, JIT-compiled for this GPU)"
bash .devdeps/build.sh build-75 "${common[@]}" -DCMAKE_CUDA_ARCHITECTURES=75-virtual >"$out/build-75.log" 2>&1 || { echo "build failed" | tee -a "$out/summary.txt"; status=1; }
ctest --test-dir build-75 -R "heat|[Mm]odel" -L gpu -j4 --timeout 900 >"$out/ctest-75.log" 2>&1 || status=1
tail -8 "$out/ctest-75.log" | tee -a "$out/summary.txt"

step "3. a build for sm_100 only on this older GPU"
bash .devdeps/build.sh build-100 "${common[@]}" -DCMAKE_CUDA_ARCHITECTURES=100-real -DFLUXVIEW_BUILD_TESTS=OFF >"$out/build-100.log" 2>&1 || status=1
./build-100/app/fluxview run heat/hot-spot --steps 2 --output /tmp/o100 2>&1 | head -3 | tee -a "$out/summary.txt"
./build-100/app/fluxview run heat/hot-spot --steps 2 --backend cuda --output /tmp/o100b 2>&1 | tail -2 | tee -a "$out/summary.txt"
exit $status
