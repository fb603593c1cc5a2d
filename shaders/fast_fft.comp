// fast_fft.comp — the fast path's whole-axis FFT (issue 6): one dispatch transforms every line of
// one axis, reading each element from the buffer once and writing it once, in place. The GLSL
// twin of kernels/fast_fft.cl (same algorithm, same #defines; see that file and
// docs/fast_path.md for the derivation).
//
// Data layout: binding 0 `data`: complex float32 as vec2 (x = re, y = im), row-major
// width x height. Binding 1 `tw`: exp(-2 pi i k / N), k < N, computed in double on the host.
//   Rows    (AXIS_COLS 0): a work-group transforms LINES consecutive rows.
//   Columns (AXIS_COLS 1): a work-group transforms LINES neighbouring columns; invocation k of a
//           load or store touches column k % LINES, so row segments of LINES * 8 bytes coalesce.
// Shared memory: LINES lines of M elements, element i of line l at l * LINE_STRIDE + i + i / 16.
// Algorithm: N = PRE_RADIX * M; M-point Stockham autosort stages (no digit-reverse pass), the
// first reading the buffer and the last writing it; PRE_RADIX > 1: a decimation-in-frequency
// step in registers first, then the PRE_RADIX sub-transforms one after another.
// Uniforms: u_lines (image lines on this axis), u_row_pitch (image width), u_conj_sign (+1
// forward, -1 inverse: conj(DFT(conj x))), u_scale (1, or 1/N for the inverse).
// Dispatch: groups may be spread over x and y (at most 65535 each); local_size_x = THREADS is
// set by the host's layout line.
//
// Defines (all required): AXIS_COLS, N, M, PRE_RADIX, LINES, THREADS, LINE_STRIDE, LOCAL_ELEMS,
//   HOLD, PRE_HOLD, NUM_STAGES (1..8), RADIX_0 .. RADIX_{NUM_STAGES-1}.

#if !defined(AXIS_COLS) || !defined(N) || !defined(M) || !defined(PRE_RADIX) || !defined(LINES) || !defined(THREADS) || !defined(LINE_STRIDE) || !defined(LOCAL_ELEMS) || !defined(HOLD) || !defined(PRE_HOLD) || !defined(NUM_STAGES) || !defined(RADIX_0)
#error "fast_fft.comp needs AXIS_COLS N M PRE_RADIX LINES THREADS LINE_STRIDE LOCAL_ELEMS HOLD PRE_HOLD NUM_STAGES RADIX_0.."
#endif
#if NUM_STAGES > 8
#error "fast_fft.comp: at most 8 stages"
#endif
#ifndef RADIX_1
#define RADIX_1 1
#endif
#ifndef RADIX_2
#define RADIX_2 1
#endif
#ifndef RADIX_3
#define RADIX_3 1
#endif
#ifndef RADIX_4
#define RADIX_4 1
#endif
#ifndef RADIX_5
#define RADIX_5 1
#endif
#ifndef RADIX_6
#define RADIX_6 1
#endif
#ifndef RADIX_7
#define RADIX_7 1
#endif

#include "fast_dft.glsl"

layout(std430, binding = 0) buffer Data { vec2 data[]; };
layout(std430, binding = 1) readonly buffer Twiddles { vec2 tw[]; };

uniform uint u_lines;
uniform uint u_row_pitch;
uniform float u_conj_sign;
uniform float u_scale;

shared vec2 lm[LOCAL_ELEMS];

uint g_first_line;  // first image line of this work-group

uint lidx(uint line, uint i) { return line * uint(LINE_STRIDE) + i + (i >> 4u); }

uint gaddr(uint line, uint i) {
#if AXIS_COLS
  return i * u_row_pitch + line;
#else
  return line * uint(N) + i;
#endif
}

// Work item b of a pass over (local line, index) pairs with `per` indices per line.
uvec2 split_item(uint b, uint per) {
#if AXIS_COLS
  return uvec2(b % uint(LINES), b / uint(LINES));
#else
  return uvec2(b / per, b % per);
#endif
}

vec2 load_global(uint line, uint i) {
  vec2 x = line < u_lines ? data[gaddr(line, i)] : vec2(0.0);
  return vec2(x.x, u_conj_sign * x.y);
}

void sync_shared() {
  memoryBarrierShared();
  barrier();
}

// One Stockham radix-R stage of span NS (see fast_fft.cl's fft_stage).
void fft_stage(const uint R, const uint NS, const bool from_global, const bool to_global, const uint q) {
  uint per = uint(M) / R;
  uint total = uint(LINES) * per;
  uint count = (total + uint(THREADS) - 1u) / uint(THREADS);
  uint tid = gl_LocalInvocationID.x;
  vec2 hold[HOLD];
  for (uint k = 0u; k < uint(HOLD); ++k) {
    uint b = tid + k * uint(THREADS);
    if (k < count && (total % uint(THREADS) == 0u || b < total)) {
      uvec2 lj = split_item(b, per);
      vec2 v[MAX_RADIX];
      for (uint r = 0u; r < uint(MAX_RADIX); ++r) {
        if (r < R) {
          uint i = lj.y + r * per;
          if (from_global)
            v[r] = load_global(g_first_line + lj.x, i);
          else
            v[r] = lm[lidx(lj.x, i)];
        }
      }
      if (NS > 1u) {
        uint step = (lj.y % NS) * (uint(N) / (NS * R));
        for (uint r = 1u; r < uint(MAX_RADIX); ++r)
          if (r < R) v[r] = cmul_fast(v[r], tw[r * step]);
      }
      small_dft(v, R);
      for (uint r = 0u; r < uint(MAX_RADIX); ++r)
        if (r < R) hold[k * R + r] = v[r];
    }
  }
  // Shared memory is read and written in place: every read of this stage before any write.
  if (!to_global) sync_shared();
  for (uint k = 0u; k < uint(HOLD); ++k) {
    uint b = tid + k * uint(THREADS);
    if (k < count && (total % uint(THREADS) == 0u || b < total)) {
      uvec2 lj = split_item(b, per);
      uint p = lj.y % NS;
      uint base = (lj.y - p) * R + p;
      for (uint r = 0u; r < uint(MAX_RADIX); ++r) {
        if (r < R) {
          uint i = base + r * NS;
          if (to_global) {
            uint line = g_first_line + lj.x;
            if (line < u_lines) {
              vec2 x = hold[k * R + r];
              data[gaddr(line, q + uint(PRE_RADIX) * i)] = vec2(x.x, u_conj_sign * x.y) * u_scale;
            }
          } else {
            lm[lidx(lj.x, i)] = hold[k * R + r];
          }
        }
      }
    }
  }
  if (!to_global) sync_shared();
}

void run_stages(const bool from_global, const uint q) {
  const uint s1 = uint(RADIX_0), s2 = s1 * uint(RADIX_1), s3 = s2 * uint(RADIX_2), s4 = s3 * uint(RADIX_3);
  const uint s5 = s4 * uint(RADIX_4), s6 = s5 * uint(RADIX_5), s7 = s6 * uint(RADIX_6);
  fft_stage(uint(RADIX_0), 1u, from_global, NUM_STAGES == 1, q);
#if NUM_STAGES > 1
  fft_stage(uint(RADIX_1), s1, false, NUM_STAGES == 2, q);
#endif
#if NUM_STAGES > 2
  fft_stage(uint(RADIX_2), s2, false, NUM_STAGES == 3, q);
#endif
#if NUM_STAGES > 3
  fft_stage(uint(RADIX_3), s3, false, NUM_STAGES == 4, q);
#endif
#if NUM_STAGES > 4
  fft_stage(uint(RADIX_4), s4, false, NUM_STAGES == 5, q);
#endif
#if NUM_STAGES > 5
  fft_stage(uint(RADIX_5), s5, false, NUM_STAGES == 6, q);
#endif
#if NUM_STAGES > 6
  fft_stage(uint(RADIX_6), s6, false, NUM_STAGES == 7, q);
#endif
#if NUM_STAGES > 7
  fft_stage(uint(RADIX_7), s7, false, NUM_STAGES == 8, q);
#endif
}

#if PRE_RADIX > 1
vec2 g_pre[PRE_HOLD];  // y_q of this invocation's elements, PRE_RADIX per element

// Sub-transform q: y_q into shared memory, then its M-point stages, written to X[q + P k].
void sub_transform(const uint q) {
  const uint ptotal = uint(LINES) * uint(M);
  const uint pcount = (ptotal + uint(THREADS) - 1u) / uint(THREADS);
  sync_shared();  // the previous sub-transform's last reads are done
  for (uint k = 0u; k < uint(PRE_HOLD / PRE_RADIX); ++k) {
    uint b = gl_LocalInvocationID.x + k * uint(THREADS);
    if (k < pcount && (ptotal % uint(THREADS) == 0u || b < ptotal)) {
      uvec2 ln = split_item(b, uint(M));
      lm[lidx(ln.x, ln.y)] = g_pre[k * uint(PRE_RADIX) + q];
    }
  }
  sync_shared();
  run_stages(false, q);
}
#endif

void main() {
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  g_first_line = group * uint(LINES);
#if PRE_RADIX == 1
  run_stages(true, 0u);
#else
  const uint ptotal = uint(LINES) * uint(M);
  const uint pcount = (ptotal + uint(THREADS) - 1u) / uint(THREADS);
  for (uint k = 0u; k < uint(PRE_HOLD / PRE_RADIX); ++k) {
    uint b = gl_LocalInvocationID.x + k * uint(THREADS);
    if (k < pcount && (ptotal % uint(THREADS) == 0u || b < ptotal)) {
      uvec2 ln = split_item(b, uint(M));
      vec2 v[MAX_RADIX];
      for (uint m = 0u; m < uint(PRE_RADIX); ++m) v[m] = load_global(g_first_line + ln.x, ln.y + m * uint(M));
      small_dft(v, uint(PRE_RADIX));
      g_pre[k * uint(PRE_RADIX)] = v[0];
      for (uint qq = 1u; qq < uint(PRE_RADIX); ++qq) g_pre[k * uint(PRE_RADIX) + qq] = cmul_fast(v[qq], tw[ln.y * qq]);
    }
  }
  sub_transform(0u);
  sub_transform(1u);
#if PRE_RADIX > 2
  sub_transform(2u);
#endif
#if PRE_RADIX > 3
  sub_transform(3u);
#endif
#if PRE_RADIX > 4
  sub_transform(4u);
#endif
#if PRE_RADIX > 5
  sub_transform(5u);
  sub_transform(6u);
#endif
#if PRE_RADIX > 7
  sub_transform(7u);
#endif
#if PRE_RADIX > 8
  sub_transform(8u);
  sub_transform(9u);
  sub_transform(10u);
#endif
#if PRE_RADIX > 11
  sub_transform(11u);
  sub_transform(12u);
#endif
#endif
}
