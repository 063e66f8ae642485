#!/usr/bin/env bash
# A before/after measurement of a change in one device call: builds the app twice on the GPU
# machine (A: the tree as carried; B: the same tree with PATCH applied), both at once on its
# cores, then runs scripts/gpu-bench-compare.sh on the two binaries (alternating A, B, B, A
# per case, each with the copy bandwidth of the same process). Run from the project root on
# the GPU machine with .gl and .devdeps carried (../shared/device/README.md) and the patch in
# a carried, git-ignored folder, e.g.
#   here:  git diff > .ab/change.patch && git stash    (the tree travels as A)
#   there: bash scripts/gpu-ab.sh .ab/change.patch "$OUT" 'isentropic-vortex'
# The two build logs and compare.txt land in OUT_DIR. The builds leave out the tests, the
# GUI, Catalyst and the adaptive mesh (none of the compared cases is on the mesh; its device
# backend was the last compile of a build there, 2026-11-28): only `fluxview bench` runs.
# GPU_AB_CMAKE_ARGS replaces that last choice (e.g. GPU_AB_CMAKE_ARGS=-DFLUXVIEW_WITH_AMR=ON).
# GPU_AB_TESTS="DIR/EXE:GTEST_FILTER ..." (e.g. "fv/test_fv_higher_order_gpu:FvHigherOrderCuda.*")
# also builds those test programs in B after its app and runs them, all at once, after the
# benchmarks, each into OUT_DIR/test-N.log, stopped GPU_AB_DEADLINE seconds (default 560)
# after the script began, so that one device call of at most 600 s brings everything back.
# On this machine first: `bash ../shared/device/prepare.sh libstb-dev` (the renderer needs
# stb's headers, which the GPU machine lacks).
# usage: gpu-ab.sh PATCH OUT_DIR [CASE_FILTER_REGEX]
set -uo pipefail
patch=${1:?usage: gpu-ab.sh PATCH OUT_DIR [FILTER]}
out=${2:?usage: gpu-ab.sh PATCH OUT_DIR [FILTER]}
filter=${3:-.}
root=$(pwd)
patch=$(realpath "$patch")
mkdir -p "$out"
[ -f .devdeps/build.sh ] || { echo "gpu-ab.sh: .devdeps/build.sh not found: carry .gl and .devdeps" >&2; exit 2; }
rm -rf /tmp/gpu-ab-b && mkdir /tmp/gpu-ab-b
tar -C "$root" --exclude='./build*' -cf - . | tar -C /tmp/gpu-ab-b -xf -
(cd /tmp/gpu-ab-b && git apply "$patch") || { echo "gpu-ab.sh: $patch does not apply" >&2; exit 2; }
args=(-DCMAKE_CUDA_ARCHITECTURES=90 -DFLUXVIEW_WITH_GUI=OFF -DFLUXVIEW_WITH_CATALYST=OFF
  -DFLUXVIEW_BUILD_TESTS=OFF ${GPU_AB_CMAKE_ARGS:--DFLUXVIEW_WITH_AMR=OFF})
t0=$SECONDS
# build.sh unpacks the -dev packages into /tmp/deps once, then writes .devdeps/env.sh: B
# starts when A's unpacking is over, so that it finds them whole.
rm -f .devdeps/env.sh
(bash .devdeps/build.sh build-ab-a "${args[@]}" >"$out/build-a.log" 2>&1) &
for _ in $(seq 600); do [ -f .devdeps/env.sh ] && break; sleep 0.5; done
(cd /tmp/gpu-ab-b && bash .devdeps/build.sh build-ab-b "${args[@]}" >"$out/build-b.log" 2>&1) &
wait
echo "gpu-ab.sh: both builds took $((SECONDS - t0)) s"
a=$root/build-ab-a/app/fluxview
b=/tmp/gpu-ab-b/build-ab-b/app/fluxview
for x in "$a" "$b"; do
  [ -x "$x" ] || { echo "gpu-ab.sh: $x was not built (see $out/build-*.log)" >&2; exit 1; }
done
source .devdeps/env.sh
read -ra tests <<<"${GPU_AB_TESTS:-}"  # split on blanks only: filters hold * and ?
if [ ${#tests[@]} -gt 0 ]; then  # B's test programs, with B's configuration otherwise
  targets=()
  for t in "${tests[@]}"; do targets+=("$(basename "${t%%:*}")"); done
  (cd /tmp/gpu-ab-b && cmake -S . -B build-ab-b -DFLUXVIEW_BUILD_TESTS=ON >>"$out/build-b.log" 2>&1 &&
    cmake --build build-ab-b -j"$(nproc)" --target "${targets[@]}" >>"$out/build-b.log" 2>&1) ||
    echo "gpu-ab.sh: B's tests did not build (see $out/build-b.log)"
  echo "gpu-ab.sh: B's tests built at $((SECONDS - t0)) s"
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/gpu-bench-compare.sh "$a" "$b" "$out" "$filter"
deadline=${GPU_AB_DEADLINE:-560}
n=0
for t in "${tests[@]}"; do
  n=$((n + 1))
  exe=/tmp/gpu-ab-b/build-ab-b/tests/${t%%:*}
  left=$((deadline - SECONDS))
  [ "$left" -gt 10 ] || { echo "gpu-ab.sh: no time left for $t"; continue; }
  (timeout "$left" "$exe" --gtest_filter="${t#*:}" --gtest_brief=1 >"$out/test-$n.log" 2>&1
   echo "gpu-ab.sh: test-$n ${t}: exit $? at $((SECONDS - t0)) s") &
done
wait
