#!/usr/bin/env bash
# Installs what fftscope needs on a Debian 12 machine. Safe to run twice: it installs only
# the packages (and the glad2 generator) that are missing, and says which.
set -euo pipefail

debian_packages=(
  cmake g++ pkg-config python3 python3-pip python3-venv
  libglfw3-dev libimgui-dev libglm-dev libstb-dev
  libegl-dev libgl-dev libgl1-mesa-dri libegl-mesa0 mesa-utils xvfb xauth
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers pocl-opencl-icd clinfo
  libfftw3-dev libgtest-dev zlib1g-dev libglvnd-core-dev
  clang libclang-rt-14-dev
  libvkfft-dev libclfft-dev
  fonts-dejavu-core
)

missing=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: all Debian packages present"
fi

# glad2 generates the GL/EGL loaders at configure time; it lives in the project's own venv so
# the system Python is left alone.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$top/.venv"
if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating $venv for the glad2 generator"
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import glad" 2>/dev/null; then
  echo "setup: installing glad2 from PyPI into $venv"
  "$venv/bin/pip" install -q glad2
else
  echo "setup: glad2 present"
fi

# `setup.sh --plot`: matplotlib for scripts/plot_bench.py (the benchmark's plot), in the same venv.
if [ "${1:-}" = "--plot" ]; then
  if ! "$venv/bin/python" -c "import matplotlib" 2>/dev/null; then
    echo "setup: installing matplotlib from PyPI into $venv"
    "$venv/bin/pip" install -q matplotlib
  else
    echo "setup: matplotlib present"
  fi
fi
