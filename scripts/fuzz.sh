#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined) into build-fuzz and
# runs each for a bounded time, starting from the committed seeds in fuzz/corpus/<name>/ (target fuzz_<name>).
#
#   scripts/fuzz.sh                 # 30 s per target (what CI runs)
#   scripts/fuzz.sh 600             # 10 min per target
#   scripts/fuzz.sh 600 fuzz_npy    # one target
#   FUZZ_BUILD_ONLY=1 scripts/fuzz.sh   # build, and replay seeds and regressions only
#   FUZZ_RUNS=200000 FUZZ_SEED=1 scripts/fuzz.sh   # a fixed number of inputs from a fixed seed:
#                                                  # the same inputs every time (what CI runs)
#
# First every target replays fuzz/regressions/<name>/ (inputs that once crashed; each must pass
# now). New inputs that increase coverage go to build-fuzz/corpus/<target>/ (not committed);
# crashes, leaks and timeouts to build-fuzz/artifacts/<target>/. A summary line per target gives
# executions, exec/s, the corpus size and the findings; the exit status is 1 if anything was found.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${FUZZ_BUILD_DIR:-$top/build-fuzz}"
seconds="${1:-30}"
shift || true
all_targets=(fuzz_image_loader fuzz_npy fuzz_settings)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
jobs="${FUZZ_BUILD_JOBS:-2}"

command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (scripts/setup.sh installs clang)" >&2; exit 2; }

flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
mkdir -p "$build"
echo "fuzz: configuring $build (clang, $flags)"
generator=()
[ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$top" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DFFTSCOPE_FUZZ=ON -DFFTSCOPE_WITH_GL=OFF -DFFTSCOPE_WITH_CL=OFF -DFFTSCOPE_BUILD_GUI=OFF \
  -DFFTSCOPE_BUILD_TESTS=OFF -DFFTSCOPE_BUILD_BENCH=OFF >"$build/configure.log" 2>&1 \
  || { cat "$build/configure.log"; exit 2; }
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

# Leaks are findings too (LeakSanitizer runs at exit and, with -detect_leaks=1, per input).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

status=0
summary=()
for t in "${targets[@]}"; do
  bin="$build/fuzz/$t"
  seeds="$top/fuzz/corpus/${t#fuzz_}"
  regressions="$top/fuzz/regressions/${t#fuzz_}"
  corpus="$build/corpus/$t"
  artifacts="$build/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  dict=()
  case "$t" in
    fuzz_npy) dict=(-dict="$top/fuzz/npy.dict") ;;
    fuzz_settings) dict=(-dict="$top/fuzz/settings.dict") ;;
  esac

  # Replay: every seed and every past finding must run clean.
  replay=("$seeds"/*)
  [ -d "$regressions" ] && replay+=("$regressions"/*)
  if ! "$bin" -runs=1 "${replay[@]}" >"$build/$t.replay.log" 2>&1; then
    echo "fuzz: $t FAILED replaying seeds/regressions:"; tail -40 "$build/$t.replay.log"
    status=1
    summary+=("$t: replay FAILED")
    continue
  fi
  [ -n "${FUZZ_BUILD_ONLY:-}" ] && { summary+=("$t: replayed ${#replay[@]} seeds/regressions clean"); continue; }

  echo "fuzz: running $t for ${FUZZ_RUNS:+$FUZZ_RUNS inputs, at most }${seconds}s"
  log="$build/$t.log"
  set +e
  bound=(-max_total_time="$seconds")
  [ -n "${FUZZ_RUNS:-}" ] && bound=(-runs="$FUZZ_RUNS")
  "$bin" "$corpus" "$seeds" "${dict[@]}" "${bound[@]}" -seed="${FUZZ_SEED:-0}" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo "?")
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
  found=$(find "$artifacts" -type f | wc -l)
  line="$t: ${runs} execs in ${seconds}s (${speed}/s), coverage ${cov} edges, corpus $(ls "$corpus" | wc -l) new files, findings ${found}"
  if [ $rc -ne 0 ] || [ "$found" -ne 0 ]; then
    status=1
    line="$line  FAILED (rc $rc; see $log and $artifacts)"
    grep -m1 -A30 'ERROR: \|runtime error\|==ERROR' "$log" || tail -30 "$log"
  fi
  echo "fuzz: $line"
  summary+=("$line")
done

echo "fuzz: summary"
printf '  %s\n' "${summary[@]}"
exit $status
