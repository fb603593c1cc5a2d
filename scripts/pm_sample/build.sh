#!/usr/bin/env bash
# Builds pm_sample (NVIDIA's hardware counters over time through CUPTI's PM sampling; see
# pm_sample.cpp) into OUT_DIR (default build-pm/), beside the CUPTI libraries it loads, so that
# the folder can be carried to a GPU machine without CUDA's toolkit. CUPTI and cuda.h come from
# NVIDIA's PyPI wheels (nvidia-cuda-cupti-cu12, nvidia-cuda-runtime-cu12), unpacked into
# OUT_DIR.sdk beside it (not carried); PM sampling needs CUPTI 12.6 or later and an Ampere GA10x
# or later GPU.
#   bash scripts/pm_sample/build.sh [OUT_DIR]
set -euo pipefail
top=$(git rev-parse --show-toplevel)
out=$(realpath -m "${1:-$top/build-pm}")
sdk=$out.sdk
mkdir -p "$out" "$sdk/wheels"
python3 -m pip download --quiet --no-deps -d "$sdk/wheels" "nvidia-cuda-cupti-cu12>=12.6" nvidia-cuda-runtime-cu12
for w in "$sdk"/wheels/*.whl; do python3 -m zipfile -e "$w" "$sdk"; done
cupti=$sdk/nvidia/cuda_cupti
g++ -std=c++20 -O2 -Wall -Wno-missing-field-initializers -I"$cupti/include" -I"$sdk/nvidia/cuda_runtime/include" \
  "$top/scripts/pm_sample/pm_sample.cpp" -L"$cupti/lib" -l:libcupti.so.12 -ldl -Wl,-rpath,'$ORIGIN' -o "$out/pm_sample"
cp "$cupti/lib/libcupti.so.12" "$cupti/lib/libnvperf_host.so" "$cupti/lib/libnvperf_target.so" "$out/"
echo "built $out/pm_sample (carry $out: pm_sample and the three CUPTI libraries beside it)"
