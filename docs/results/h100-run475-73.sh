#!/usr/bin/env bash
# Session 73, run475 (prepared): the two fast test suites on the H100, which run473's 240 s
# limit cut short (FFTSCOPE_REQUIRE_GPU=1, headless EGL and NVIDIA's OpenCL), each with 280 s.
# The build: .carry/build-x (test_fast_gl and test_fast_cl of this commit).
# Carry: .carry/build-x .carry/run475.sh .device
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE= \
  FFTSCOPE_REQUIRE_GPU=1 FFTSCOPE_SOURCE_DIR=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in fast/test_fast_gl fast/test_fast_cl; do
  echo "== $t ($(( $(date +%s) - START )) s)"
  timeout 280 .carry/build-x/tests/backend/$t --gtest_brief=1 > /tmp/t.log 2>&1
  rc=$?
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" /tmp/t.log | head -40
  [ $rc -eq 0 ] || { echo "FAILED: $t (rc $rc)"; grep -B2 -A8 "Failure" /tmp/t.log | head -60; }
done
echo "done: $(( $(date +%s) - START )) s"
