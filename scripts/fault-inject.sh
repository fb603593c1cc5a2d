#!/usr/bin/env bash
# GPU fault injection against fftscope-cli: each fault below is made real (the driver or the
# loader really fails), and the CLI must exit with code 4, say why on stderr, and write nothing.
#
#   scripts/fault-inject.sh [path/to/fftscope-cli] [path/to/libfftscope_cl_fault_shim.so]
#
# Defaults: build/src/cli/fftscope-cli; without a CL shim argument both shims
# (tests/fault/cl_fault_shim.c and tests/fault/gl_fault_vendor.c) are built here with cc; one
# that cannot be built skips its faults, or fails the run under FFTSCOPE_REQUIRE_GPU=1. Faults:
#   gl: no EGL vendor (GLVND finds no driver), no OpenGL 4.3 (Mesa told to offer 3.3 only),
#       a shader that does not compile (--shader-dir), host memory exhausted under the driver
#       (ulimit -v: llvmpipe's buffer allocation fails), and through tests/fault/gl_fault_vendor.c
#       (a GLVND EGL vendor wrapping Mesa's, named by __EGL_VENDOR_LIBRARY_FILENAMES):
#       GL_OUT_OF_MEMORY from a dispatch in the middle of a run, the context lost at the first
#       dispatch or in the middle (GL_CONTEXT_LOST, or seen only in glGetGraphicsResetStatus),
#       the read-back failing; on llvmpipe, an image whose buffer exceeds
#       GL_MAX_SHADER_STORAGE_BLOCK_SIZE (refused before any allocation, exit code 3)
#   cl: no OpenCL platform (the ICD loader finds no vendor), a kernel that does not compile
#       (--kernel-dir), and through tests/fault/cl_fault_shim.c (LD_PRELOAD): the first and the
#       third buffer allocation fail, every kernel launch fails from the first or the fifth on,
#       the driver's compiler fails; a device reporting 1 MiB of memory, or 1 MiB buffers at
#       most (refused before any allocation, exit code 3: the input does not fit the device)
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli="${1:-$top/build/src/cli/fftscope-cli}"
shim="${2:-}"
work=$(mktemp -d /tmp/fftscope-faults-XXXXXX)
trap 'rm -rf "$work"' EXIT
image="$top/assets/checkerboard_256.png"
[ -x "$cli" ] || { echo "fault-inject: no CLI at $cli" >&2; exit 2; }

if [ -z "$shim" ]; then
  shim="$work/libclfault.so"
  cc -O1 -shared -fPIC -o "$shim" "$top/tests/fault/cl_fault_shim.c" -ldl 2>"$work/shim.log" || shim=""
fi
glshim="$work/libglfault.so"
cc -O1 -shared -fPIC -o "$glshim" "$top/tests/fault/gl_fault_vendor.c" -ldl 2>"$work/glshim.log" || glshim=""
if [ -n "$glshim" ]; then
  printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s"}}\n' "$glshim" >"$work/gl_fault_vendor.json"
fi
gl_vendor="__EGL_VENDOR_LIBRARY_FILENAMES=$work/gl_fault_vendor.json"
# An ASan build must be told that a preloaded library may come before its runtime.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

backends=$("$cli" devices 2>/dev/null || true)
have_gl=0; have_cl=0
grep -qE '^gl +[^ ]+ +yes' <<<"$backends" && have_gl=1
grep -qE '^cl +[^ ]+ +yes' <<<"$backends" && have_cl=1

failures=0; count=0
# check NAME BACKEND [ENV=VALUE...] -- [extra CLI args]: exit code 4 (a backend failure)
check() { check_exit 4 "" "$@"; }
# check_exit CODE MUST_SAY NAME BACKEND [ENV=VALUE...] -- [extra CLI args]; an "--input FILE"
# first among the extra arguments replaces the checkerboard.
check_exit() {
  local want=$1 must_say=$2 name=$3 backend=$4; shift 4
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local input="$image"
  if [ "${1:-}" = "--input" ]; then input=$2; shift 2; fi
  local out="$work/out-$count.npy"
  count=$((count + 1))
  env "${envs[@]}" timeout 300 "$cli" fft "$input" -o "$out" --backend "$backend" "$@" >"$work/stdout" 2>"$work/stderr"
  local rc=$?
  local reason
  # the CLI's own line (a driver may print its compiler's output first)
  reason=$(grep -m1 '^fftscope-cli' "$work/stderr" | cut -c1-160)
  local verdict=ok
  if [ $rc -ne "$want" ] || [ -z "$reason" ] || [ -e "$out" ]; then verdict=FAIL; fi
  if [ -n "$must_say" ] && ! grep -q -- "$must_say" "$work/stderr"; then verdict=FAIL; fi
  [ $verdict = FAIL ] && failures=$((failures + 1))
  printf '%-4s %-5s %-44s exit %-3s %s\n' "$verdict" "$backend" "$name" "$rc" "$reason"
  [ "$verdict" = FAIL ] && sed 's/^/        /' "$work/stderr" | head -20
}
echo "fault-inject: $cli"
if [ $have_gl -eq 1 ]; then
  check "no EGL vendor library" gl __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json --
  check "no OpenGL 4.3 (Mesa offers 3.3)" gl MESA_GL_VERSION_OVERRIDE=3.3 MESA_GLSL_VERSION_OVERRIDE=330 --
  cp -r "$top/shaders" "$work/shaders"
  echo "this is not GLSL;" >>"$work/shaders/radix_stage.comp"
  check "shader that does not compile" gl -- --shader-dir "$work/shaders"
  # 256^2 fits; the llvmpipe allocation of a 4096^2 pipeline does not under 700 MB. (Not under
  # AddressSanitizer, which reserves terabytes of address space for its shadow memory.)
  ldd "$cli" >"$work/ldd" 2>/dev/null  # (not piped into grep -q: pipefail would see ldd's SIGPIPE)
  if grep -q libasan "$work/ldd"; then
    printf '%-4s %-5s %-44s\n' skip gl "allocation fails (ulimit -v): ASan build"
  else
  ( ulimit -v 700000
    env timeout 300 "$cli" bench --backend gl --size 4096x4096 --repeat 1 >"$work/stdout" 2>"$work/stderr"; rc=$?
    reason=$(head -1 "$work/stderr" | cut -c1-160)
    v=ok; [ $rc -ne 4 ] && v=FAIL
    printf '%-4s %-5s %-44s exit %-3s %s\n' "$v" gl "allocation fails (ulimit -v 700000, 4096^2)" "$rc" "$reason"
    [ $v = ok ] ) || failures=$((failures + 1))
  count=$((count + 1))
  fi
  if [ -n "$glshim" ]; then
    check "dispatch fails mid-run: GL_OUT_OF_MEMORY (7th)" gl "$gl_vendor" FFTSCOPE_FAULT_GL_DISPATCH_OOM=7 --
    check "context lost at the first dispatch" gl "$gl_vendor" FFTSCOPE_FAULT_GL_CONTEXT_LOST=1 --
    check "context lost mid-run (7th dispatch)" gl "$gl_vendor" FFTSCOPE_FAULT_GL_CONTEXT_LOST=7 --
    check "reset seen only in the reset status (7th)" gl "$gl_vendor" FFTSCOPE_FAULT_GL_RESET_ONLY=7 --
    check "context lost mid-run, fast variant (2nd)" gl "$gl_vendor" FFTSCOPE_FAULT_GL_CONTEXT_LOST=2 -- --variant fast
    check "read-back fails (glGetBufferSubData)" gl "$gl_vendor" FFTSCOPE_FAULT_GL_READBACK=1 --
  else
    printf '%-4s %-5s %-44s %s\n' skip gl "GL fault vendor" "could not build tests/fault/gl_fault_vendor.c: $(head -1 "$work/glshim.log")"
    [ "${FFTSCOPE_REQUIRE_GPU:-0}" = 1 ] && failures=$((failures + 1))
  fi
  # llvmpipe allows 128 MiB per shader storage block: a 4160 x 4096 image is a 130 MiB buffer.
  if grep -qE '^gl .*llvmpipe' <<<"$backends"; then
    python3 - "$work/wide.png" <<'PY'
import struct, sys, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
raw = zlib.compress(bytes(4161 * 4096), 9)
ihdr = struct.pack(">IIBBBBB", 4160, 4096, 8, 0, 0, 0, 0)
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", raw) + chunk(b"IEND", b""))
PY
    check_exit 3 "GL_MAX_SHADER_STORAGE_BLOCK_SIZE" "buffer over the GL block limit (exit 3)" gl -- --input "$work/wide.png"
  fi
else
  echo "skip gl: $cli offers no OpenGL backend here"
fi
if [ $have_cl -eq 1 ]; then
  check "no OpenCL platform (no ICD vendor)" cl OCL_ICD_VENDORS=/nonexistent --
  cp -r "$top/kernels" "$work/kernels"
  echo "this is not OpenCL C;" >>"$work/kernels/radix.cl"
  check "kernel that does not compile" cl -- --kernel-dir "$work/kernels"
  if [ -n "$shim" ]; then
    check "first buffer allocation fails" cl LD_PRELOAD="$shim" FFTSCOPE_FAULT_CL_ALLOC=1 --
    check "third buffer allocation fails" cl LD_PRELOAD="$shim" FFTSCOPE_FAULT_CL_ALLOC=3 --
    check "every kernel launch fails" cl LD_PRELOAD="$shim" FFTSCOPE_FAULT_CL_ENQUEUE=1 --
    check "kernel launches fail mid-run (5th on)" cl LD_PRELOAD="$shim" FFTSCOPE_FAULT_CL_ENQUEUE=5 --
    check "driver compiler fails" cl LD_PRELOAD="$shim" FFTSCOPE_FAULT_CL_BUILD=1 --
    check_exit 3 "device's limit of 1.0 MiB (CL_DEVICE_GLOBAL_MEM_SIZE" "device reports 1 MiB of memory (exit 3)" cl \
      LD_PRELOAD="$shim" FFTSCOPE_FAULT_CL_GLOBAL_MEM_MB=1 --
    check_exit 3 "largest allocation of 1.0 MiB (CL_DEVICE_MAX_MEM_ALLOC_SIZE" "device allows 1 MiB buffers, 512^2 (exit 3)" cl \
      LD_PRELOAD="$shim" FFTSCOPE_FAULT_CL_MAX_ALLOC_MB=1 -- --input "$top/assets/astronaut.png"
  else
    echo "skip cl shim faults: could not build tests/fault/cl_fault_shim.c ($(head -1 "$work/shim.log"))"
    [ "${FFTSCOPE_REQUIRE_GPU:-0}" = 1 ] && failures=$((failures + 1))
  fi
else
  echo "skip cl: $cli offers no OpenCL backend here"
fi
echo "fault-inject: $count faults, $failures failed"
if [ $count -eq 0 ]; then
  # No GPU API here: a skip (ctest SKIP_RETURN_CODE), or a failure where CI requires the GPUs.
  [ "${FFTSCOPE_REQUIRE_GPU:-0}" = 1 ] && { echo "fault-inject: FFTSCOPE_REQUIRE_GPU=1 but no GPU backend" >&2; exit 1; }
  exit 77
fi
[ $failures -eq 0 ]
