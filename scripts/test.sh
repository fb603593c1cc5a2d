#!/usr/bin/env bash
# Sets up, builds everything (OpenGL, OpenCL, GUI, tests) and runs the whole test suite.
# GL tests run on Mesa's llvmpipe, OpenCL tests on PoCL, GUI tests under Xvfb. With
# FFTSCOPE_REQUIRE_GPU=1 (the default here) a GPU test that finds no GL or CL FAILS instead of
# skipping. Extra arguments go to ctest (e.g. scripts/test.sh -L cli). Exits non-zero on failure.
# FFTSCOPE_BUILD_DIR (default build/) and FFTSCOPE_JOBS (default: all cores) adjust the build.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
build="${FFTSCOPE_BUILD_DIR:-$top/build}"
jobs="${FFTSCOPE_JOBS:-$(nproc)}"

bash scripts/setup.sh

echo "test: configuring $build (Release, OpenGL + OpenCL + GUI + tests)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DFFTSCOPE_WITH_GL=ON -DFFTSCOPE_WITH_CL=ON -DFFTSCOPE_BUILD_GUI=ON -DFFTSCOPE_BUILD_TESTS=ON
echo "test: building with $jobs job(s)"
cmake --build "$build" -j"$jobs"

export FFTSCOPE_REQUIRE_GPU="${FFTSCOPE_REQUIRE_GPU:-1}"
echo "test: running ctest (FFTSCOPE_REQUIRE_GPU=$FFTSCOPE_REQUIRE_GPU) under xvfb-run"
xvfb-run -a -s "-screen 0 1920x1080x24" \
  ctest --test-dir "$build" --output-on-failure --no-tests=error -j2 "$@"
echo "test: all tests passed"
