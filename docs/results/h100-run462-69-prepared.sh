#!/usr/bin/env bash
# Prepared in session 69 for a later call: the shipped GL defaults after run461 (four-step columns
# by texture, display rows by texture up to 2187 points) in one sweep beside cuFFT, VkFFT and
# cuFFT's R2C + display, two rounds: above all the 8192^2 display, whose shipped combination
# (rows from storage, four-step columns by texture) run461 did not time (about 731 us expected).
# Then display rows of 2401-4000 points by texture, which run461 did not time, against the sweep's.
# Carry: .carry/build-g .carry/run462.sh .device   (about 7 minutes)
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE=
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 560 .carry/build-g/fftscope-cli bench --sweep --repeat 30 --rounds 2 --warmup 5 \
  --sizes 8192x8192,256x256,512x512,1000x1000,1024x1024,1920x1080,2048x2048,2187x2187,2401x2401,3125x3125,4000x4000,4096x4096 \
  --impl fftscope-gl-display,cufft-r2c-display,fftscope-gl-fast,cufft,vkfft-opencl -o $OUT/sweep.json > /tmp/s.txt 2>&1
echo "rc=$?"
python3 - $OUT/sweep.json <<'PY'
import json, sys
by = {}
for e in json.load(open(sys.argv[1]))['entries']:
    by.setdefault((e['width'], e['height']), {})[e['implementation']] = e.get('median_us')
for (w, h), d in by.items():
    print(f"  {w}x{h}: " + ", ".join(f"{k} {v}" for k, v in d.items()))
PY
echo "-- display rows of 2401-4000 points by texture (texture_display_rows_max_length=0; the sweep above has them from storage)"
FFTSCOPE_FAST_TUNING=texture_display_rows_max_length=0 timeout 120 .carry/build-g/fftscope-cli bench --sweep --repeat 30 \
  --rounds 2 --warmup 5 --sizes 2401x2401,3125x3125,4000x4000 --impl fftscope-gl-display -o $OUT/rows_by_texture.json > /tmp/r.txt 2>&1
echo "rc=$?"
python3 -c "import json,sys; [print(f\"  {e['width']}x{e['height']}: {e['implementation']} {e.get('median_us')}\") for e in json.load(open(sys.argv[1]))['entries']]" $OUT/rows_by_texture.json
echo "done: $(( $(date +%s) - START )) s"
