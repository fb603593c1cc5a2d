#!/usr/bin/env bash
# Session 71, prepared call (run467; every start after run466 found no machine): what a rows pass costs GL where each invocation holds 32 values
# and a multiprocessor keeps one group (GL's 48 KiB of shared memory): the proxies for a rows pass
# that would take the 4096-point columns' first radix-2 step (four rows per group, in place), at
# 4096^2, per kernel, beside the shipped rows (16 values, three groups per multiprocessor), two
# rounds; and the 2048-point columns at width 8192 again (what the columns would become).
# Carry: .carry/build-h .carry/run467.sh .device
export LD_LIBRARY_PATH=$PWD/.device/lib OCL_ICD_VENDORS=$PWD/.device/icd FFTSCOPE_PLAN_CACHE=
cli=.carry/build-h/src/cli/fftscope-cli
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in 1 2; do
  for t in "" row_elements=8192 local_bytes_cap=17408; do
    echo "== round $r 4096x4096 tuning '$t'"
    FFTSCOPE_FAST_TUNING=$t timeout 60 $cli bench --backend gl --variant fast --size 4096x4096 --repeat 30 --warmup 5 | grep -A1 -E "^fast_"
  done
  echo "== round $r 8192x2048 tuning 'four_step_min_bytes=99999999999'"
  FFTSCOPE_FAST_TUNING=four_step_min_bytes=99999999999 timeout 60 $cli bench --backend gl --variant fast --size 8192x2048 --repeat 30 --warmup 5 | grep -A1 -E "^fast_"
done
