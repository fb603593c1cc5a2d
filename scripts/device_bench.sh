#!/usr/bin/env bash
# Runs on the lent GPU machine (see docs/performance.md): correctness tests of the GPU backends,
# then the per-kernel benches and the side-by-side sweep. Expects a headless build in $BUILD
# (default build-dev) and the .device/ folder made by ../shared/device/prepare.sh.
#   usage: scripts/device_bench.sh [tests|kernels|sweep|all] [OUTDIR]
# The sweep writes OUTDIR/sweep.json after every finished entry (a sweep cut short keeps those)
# and a progress line per entry to sweep-progress.txt;
# SIZES and IMPL (comma-separated) narrow it, REPEAT sets the runs, ROUNDS the rounds (--rounds),
# COPY_BANDWIDTH (GB/s) the plot's limit line, FFTW_PLANNING_MS FFTW's planning limit per plan
# (--fftw-planning-ms), PLANNING=measure measures the fast entries' plans (--planning).
set -uo pipefail
what=${1:-all}
out=${2:-${OUT:-out/device}}
build=${BUILD:-build-dev}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.device/lib:${LD_LIBRARY_PATH:-} OCL_ICD_VENDORS=$PWD/.device/icd
export FFTSCOPE_REQUIRE_GPU=1 FFTSCOPE_SOURCE_DIR=$PWD
cli=$build/src/cli/fftscope-cli
# One file for the machine (the GPU, then fftscope's devices): a call to the GPU machine returns
# at most 8 files, and a sweep's sweep.json and sweep-progress.txt are the other two.
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader; $cli devices; } | tee "$out/machine.txt"

run_tests() {
  for t in $(find "$build/tests" -type f -perm -u+x -name 'test_*' | sort); do
    case "$t" in */gui/*|*/cli/*) continue ;; esac
    echo "== $t"
    "$t" --gtest_brief=1 > "$out/$(basename "$t").log" 2>&1
    rc=$?
    tail -n 3 "$out/$(basename "$t").log"
    [ $rc -eq 0 ] || echo "FAILED: $t (rc $rc)"
  done
}

run_kernels() {
  for backend in ${BACKENDS:-gl cl}; do
    for size in 1024x1024 4096x4096; do
      for variant in plain optimized fused fast; do
        echo "== bench $backend $size $variant"
        $cli bench --backend "$backend" --size "$size" --variant "$variant" --repeat 30 --warmup 5 \
          | tee "$out/bench_${backend}_${size}_${variant}.txt" | tail -n 3
      done
      echo "== bench $backend $size fused radix-2"
      $cli bench --backend "$backend" --size "$size" --variant fused --max-radix 2 --repeat 30 --warmup 5 \
        | tee "$out/bench_${backend}_${size}_fused_r2.txt" | tail -n 3
    done
  done
}

run_sweep() {
  $cli bench --sweep --repeat "${REPEAT:-30}" --rounds "${ROUNDS:-1}" --warmup 5 ${SIZES:+--sizes "$SIZES"} ${IMPL:+--impl "$IMPL"} \
    ${PLANNING:+--planning "$PLANNING"} ${FFTW_PLANNING_MS:+--fftw-planning-ms "$FFTW_PLANNING_MS"} --copy-bandwidth "${COPY_BANDWIDTH:-0}" -o "$out/sweep.json" > /dev/null \
    2> >(tee "$out/sweep-progress.txt" >&2)
}

case "$what" in
  tests) run_tests ;;
  kernels) run_kernels ;;
  sweep) run_sweep ;;
  all) run_tests; run_kernels; run_sweep ;;
esac
