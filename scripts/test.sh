#!/usr/bin/env bash
# Installs the Debian packages, builds fluxview (CUDA as compute_75 PTX alone, so CI stays
# short; for the GPU where nvidia-smi finds one) and runs the whole test suite. Tests that
# need a GPU skip with a message where there is none; tests that draw or run ParaView get a
# virtual X display (Xvfb + Mesa).
# Extra ctest arguments (e.g. -L physics) are passed on.
set -euo pipefail
cd "$(dirname "$0")/.."
# How long each part took, printed as it ends (the README's timings come from these lines).
start=$SECONDS
mark=$SECONDS
took() {
  echo "test.sh: $1 took $((SECONDS - mark)) s ($((SECONDS - start)) s in all)"
  mark=$SECONDS
}
# The three builds (build-ci, build-asan, build-fuzz) take about 2.4 GB with the ci and asan
# presets' shared libraries (with static ones each test program carried the solvers' CUDA
# code: 7.5 GB, more than a CI machine once had free). Say so up front rather than fail in
# the middle of a compile with "No space left on device".
free_mb=$(df -Pm . | awk 'NR == 2 {print $4}')
if [ "${free_mb:-0}" -lt 3000 ]; then
  echo "test.sh: warning: only ${free_mb} MB free in $(pwd); the builds need about 2400 MB" >&2
fi
bash scripts/install-deps.sh
took "installing the packages"
# The cores, for the builds and ctest; nproc would take OMP_NUM_THREADS, set for the tests
# below and perhaps by the user, as the count.
cores=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
# With a GPU here the gpu tests run on it: device code for that GPU, optimised as a user's
# build is (the ci preset's PTX at NVVM -O0 is for machines without one, which never run it;
# the driver would compile it for the GPU at each kernel's first launch, and slow code).
on_gpu=()
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  echo "test.sh: nvidia-smi finds a GPU: the ci build makes native code for it, at -O3"
  on_gpu=(-DCMAKE_CUDA_ARCHITECTURES=native -DFLUXVIEW_CUDA_DEVICE_OPTIMIZATION=
    -DFLUXVIEW_CUDA_HOST_OPTIMIZATION=-O3 "-DCMAKE_CUDA_FLAGS_RELEASE=-O3 -DNDEBUG")
fi
cmake --preset ci "${on_gpu[@]}"
cmake --build --preset ci -j"$cores"
took "the ci build"
# What a build for one architecture with Debian 12's GCC cannot see: a CUDA source that does
# not build for the oldest or newest architecture of the default list, and a standard header
# used but not included (GCC 13 fails on those; include-what-you-use finds them, skipping the
# sources that passed before with everything they read unchanged: scripts/check-includes.record).
if grep -q '"FLUXVIEW_HAVE_CUDA=1"\|FLUXVIEW_HAVE_CUDA=1' build-ci/compile_commands.json; then
  bash scripts/check-cuda-archs.sh build-ci
else
  echo "test.sh: no CUDA in this build (nvcc not found): the architecture check is skipped"
fi
took "the architecture check"
python3 scripts/check-includes.py build-ci
took "the include check"
# The CPU code under AddressSanitizer + UndefinedBehaviorSanitizer (unit and physics
# tests), and half a minute of fuzzing each harness (the scenario parser, the command
# line) from its kept corpus.
bash scripts/sanitize.sh
took "the sanitizer build and tests"
bash scripts/fuzz.sh 30
took "the fuzzing"
# The whole suite last, so that its summary closes the log. A test that fails is run
# once more before it counts: ParaView's X rendering under Xvfb on a loaded two-core
# machine has been seen to lose its display (an abort inside vtkXOpenGLRenderWindow),
# which says nothing about fluxview; a real failure fails twice.
# One OpenMP thread a test: ctest already runs a test on each core, and threads beyond the
# cores wait on each other at every loop's barrier (the physics tests took 218 s on one
# thread each against 293 s on the default two, -j2 on two cores, 2026-11-29). The threaded
# paths are tested on three threads by tests that set their own count (tests/support/ThreadCount.hpp).
status=0
OMP_NUM_THREADS=1 xvfb-run -a -s "-screen 0 1280x1024x24" \
  ctest --preset ci -j"$cores" --timeout 900 --repeat until-pass:2 "$@" || status=$?
took "the test suite"
echo "test.sh: the builds take $(du -sm build-ci build-asan build-fuzz 2>/dev/null | awk '{s += $1} END {print s}') MB"
exit $status
