#!/usr/bin/env bash
# Session 71, call 1 (run465): the sixty-ninth session's prepared run465 (GL's 2401^2 and 3125^2 displays under the 3125-point texture bound
# beside cuFFT's R2C + display, three rounds, for the merged sweep), then a probe: GL's column
# passes of 2048 and 1024 points at widths 8192 and 16384 (what 4096-point columns would become
# if the rows pass took their first radix-2 or radix-4 step), per kernel, at 8, 16 and 32
# columns per group, beside the 4096^2 transform itself.
# Carry: .carry/build-h .carry/run465.sh (this file) .device
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export FFTSCOPE_PLAN_CACHE=
COPY_BANDWIDTH=2957 REPEAT=30 ROUNDS=3 SIZES=${SIZES465:-2401x2401,3125x3125} BUILD=.carry/build-h \
  IMPL=fftscope-gl-display,cufft-r2c-display timeout 200 bash scripts/device_bench.sh sweep $OUT
echo "rc=$?"
python3 -c "import json,sys; [print(f\"  {e['width']}x{e['height']} {e['implementation']:22} {e.get('median_us')} {e.get('round_medians_us')} error {e.get('rel_error')}\") for e in json.load(open(sys.argv[1]))['entries']]" $OUT/sweep.json
echo "sweep done: $(( $(date +%s) - START )) s"
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd
cli=.carry/build-h/src/cli/fftscope-cli
for round in 1 2; do
  for size in ${PROBE_SIZES:-4096x4096 8192x2048 16384x1024}; do
    for t in "" col_lines=16 col_lines=32; do
      echo "== round $round $size tuning '$t'"
      FFTSCOPE_FAST_TUNING=$t timeout 60 $cli bench --backend gl --variant fast --size $size --repeat ${REPEAT_PROBE:-30} --warmup 5 \
        | grep -E "^fast_|note:|^total"
    done
  done
done
echo "done: $(( $(date +%s) - START )) s"
