#!/usr/bin/env bash
# Sets up, builds and launches fftscope on a bundled image. On a machine with no display
# ($DISPLAY and $WAYLAND_DISPLAY empty) it says so and writes the image's spectrum as a PNG
# with fftscope-cli instead. Extra arguments go to the GUI (see build/src/gui/fftscope --help).
# FFTSCOPE_BUILD_DIR (default build/) and FFTSCOPE_JOBS (default: all cores) adjust the build.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
build="${FFTSCOPE_BUILD_DIR:-$top/build}"
image="assets/astronaut.png"
jobs="${FFTSCOPE_JOBS:-$(nproc)}"

bash scripts/setup.sh

echo "run: configuring $build (Release, OpenGL + OpenCL + GUI)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DFFTSCOPE_WITH_GL=ON -DFFTSCOPE_WITH_CL=ON -DFFTSCOPE_BUILD_GUI=ON

# Only the two programs: the tests are scripts/test.sh's business.
have_gui=no
targets=(fftscope-cli)
if [ -f src/gui/CMakeLists.txt ]; then
  have_gui=yes
  targets+=(fftscope)
fi
echo "run: building ${targets[*]} with $jobs job(s)"
cmake --build "$build" -j"$jobs" --target "${targets[@]}"

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run: no display (\$DISPLAY and \$WAYLAND_DISPLAY are empty), so no window can open;"
  echo "run: writing the spectrum of $image with fftscope-cli instead"
elif [ "$have_gui" = no ]; then
  echo "run: this checkout has no GUI (src/gui) yet; writing the spectrum of $image with fftscope-cli instead"
else
  echo "run: launching $build/src/gui/fftscope $image"
  status=0
  "$build/src/gui/fftscope" "$image" "$@" || status=$?
  # 4: the GUI could not open a window or find a backend (it printed why).
  [ "$status" -ne 4 ] && exit "$status"
  echo "run: the GUI could not start (exit 4); writing the spectrum of $image with fftscope-cli instead"
fi

mkdir -p out
"$build/src/cli/fftscope-cli" spectrum "$image" -o out/spectrum.png
echo "run: spectrum (fftshifted log magnitude, gray) written to $top/out/spectrum.png"
