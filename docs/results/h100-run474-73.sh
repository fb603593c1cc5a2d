#!/usr/bin/env bash
# Session 73, run474 (prepared): the rule run473's rows suggest, "even unsplit rows over 2 048
# points take 8 values an invocation where that means fewer invocations", at every length it
# moves (26 from 2058 to 3780; run473 timed 2880, 3024, 3200, 3456, 3600: 3 wins, 2 ties), per
# pass, default against elements_per_thread=8, two rounds taking turns; then the sweep's 3200^2
# GL fast entry each way beside cuFFT and VkFFT, three rounds of 30 (the one sweep size it moves).
# Run with .carry/build-x holding a headless fftscope-cli of this commit.
# Carry: .carry/build-x .carry/run474.sh .device   (about 4 minutes)
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE=
cli=.carry/build-x/src/cli/fftscope-cli
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in 1 2; do
  for n in 2058 2240 2250 2352 2430 2450 2500 2646 2688 2744 2800 2880 2916 2940 3024 3072 3136 3150 3200 3360 3402 3456 3500 3600 3750 3780; do
    for t in "" elements_per_thread=8; do
      echo "== rows round $r ${n}^2 '$t'"
      FFTSCOPE_FAST_TUNING=$t timeout 60 $cli bench --backend gl --variant fast --size ${n}x${n} --repeat 30 --warmup 5 | grep -A1 -E "^fast_rows"
    done
  done
done
echo "rows done: $(( $(date +%s) - START )) s"
for t in "" elements_per_thread=8; do
  mkdir -p $OUT/s
  FFTSCOPE_FAST_TUNING=$t COPY_BANDWIDTH=2957 REPEAT=30 ROUNDS=3 SIZES=3200x3200 BUILD=.carry/build-x \
    IMPL=fftscope-gl-fast,cufft,vkfft-opencl,opencl-copy timeout 120 bash scripts/device_bench.sh sweep $OUT/s > /dev/null 2>&1
  echo "== sweep '$t'"
  python3 -c "import json,sys; [print(f\"  {e['width']}x{e['height']} {e['implementation']:18} {e.get('median_us')} {e.get('round_medians_us')} error {e.get('rel_error')}\") for e in json.load(open(sys.argv[1]))['entries']]" $OUT/s/sweep.json
  cp $OUT/s/sweep.json $OUT/sweep-${t:-default}.json; rm -rf $OUT/s
done
echo "done: $(( $(date +%s) - START )) s"
