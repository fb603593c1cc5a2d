#!/usr/bin/env bash
# Session 73, run473: GL's folded 4096^2 with its half-columns read from storage instead of the
# texture (texture_columns_max_length 1024: the 2048-point half-columns took the fast path's
# texture bound, measured on unfolded columns only), or with only the rows by texture
# (texture_inputs 1), against the shipped plan: per pass (two rounds) and as the sweep's entry
# beside cuFFT and VkFFT (three rounds of 30); rows per pass with elements_per_thread 8 at the
# lengths it moves (3200, ...); then every GPU test program of this commit on the H100 (FFTSCOPE_REQUIRE_GPU=1,
# headless: GL through EGL's device platform, NVIDIA's OpenCL), the GL fold at 4096^2 (GL's
# default since the seventy-second session) among them; one summary log.
# The build: .carry/build-x (the test programs and fftscope-cli of this commit).
# Carry: .carry/build-x .carry/run473.sh .device
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE= \
  FFTSCOPE_REQUIRE_GPU=1 FFTSCOPE_SOURCE_DIR=$PWD
echo "pwd: $PWD"
cli=.carry/build-x/src/cli/fftscope-cli
shipped=
storage=texture_columns_max_length=1024
rowsonly=texture_inputs=1
for r in 1 2; do
  for v in shipped storage rowsonly; do
    echo "== round $r $v '${!v}'"
    FFTSCOPE_FAST_TUNING=${!v} timeout 60 $cli bench --backend gl --variant fast --size 4096x4096 --repeat 30 --warmup 5 | grep -A1 -E "^fast_|^total"
  done
done
for v in shipped storage rowsonly; do
  mkdir -p $OUT/s
  FFTSCOPE_FAST_TUNING=${!v} COPY_BANDWIDTH=2957 REPEAT=30 ROUNDS=3 SIZES=4096x4096 BUILD=.carry/build-x \
    IMPL=fftscope-gl-fast,cufft,vkfft-opencl timeout 120 bash scripts/device_bench.sh sweep $OUT/s > /dev/null 2>&1
  echo "== sweep $v"
  python3 -c "import json,sys; [print(f\"  {e['width']}x{e['height']} {e['implementation']:18} {e.get('median_us')} {e.get('round_medians_us')} error {e.get('rel_error')}\") for e in json.load(open(sys.argv[1]))['entries']]" $OUT/s/sweep.json
  cp $OUT/s/sweep.json $OUT/sweep-$v.json; rm -rf $OUT/s
done
echo "4096^2 done: $(( $(date +%s) - START )) s"
# The rows of lengths whose plan elements_per_thread 8 changes (3200: 640 -> 416 invocations,
# 4 us faster a pass in the fifty-ninth session's measured-planning log), per pass, two rounds.
for r in 1 2; do
  for n in 3200 3456 3600 3024 2880 2400 2560 6400; do
    for t in "" elements_per_thread=8; do
      echo "== rows round $r ${n}^2 '$t'"
      FFTSCOPE_FAST_TUNING=$t timeout 60 $cli bench --backend gl --variant fast --size ${n}x${n} --repeat 30 --warmup 5 | grep -A1 -E "^fast_rows"
    done
  done
done
echo "rows done: $(( $(date +%s) - START )) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
.carry/build-x/src/cli/fftscope-cli devices
for t in fast/test_fast_plan fast/test_fast_gl fast/test_fast_cl fast/test_fast_backend fast/test_fast_display gl/test_backend_gl cl/test_backend_cl; do
  echo "== $t ($(( $(date +%s) - START )) s)"
  timeout 240 .carry/build-x/tests/backend/$t --gtest_brief=1 > /tmp/t.log 2>&1
  rc=$?
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure|error" /tmp/t.log | head -40
  [ $rc -eq 0 ] || { echo "FAILED: $t (rc $rc)"; tail -30 /tmp/t.log; }
done
echo "done: $(( $(date +%s) - START )) s"
