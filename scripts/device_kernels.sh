#!/usr/bin/env bash
# On the lent GPU machine: the per-kernel benches behind docs/performance.md's teaching-pipeline
# tables (the seeds' three comparisons, and the column strategy of each backend).
#   usage: BUILD=build-dev scripts/device_kernels.sh OUTDIR
set -uo pipefail
out=${1:-out/kernels}
build=${BUILD:-build-dev}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.device/lib:${LD_LIBRARY_PATH:-} OCL_ICD_VENDORS=$PWD/.device/icd
cli=$build/src/cli/fftscope-cli
bench() {  # name, then bench arguments
  local name=$1; shift
  "$cli" bench --repeat "${REPEAT:-30}" --warmup 5 "$@" > "$out/$name.txt" 2>&1
  echo "$name: $(grep -E '^total' "$out/$name.txt" | grep -oE '[0-9.]+ ms')"
}
for backend in gl cl; do
  for size in 1024x1024 4096x4096; do
    for variant in plain optimized fused fast; do
      bench "${backend}_${size}_${variant}" --backend $backend --size $size --variant $variant
    done
    bench "${backend}_${size}_fused_radix2" --backend $backend --size $size --variant fused --max-radix 2
    bench "${backend}_${size}_fused_radix8" --backend $backend --size $size --variant fused --max-radix 8
  done
done
FFTSCOPE_GL_COLUMNS=strided bench gl_4096x4096_fused_strided --backend gl --size 4096x4096 --variant fused
FFTSCOPE_CL_COLUMNS=transpose bench cl_4096x4096_fused_transpose --backend cl --size 4096x4096 --variant fused
tar -C "$out" -czf "$out.tar.gz" . && mv "$out.tar.gz" "$out/"
