#!/usr/bin/env bash
# Session 72, run471 (prepared): GL's held fold (run470 won at 4096^2 and 1024^2; GL's default
# since 34b26c8 on images of 128 MiB or more) off and on at the sweep's other even heights over
# 2048 (3200^2, 4000^2, 4032x3024) and 4096^2 again, per kernel and as the sweep's entry beside
# cuFFT, VkFFT and the copy. Either build works: .carry/build-x with a headless fftscope-cli of
# 34b26c8 or later (or a6ba202's, whose default is off and which ignores fold_columns_min_bytes).
# Otherwise as run470, whose header follows:
# GL's columns folded
# into the rows (fold_columns_max_length): each line of the rows pass making both rows of a
# radix-2 step (held, FOLD_ROWS 1), or one row of a radix-2 or radix-4 step (fold_rows_apart=1,
# FOLD_ROWS 2: every input row read R times, nothing held), radix 4 also with 16 columns a group
# (run466: 1024-point columns 16384 wide 125.3 us with 16, 136.0 with 8), against the shipped
# plans, per kernel, taking turns, two rounds at 256^2 .. 8192^2 (apart, split rows and columns
# that take four steps unfolded fold too: 8192^2 by 4 into 2048-point columns); then the sweep's
# fftscope-gl-fast entry each way beside cuFFT, three rounds (errors against FFTW in the JSON).
# The build: .carry/build-x (a headless fftscope-cli of this commit).
# Carry: .carry/build-x .carry/run471.sh .device   (about 1.5 minutes)
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$(date +%s)
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE=
cli=.carry/build-x/src/cli/fftscope-cli
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
off=fold_columns_max_length=0
held=fold_columns_max_length=8192,fold_columns_min_bytes=0
apart=$held,fold_rows_apart=1
quarter=$apart,fold_columns_radix=4
quarter16=$quarter,col_lines=16
VARIANTS=${VARIANTS:-off held}
tuning() { case $1 in shipped) echo ;; *) echo ${!1} ;; esac; }
for r in 1 2; do
  for size in ${FOLD_SIZES:-3200x3200 4000x4000 4032x3024 4096x4096}; do
    for name in $VARIANTS; do
      t=$(tuning $name)
      echo "== round $r $size $name '$t'"
      FFTSCOPE_FAST_TUNING=$t timeout 60 $cli bench --backend gl --variant fast --size $size --repeat ${REPEAT_PROBE:-30} --warmup 5 | grep -A1 -E "^fast_|^total"
    done
  done
done
echo "per-kernel done: $(( $(date +%s) - START )) s"
for name in $VARIANTS; do
  t=$(tuning $name)
  mkdir -p $OUT/sweep-$name
  FFTSCOPE_FAST_TUNING=$t COPY_BANDWIDTH=2957 REPEAT=30 ROUNDS=3 SIZES=${SWEEP_SIZES:-3200x3200,4000x4000,4032x3024,4096x4096} BUILD=.carry/build-x \
    IMPL=fftscope-gl-fast,cufft,vkfft-opencl,opencl-copy timeout 220 bash scripts/device_bench.sh sweep $OUT/sweep-$name > /dev/null 2>&1
  echo "== sweep $name '$t'"
  python3 -c "import json,sys; [print(f\"  {e['width']}x{e['height']} {e['implementation']:18} {e.get('median_us')} {e.get('round_medians_us')} error {e.get('rel_error')}\") for e in json.load(open(sys.argv[1]))['entries']]" $OUT/sweep-$name/sweep.json
  cp $OUT/sweep-$name/sweep.json $OUT/sweep-$name.json 2>/dev/null
  rm -rf $OUT/sweep-$name/
done
echo "done: $(( $(date +%s) - START )) s"
