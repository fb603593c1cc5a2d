#!/usr/bin/env bash
# Session 70, call 3: every OpenCL entry at 256^2-1024^2 read 3-11 us higher in run463 than in
# the merged sweep (the copy and VkFFT too). Session 57's build (917686f, .carry/build-57) against
# this one (.carry/build-h) in alternating processes tells a change of ours from the machine's.
# Then OpenCL's 4096^2 and 4099^2 entries, which run463's time limit cut off.
# Carry: .carry/build-h .carry/build-57 .carry/run464.sh .device
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE=
nvidia-smi --query-gpu=name,driver_version,persistence_mode,clocks.sm --format=csv,noheader
lscpu | grep -E "Model name|^CPU\(s\)|MHz" ; uptime
S=256x256,512x512,1024x1024,2048x2048
I=fftscope-cl-fast,fftscope-cl-display,opencl-copy,vkfft-opencl,cufft,fftscope-gl-display
for b in h 57 h 57; do
  timeout 60 .carry/build-$b/src/cli/fftscope-cli bench --sweep --repeat 30 --rounds 2 --warmup 5 --sizes $S --impl $I \
    -o /tmp/ab_$b.json > /tmp/ab.txt 2>&1
  echo "-- build $b rc=$? ($(( $(date +%s) - START )) s)"
  python3 -c "import json,sys; [print(f\"  {e['width']}x{e['height']} {e['implementation']:22} {e.get('median_us')} {e.get('round_medians_us')}\") for e in json.load(open(sys.argv[1]))['entries']]" /tmp/ab_$b.json
done
COPY_BANDWIDTH=2957 REPEAT=30 ROUNDS=3 SIZES=4096x4096,4099x4099 BUILD=.carry/build-h \
  IMPL=fftscope-cl-fast,fftscope-cl-display,cufft,vkfft-opencl,cufft-r2c-display,opencl-copy \
  timeout 200 bash scripts/device_bench.sh sweep $OUT/cl
echo "rc=$?"
echo "done: $(( $(date +%s) - START )) s"
