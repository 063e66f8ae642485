#!/usr/bin/env bash
# Installs the Debian 12 packages fluxview builds and tests with. Run as root.
# CUDA (nvcc) is not a Debian package here: it is optional, found at configure time.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

packages=(
  build-essential cmake ninja-build pkg-config git clang clang-format iwyu
  libtomlplusplus-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libpng-dev libstb-dev fonts-dejavu-core
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev ffmpeg
  libglfw3-dev libepoxy-dev libimgui-dev libegl-dev libgl-dev
  libegl-mesa0 libgl1-mesa-dri libglx-mesa0 mesa-utils xvfb xauth xdotool
  libopenmpi-dev openmpi-bin libhdf5-dev libp4est-dev
  paraview-dev python3-paraview python3-numpy
  libclang-rt-14-dev libomp-14-dev zlib1g-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps.sh: all ${#packages[@]} packages already installed"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: missing ${missing[*]}; run as root (it calls apt-get install)" >&2
  exit 1
fi
echo "install-deps.sh: installing ${#missing[@]} packages: ${missing[*]}"
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
