// fast_epilogue.glsl — the ends of the fast path's real-input display passes (issue 6), included
// by fast_fft.comp when R2C_SPLIT or DISPLAY_ROWS is 1. The GLSL twin of kernels/fast_epilogue.cl
// (see that file for the formulas): R2C_SPLIT's last Stockham stage leaves its results in shared
// memory (element i of local line l at lidx(l, i)); DISPLAY_ROWS colours each bin from there
// (DISPLAY_FROM_LOCAL 1) or where fast_fft.comp would store it (store_output calls display_store).
//
// R2C_SPLIT 1 (rows, PRE_RADIX 1): binding 0 `data` is the real W x H image read as vec2 (M = N =
//   W / 2); writes X[k], k = 0 .. M, of each row to binding 2 `half_out` ((M + 1) x H vec2,
//   row-major), with binding 3 `split_tw` = exp(-2 pi i k / W), k <= M.
// DISPLAY_ROWS 1 (rows, UNPACK_PAIRS 1): binding 0 `data` is Z, the FFTs of the image's complex
//   pair columns (u_lines = H/2 + 1 rows; fast_fft.comp's UNPACK_PAIRS); each bin F[ky, kx] of the rows ky <= H/2 and its
//   mirror conj at ((W - kx) % W, H - ky) go to binding 5 `pixels` (display_pixels.glsl) (W x H RGBA8, packUnorm4x8,
//   row-major, row y = display row y) as spectrum_colorize.comp would colour them: binding 2 `lut` (256 uint 0x00BBGGRR), uniform block 3 `range_in` (the range
//   as order-preserving ints, used with flag 256), binding 4 `range_out` (this frame's finite min
//   and max folded in, one atomic pair per work-group).
//   DISPLAY_FLAGS (a #define: bit 0 shift, bit 1 log, bits 4..7 component or 15 for the uniform
//   u_component, bit 8 auto range); uniforms u_lo, u_hi (fixed range), u_gain.
//
// Defines: those of fast_fft.comp, and R2C_SPLIT / DISPLAY_ROWS (0 or 1, not both).

#if R2C_SPLIT != 0 && DISPLAY_ROWS != 0
#error "fast_epilogue.glsl: R2C_SPLIT and DISPLAY_ROWS are exclusive"
#endif
#if R2C_SPLIT != 0 && (AXIS_COLS != 0 || PRE_RADIX != 1)
#error "fast_epilogue.glsl: R2C_SPLIT needs AXIS_COLS 0 and PRE_RADIX 1"
#endif
#if DISPLAY_ROWS != 0 && (AXIS_COLS != 0 || UNPACK_PAIRS == 0 || (SPLIT_GLOBAL != 0 && PRE_RADIX > 1))
#error "fast_epilogue.glsl: DISPLAY_ROWS needs AXIS_COLS 0, UNPACK_PAIRS 1 and, when split, SPLIT_GLOBAL 0"
#endif

#if R2C_SPLIT != 0

layout(std430, binding = 2) writeonly buffer HalfOut { vec2 half_out[]; };
layout(std430, binding = 3) readonly buffer SplitTwiddles { vec2 split_tw[]; };

void r2c_split() {
  const uint per = uint(M) + 1u;
  for (uint b = gl_LocalInvocationID.x; b < uint(LINES) * per; b += uint(THREADS)) {
    uint l = b / per, k = b - l * per;
    uint line = g_first_line + l;
    if (line < u_lines) {
      vec2 zk = lm[lidx(l, k == uint(M) ? 0u : k)];
      vec2 zm = lm[lidx(l, k == 0u ? 0u : uint(M) - k)];
      vec2 zc = vec2(zm.x, -zm.y);
      vec2 even_part = 0.5 * (zk + zc);                         // DFT of x[2n]
      vec2 odd_part = cmul_fast(split_tw[k], 0.5 * (zk - zc));  // w^k i DFT of x[2n+1]
      half_out[line * per + k] = even_part + vec2(odd_part.y, -odd_part.x);
    }
  }
}

#define EPILOGUE_BEGIN()
#define EPILOGUE(Q) r2c_split()
#define EPILOGUE_END()

#else  // DISPLAY_ROWS

#if OUTPUT_BUFFER != 0
#error "fast_epilogue.glsl: DISPLAY_ROWS writes pixels, not OUTPUT_BUFFER"
#endif
#include "display_pixels.glsl"

#if DISPLAY_FROM_LOCAL != 0
// M bins of each of the group's lines in shared memory, bin offset + stride k at lidx(l, k),
// coloured by a loop over them.
void display_from_local(uint offset, uint stride) {
  for (uint b = gl_LocalInvocationID.x; b < uint(LINES) * uint(M); b += uint(THREADS)) {
    uint l = b / uint(M), k = b - l * uint(M);
    if (g_first_line + l < u_lines) display_store(g_first_line + l, offset + stride * k, lm[lidx(l, k)]);
  }
}
#endif
#if DISPLAY_FROM_LOCAL != 0 && SPLIT_DIT == 0
// The last stage's outputs: sub-transform q's, every PRE_RADIX-th bin from q (a split in time
// colours its combined bins instead: DISPLAY_ROUNDS in fast_fft.comp).
#define EPILOGUE(Q) display_from_local(Q, uint(PRE_RADIX))
#else
#define EPILOGUE(Q)
#endif
#define EPILOGUE_BEGIN() display_begin()
#define EPILOGUE_END() display_end()

#endif
