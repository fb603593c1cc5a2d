#!/usr/bin/env bash
# Session 73, run472: GL's small square images in one dispatch (Tuning::row_bins_max_bytes,
# fast_fft.comp's ROW_BINS: each group forms its own columns' row bins from the whole image, so
# no group waits and no pass runs between the axes) against the shipped two dispatches, as the
# sweep's fftscope-gl-fast entry beside cuFFT (three rounds, taking turns), at 256^2 and 512^2
# (512^2's columns run in whole shared memory only with local_halves_above raised), with 8, 4
# and 16 columns a group and storage reads; first fast_probe_gl's gather alone
# (FFTSCOPE_GL_GATHER: every group reading the whole image) beside an empty dispatch's floor.
# The build: .carry/build-x (a headless fftscope-cli and fast_probe_gl of this commit).
# Carry: .carry/build-x .carry/run472.sh .device
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE= FFTSCOPE_SHADER_DIR=$PWD/shaders
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
FFTSCOPE_GL_EMPTY=1 FFTSCOPE_GL_GATHER=1 timeout 60 .carry/build-x/tests/backend/fast/fast_probe_gl --runs 300 16x16 2>&1 | grep -E "^GL (dispatch|gather)"
echo "probe done: $(( $(date +%s) - START )) s"
on=row_bins_max_bytes=2097152
off=
on4=$on,col_lines=4
onstorage=$on,texture_inputs=0
halves=local_halves_above=49152
on512=$on,$halves
on16=$on,col_lines=16,$halves
tuning() { echo ${!1}; }
sweep() {  # name sizes
  local t=$(tuning $1)
  mkdir -p $OUT/s
  FFTSCOPE_FAST_TUNING=$t COPY_BANDWIDTH=2957 REPEAT=${REPEAT:-200} ROUNDS=1 SIZES=$2 BUILD=.carry/build-x \
    IMPL=fftscope-gl-fast,cufft timeout 120 bash scripts/device_bench.sh sweep $OUT/s > /dev/null 2>&1
  python3 -c "import json,sys; [print(f\"  {sys.argv[2]:10} {e['width']}x{e['height']} {e['implementation']:18} {e.get('median_us')} error {e.get('rel_error')} {e.get('plan','')[:110]}\") for e in json.load(open(sys.argv[1]))['entries']]" $OUT/s/sweep.json $1
  rm -rf $OUT/s
}
for r in 1 2 3; do
  echo "== round $r"
  for v in off on on4 onstorage on16; do sweep $v 256x256; done
  for v in off halves on512; do sweep $v 512x512; done
done
echo "done: $(( $(date +%s) - START )) s"
