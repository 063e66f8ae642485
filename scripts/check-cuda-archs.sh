#!/usr/bin/env bash
# Compiles every CUDA source of the project for the oldest and the newest architecture of the
# portable default list (cmake/FluxviewCudaArchitectures.cmake), so that a kernel using a
# feature the oldest lacks (cp.async before sm_80, say) without a fallback, or code the newest
# refuses, fails here and not on a user's machine.
#   oldest: native code (nvcc -c for sm_XX runs ptxas, which is what rejects a missing feature)
#   newest: PTX only (the front end and NVVM at -O0: what it checks is that the code is
#           accepted and lowered for that architecture, and NVVM's optimisation took 60% of it)
# A build that already made native code for the oldest has done the first half: only the
# newest is compiled then. A build that made PTX for the oldest (the ci preset: no ptxas, half
# the compile time) has had every source through NVVM for it, which refuses the intrinsics and
# builtins the oldest lacks; what only ptxas reads is inline PTX (asm statements, such as the
# cp.async of the fast heat kernel), so the sources that hold it (or all of them, should a
# header hold it) are also assembled natively for the oldest.
# usage: check-cuda-archs.sh BUILD_DIR   (a configured build with CUDA and compile_commands.json)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: check-cuda-archs.sh BUILD_DIR}
db="$build/compile_commands.json"
[ -f "$db" ] || { echo "check-cuda-archs: $db not found: configure $build first" >&2; exit 2; }

list=$(sed -n 's/^set(FLUXVIEW_PORTABLE_CUDA_ARCHITECTURES \(.*\))$/\1/p' cmake/FluxviewCudaArchitectures.cmake)
nums=$(echo "$list" | tr ' ' '\n' | sed 's/-.*//' | sort -n)
oldest=$(echo "$nums" | head -1)
newest=$(echo "$nums" | tail -1)
[ -n "$oldest" ] && [ -n "$newest" ] || { echo "check-cuda-archs: cannot read the portable list" >&2; exit 2; }

# What the build made for the oldest in every CUDA command: native code, PTX, or neither.
built_oldest=$(python3 - "$db" "$oldest" <<'PY'
import json, sys
cmds = [e.get("command") or " ".join(e["arguments"]) for e in json.load(open(sys.argv[1]))
        if e["file"].endswith(".cu")]
native, ptx = "sm_" + sys.argv[2], "code=[compute_" + sys.argv[2] + "]"
print("native" if cmds and all(native in c for c in cmds)
      else "ptx" if cmds and all(ptx in c for c in cmds) else "no")
PY
)
# The project files with inline PTX (asm statements), which only ptxas checks.
mapfile -t inline_ptx < <(grep -rlE '\basm(\s+volatile)?\s*\(' --include='*.cu' --include='*.cuh' \
  --include='*.hpp' --include='*.h' --include='*.inl' sim render app tests bench insitu fileio 2>/dev/null |
  sed "s|^|$PWD/|")
inline_ptx_header=no
for f in "${inline_ptx[@]}"; do
  case $f in *.cu) ;; *) inline_ptx_header=yes ;; esac
done

# Each CUDA compile command of the build, with its architecture flags replaced.
mapfile -t cmds < <(python3 - "$db" <<'PY'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    if not e["file"].endswith(".cu"):
        continue
    args = e.get("arguments") or shlex.split(e["command"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT"):
            skip = True
            continue
        # Each kind sets its architecture; the build's device optimisation flags go, the
        # PTX-only kind sets its own.
        if a.startswith(("--generate-code", "-gencode", "-arch", "--gpu-architecture", "-MD",
                         "-Xcicc", "-Xptxas")):
            continue
        out.append(a)
    print(e["directory"] + "\t" + e["file"] + "\t" + shlex.join(out))
PY
)
[ ${#cmds[@]} -gt 0 ] || { echo "check-cuda-archs: no .cu file in $db (a build without CUDA?)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jobs=$(nproc)
fail=0
compile() {  # dir file cmd flags... -> output
  local dir=$1 file=$2 cmd=$3 what=$4; shift 4
  local log="$tmp/$(echo "$file-$what" | tr '/' '_').log"
  if (cd "$dir" && eval "$cmd" "$@") >"$log" 2>&1; then
    echo "  ok    $what  ${file#$PWD/}"
  else
    echo "  FAIL  $what  ${file#$PWD/}"
    sed 's/^/        /' "$log" | head -20
    return 1
  fi
}
export -f compile
export tmp
needs_old() {  # file -> 0 when it must be assembled natively for the oldest here
  case $built_oldest in
    native) return 1 ;;
    no) return 0 ;;
  esac
  [ $inline_ptx_header = yes ] && return 0
  local f
  for f in "${inline_ptx[@]}"; do [ "$f" = "$1" ] && return 0; done
  return 1
}
case $built_oldest in
  native) echo "check-cuda-archs: $build built every CUDA source for sm_$oldest (native code) already" ;;
  ptx) echo "check-cuda-archs: $build built every CUDA source for compute_$oldest (PTX); the ones with inline PTX (${#inline_ptx[@]} files) are assembled for sm_$oldest here" ;;
  no) echo "check-cuda-archs: every CUDA source is compiled for sm_$oldest (native code) here" ;;
esac
echo "check-cuda-archs: ${#cmds[@]} CUDA sources for compute_$newest (PTX)"
i=0
pids=()
for line in "${cmds[@]}"; do
  IFS=$'\t' read -r dir file cmd <<<"$line"
  kinds="new"
  if needs_old "$file"; then kinds="old new"; fi
  for kind in $kinds; do
    if [ $kind = old ]; then
      compile "$dir" "$file" "$cmd" "sm_$oldest" -arch=sm_$oldest -c -o "$tmp/$i.o" &
    else
      compile "$dir" "$file" "$cmd" "compute_$newest" -arch=compute_$newest -Xcicc=-O0 -ptx -o "$tmp/$i.ptx" &
    fi
    pids+=($!)
    i=$((i + 1))
    if [ ${#pids[@]} -ge "$jobs" ]; then
      wait "${pids[0]}" || fail=1
      pids=("${pids[@]:1}")
    fi
  done
done
for p in "${pids[@]}"; do wait "$p" || fail=1; done
if [ $fail -ne 0 ]; then
  echo "check-cuda-archs: a CUDA source does not build for an architecture of the default list;"
  echo "  give the kernel a fallback for it (#if __CUDA_ARCH__ >= ...) or change the list in"
  echo "  cmake/FluxviewCudaArchitectures.cmake and say why there"
  exit 1
fi
echo "check-cuda-archs: every CUDA source builds for sm_$oldest and compute_$newest"
