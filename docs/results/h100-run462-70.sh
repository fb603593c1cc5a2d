#!/usr/bin/env bash
# Session 70, call 1: GL's shipped fast and display entries over the whole sweep (and 3200^2,
# 4032x3024), beside cuFFT, VkFFT, cuFFT's R2C + display and the copy, three rounds; the first
# timing of the shipped 8192^2 display (rows from storage, four-step columns by texture).
# Carry: .carry/build-h .carry/run462.sh .device
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export FFTSCOPE_PLAN_CACHE=
SIZES=8192x8192,256x256,512x512,1000x1000,1024x1024,1920x1080,2048x2048,2187x2187,2401x2401,3125x3125,3200x3200,4000x4000,4032x3024,4096x4096,4099x4099
COPY_BANDWIDTH=2957 REPEAT=30 ROUNDS=3 SIZES=$SIZES BUILD=.carry/build-h \
  IMPL=fftscope-gl-fast,fftscope-gl-display,cufft,vkfft-opencl,cufft-r2c-display,opencl-copy \
  timeout 570 bash scripts/device_bench.sh sweep $OUT
echo "rc=$?"
python3 scripts/targets_table.py $OUT/sweep.json 2>&1 | head -30
echo "done: $(( $(date +%s) - START )) s"
