#!/usr/bin/env bash
# Runs on the lent GPU machine: the fast path's tuning probes (docs/fast_path.md) and the
# display-path costs (docs/performance.md), all in one call. Expects a headless Release build in
# $BUILD (default build-dev) with fast_probe_cl / fast_probe_gl and the .device/ folder made by
# ../shared/device/prepare.sh, with the kernels/ and shaders/ to measure copied into .device/src/.
#   usage: scripts/device_tuning.sh OUTDIR [SIZES...]
# TUNINGS (newline-separated FFTSCOPE_FAST_TUNING strings; "-" is the default) and SHADER_EDITS /
# KERNEL_EDITS (newline-separated sed expressions, each run on a copy of shaders/ or kernels/ as
# one more variant) choose the variants.
set -uo pipefail
out=${1:?usage: device_tuning.sh OUTDIR [SIZES...]}
shift
sizes=${*:-4096x4096 8192x8192}
build=${BUILD:-build-dev}
runs=${RUNS:-50}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.device/lib:${LD_LIBRARY_PATH:-} OCL_ICD_VENDORS=$PWD/.device/icd
probe_dir=$build/tests/backend/fast
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$out/gpu.txt"

probe() {  # label api tuning shader_or_kernel_dir
  local label=$1 api=$2 tuning=$3 dir=$4
  [ "$tuning" = "-" ] && tuning=""
  echo "== $api $label tuning='$tuning'"
  if [ "$api" = cl ]; then
    FFTSCOPE_FAST_TUNING=$tuning FFTSCOPE_KERNEL_DIR=$dir "$probe_dir/fast_probe_cl" --device NVIDIA --runs "$runs" $sizes
  else
    FFTSCOPE_FAST_TUNING=$tuning FFTSCOPE_SHADER_DIR=$dir "$probe_dir/fast_probe_gl" --runs "$runs" $sizes
  fi
}

for api in ${APIS:-cl gl}; do
  src=$PWD/.device/src/kernels
  [ "$api" = gl ] && src=$PWD/.device/src/shaders
  while IFS= read -r tuning; do
    [ -n "$tuning" ] || continue
    probe base "$api" "$tuning" "$src"
  done <<< "${TUNINGS:--}"
  edits=${KERNEL_EDITS:-}
  [ "$api" = gl ] && edits=${SHADER_EDITS:-}
  i=0
  while IFS= read -r expr; do
    [ -n "$expr" ] || continue
    i=$((i + 1))
    dir=$out/src-$api-$i
    rm -rf "$dir" && cp -r "$src" "$dir" && sed -i -e "$expr" "$dir"/*
    probe "edit$i: $expr" "$api" - "$dir"
  done <<< "$edits"
done 2>&1 | tee "$out/probes.txt"

if [ -n "${DISPLAY_SIZES:-}" ]; then
  for size in $DISPLAY_SIZES; do
    for backend in cl gl; do
      for variant in fast fused; do
        echo "== bench --display $backend $size $variant"
        "$build/src/cli/fftscope-cli" bench --backend "$backend" --variant "$variant" --size "$size" --repeat 30 \
          --warmup 10 --display $([ "$backend" = cl ] && echo --cl-device NVIDIA)
      done
    done
  done 2>&1 | tee "$out/display.txt"
fi
