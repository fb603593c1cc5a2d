#!/usr/bin/env bash
# Builds the whole project with AddressSanitizer + UndefinedBehaviorSanitizer (and LeakSanitizer,
# which ASan runs at exit) into build-asan and runs the full ctest suite under them.
#
#   scripts/test-sanitizers.sh            # everything the machine has (GL on Mesa, CL on PoCL)
#   scripts/test-sanitizers.sh -L core    # extra arguments go to ctest
#
# Environment: SANITIZE_BUILD_DIR (default build-asan), SANITIZE_JOBS (default 2),
# SANITIZE_CMAKE_ARGS (extra configure options, e.g. -DFFTSCOPE_WITH_CL=OFF).
#
# Leaks: LeakSanitizer reports every leak in our code. Leaks that live wholly inside the GPU
# drivers (Mesa's llvmpipe and its LLVM, PoCL, the ICD and GLVND loaders, fontconfig/X11 under
# GLFW) are suppressed by scripts/lsan.supp, which names only those libraries, never a frame of
# ours; docs/reliability.md says why. Any UBSan report fails the test (halt_on_error).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${SANITIZE_BUILD_DIR:-$top/build-asan}"
jobs="${SANITIZE_JOBS:-2}"

echo "sanitizers: configuring $build (FFTSCOPE_SANITIZE=ON)"
mkdir -p "$build"
# shellcheck disable=SC2086
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFFTSCOPE_SANITIZE=ON \
  -DFFTSCOPE_WITH_GL=ON -DFFTSCOPE_WITH_CL=ON -DFFTSCOPE_BUILD_GUI=ON -DFFTSCOPE_BUILD_TESTS=ON \
  -DFFTSCOPE_BUILD_BENCH=OFF ${SANITIZE_CMAKE_ARGS:-} >"$build/configure.log" 2>&1 \
  || { cat "$build/configure.log"; exit 2; }
grep -E "^-- fftscope:" "$build/configure.log" || true
cmake --build "$build" -j "$jobs"

# detect_leaks: LSan at exit. strict_string_checks/detect_stack_use_after_return: stricter ASan.
# (Not fast_unwind_on_malloc=0: its unwinder calls malloc inside libgcc's FDE lock, and LLVM's
# JIT in llvmpipe then deadlocks the test.)
# use_sigaltstack=0: LLVM (inside PoCL and llvmpipe) installs its own alternate signal stack on
# the threads that compile kernels, and ASan then fails to unmap "its" stack when such a thread
# (the GUI's worker) exits: a CHECK failure in the runtime, not a finding in the program.
# intercept_tls_get_addr=0: LeakSanitizer's exit-time tracer read a garbage dynamic-TLS range of
# the main thread ("DTLS 7 at 0x9d5-0x800001ad7", then SIGSEGV, "Tracer caught signal 11") after
# PoCL had dlopen'ed its kernels, on every run of ClFastSupport.LargePrimeFactors... (2026-11-26);
# without the interception LSan skips dynamic TLS, which can only add leak reports (pointers held
# there alone), never hide one.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:use_sigaltstack=0:intercept_tls_get_addr=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$top/scripts/lsan.supp:print_suppressions=1${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# llvmpipe's JIT and PoCL's compiler are slow under ASan: the same tests, a longer timeout.

# Leaks and driver libraries: Mesa's GLX vendor library and its DRI driver are dlopen'ed under
# GLFW and dlclose'd at exit, before LeakSanitizer runs; the memory their globals still point to
# then looks leaked ("<unknown module>" frames). Preloading them keeps them mapped to the end, so
# LSan sees those pointers and reports only real leaks. (Preloading puts them before the ASan
# runtime: verify_asan_link_order=0 allows that.)
preload=()
for lib in /usr/lib/x86_64-linux-gnu/libGLX_mesa.so.0 /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so; do
  [ -e "$lib" ] && preload+=("$lib")
done
if [ ${#preload[@]} -gt 0 ]; then
  export LD_PRELOAD="$(IFS=:; echo "${preload[*]}")${LD_PRELOAD:+:$LD_PRELOAD}"
  export ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"
fi
# ASan's redzones make stack frames several times larger; deep recursion that fits in 8 MiB
# normally (libstdc++'s std::regex on a long string, in a CLI test) needs more here.
ulimit -s 65536 2>/dev/null || true

# Like scripts/test.sh: GPU tests must find Mesa and PoCL (no silent skips), GUI tests get Xvfb.
export FFTSCOPE_REQUIRE_GPU="${FFTSCOPE_REQUIRE_GPU:-1}"
runner=()
command -v xvfb-run >/dev/null && runner=(xvfb-run -a -s "-screen 0 1920x1080x24")
status=0
# --repeat until-pass:2: LeakSanitizer's exit-time tracer now and then dies with SIGSEGV while it
# stops PoCL's worker threads ("Tracer caught signal 11"; no leak report); a real leak or error
# fails both runs.
"${runner[@]}" ctest --test-dir "$build" --output-on-failure --no-tests=error --timeout 1500 -j "$jobs" \
  --repeat until-pass:2 "$@" 2>&1 \
  | tee "$build/ctest.log" || status=$?
passed=$(grep -oE '[0-9]+ tests passed|100% tests passed' "$build/ctest.log" | head -1 || true)
total=$(grep -oE 'out of [0-9]+' "$build/ctest.log" | grep -oE '[0-9]+' | tail -1 || true)
echo "sanitizers: ${passed:-?} (${total:-?} tests) under ASan+UBSan+LSan; log in $build/ctest.log"
exit $status
