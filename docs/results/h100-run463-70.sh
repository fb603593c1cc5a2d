#!/usr/bin/env bash
# Session 70, call 2: OpenCL's fast and display entries over the same sweep, beside cuFFT, VkFFT,
# cuFFT's R2C + display and the copy, three rounds; then GL's 2401-4000-point display rows by
# texture (texture_display_rows_max_length=0) against the shipped storage reads, side by side.
# Carry: .carry/build-h .carry/run463.sh .device
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export FFTSCOPE_PLAN_CACHE=
SIZES=8192x8192,256x256,512x512,1000x1000,1024x1024,1920x1080,2048x2048,2187x2187,2401x2401,3125x3125,3200x3200,4000x4000,4032x3024,4096x4096,4099x4099
COPY_BANDWIDTH=2957 REPEAT=30 ROUNDS=3 SIZES=$SIZES BUILD=.carry/build-h \
  IMPL=fftscope-cl-fast,fftscope-cl-display,cufft,vkfft-opencl,cufft-r2c-display,opencl-copy \
  timeout 450 bash scripts/device_bench.sh sweep $OUT/cl
echo "rc=$?"
python3 scripts/targets_table.py $OUT/cl/sweep.json 2>&1 | head -30
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd
for t in storage texture; do
  tuning=; [ $t = texture ] && tuning=texture_display_rows_max_length=0
  FFTSCOPE_FAST_TUNING=$tuning timeout 50 .carry/build-h/src/cli/fftscope-cli bench --sweep --repeat 30 --rounds 2 \
    --warmup 5 --sizes 2401x2401,3125x3125,4000x4000 --impl fftscope-gl-display -o $OUT/rows_$t.json > /tmp/r.txt 2>&1
  echo "-- display rows from $t: rc=$?"
  python3 -c "import json,sys; [print(f\"  {e['width']}x{e['height']}: {e['implementation']} {e.get('median_us')} error {e.get('rel_error')} rounds {e.get('round_medians_us')}\") for e in json.load(open(sys.argv[1]))['entries']]" $OUT/rows_$t.json
done
echo "done: $(( $(date +%s) - START )) s"
