// fast_epilogue.cl — the ends of the fast path's real-input display passes (issue 6), included by
// fast_fft.cl when R2C_SPLIT or DISPLAY_ROWS is 1 (never compiled alone): what such a pass writes
// instead of the complex values.
//
// R2C_SPLIT 1 (rows, PRE_RADIX 1): the last Stockham stage leaves its results in local memory
//   (element i of local line l at LIDX(l, i), natural order), since bin k needs bin M - k.
//   `data` is a real W x H image read as float2, so each row is
//   z[n] = x[2n] + i x[2n+1], M = N = W / 2 points. After the M-point FFT Z, the split
//     X[k] = (Z[k] + conj(Z[M-k])) / 2 - i/2 w_W^k (Z[k] - conj(Z[M-k])),  k = 0 .. M
//   (indices mod M; split_tw[k] = w_W^k = exp(-2 pi i k / W), double precision on the host) is
//   written to `half_out`, (M + 1) x H float2, row-major: the R2C half spectrum of each row.
// DISPLAY_ROWS 1 (rows, with UNPACK_PAIRS 1): the row pass over rows ky = 0 .. H/2 of X (see
//   UNPACK_PAIRS in fast_fft.cl) ends in the display pixels of F[ky, kx] for every kx, as
//   display.cl computes them (value by component and scale, t = clamp(gain (v - lo) / (hi - lo),
//   0, 1), colour by `lut` or hue), written to `rgba` (W x H uchar4, row-major, top row first)
//   at their fftshifted places, and of their mirrors F[H - ky, (W - kx) % W] = conj(F[ky, kx]):
//   display_store. DISPLAY_FROM_LOCAL 1 (the host's Tuning::display_from_registers 0): the last
//   stage (a split in time: its combine, a block of bins at a time) leaves its outputs in local
//   memory and a loop over the group's bins colours them; 0: fast_fft.cl calls display_store
//   where its passes store bin kx of line ky (the last stage, or the split in time's combine).
//   Either way neighbouring work-items write neighbouring pixels.
//   The range: (lo_arg, hi_arg), or with flag 256 the one in range_in (int2, order-preserving
//   encodings of lo and hi as ints; the empty range (INT_MAX, INT_MIN) colours everything t = 0);
//   every finite value is folded into range_out (one atomic min and max per work-group), which
//   the host hands to the next frame as its range_in (see docs/fast_path.md).
//   flags: bit 0 shift, bit 1 log scale, bits 4..7 component (SpectrumComponent), bit 8 auto range.
//
// Defines: those of fast_fft.cl, and R2C_SPLIT / DISPLAY_ROWS (0 or 1, not both).

#if R2C_SPLIT && DISPLAY_ROWS
#error "fast_epilogue.cl: R2C_SPLIT and DISPLAY_ROWS are exclusive"
#endif
#if R2C_SPLIT && (AXIS_COLS || PRE_RADIX != 1)
#error "fast_epilogue.cl: R2C_SPLIT needs AXIS_COLS 0 and PRE_RADIX 1 (the whole row in local memory)"
#endif
#if DISPLAY_ROWS && (AXIS_COLS || !UNPACK_PAIRS || (SPLIT_GLOBAL && PRE_RADIX > 1))
#error "fast_epilogue.cl: DISPLAY_ROWS needs AXIS_COLS 0, UNPACK_PAIRS 1 and, when split, SPLIT_GLOBAL 0"
#endif

#if R2C_SPLIT

#define EPILOGUE_PARAMS \
  , __global float2* restrict half_out, __global const float2* restrict split_tw
#define EPILOGUE_BEGIN
#define EPILOGUE(Q) r2c_split(lm, half_out, split_tw, first_line, lines);
#define EPILOGUE_END

FAST_INLINE void r2c_split(__local const float2* lm, __global float2* out, __global const float2* split_tw,
                           const uint first_line, const uint lines) {
  const uint per = M + 1;
  for (uint b = get_local_id(0); b < LINES * per; b += THREADS) {
    const uint l = b / per, k = b - l * per;
    const uint line = first_line + l;
    if (line < lines) {
      const float2 zk = lm[LIDX(l, k == M ? 0 : k)];
      const float2 zm = lm[LIDX(l, k == 0 ? 0 : M - k)];
      const float2 zc = (float2)(zm.x, -zm.y);
      const float2 even = 0.5f * (zk + zc);                   // DFT of x[2n]
      const float2 odd = cmul(split_tw[k], 0.5f * (zk - zc));  // w^k i DFT of x[2n+1]
      out[line * per + k] = even + (float2)(odd.y, -odd.x);   // even - i odd
    }
  }
}

#else  // DISPLAY_ROWS

#define EPILOGUE_PARAMS                                                                                     \
  , __global uchar4* restrict rgba, __global const uchar4* restrict lut, __global const int* restrict range_in, \
      __global int* restrict range_out, const uint flags, const float lo_arg, const float hi_arg, const float gain
#define EPILOGUE_BEGIN DISPLAY_BEGIN
// M bins of each of the group's lines in local memory, bin OFFSET + STRIDE k at LIDX(l, k),
// coloured by a loop over them.
#define DISPLAY_FROM_LM(OFFSET, STRIDE)                                                          \
  for (uint b = get_local_id(0); b < LINES * M; b += THREADS) {                                  \
    const uint l = b / M, k = b - l * M;                                                         \
    if (first_line + l < lines)                                                                  \
      display_store(first_line + l, (OFFSET) + (STRIDE) * k, lm[LIDX(l, k)] DISPLAY_ARGS); \
  }
#if DISPLAY_FROM_LOCAL && !SPLIT_DIT
// The last stage's outputs: sub-transform Q's, every PRE_RADIX-th bin from Q (a split in time
// colours its combined bins instead: DISPLAY_ROUNDS in fast_fft.cl).
#define EPILOGUE(Q) DISPLAY_FROM_LM((Q), PRE_RADIX)
#else
#define EPILOGUE(Q)
#endif
#define EPILOGUE_END DISPLAY_END
#include "display_pixels.cl"

#endif
