#!/usr/bin/env bash
# Session 71, run469 (prepared): GL's columns folded into the rows (fold_columns_max_length; the
# build .carry/build-x: the rows pass takes the columns' first radix-2 step into the backend's
# second buffer, the half-length columns run in place there, direct at any size) against the
# shipped plans, per kernel, alternating, two rounds at 256^2 .. 4096^2; then the sweep's
# fftscope-gl-fast entry both ways beside cuFFT, three rounds (errors against FFTW in the JSON).
# Carry: .carry/build-x .carry/run469.sh .device
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE=
cli=.carry/build-x/src/cli/fftscope-cli
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in 1 2; do
  for size in ${FOLD_SIZES:-4096x4096 1920x1080 1024x1024 1000x1000 512x512 256x256}; do
    for t in "" fold_columns_max_length=4096; do
      echo "== round $r $size tuning '$t'"
      FFTSCOPE_FAST_TUNING=$t timeout 60 $cli bench --backend gl --variant fast --size $size --repeat ${REPEAT_PROBE:-30} --warmup 5 | grep -A1 -E "^fast_|^total"
    done
  done
done
echo "per-kernel done: $(( $(date +%s) - START )) s"
for t in "" fold_columns_max_length=4096; do
  mkdir -p $OUT/sweep-${t:-shipped}
  FFTSCOPE_FAST_TUNING=$t COPY_BANDWIDTH=2957 REPEAT=30 ROUNDS=3 SIZES=${SWEEP_SIZES:-4096x4096,1920x1080,1024x1024,1000x1000,512x512,256x256} BUILD=.carry/build-x \
    IMPL=fftscope-gl-fast,cufft timeout 150 bash scripts/device_bench.sh sweep $OUT/sweep-${t:-shipped} > /dev/null 2>&1
  echo "== sweep '$t'"
  python3 -c "import json,sys; [print(f\"  {e['width']}x{e['height']} {e['implementation']:18} {e.get('median_us')} {e.get('round_medians_us')} error {e.get('rel_error')}\") for e in json.load(open(sys.argv[1]))['entries']]" $OUT/sweep-${t:-shipped}/sweep.json
done
cp $OUT/sweep-fold_columns_max_length=4096/sweep.json $OUT/sweep-fold.json 2>/dev/null; cp $OUT/sweep-shipped/sweep.json $OUT/sweep-shipped.json 2>/dev/null
rm -rf $OUT/sweep-*/
echo "sweeps done: $(( $(date +%s) - START )) s"
echo "done: $(( $(date +%s) - START )) s"
