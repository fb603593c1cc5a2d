#!/usr/bin/env bash
# Session 72, run470 (prepared; replaces run469, which found no machine): GL's columns folded
# into the rows (fold_columns_max_length), each line of the rows pass making both rows (held,
# FOLD_ROWS 1) or one (fold_rows_apart=1, FOLD_ROWS 2: every input row read twice, nothing held),
# against the shipped plans, per kernel, taking turns, two rounds at 256^2 .. 4096^2; then the
# sweep's fftscope-gl-fast entry each way beside cuFFT, three rounds (errors against FFTW in the
# JSON). The build: .carry/build-x (a headless fftscope-cli of this commit).
# Carry: .carry/build-x .carry/run470.sh .device   (about 4 minutes)
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE=
cli=.carry/build-x/src/cli/fftscope-cli
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
FOLD=fold_columns_max_length=4096
APART=fold_columns_max_length=4096,fold_rows_apart=1
for r in 1 2; do
  for size in ${FOLD_SIZES:-4096x4096 2048x2048 1920x1080 1024x1024 1000x1000 512x512 256x256}; do
    for t in "" $FOLD $APART; do
      echo "== round $r $size tuning '$t'"
      FFTSCOPE_FAST_TUNING=$t timeout 60 $cli bench --backend gl --variant fast --size $size --repeat ${REPEAT_PROBE:-30} --warmup 5 | grep -A1 -E "^fast_|^total"
    done
  done
done
echo "per-kernel done: $(( $(date +%s) - START )) s"
for name in shipped fold apart; do
  case $name in shipped) t= ;; fold) t=$FOLD ;; apart) t=$APART ;; esac
  mkdir -p $OUT/sweep-$name
  FFTSCOPE_FAST_TUNING=$t COPY_BANDWIDTH=2957 REPEAT=30 ROUNDS=3 SIZES=${SWEEP_SIZES:-4096x4096,2048x2048,1920x1080,1024x1024,1000x1000,512x512,256x256} BUILD=.carry/build-x \
    IMPL=fftscope-gl-fast,cufft timeout 150 bash scripts/device_bench.sh sweep $OUT/sweep-$name > /dev/null 2>&1
  echo "== sweep $name '$t'"
  python3 -c "import json,sys; [print(f\"  {e['width']}x{e['height']} {e['implementation']:18} {e.get('median_us')} {e.get('round_medians_us')} error {e.get('rel_error')}\") for e in json.load(open(sys.argv[1]))['entries']]" $OUT/sweep-$name/sweep.json
  cp $OUT/sweep-$name/sweep.json $OUT/sweep-$name.json 2>/dev/null
  rm -rf $OUT/sweep-$name/
done
echo "done: $(( $(date +%s) - START )) s"
