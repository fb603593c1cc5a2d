#!/usr/bin/env bash
# Session 70, call 4: GL's 2401^2 and 3125^2 displays as now shipped (display rows by texture up
# to 3125 points, 9773b6a) beside cuFFT's R2C + display, three rounds, for the merged sweep.
# Carry: .carry/build-h .carry/run465.sh .device
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export FFTSCOPE_PLAN_CACHE=
COPY_BANDWIDTH=2957 REPEAT=30 ROUNDS=3 SIZES=2401x2401,3125x3125 BUILD=.carry/build-h \
  IMPL=fftscope-gl-display,cufft-r2c-display timeout 200 bash scripts/device_bench.sh sweep $OUT
echo "rc=$?"
python3 -c "import json,sys; [print(f\"  {e['width']}x{e['height']} {e['implementation']:22} {e.get('median_us')} {e.get('round_medians_us')} error {e.get('rel_error')}\") for e in json.load(open(sys.argv[1]))['entries']]" $OUT/sweep.json
echo "done: $(( $(date +%s) - START )) s"
