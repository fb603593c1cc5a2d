#!/usr/bin/env bash
# Session 69: the GL real display reading through buffer textures (columns: the image; display
# rows: Z; the range as a uniform block, no storage barrier in a frame) against the shipped build
# (ccc9bda, fftscope-cli-head), beside cuFFT's R2C + display; four-step columns by texture
# (texture_four_step=1) on the display and the fast path at 8192^2; then the fast path beside
# cuFFT and VkFFT (the committed GL 4.3 texture binding, untimed so far).
# Carry: .carry/build-f .carry/run461.sh .device
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE=
B=.carry/build-f
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
SIZES=256x256,512x512,1000x1000,1024x1024,2048x2048,2187x2187,4096x4096,8192x8192
table() {
python3 - "$1" <<'PY'
import json, sys
by = {}
for e in json.load(open(sys.argv[1]))['entries']:
    by.setdefault((e['width'], e['height']), {})[e['implementation']] = e.get('median_us')
for (w, h), d in by.items():
    print(f"  {w}x{h}: " + ", ".join(f"{k} {v}" for k, v in d.items()))
PY
}
run() {  # name cli tuning impls sizes repeat
  echo "-- $1 ($(( $(date +%s) - START )) s)"
  local out=$OUT/$1.json; [ $1 = display_tex_off ] && out=/tmp/$1.json  # $OUT takes 8 files: the log and 7
  FFTSCOPE_FAST_TUNING="$3" timeout 150 $B/$2 bench --sweep --repeat $6 --rounds 2 --warmup 5 --sizes $5 \
    --impl $4 -o $out > /tmp/d_$1.txt 2>&1
  echo "rc=$?"; grep -iE "error|fail" /tmp/d_$1.txt | head -3; table $out
}
D=fftscope-gl-display,cufft-r2c-display
F=fftscope-gl-fast,cufft,vkfft-opencl
run display_head fftscope-cli-head "" $D $SIZES 30
run display_tex fftscope-cli "" $D $SIZES 30
run display_tex_4step fftscope-cli "texture_four_step=1" fftscope-gl-display,cufft-r2c-display 8192x8192 30
run fast_8192 fftscope-cli "" $F 8192x8192 50
run fast_4step fftscope-cli "texture_four_step=1" $F 8192x8192 50
run fast fftscope-cli "" $F 256x256,512x512,1000x1000,1024x1024,1920x1080,2048x2048,4096x4096 50
run display_tex_cols_unbounded fftscope-cli "texture_columns_max_length=0" fftscope-gl-display 2187x2187,4096x4096 30
run display_tex_off fftscope-cli "texture_inputs=0" $D $SIZES 30
echo "done: $(( $(date +%s) - START )) s"
