// fast_fft.cl — the fast path's whole-axis FFT (issue 6): one dispatch transforms every line of
// one axis, reading each element from global memory once and writing it once, in place.
//
// Data layout: complex float32 as float2 (x = re, y = im), row-major width x height.
//   Rows    (AXIS_COLS 0): a work-group transforms LINES consecutive rows (contiguous memory).
//   Columns (AXIS_COLS 1): a work-group transforms LINES neighbouring columns; work-item k of a
//           load or store touches column k % LINES, so a warp reads row segments of LINES * 8
//           bytes (coalesced) and no transpose pass is needed.
// Local memory holds LINES lines of M elements; element i of local line l sits at
// l * LINE_STRIDE + i + i / 16 (the padding spreads the radix-R strided writes over the banks;
// LINE_STRIDE is chosen by the host so neighbouring columns fall in different banks), or at
// l * LINE_STRIDE + i with LOCAL_PAD 0 (Tuning::local_unpadded: odd M, whose strides are all odd,
// and columns 4 or more per group, whose warps span the lines), or at l * LINE_STRIDE +
// (i ^ ((i >> 4) & 31)) on rows and l * LINE_STRIDE + (i ^ (l & 31)) on columns with LOCAL_PAD 2
// (Tuning::swizzled_rows, swizzled_columns).
//
// Algorithm: N = PRE_RADIX * M.
//   PRE_RADIX 1: the M-point Stockham autosort stages (RADIX_0 .. RADIX_{NUM_STAGES-1}); the
//     first stage reads global memory, the last writes it, the others go through local memory.
//     No digit-reverse pass: Stockham writes every stage in sorted order.
//   PRE_RADIX > 1 (lines longer than local memory), SPLIT_GLOBAL 0: one decimation-in-frequency
//     step in registers: y_q[n] = w_N^(n q) sum_m x[n + m M] w_P^(m q); then, for each q in
//     turn, the M-point FFT of y_q through local memory, written to X[q + PRE_RADIX k]. One
//     read and one write per element, but P values per element stay live in registers.
//   SPLIT_DIT 1 (with SPLIT_GLOBAL 0): decimation in time through registers: every work-item
//     loads x[P n + q] for all q (q = 0 first), runs the M-point FFT of each q from its registers
//     (through local memory first without STAGE0_FROM_PRE) and keeps the outputs in registers,
//     then combines X[k + m M] = sum_q w_P^(q m) (w_N^(q k) Y_q[k]) and stores contiguous runs
//     (DIF stores each sub-transform's outputs P apart). Sub-transform 0 needs only the first 1/P
//     of the loads, so the rest arrive while it computes (DIF needs all of them first).
//   SPLIT_GLOBAL 1: decimation in time through the buffer itself: the M-point FFT of each
//     x[P n + q] is written back in place (times w_N^(q k)), then one radix-P pass combines them.
//     The extra round trip stays in the group's own lines (L2-resident), and registers stay
//     few; measured slower than SPLIT_GLOBAL 0 on the H100 (docs/fast_path.md), kept as an option.
// Twiddles: `tw` holds exp(-2 pi i k / N), k < N, computed in double precision on the host.
// Direction: the inverse is conj(DFT(conj(x))): loads and stores multiply im by conj_sign
// (+1 forward, -1 inverse); stores multiply by `scale` (1, or 1/N for the inverse).
//
// Defines (all required): AXIS_COLS, N, M, PRE_RADIX, LINES, THREADS, LINE_STRIDE, LOCAL_ELEMS,
//   SPLIT_GLOBAL (0 or 1, see above), HOLD (registers per work-item for one stage: max over
//   stages of ceil(LINES M / R / THREADS) R), PRE_HOLD (ceil(LINES M / THREADS) PRE_RADIX; with
//   LIVE_INPUTS times LIVE_BLOCKS instead),
//   NUM_STAGES (1..8), RADIX_0 .. RADIX_{NUM_STAGES-1} (each 2, 3, 4, 5, 7, 8, 9, 10, 11, 13, 15, 16 or 25; product M).
// Optional: R2C_SPLIT or DISPLAY_ROWS (0 or 1) — the real-input display passes' epilogues, with
//   extra kernel arguments (see fast_epilogue.cl). UNPACK_PAIRS, OUTPUT_BUFFER: see below.
//   BLUESTEIN_IN or BLUESTEIN_OUT (0 or 1): the two passes of a Bluestein axis, see below;
//   LIVE_BLOCKS, LIVE_INPUTS (their splits use that only part of a padded line is live, see below).

#ifndef FFTSCOPE_COMPLEX_CL
#error "fast_fft.cl needs complex.cl prepended"
#endif
#if !defined(AXIS_COLS) || !defined(N) || !defined(M) || !defined(PRE_RADIX) || !defined(LINES) || \
    !defined(THREADS) || !defined(LINE_STRIDE) || !defined(LOCAL_ELEMS) || !defined(HOLD) ||     \
    !defined(PRE_HOLD) || !defined(NUM_STAGES) || !defined(RADIX_0)
#error "fast_fft.cl needs AXIS_COLS N M PRE_RADIX LINES THREADS LINE_STRIDE LOCAL_ELEMS HOLD PRE_HOLD NUM_STAGES ..."
#endif
#if NUM_STAGES > 8
#error "fast_fft.cl: at most 8 stages"
#endif
#ifndef TWIDDLE_POWERS
#define TWIDDLE_POWERS 0
#endif
// PREFETCH_TWIDDLES 1 (with TWIDDLE_POWERS 1): each stage issues the table reads of the next
// stage's twiddles before its own work, so their latency hides behind a whole stage instead of
// stalling the butterflies after the next barrier (short lines are latency-bound).
#ifndef PREFETCH_TWIDDLES
#define PREFETCH_TWIDDLES 0
#endif
#if PREFETCH_TWIDDLES && !TWIDDLE_POWERS
#error "fast_fft.cl: PREFETCH_TWIDDLES needs TWIDDLE_POWERS 1"
#endif
#ifndef SPLIT_GLOBAL
#error "fast_fft.cl needs SPLIT_GLOBAL (0: split through registers, 1: through the buffer)"
#endif
// Unused stages: radix 1 (never run; they only keep the span products below well-formed).
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
#define SPAN_1 (RADIX_0)
#define SPAN_2 (SPAN_1 * RADIX_1)
#define SPAN_3 (SPAN_2 * RADIX_2)
#define SPAN_4 (SPAN_3 * RADIX_3)
#define SPAN_5 (SPAN_4 * RADIX_4)
#define SPAN_6 (SPAN_5 * RADIX_5)
#define SPAN_7 (SPAN_6 * RADIX_6)
#define SPAN_8 (SPAN_7 * RADIX_7)
// Real-input display path (issue 6, fast_epilogue.cl): R2C_SPLIT 1 (rows of a real image, the
// half spectrum) keeps the last stage in local memory and finishes there; DISPLAY_ROWS 1 (rows
// into display pixels) stores each bin as its display pixels (display_store), from local memory
// after the last stage (DISPLAY_FROM_LOCAL 1) or wherever other passes store a complex value.
#ifndef R2C_SPLIT
#define R2C_SPLIT 0
#endif
#ifndef DISPLAY_ROWS
#define DISPLAY_ROWS 0
#endif
#define FAST_EPILOGUE (R2C_SPLIT || DISPLAY_ROWS)
#ifndef DISPLAY_FROM_LOCAL
#define DISPLAY_FROM_LOCAL 0
#endif
#ifndef SPLIT_DIT
#define SPLIT_DIT 0  // see below
#endif
// SUB_TRANSFORM_LOOP (fast_fft.comp's looped sub-transforms) is GL's alone: NVIDIA's OpenCL runs
// the unrolled program as fast as a short one (docs/fast_path.md), so cl_tuning never plans it.
#if defined(SUB_TRANSFORM_LOOP) && SUB_TRANSFORM_LOOP != 0
#error "fast_fft.cl: SUB_TRANSFORM_LOOP is GL's only"
#endif
// The last stage leaves its outputs in local memory for an epilogue (a display split in time
// sends its combined bins through local memory instead: DISPLAY_ROUNDS).
#define LAST_TO_LOCAL (R2C_SPLIT || (DISPLAY_ROWS && DISPLAY_FROM_LOCAL && !SPLIT_DIT))
#define DISPLAY_ROUNDS (DISPLAY_ROWS && DISPLAY_FROM_LOCAL && SPLIT_DIT)
// Real-input display, rows last (issue 6): UNPACK_PAIRS 1 makes a row pass read row ky of X, the
// column FFTs of a real W x H image, from Z = the FFTs of its complex pair columns
// z_c = x_2c + i x_2c+1 (PAIR_PITCH x H float2: fast::display_pair_columns, (W + 1)/2 and zero
// pairs up to a multiple of 4; an odd W's last pair is (x_W-1, 0)):
// X_2c[ky] = (Z_c[ky] + conj(Z_c[H-ky])) / 2, X_2c+1[ky] = (Z_c[ky] - conj(Z_c[H-ky])) / 2i (a real
// column's FFT is Hermitian). PAIR_ROWS = H.
// OUTPUT_BUFFER 1: the last stage stores into `out` (a last kernel argument) instead of `data`,
// so the pass leaves its input as it was (every group reads its lines before it stores them).
#ifndef UNPACK_PAIRS
#define UNPACK_PAIRS 0
#endif
// UNPACK_MIRRORED 1: a display row split in time by 2 (an even W) unpacks after its
// sub-transforms: they are the W/2-point FFTs of Z's row ky, Zy, and of row H-ky conjugated,
// whose bin k is conj(Zm[-k]) (a conjugated input's DFT is the conjugate of the DFT reversed),
// so the combine takes them apart bin by bin, FFT(X_2c)[k] = (Zy[k] + conj(Zm[-k])) / 2 and
// FFT(X_2c+1)[k] = (Zy[k] - conj(Zm[-k])) / 2i (mirror_pair_bins). Sub-transform 0 then waits
// for row ky's loads only, and row H-ky's arrive while it computes, as a complex row's odd half
// does; unpacked before, each sub-transform needs both rows (Tuning::display_rows_unpack_after).
#ifndef UNPACK_MIRRORED
#define UNPACK_MIRRORED 0
#endif
#if UNPACK_MIRRORED && !(UNPACK_PAIRS && SPLIT_DIT && PRE_RADIX == 2)
#error "fast_fft.cl: UNPACK_MIRRORED needs UNPACK_PAIRS and a split in time by 2"
#endif
#ifndef FOUR_STEP_A
#define FOUR_STEP_A 0
#endif
#ifndef FOUR_STEP_B
#define FOUR_STEP_B 0
#endif
#define FOUR_STEP (FOUR_STEP_A || FOUR_STEP_B)
#ifndef OUTPUT_BUFFER
#define OUTPUT_BUFFER FOUR_STEP  // the four-step passes (below) always store there
#endif
// Bluestein (issue 6, docs/fast_path.md): an axis of n points (a prime factor above 13) as a
// cyclic convolution of the padded length N = L >= 2n - 1, in two passes of this kernel with the
// chirp c[i] = exp(-i pi i^2 / n) (`chirp`, n values) and the filter spectrum B (`filter`, N
// values) folded into their loads and stores. `data` is the scratch of N-point lines, one after
// another on either axis (line * N + i); `image` holds the n-point lines (rows
// line * row_pitch + i, columns i * row_pitch + line); `bluestein_n` = n.
//   BLUESTEIN_IN 1: the first loads read a[i] = conj?(x[i]) c[i] from `image` for i < n and 0 for
//     n <= i < N (conj?: conj_sign, the outer direction), so the scratch is never zero-filled; the
//     last stores write A[k] B[k] scale into `data` (host: scale 1).
//   BLUESTEIN_OUT 1: the inner inverse FFT as conj(DFT(conj Y)): the first loads read conj(Y[i])
//     from `data`, whatever conj_sign; the last stores write, for k < n only,
//     X[k] = scale conj?(c[k] conj(z[k])) into `image` (host: scale 1/N, or 1/(N n) for the outer
//     inverse: the inner 1/L and the outer 1/n in one factor).
// Extra kernel arguments in both modes: image, chirp, filter (unused by BLUESTEIN_OUT),
// bluestein_n. The forward pass reads `image` and writes `data`, the inverse the other way round:
// no element is read after another work-group wrote it. The split must go through registers.
#ifndef BLUESTEIN_IN
#define BLUESTEIN_IN 0
#endif
#ifndef BLUESTEIN_OUT
#define BLUESTEIN_OUT 0
#endif
#define BLUESTEIN (BLUESTEIN_IN || BLUESTEIN_OUT)
#if BLUESTEIN && ((BLUESTEIN_IN && BLUESTEIN_OUT) || FAST_EPILOGUE || UNPACK_PAIRS || OUTPUT_BUFFER || \
                  (SPLIT_GLOBAL && PRE_RADIX > 1))
#error "fast_fft.cl: BLUESTEIN_IN / BLUESTEIN_OUT: one of them, no other optional mode, SPLIT_GLOBAL 0"
#endif
// Four-step columns (issue 6; fast::AxisRoute::second): a column of T = a b points with rows
// r2 + b r1 in two passes of this kernel, each addressing its lines as columns of a wider image.
//   FOUR_STEP_A 1: a-point transforms of x[r2 + b r1] over r1 (line r2 W + c, row_pitch b W;
//     loads conjugated for the inverse), output k1 times w_T^(r2 k1) from `outer_tw` (the whole
//     column's T-point table), unconjugated, into `out` at out_pitch (= row_pitch).
//   FOUR_STEP_B 1: b-point transforms of the b neighbouring rows k1 b + r2 (line k1 W + c,
//     row_pitch W, the group's loads k1 (b - 1) W further on), loads as stored, bin k2 conjugated
//     and scaled into `out` at row k1 + a k2 (out_pitch a W).
// A group's block (r2, or k1) is first_line / block_lines, and its loads start
// block * block_shift further on. Extra kernel arguments in both: out_pitch, block_lines,
// block_shift, outer_tw (after `out`: OUTPUT_BUFFER, 1 by default with them). Columns, unsplit
// only.
#if FOUR_STEP && ((FOUR_STEP_A && FOUR_STEP_B) || !AXIS_COLS || PRE_RADIX != 1 || !OUTPUT_BUFFER || FAST_EPILOGUE || \
                  UNPACK_PAIRS || BLUESTEIN)
#error "fast_fft.cl: FOUR_STEP_A / FOUR_STEP_B: one of them, columns, unsplit, OUTPUT_BUFFER, no other mode"
#endif
#if FOUR_STEP
#define FOUR_STEP_KERNEL_PARAMS \
  , const uint out_pitch, const uint block_lines, const uint block_shift, __global const float2* restrict outer_tw
#define FOUR_STEP_PARAMS , const uint out_pitch, const uint block, __global const float2* restrict outer_tw
#define FOUR_STEP_ARGS , out_pitch, block, outer_tw
#else
#define FOUR_STEP_KERNEL_PARAMS
#define FOUR_STEP_PARAMS
#define FOUR_STEP_ARGS
#endif
// Both axes of a square image in one dispatch (FUSED_2D 1; fast::fused_route): on small images
// the fixed cost of a second dispatch is a large part of the transform (H100: about 5 us each,
// where a 256^2 axis pass does 1-2 us of work). The grid holds two groups per column group of
// this (column) plan. Each group takes a ticket from fused_sync[0] in the order groups start:
// the first half transform rows, through the same plan with the image addressed as its
// transpose (row_pitch 0 in gaddr), then count themselves done in fused_sync[1]; the second
// half wait for that count, then transform columns. A group waits only for groups that took
// earlier tickets, which have started and wait for nothing, so this needs no assumption on how
// many groups run at once (OpenCL promises no forward progress between groups otherwise). The
// last column group resets the three counters for the next dispatch. Extra kernel argument:
// fused_sync (three uints, zero before the first dispatch).
#ifndef FUSED_2D
#define FUSED_2D 0
#endif
#if FUSED_2D && (!AXIS_COLS || SPLIT_GLOBAL || OUTPUT_BUFFER || FAST_EPILOGUE || UNPACK_PAIRS || BLUESTEIN)
#error "fast_fft.cl: FUSED_2D needs the column plan, unsplit or split through registers, in place, no other mode"
#endif
#if FUSED_2D
#define FUSED_PARAMS , __global volatile uint* fused_sync
#else
#define FUSED_PARAMS
#endif

// The inverse conjugates loads and stores, or, in four steps, pass A's loads and pass B's stores.
#if FOUR_STEP_B
#define LOAD_SIGN(conj_sign) 1.0f
#else
#define LOAD_SIGN(conj_sign) (conj_sign)
#endif

// Register arrays hold up to 16 or 25 values only where a radix-15, -16 or -25 stage needs them.
#define HAS_RADIX(R)                                                                                       \
  (RADIX_0 == (R) || RADIX_1 == (R) || RADIX_2 == (R) || RADIX_3 == (R) || RADIX_4 == (R) || RADIX_5 == (R) || \
   RADIX_6 == (R) || RADIX_7 == (R))
#if HAS_RADIX(25)
#define MAX_RADIX 25
#elif HAS_RADIX(16) || HAS_RADIX(15)
#define MAX_RADIX 16
#else
#define MAX_RADIX 13
#endif
// Every helper is inlined, so each R, NS and flag is a constant and the register arrays stay
// in registers (all their indices are compile-time constants after unrolling).
#define FAST_INLINE static inline __attribute__((always_inline))
// (fast_fft.comp splits the padding per element, lidx_plus, for NVIDIA's GLSL compiler; OpenCL's
// shares the indices itself: its rows run at copy speed.)
#ifndef LOCAL_PAD
#define LOCAL_PAD 1  // see the top of this file
#endif
#if LOCAL_PAD == 2 && AXIS_COLS
#define LIDX(line, i) ((line) * LINE_STRIDE + ((i) ^ ((line) & 31)))
#elif LOCAL_PAD == 2
#define LIDX(line, i) ((line) * LINE_STRIDE + ((i) ^ (((i) >> 4) & 31)))
#elif LOCAL_PAD
#define LIDX(line, i) ((line) * LINE_STRIDE + (i) + ((i) >> 4))
#else
#define LIDX(line, i) ((line) * LINE_STRIDE + (i))
#endif

#define SQRT1_2 0.70710678118654752f
// Forward radix 8 as two radix-4 halves (even, odd inputs) joined by w8^k.
FAST_INLINE void dft8(float2* v) {
  float2 e0 = v[0], e1 = v[2], e2 = v[4], e3 = v[6];
  float2 o0 = v[1], o1 = v[3], o2 = v[5], o3 = v[7];
  DFT_4(e0, e1, e2, e3)
  DFT_4(o0, o1, o2, o3)
  o1 = (float2)(SQRT1_2 * (o1.x + o1.y), SQRT1_2 * (o1.y - o1.x));   // * (1 - i)/sqrt2
  o2 = (float2)(o2.y, -o2.x);                                       // * -i
  o3 = (float2)(SQRT1_2 * (o3.y - o3.x), -SQRT1_2 * (o3.x + o3.y));  // * (-1 - i)/sqrt2
  v[0] = e0 + o0;
  v[4] = e0 - o0;
  v[1] = e1 + o1;
  v[5] = e1 - o1;
  v[2] = e2 + o2;
  v[6] = e2 - o2;
  v[3] = e3 + o3;
  v[7] = e3 - o3;
}

// Forward radix 16 as 4 x 4: radix-4 DFTs of (v_n2, v_n2+4, v_n2+8, v_n2+12), twiddles
// w16^(n2 k1), radix-4 DFTs across; X[k1 + 4 k2] lands in v[k1 + 4 k2].
#define W16_1 ((float2)(0.92387953251128674f, -0.38268343236508977f))
#define W16_3 ((float2)(0.38268343236508977f, -0.92387953251128674f))
FAST_INLINE void dft16(float2* v) {
  float2 a[16];
#pragma unroll
  for (uint n2 = 0; n2 < 4; ++n2) {
    float2 x0 = v[n2], x1 = v[n2 + 4], x2 = v[n2 + 8], x3 = v[n2 + 12];
    DFT_4(x0, x1, x2, x3)
    a[4 * n2] = x0;
    a[4 * n2 + 1] = x1;
    a[4 * n2 + 2] = x2;
    a[4 * n2 + 3] = x3;
  }
  a[5] = cmul(a[5], W16_1);
  a[6] = (float2)(SQRT1_2 * (a[6].x + a[6].y), SQRT1_2 * (a[6].y - a[6].x));     // w16^2
  a[7] = cmul(a[7], W16_3);
  a[9] = (float2)(SQRT1_2 * (a[9].x + a[9].y), SQRT1_2 * (a[9].y - a[9].x));     // w16^2
  a[10] = (float2)(a[10].y, -a[10].x);                                            // w16^4 = -i
  a[11] = (float2)(SQRT1_2 * (a[11].y - a[11].x), -SQRT1_2 * (a[11].x + a[11].y));  // w16^6
  a[13] = cmul(a[13], W16_3);
  a[14] = (float2)(SQRT1_2 * (a[14].y - a[14].x), -SQRT1_2 * (a[14].x + a[14].y));  // w16^6
  a[15] = cmul(a[15], -W16_1);                                                    // w16^9 = -w16^1
#pragma unroll
  for (uint k1 = 0; k1 < 4; ++k1) {
    float2 y0 = a[k1], y1 = a[4 + k1], y2 = a[8 + k1], y3 = a[12 + k1];
    DFT_4(y0, y1, y2, y3)
    v[k1] = y0;
    v[k1 + 4] = y1;
    v[k1 + 8] = y2;
    v[k1 + 12] = y3;
  }
}

// The second half of radix 5P as P x 5 (P = 2, 3, 5): radix-5 DFTs of a[k1 + P j], j < 5, for
// each k1 < P; X[k1 + P k2] lands in v[k1 + P k2] (as fast_dft.glsl).
FAST_INLINE void dft5_across(const float2* a, float2* v, const uint P) {
#pragma unroll
  for (uint k1 = 0; k1 < 5; ++k1) {
    if (k1 < P) {
      float2 y0 = a[k1], y1 = a[P + k1], y2 = a[2 * P + k1], y3 = a[3 * P + k1], y4 = a[4 * P + k1];
      DFT_5(y0, y1, y2, y3, y4)
      v[k1] = y0;
      v[k1 + P] = y1;
      v[k1 + 2 * P] = y2;
      v[k1 + 3 * P] = y3;
      v[k1 + 4 * P] = y4;
    }
  }
}

// Forward radix 25 as 5 x 5, as radix 16: radix-5 DFTs of (v_n2, v_n2+5, ..., v_n2+20),
// twiddles w25^(n2 k1) (n2 k1 <= 16), radix-5 DFTs across; X[k1 + 5 k2] lands in v[k1 + 5 k2].
__constant float2 W25[17] = {
    (float2)(1.00000000000000000f, -0.00000000000000000f),
    (float2)(0.96858316112863108f, -0.24868988716485479f),
    (float2)(0.87630668004386358f, -0.48175367410171532f),
    (float2)(0.72896862742141155f, -0.68454710592868862f),
    (float2)(0.53582679497899655f, -0.84432792550201508f),
    (float2)(0.30901699437494745f, -0.95105651629515353f),
    (float2)(0.06279051952931353f, -0.99802672842827156f),
    (float2)(-0.18738131458572460f, -0.98228725072868872f),
    (float2)(-0.42577929156507272f, -0.90482705246601947f),
    (float2)(-0.63742398974868975f, -0.77051324277578925f),
    (float2)(-0.80901699437494734f, -0.58778525229247325f),
    (float2)(-0.92977648588825135f, -0.36812455268467814f),
    (float2)(-0.99211470131447776f, -0.12533323356430454f),
    (float2)(-0.99211470131447788f, 0.12533323356430429f),
    (float2)(-0.92977648588825146f, 0.36812455268467792f),
    (float2)(-0.80901699437494778f, 0.58778525229247269f),
    (float2)(-0.63742398974868952f, 0.77051324277578936f)};
FAST_INLINE void dft25(float2* v) {
  float2 a[25];
#pragma unroll
  for (uint n2 = 0; n2 < 5; ++n2) {
    float2 x0 = v[n2], x1 = v[n2 + 5], x2 = v[n2 + 10], x3 = v[n2 + 15], x4 = v[n2 + 20];
    DFT_5(x0, x1, x2, x3, x4)
    a[5 * n2] = x0;
    a[5 * n2 + 1] = x1;
    a[5 * n2 + 2] = x2;
    a[5 * n2 + 3] = x3;
    a[5 * n2 + 4] = x4;
  }
#pragma unroll
  for (uint n2 = 1; n2 < 5; ++n2)
#pragma unroll
    for (uint k1 = 1; k1 < 5; ++k1) a[5 * n2 + k1] = cmul(a[5 * n2 + k1], W25[n2 * k1]);
  dft5_across(a, v, 5);
}

// Forward radix 9 as 3 x 3: radix-3 DFTs of (v0 v3 v6), (v1 v4 v7), (v2 v5 v8), twiddles
// w9^(n k), radix-3 DFTs across; X[k1 + 3 k2] lands in v[k1 + 3 k2].
#define W9_1 ((float2)(0.76604444311897804f, -0.64278760968653933f))
#define W9_2 ((float2)(0.17364817766693035f, -0.98480775301220806f))
#define W9_4 ((float2)(-0.93969262078590838f, -0.34202014332566873f))
FAST_INLINE void dft9(float2* v) {
  float2 a0 = v[0], a1 = v[3], a2 = v[6];
  float2 b0 = v[1], b1 = v[4], b2 = v[7];
  float2 c0 = v[2], c1 = v[5], c2 = v[8];
  DFT_3(a0, a1, a2)
  DFT_3(b0, b1, b2)
  DFT_3(c0, c1, c2)
  b1 = cmul(b1, W9_1);
  b2 = cmul(b2, W9_2);
  c1 = cmul(c1, W9_2);
  c2 = cmul(c2, W9_4);
  DFT_3(a0, b0, c0)
  DFT_3(a1, b1, c1)
  DFT_3(a2, b2, c2)
  v[0] = a0;
  v[1] = a1;
  v[2] = a2;
  v[3] = b0;
  v[4] = b1;
  v[5] = b2;
  v[6] = c0;
  v[7] = c1;
  v[8] = c2;
}

// Forward radix 10 as 2 x 5: radix-2 DFTs of (v_n2, v_n2+5), twiddles w10^n2 on the
// differences, radix-5 DFTs across; X[k1 + 2 k2] lands in v[k1 + 2 k2] (as fast_dft.glsl).
__constant float2 W10[5] = {(float2)(1.00000000000000000f, 0.00000000000000000f),
                            (float2)(0.80901699437494745f, -0.58778525229247314f),
                            (float2)(0.30901699437494745f, -0.95105651629515353f),
                            (float2)(-0.30901699437494734f, -0.95105651629515364f),
                            (float2)(-0.80901699437494734f, -0.58778525229247325f)};
FAST_INLINE void dft10(float2* v) {
  float2 a[10];
#pragma unroll
  for (uint n2 = 0; n2 < 5; ++n2) {
    a[2 * n2] = v[n2] + v[n2 + 5];
    a[2 * n2 + 1] = n2 == 0 ? v[n2] - v[n2 + 5] : cmul(v[n2] - v[n2 + 5], W10[n2]);
  }
  dft5_across(a, v, 2);
}

// Forward radix 15 as 3 x 5: radix-3 DFTs of (v_n2, v_n2+5, v_n2+10), twiddles w15^(n2 k1),
// radix-5 DFTs across; X[k1 + 3 k2] lands in v[k1 + 3 k2].
__constant float2 W15[9] = {(float2)(1.00000000000000000f, 0.00000000000000000f),
                            (float2)(0.91354545764260087f, -0.40673664307580015f),
                            (float2)(0.66913060635885824f, -0.74314482547739413f),
                            (float2)(0.30901699437494745f, -0.95105651629515353f),
                            (float2)(-0.10452846326765333f, -0.99452189536827340f),
                            (float2)(-0.49999999999999978f, -0.86602540378443871f),
                            (float2)(-0.80901699437494734f, -0.58778525229247325f),
                            (float2)(-0.97814760073380569f, -0.20791169081775931f),
                            (float2)(-0.97814760073380569f, 0.20791169081775907f)};
FAST_INLINE void dft15(float2* v) {
  float2 a[15];
#pragma unroll
  for (uint n2 = 0; n2 < 5; ++n2) {
    float2 x0 = v[n2], x1 = v[n2 + 5], x2 = v[n2 + 10];
    DFT_3(x0, x1, x2)
    a[3 * n2] = x0;
    a[3 * n2 + 1] = n2 == 0 ? x1 : cmul(x1, W15[n2]);
    a[3 * n2 + 2] = n2 == 0 ? x2 : cmul(x2, W15[2 * n2]);
  }
  dft5_across(a, v, 3);
}

// Forward odd radix R by symmetric pairs: X_k = v0 + sum_m (v_m + v_{R-m}) cos(2 pi m k / R)
// - i (v_m - v_{R-m}) sin(2 pi m k / R); cos/sin constants in float from double.
__constant float COS11[11] = {1.000000000e+00f, 8.412535328e-01f, 4.154150130e-01f, -1.423148383e-01f,
                              -6.548607339e-01f, -9.594929736e-01f, -9.594929736e-01f, -6.548607339e-01f,
                              -1.423148383e-01f, 4.154150130e-01f, 8.412535328e-01f};
__constant float SIN11[11] = {0.000000000e+00f, 5.406408175e-01f, 9.096319954e-01f, 9.898214419e-01f,
                              7.557495744e-01f, 2.817325568e-01f, -2.817325568e-01f, -7.557495744e-01f,
                              -9.898214419e-01f, -9.096319954e-01f, -5.406408175e-01f};
__constant float COS13[13] = {1.000000000e+00f, 8.854560257e-01f, 5.680647467e-01f, 1.205366803e-01f,
                              -3.546048870e-01f, -7.485107482e-01f, -9.709418174e-01f, -9.709418174e-01f,
                              -7.485107482e-01f, -3.546048870e-01f, 1.205366803e-01f, 5.680647467e-01f,
                              8.854560257e-01f};
__constant float SIN13[13] = {0.000000000e+00f, 4.647231720e-01f, 8.229838659e-01f, 9.927088741e-01f,
                              9.350162427e-01f, 6.631226582e-01f, 2.393156643e-01f, -2.393156643e-01f,
                              -6.631226582e-01f, -9.350162427e-01f, -9.927088741e-01f, -8.229838659e-01f,
                              -4.647231720e-01f};
// Loops run to the constant 6 (13 / 2) so they unroll before inlining; R is constant after it.
FAST_INLINE void dft_odd(float2* v, const uint R, __constant const float* cos_t, __constant const float* sin_t) {
  float2 s[7], d[7];
#pragma unroll
  for (uint m = 1; m <= 6; ++m) {
    if (m <= R / 2) {
      s[m] = v[m] + v[R - m];
      d[m] = v[m] - v[R - m];
    }
  }
  const float2 v0 = v[0];
  float2 sum = v0;
#pragma unroll
  for (uint m = 1; m <= 6; ++m)
    if (m <= R / 2) sum += s[m];
#pragma unroll
  for (uint k = 1; k <= 6; ++k) {
    if (k <= R / 2) {
      float2 c = v0, t = (float2)(0.0f, 0.0f);
#pragma unroll
      for (uint m = 1; m <= 6; ++m) {
        if (m <= R / 2) {
          c += s[m] * cos_t[(m * k) % R];
          t += d[m] * sin_t[(m * k) % R];
        }
      }
      v[k] = c + (float2)(t.y, -t.x);
      v[R - k] = c - (float2)(t.y, -t.x);
    }
  }
  v[0] = sum;
}

// The forward DFT of v[0 .. R-1]; R is a compile-time constant after inlining.
FAST_INLINE void small_dft(float2* v, const uint R) {
  if (R == 2) DFT_2(v[0], v[1])
  else if (R == 3) DFT_3(v[0], v[1], v[2])
  else if (R == 4) DFT_4(v[0], v[1], v[2], v[3])
  else if (R == 5) DFT_5(v[0], v[1], v[2], v[3], v[4])
  else if (R == 7) DFT_7(v[0], v[1], v[2], v[3], v[4], v[5], v[6])
  else if (R == 8) dft8(v);
  else if (R == 9) dft9(v);
  else if (R == 10) dft10(v);
  else if (R == 15) dft15(v);
  else if (R == 16) dft16(v);
  else if (R == 25) dft25(v);
  else if (R == 11) dft_odd(v, 11, COS11, SIN11);
  else if (R == 13) dft_odd(v, 13, COS13, SIN13);
}

// v[r] *= w^r for 1 <= r < R (R <= MAX_RADIX), the powers formed as w^r = w^(r/2) w^(r - r/2):
// log2(R) products deep rather than a chain of R - 2, a shorter dependency for the scheduler
// (H100: 8192-point rows 506 -> 487 us, 3125-point columns 123 -> 120; errors within 10% of the
// chain's).
FAST_INLINE void twiddle_by_powers(float2* v, const float2 w, const uint R) {
  float2 p[MAX_RADIX];
  p[1] = w;
#pragma unroll
  for (uint r = 2; r < MAX_RADIX; ++r)
    if (r < R) p[r] = cmul(p[r / 2], p[r - r / 2]);
#pragma unroll
  for (uint r = 1; r < MAX_RADIX; ++r)
    if (r < R) v[r] = cmul(v[r], p[r]);
}

// Tiles (fast::AxisRoute::tile_lines): TILE_OUT t (rows) stores column c of row r at
// (c / t) t H + r t + c % t of `out` (the scratch; H = lines), so that each t neighbouring
// columns lie one after another; TILE_IN t (columns, groups dividing t) reads its lines from there and
// stores into `out` (the image) at the image's places.
#ifndef TILE_OUT
#define TILE_OUT 0
#endif
#ifndef TILE_IN
#define TILE_IN 0
#endif
#if (TILE_OUT && (AXIS_COLS || !OUTPUT_BUFFER || TILE_IN)) || (TILE_IN && (!AXIS_COLS || !OUTPUT_BUFFER || TILE_IN % LINES))
#error "fast_fft.cl: TILE_OUT: rows into OUTPUT_BUFFER; TILE_IN: columns, groups dividing the tile, into OUTPUT_BUFFER"
#endif

// Global index of element i of line `line` in `data`: the image, or Bluestein's scratch, whose
// padded lines lie one after another on both axes (a column group's warp then reads runs of
// 32 / LINES consecutive elements per line instead of row segments of LINES * 8 bytes).
FAST_INLINE uint gaddr(uint line, uint i, uint row_pitch) {
#if FUSED_2D
  return row_pitch ? i * row_pitch + line : line * N + i;  // columns, or rows (see FUSED_2D)
#elif TILE_IN
  (void)row_pitch;
  return (line / TILE_IN) * (N * TILE_IN) + i * TILE_IN + line % TILE_IN;
#elif AXIS_COLS && !BLUESTEIN
  return i * row_pitch + line;
#elif R2C_SPLIT
  return line * row_pitch + i;  // the real image's rows, fast::display_pair_columns pairs apart
#else
  (void)row_pitch;
  return line * N + i;
#endif
}

// Index of output i of line `line` in `out` (the plain passes' stores; lines: the pass's).
FAST_INLINE uint out_addr(uint line, uint i, uint row_pitch, uint lines) {
#if TILE_OUT
  (void)row_pitch;
  return (i / TILE_OUT) * (lines * TILE_OUT) + line * TILE_OUT + i % TILE_OUT;
#elif TILE_IN
  (void)lines;
  return i * row_pitch + line;
#else
  (void)lines;
  return gaddr(line, i, row_pitch);
#endif
}

// Work item b of a pass over (local line, index) pairs with `per` indices per line. Columns
// put neighbouring lines on neighbouring work items (coalesced global access); rows keep a
// line's indices together.
FAST_INLINE uint2 split_item(uint b, uint per) {
#if AXIS_COLS
  (void)per;
  return (uint2)(b % LINES, b / LINES);
#else
  return (uint2)(b / per, b % per);
#endif
}

#if BLUESTEIN
// Global index of element i of image line `line` (n-point lines, the image's row pitch).
FAST_INLINE uint image_addr(uint line, uint i, uint row_pitch) {
#if AXIS_COLS
  return i * row_pitch + line;
#else
  return line * row_pitch + i;
#endif
}
#endif

#if UNPACK_MIRRORED
// Element i of the line: Z's row ky at even i, row H - ky conjugated at odd i, pair column i / 2.
FAST_INLINE float2 load_global(__global const float2* data, uint line, uint i, uint lines, uint row_pitch,
                               float conj_sign) {
  (void)row_pitch;
  (void)conj_sign;  // forward only
  const uint ky = min(line, lines - 1);
  const uint row = (i & 1) ? (PAIR_ROWS - ky) % PAIR_ROWS : ky;
  const float2 z = data[row * PAIR_PITCH + (i >> 1)];
  return (float2)(z.x, (i & 1) ? -z.y : z.y);
}
// v[0] = Zy[k] and v[1] = conj(Zm[-k]) in, FFT(X_2c)[k] and FFT(X_2c+1)[k] out: the combine's inputs.
FAST_INLINE void mirror_pair_bins(float2* v) {
  const float2 y = v[0], mc = v[1];
  const float2 d = 0.5f * (y - mc);
  v[0] = 0.5f * (y + mc);
  v[1] = (float2)(d.y, -d.x);  // d / i
}
#elif UNPACK_PAIRS
FAST_INLINE float2 load_global(__global const float2* data, uint line, uint i, uint lines, uint row_pitch,
                               float conj_sign) {
  (void)row_pitch;
  (void)conj_sign;  // forward only
  const uint ky = min(line, lines - 1), c = i >> 1;
  const float2 a = data[ky * PAIR_PITCH + c];
  const float2 b = data[((PAIR_ROWS - ky) % PAIR_ROWS) * PAIR_PITCH + c];
  const float2 bc = (float2)(b.x, -b.y);
  return (i & 1) ? (float2)(0.5f * (a.y - bc.y), -0.5f * (a.x - bc.x)) : 0.5f * (a + bc);
}
#elif BLUESTEIN_IN
// a[i] = conj?(x[i]) c[i] for i < n, 0 for the padding. Clamped loads and a select, as below.
FAST_INLINE float2 load_global(__global const float2* restrict image, __global const float2* restrict chirp,
                               uint n, uint line, uint i, uint lines, uint row_pitch, float conj_sign) {
  const uint ic = min(i, n - 1);
  const float2 x = image[image_addr(min(line, lines - 1), ic, row_pitch)];
  const float2 a = cmul((float2)(x.x, conj_sign * x.y), chirp[ic]);
  return i < n ? a : (float2)(0.0f, 0.0f);
}
#elif BLUESTEIN_OUT
// conj(Y[i]): the inner inverse, in both outer directions (conj_sign is applied at the store).
FAST_INLINE float2 load_global(__global const float2* data, uint line, uint i, uint lines, uint row_pitch,
                               float conj_sign) {
  (void)conj_sign;
  const float2 x = data[gaddr(min(line, lines - 1), i, row_pitch)];
  return (float2)(x.x, -x.y);
}
#else
FAST_INLINE float2 load_global(__global const float2* data, uint line, uint i, uint lines, uint row_pitch,
                          float conj_sign) {
  // Lines past the image (the last group's) read the last line rather than branch around the
  // load (branch-free loads issue together); their results are never stored.
  const float2 x = data[gaddr(min(line, lines - 1), i, row_pitch)];
  return (float2)(x.x, LOAD_SIGN(conj_sign) * x.y);
}
#endif

// Where the first loads read (load_global's leading arguments) and the extra parameters and
// arguments that the Bluestein modes pass down to the stages.
#if BLUESTEIN_IN
#define LOAD_SRC image, chirp, bluestein_n
#else
#define LOAD_SRC data
#endif
#if BLUESTEIN
#if BLUESTEIN_IN
#define IMAGE_QUAL const
#else
#define IMAGE_QUAL
#endif
#define BLUESTEIN_PARAMS                                                                             \
  , __global IMAGE_QUAL float2* restrict image, __global const float2* restrict chirp,              \
      __global const float2* restrict filter, const uint bluestein_n
#define BLUESTEIN_ARGS , image, chirp, filter, bluestein_n

// The last store of bin k of a Bluestein pass (see BLUESTEIN_IN / BLUESTEIN_OUT above).
FAST_INLINE void bluestein_store(__global float2* data, const uint line, const uint k, const float2 x,
                                 const uint row_pitch, const float conj_sign, const float scale BLUESTEIN_PARAMS) {
#if BLUESTEIN_IN
  (void)image;
  (void)chirp;
  (void)bluestein_n;
  (void)conj_sign;
  data[gaddr(line, k, row_pitch)] = cmul(x, filter[k]) * scale;
#else
  (void)data;
  (void)filter;
  // The chirp entry read before the branch (clamped), so the loads issue together.
  const float2 y = cmul((float2)(x.x, -x.y), chirp[min(k, bluestein_n - 1)]);
  if (k < bluestein_n) image[image_addr(line, k, row_pitch)] = (float2)(y.x, conj_sign * y.y) * scale;
#endif
}
#else
#define BLUESTEIN_PARAMS
#define BLUESTEIN_ARGS
#endif

#if FAST_EPILOGUE
#include "fast_epilogue.cl"
#else
#define EPILOGUE_PARAMS
#define EPILOGUE_BEGIN
#define EPILOGUE(Q)
#define EPILOGUE_END
#endif
#if !DISPLAY_ROWS
#define DISPLAY_PARAMS
#define DISPLAY_ARGS
#endif

// One Stockham radix-R stage of span NS over the group's LINES lines of M elements: butterfly j
// reads i = j + r M/R, twiddles input r by w_(NS R)^(r (j % NS)), and writes
// (j - j % NS) R + j % NS + r NS. Reads come from global memory (first stage) or local memory;
// writes go to local memory, or to global element q + PRE_RADIX i (last stage).
// Table index of w_(NS R)^(j % NS), the twiddle of butterfly j of the stage (R, NS).
FAST_INLINE uint stage_twiddle_index(const uint j, const uint R, const uint NS) { return (j % NS) * (N / (NS * R)); }
// Where output 0 of butterfly j of the stage (R, NS) goes; output r goes r NS further.
FAST_INLINE uint stage_output_base(const uint j, const uint R, const uint NS) { return (j - j % NS) * R + j % NS; }

// w_(NS R)^(j % NS) of each of this work-item's butterflies j of the stage (R, NS), into w[k]
// (nothing for the first stage, NS 1, or an unused one, R 1).
FAST_INLINE void stage_twiddles(__global const float2* restrict tw, float2* w, const uint R, const uint NS) {
  if (R <= 1 || NS <= 1) return;
  const uint per = M / R;
  const uint total = LINES * per;
  const uint count = (total + THREADS - 1) / THREADS;
  const uint tid = get_local_id(0);
#pragma unroll
  for (uint k = 0; k < HOLD; ++k) {
    const uint b = tid + k * THREADS;
    if (k < count) if (total % THREADS == 0 || b < total) w[k] = tw[stage_twiddle_index(split_item(b, per).y, R, NS)];
  }
}

// Where a stage's inputs come from: local memory, the buffer (the first stage of a pass), or the
// split's registers (the first stage of a sub-transform, where STAGE0_FROM_PRE).
#define SRC_LOCAL 0
#define SRC_GLOBAL 1
#define SRC_PRE 2
// SRC_AHEAD (SPLIT_ACCUMULATE): the first stage of sub-transform q issues the loads of
// sub-transform q + 1's inputs into registers (ahead[]), so their latency passes while q computes
// (H100: 4099-point rows' second pass 320 -> 254 us).
#define SRC_AHEAD 3
// STAGE0_FROM_PRE 1 (the host's AxisPlan::stage0_from_registers): the split's first stage reads
// y_q straight from pre[]: element b of the split and input r of butterfly b' coincide when
// b = b' + r LINES M / RADIX_0 and that step is a whole number of THREADS (columns keep the line
// in b % LINES; rows need one line per group). Saves a local write, read and barrier per
// sub-transform.
#ifndef STAGE0_FROM_PRE
#define STAGE0_FROM_PRE 0
#endif
#define STAGE0_STEP (LINES * (M / RADIX_0))
#if STAGE0_FROM_PRE && !(PRE_RADIX > 1 && !SPLIT_GLOBAL && (AXIS_COLS || LINES == 1) && \
                         STAGE0_STEP % THREADS == 0 && (LINES * M) % THREADS == 0)
#error "fast_fft.cl: STAGE0_FROM_PRE needs a split through registers whose first stage's inputs are each work-item's own"
#endif
#if SPLIT_DIT && !(PRE_RADIX > 1 && !SPLIT_GLOBAL && !R2C_SPLIT)
#error "fast_fft.cl: SPLIT_DIT needs a split through registers (and not the R2C epilogue)"
#endif
// LIVE_BLOCKS > 0 (a Bluestein split, the host's AxisPlan::live_blocks): only the first
// LIVE_BLOCKS blocks of M points of a padded line are live. Pass 2 stores only bins k < n, so
// it decimates in time without holding its inputs (SPLIT_ACCUMULATE): sub-transform q reads
// x[P i + q] from the scratch, and its outputs Y_q[i] are added, times w_N^(q k), to the
// accumulators of the bins k = i + s M (s < LIVE_BLOCKS) that the work-item owns
// (X[k] = sum_q w_N^(q k) Y_q[k mod M]); they are stored after the last sub-transform.
// LIVE_INPUTS 1 (AxisPlan::live_inputs): pass 1's inputs past n are zero, so it holds
// x[j + b M] for b < LIVE_BLOCKS (not all PRE_RADIX y_q) and forms
// y_q[j] = w_N^(q j) sum_b x[j + b M] w_P^(q b) when sub-transform q reads it (split_value):
// LIVE_BLOCKS registers per element instead of PRE_RADIX (LIVE_HELD).
#ifndef LIVE_BLOCKS
#define LIVE_BLOCKS 0
#endif
#ifndef LIVE_INPUTS
#define LIVE_INPUTS 0
#endif
#if LIVE_BLOCKS && !(BLUESTEIN && PRE_RADIX > 1 && !SPLIT_GLOBAL && LIVE_BLOCKS < PRE_RADIX)
#error "fast_fft.cl: LIVE_BLOCKS needs a Bluestein pass split through registers"
#endif
#if LIVE_INPUTS && !(LIVE_BLOCKS && !SPLIT_DIT)
#error "fast_fft.cl: LIVE_INPUTS needs LIVE_BLOCKS and the split in frequency"
#endif
#define LIVE_HELD (BLUESTEIN_IN && LIVE_INPUTS)
#define SPLIT_ACCUMULATE (BLUESTEIN_OUT && LIVE_BLOCKS)
#if SPLIT_ACCUMULATE
// Pass 2 reads the scratch in every sub-transform: the plan's first stage from the registers
// and split in time are pass 1's.
#undef STAGE0_FROM_PRE
#define STAGE0_FROM_PRE 0
#undef SPLIT_DIT
#define SPLIT_DIT 0
#endif
// Values the split holds per element: y_q for every q, or the live inputs.
#define PRE_PER (LIVE_HELD ? LIVE_BLOCKS : PRE_RADIX)
// LOCAL_HALVES 1 (the host's AxisPlan::local_halves): stages exchange through local memory viewed
// as LOCAL_ELEMS floats, real parts then imaginary parts, so a group needs half of it (four
// barriers an exchange instead of two); a stage's inputs come from the registers the previous
// exchange filled (`ahead`). NVIDIA's OpenCL has up to 228 KiB of local memory per
// multiprocessor but 48 KiB a group: four columns of 2401 points fit only this way.
#ifndef LOCAL_HALVES
#define LOCAL_HALVES 0
#endif
#if LOCAL_HALVES && (LAST_TO_LOCAL || PRE_RADIX > 1)
#error "fast_fft.cl: LOCAL_HALVES is for unsplit plans without a local-memory epilogue"
#endif

// w_P^(q b) of the split's radix-P step, a table entry (w_N^(q b M)); with q and b constants after
// inlining, a fixed one.
#define SPLIT_ROOT(tw, q, b) ((tw)[(((q) * (b)) % PRE_RADIX) * M])

// y_q of element k of this work-item's split (elements THREADS apart): as the DIF step left it
// in pre[], or formed from the live inputs (LIVE_HELD).
FAST_INLINE float2 split_value(const float2* pre, __global const float2* restrict tw, const uint k, const uint q) {
#if LIVE_HELD
  float2 y = pre[k * LIVE_BLOCKS];
#pragma unroll
  for (uint b = 1; b < LIVE_BLOCKS; ++b)
    y += q == 0 ? pre[k * LIVE_BLOCKS + b] : cmul(pre[k * LIVE_BLOCKS + b], SPLIT_ROOT(tw, q, b));
  const uint j = split_item(get_local_id(0) + k * THREADS, M).y;
  return q == 0 ? y : cmul(y, tw[q * j]);
#else
  (void)tw;
  return pre[k * PRE_RADIX + q];
#endif
}

// w_this: this stage's twiddles (stage_twiddles), w_next: filled for the stage (R_NEXT, NS_NEXT)
// (both only with PREFETCH_TWIDDLES). pre: the split's y_q values (source SRC_PRE).
FAST_INLINE void fft_stage(__global float2* data, __global float2* out, __global const float2* restrict tw,
                           __local float2* lm, const float2* pre, float2* keep, float2* ahead,
                      const uint R, const uint NS, const uint source, const bool to_global, const uint q,
                      const uint first_line, const uint lines, const uint row_pitch, const float conj_sign,
                      const float scale, const float2* w_this, float2* w_next, const uint R_NEXT,
                      const uint NS_NEXT BLUESTEIN_PARAMS FOUR_STEP_PARAMS DISPLAY_PARAMS) {
  const uint per = M / R;
  const uint total = LINES * per;
  const uint count = (total + THREADS - 1) / THREADS;
  const uint tid = get_local_id(0);
#if FOUR_STEP
  (void)out_pitch;
  (void)block;
  (void)outer_tw;
#endif
#if PREFETCH_TWIDDLES
  stage_twiddles(tw, w_next, R_NEXT, NS_NEXT);
#else
  (void)w_this;
  (void)w_next;
  (void)R_NEXT;
  (void)NS_NEXT;
#endif
  float2 hold[HOLD];
#pragma unroll
  for (uint k = 0; k < HOLD; ++k) {
    const uint b = tid + k * THREADS;
    if (k < count) if (total % THREADS == 0 || b < total) {
      const uint2 lj = split_item(b, per);
      float2 v[MAX_RADIX];
#pragma unroll
      for (uint r = 0; r < MAX_RADIX; ++r) {
        if (r < R) {
          const uint i = lj.y + r * per;
          if (source == SRC_GLOBAL)
            // x[P i + q]: sub-transform q of a split in time (through the buffer, or accumulated).
            v[r] = load_global(LOAD_SRC, first_line + lj.x, PRE_RADIX * i + q, lines, row_pitch, conj_sign);
#if LOCAL_HALVES
          else if (source == SRC_AHEAD || source == SRC_LOCAL)  // where the previous exchange left them
#else
          else if (source == SRC_AHEAD)
#endif
            v[r] = ahead[k * R + r];
          else if (source == SRC_PRE)
            v[r] = split_value(pre, tw, k + r * (STAGE0_STEP / THREADS), q);
          else
            v[r] = lm[LIDX(lj.x, i)];
#if SPLIT_ACCUMULATE
          if (source != SRC_LOCAL && q + 1 < PRE_RADIX)
            ahead[k * R + r] = load_global(LOAD_SRC, first_line + lj.x, PRE_RADIX * i + q + 1, lines, row_pitch, conj_sign);
#endif
        }
      }
      if (NS > 1) {
        const uint step = stage_twiddle_index(lj.y, R, NS);
#if TWIDDLE_POWERS
        // One table read per butterfly; w^r by multiplication (a few ulp per power).
        twiddle_by_powers(v, PREFETCH_TWIDDLES ? w_this[k] : tw[step], R);
#else
#pragma unroll
        for (uint r = 1; r < MAX_RADIX; ++r)
          if (r < R) v[r] = cmul(v[r], tw[r * step]);
#endif
      }
      small_dft(v, R);
#pragma unroll
      for (uint r = 0; r < MAX_RADIX; ++r)
        if (r < R) hold[k * R + r] = v[r];
    }
  }
#if LOCAL_HALVES
  if (!to_global) {
    // Real parts, then imaginary parts: write this stage's outputs, read the next stage's inputs.
    __local float* lm_half = (__local float*)lm;
    const uint per_next = M / R_NEXT;
    const uint total_next = LINES * per_next;
    const uint count_next = (total_next + THREADS - 1) / THREADS;
#pragma unroll
    for (uint part = 0; part < 2; ++part) {
      barrier(CLK_LOCAL_MEM_FENCE);  // every read of the previous exchange is done
#pragma unroll
      for (uint k = 0; k < HOLD; ++k) {
        const uint b = tid + k * THREADS;
        if (k < count) if (total % THREADS == 0 || b < total) {
          const uint2 lj = split_item(b, per);
          const uint base = stage_output_base(lj.y, R, NS);
#pragma unroll
          for (uint r = 0; r < MAX_RADIX; ++r)
            if (r < R) lm_half[LIDX(lj.x, base + r * NS)] = part ? hold[k * R + r].y : hold[k * R + r].x;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
      for (uint k = 0; k < HOLD; ++k) {
        const uint b = tid + k * THREADS;
        if (k < count_next) if (total_next % THREADS == 0 || b < total_next) {
          const uint2 lj = split_item(b, per_next);
#pragma unroll
          for (uint r = 0; r < MAX_RADIX; ++r) {
            if (r < R_NEXT) {
              const float x = lm_half[LIDX(lj.x, lj.y + r * per_next)];
              if (part) ahead[k * R_NEXT + r].y = x; else ahead[k * R_NEXT + r].x = x;
            }
          }
        }
      }
    }
    return;
  }
#endif
  // Local memory is read and written in place: every read of this stage before any write.
  if (!to_global) barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (uint k = 0; k < HOLD; ++k) {
    const uint b = tid + k * THREADS;
    if (k < count) if (total % THREADS == 0 || b < total) {
      const uint2 lj = split_item(b, per);
      const uint base = stage_output_base(lj.y, R, NS);
#if SPLIT_DIT
      if (to_global) {
        // Sub-transform q's outputs stay in registers for the combine (see the kernel).
#pragma unroll
        for (uint r = 0; r < MAX_RADIX; ++r)
          if (r < R) keep[q * HOLD + k * R + r] = hold[k * R + r];
      } else
#elif SPLIT_ACCUMULATE
      if (to_global) {
        // Y_q[i] w_N^(q (i + s M)) into the accumulators of bins i + s M (see LIVE_BLOCKS).
#pragma unroll
        for (uint r = 0; r < MAX_RADIX; ++r) {
          if (r < R) {
            const float2 x = q == 0 ? hold[k * R + r] : cmul(hold[k * R + r], tw[q * (base + r * NS)]);
#pragma unroll
            for (uint s = 0; s < LIVE_BLOCKS; ++s) {
              const float2 t = q == 0 || s == 0 ? x : cmul(x, SPLIT_ROOT(tw, q, s));
              keep[s * HOLD + k * R + r] = q == 0 ? t : keep[s * HOLD + k * R + r] + t;
            }
          }
        }
      } else
#else
      (void)keep;
#endif
      if (to_global) {
        // One branch around all R stores (not one per store).
        const uint line = first_line + lj.x;
        if (line < lines) {
#pragma unroll
          for (uint r = 0; r < MAX_RADIX; ++r) {
            if (r < R) {
              const uint i = base + r * NS;
              const float2 x = hold[k * R + r];
#if SPLIT_GLOBAL && PRE_RADIX > 1
              // Z_q[i] w_N^(q i), back where x[P i + q] came from; the combine pass finishes.
              data[gaddr(line, PRE_RADIX * i + q, row_pitch)] = q == 0 ? x : cmul(x, tw[q * i]);
#elif BLUESTEIN
              bluestein_store(data, line, q + PRE_RADIX * i, x, row_pitch, conj_sign, scale BLUESTEIN_ARGS);
#elif FOUR_STEP_A
              out[i * out_pitch + line] = cmul(x, outer_tw[block * i]) * scale;
#elif FOUR_STEP_B
              out[i * out_pitch + line] = (float2)(x.x, conj_sign * x.y) * scale;
#elif DISPLAY_ROWS
              display_store(line, q + PRE_RADIX * i, x DISPLAY_ARGS);
#else
              out[out_addr(line, q + PRE_RADIX * i, row_pitch, lines)] = (float2)(x.x, conj_sign * x.y) * scale;
#endif
            }
          }
        }
      } else {
#pragma unroll
        for (uint r = 0; r < MAX_RADIX; ++r)
          if (r < R) lm[LIDX(lj.x, base + r * NS)] = hold[k * R + r];
      }
    }
  }
  if (!to_global) barrier(CLK_LOCAL_MEM_FENCE);
}

#define STAGE_ARGS data, OUT_PTR, tw, lm, PRE_PTR, KEEP_PTR, AHEAD_PTR
#define LINE_ARGS first_line, lines, row_pitch, conj_sign, scale
// The last stage writes global memory (or display pixels), or local memory for an epilogue.
#define STAGE_TO_GLOBAL(S) (NUM_STAGES == (S) && !LAST_TO_LOCAL)
// Stage S (radix RADIX_S, span SPAN_S) reads its inputs from SRC and its twiddles from W_THIS,
// and prefetches stage NEXT's into W_NEXT (tw_a / tw_b, declared by the kernel; RADIX_8 is 1).
#define RADIX_8 1
#define SPAN_0 1
#define STAGE_CALL(S, NEXT, SRC, Q, W_THIS, W_NEXT)                                                \
  if (NUM_STAGES > (S))                                                                            \
    fft_stage(STAGE_ARGS, RADIX_##S, SPAN_##S, SRC, STAGE_TO_GLOBAL((S) + 1), Q, LINE_ARGS, W_THIS, \
              W_NEXT, RADIX_##NEXT, SPAN_##NEXT BLUESTEIN_ARGS FOUR_STEP_ARGS DISPLAY_ARGS);
#define RUN_STAGES(SOURCE, Q)                          \
  STAGE_CALL(0, 1, SOURCE, Q, tw_b, tw_a)              \
  STAGE_CALL(1, 2, SRC_LOCAL, Q, tw_a, tw_b)           \
  STAGE_CALL(2, 3, SRC_LOCAL, Q, tw_b, tw_a)           \
  STAGE_CALL(3, 4, SRC_LOCAL, Q, tw_a, tw_b)           \
  STAGE_CALL(4, 5, SRC_LOCAL, Q, tw_b, tw_a)           \
  STAGE_CALL(5, 6, SRC_LOCAL, Q, tw_a, tw_b)           \
  STAGE_CALL(6, 7, SRC_LOCAL, Q, tw_b, tw_a)           \
  STAGE_CALL(7, 8, SRC_LOCAL, Q, tw_a, tw_b)

#if OUTPUT_BUFFER && SPLIT_GLOBAL && PRE_RADIX > 1
#error "fast_fft.cl: OUTPUT_BUFFER needs the split through registers (SPLIT_GLOBAL 0)"
#endif
// The split's registers, for stages reading SRC_PRE (a null pointer where there is no split).
#if PRE_RADIX > 1 && !SPLIT_GLOBAL && !SPLIT_ACCUMULATE
#define PRE_PTR pre
#else
#define PRE_PTR ((const float2*)0)
#endif
#if SPLIT_ACCUMULATE || LOCAL_HALVES
#define AHEAD_PTR ahead
#else
#define AHEAD_PTR ((float2*)0)
#endif
#if SPLIT_DIT || SPLIT_ACCUMULATE
#define KEEP_PTR keep
#else
#define KEEP_PTR ((float2*)0)
#endif
#if NUM_STAGES == 1
#define RADIX_LAST RADIX_0
#elif NUM_STAGES == 2
#define RADIX_LAST RADIX_1
#elif NUM_STAGES == 3
#define RADIX_LAST RADIX_2
#elif NUM_STAGES == 4
#define RADIX_LAST RADIX_3
#elif NUM_STAGES == 5
#define RADIX_LAST RADIX_4
#elif NUM_STAGES == 6
#define RADIX_LAST RADIX_5
#elif NUM_STAGES == 7
#define RADIX_LAST RADIX_6
#else
#define RADIX_LAST RADIX_7
#endif
#if OUTPUT_BUFFER
#define OUTPUT_PARAM , __global float2* restrict out
#define OUT_PTR out
#else
#define OUTPUT_PARAM
#define OUT_PTR data
#endif

// lines: image lines on this axis (height for rows, width for columns); row_pitch: the image
// width. The grid may spread groups over two dimensions.
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void fast_fft(
    __global float2* data, __global const float2* restrict tw, const uint lines, const uint row_pitch,
    const float conj_sign, const float scale EPILOGUE_PARAMS OUTPUT_PARAM BLUESTEIN_PARAMS FOUR_STEP_KERNEL_PARAMS
        FUSED_PARAMS) {
#if LOCAL_HALVES
  __local float2 lm[(LOCAL_ELEMS + 1) / 2];  // LOCAL_ELEMS floats
  float2 ahead[HOLD];                         // a stage's inputs, as the previous exchange left them
#else
  __local float2 lm[LOCAL_ELEMS];
#endif
  float2 tw_a[HOLD], tw_b[HOLD];  // stage twiddles (PREFETCH_TWIDDLES)
#if FUSED_2D
  // The ticket, and a column group's wait, by work-item 0 before the group's barrier.
  __local uint ticket;
  const uint phase_groups = get_num_groups(0) * get_num_groups(1) / 2;
  if (get_local_id(0) == 0) {
    const uint mine = atomic_inc(&fused_sync[0]);
    if (mine >= phase_groups)
      while (atomic_add(&fused_sync[1], 0u) < phase_groups) {
      }
    ticket = mine;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  const bool cols_phase = ticket >= phase_groups;
  const uint group = cols_phase ? ticket - phase_groups : ticket;
#else
  const uint group = get_group_id(1) * get_num_groups(0) + get_group_id(0);
#endif
  const uint first_line = group * LINES;
#if FOUR_STEP
  const uint block = first_line / block_lines;
  data += block * block_shift;
#endif
  EPILOGUE_BEGIN
#if FUSED_2D
  // The phase's pass, unsplit or split, with the rows addressed as the image's transpose.
  const uint phase_pitch = cols_phase ? row_pitch : 0u;
  {
    const uint row_pitch = phase_pitch;  // gaddr: 0 addresses rows
#endif
#if PRE_RADIX == 1
  RUN_STAGES(SRC_GLOBAL, 0)
  EPILOGUE(0)
#elif SPLIT_GLOBAL
  // Decimation in time through the buffer: sub-transform q reads x[P n + q] and leaves
  // w_N^(q k) Z_q[k] in the same places (no other sub-transform touches them); then the group
  // combines X[k + m M] = sum_q w_P^(q m) (w_N^(q k) Z_q[k]) with one radix-P pass, holding all
  // its values before writing any (the writes land where other work-items still read).
  for (uint q = 0; q < PRE_RADIX; ++q) {
    RUN_STAGES(SRC_GLOBAL, q)
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  const uint tid = get_local_id(0);
  const uint ptotal = LINES * M;
  const uint pcount = (ptotal + THREADS - 1) / THREADS;
  float2 pre[PRE_HOLD];
#pragma unroll
  for (uint k = 0; k < PRE_HOLD / PRE_RADIX; ++k) {
    const uint b = tid + k * THREADS;
    if (k < pcount) if (ptotal % THREADS == 0 || b < ptotal) {
      const uint2 ln = split_item(b, M);
      float2 v[MAX_RADIX];
      const uint line = first_line + ln.x;
#pragma unroll
      for (uint m = 0; m < PRE_RADIX; ++m)
        v[m] = data[gaddr(min(line, lines - 1), PRE_RADIX * ln.y + m, row_pitch)];
      small_dft(v, PRE_RADIX);
#pragma unroll
      for (uint m = 0; m < PRE_RADIX; ++m) pre[k * PRE_RADIX + m] = v[m];
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
#pragma unroll
  for (uint k = 0; k < PRE_HOLD / PRE_RADIX; ++k) {
    const uint b = tid + k * THREADS;
    if (k < pcount) if (ptotal % THREADS == 0 || b < ptotal) {
      const uint2 ln = split_item(b, M);
      const uint line = first_line + ln.x;
      if (line < lines) {
#pragma unroll
        for (uint m = 0; m < PRE_RADIX; ++m) {
          const float2 x = pre[k * PRE_RADIX + m];
          data[gaddr(line, ln.y + m * M, row_pitch)] = (float2)(x.x, conj_sign * x.y) * scale;
        }
      }
    }
  }
#else
  const uint tid = get_local_id(0);
#if SPLIT_ACCUMULATE
  // No load phase: each sub-transform's first stage has its inputs from the previous one's
  // (SRC_AHEAD; sub-transform 0 reads them itself).
  float2 keep[LIVE_BLOCKS * HOLD];  // bin i + s M of the last stage's slot at s * HOLD + slot
  float2 ahead[HOLD];               // the next sub-transform's first-stage inputs
#else
  const uint ptotal = LINES * M;
  const uint pcount = (ptotal + THREADS - 1) / THREADS;
  float2 pre[PRE_HOLD];
#endif
#if SPLIT_DIT
  float2 keep[PRE_RADIX * HOLD];
  // x[P i + q], sub-transform 0's elements first.
#pragma unroll
  for (uint q = 0; q < PRE_RADIX; ++q) {
#pragma unroll
    for (uint k = 0; k < PRE_HOLD / PRE_RADIX; ++k) {
      const uint b = tid + k * THREADS;
      if (k < pcount) if (ptotal % THREADS == 0 || b < ptotal) {
        const uint2 ln = split_item(b, M);
        pre[k * PRE_RADIX + q] = load_global(LOAD_SRC, first_line + ln.x, PRE_RADIX * ln.y + q, lines, row_pitch,
                                             conj_sign);
      }
    }
  }
#elif LIVE_HELD
  // The live inputs only (see LIVE_BLOCKS); split_value forms y_q from them.
#pragma unroll
  for (uint k = 0; k < PRE_HOLD / LIVE_BLOCKS; ++k) {
    const uint b = tid + k * THREADS;
    if (k < pcount) if (ptotal % THREADS == 0 || b < ptotal) {
      const uint2 ln = split_item(b, M);
#pragma unroll
      for (uint m = 0; m < LIVE_BLOCKS; ++m)
        pre[k * LIVE_BLOCKS + m] = load_global(LOAD_SRC, first_line + ln.x, ln.y + m * M, lines, row_pitch, conj_sign);
    }
  }
#elif !SPLIT_ACCUMULATE
#pragma unroll
  for (uint k = 0; k < PRE_HOLD / PRE_RADIX; ++k) {
    const uint b = tid + k * THREADS;
    if (k < pcount) if (ptotal % THREADS == 0 || b < ptotal) {
      const uint2 ln = split_item(b, M);
      float2 v[MAX_RADIX];
#pragma unroll
      for (uint m = 0; m < PRE_RADIX; ++m)
        v[m] = load_global(LOAD_SRC, first_line + ln.x, ln.y + m * M, lines, row_pitch, conj_sign);
      small_dft(v, PRE_RADIX);
#if TWIDDLE_POWERS
      twiddle_by_powers(v, tw[ln.y], PRE_RADIX);
#else
#pragma unroll
      for (uint qq = 1; qq < PRE_RADIX; ++qq) v[qq] = cmul(v[qq], tw[ln.y * qq]);
#endif
#pragma unroll
      for (uint qq = 0; qq < PRE_RADIX; ++qq) pre[k * PRE_RADIX + qq] = v[qq];
    }
  }
#endif
  // One sub-transform per q, expanded by the preprocessor: a loop over q is too large for
  // compilers to unroll, and pre[] must only see constant indices to stay in registers.
#if SPLIT_ACCUMULATE
  // (The first stage's own barrier orders its local writes after the previous sub-transform's
  // reads.)
#define SUB_TRANSFORM(Q) RUN_STAGES((Q) > 0 ? SRC_AHEAD : SRC_GLOBAL, (Q))
#elif STAGE0_FROM_PRE
  // (As above.)
#define SUB_TRANSFORM(Q)   \
  RUN_STAGES(SRC_PRE, (Q)) \
  EPILOGUE(Q)
#else
#define SUB_TRANSFORM(Q)                                                  \
  barrier(CLK_LOCAL_MEM_FENCE); /* the previous sub-transform's reads */  \
  for (uint k = 0; k < PRE_HOLD / PRE_PER; ++k) {                        \
    const uint b = tid + k * THREADS;                                     \
    if (k < pcount) if (ptotal % THREADS == 0 || b < ptotal) {            \
      const uint2 ln = split_item(b, M);                                  \
      lm[LIDX(ln.x, ln.y)] = split_value(pre, tw, k, (Q));                \
    }                                                                     \
  }                                                                       \
  barrier(CLK_LOCAL_MEM_FENCE);                                           \
  RUN_STAGES(SRC_LOCAL, (Q))                                              \
  EPILOGUE(Q)
#endif
  SUB_TRANSFORM(0)
  SUB_TRANSFORM(1)
#if PRE_RADIX > 2
  SUB_TRANSFORM(2)
#endif
#if PRE_RADIX > 3
  SUB_TRANSFORM(3)
#endif
#if PRE_RADIX > 4
  SUB_TRANSFORM(4)
#endif
#if PRE_RADIX > 5
  SUB_TRANSFORM(5)
  SUB_TRANSFORM(6)
#endif
#if PRE_RADIX > 7
  SUB_TRANSFORM(7)
#endif
#if PRE_RADIX > 8  // (a split by 9, which no plan takes, runs sub-transforms 0 .. 8 only)
  SUB_TRANSFORM(8)
#endif
#if PRE_RADIX > 9
  SUB_TRANSFORM(9)
  SUB_TRANSFORM(10)
#endif
#if PRE_RADIX > 11
  SUB_TRANSFORM(11)
  SUB_TRANSFORM(12)
#endif
#if SPLIT_DIT || SPLIT_ACCUMULATE
  // Output k of every sub-transform sits in the same work-item (the last stage's layout does not
  // depend on q): the combine's radix-P step runs in registers (SPLIT_DIT), the accumulated
  // bins are stored from them (SPLIT_ACCUMULATE).
  {
    const uint per = M / RADIX_LAST;  // also the last stage's span
    const uint total = LINES * per;
    const uint count = (total + THREADS - 1) / THREADS;
#pragma unroll
    for (uint k = 0; k < HOLD; ++k) {
      const uint b = tid + k * THREADS;
      if (k < count) if (total % THREADS == 0 || b < total) {
        const uint2 lj = split_item(b, per);
        const uint base = stage_output_base(lj.y, RADIX_LAST, per);
        const uint line = first_line + lj.x;
#pragma unroll
        for (uint r = 0; r < RADIX_LAST; ++r) {
          const uint i = base + r * per;
#if SPLIT_ACCUMULATE
          if (line < lines) {
#pragma unroll
            for (uint s = 0; s < LIVE_BLOCKS; ++s)
              bluestein_store(data, line, i + s * M, keep[s * HOLD + k * RADIX_LAST + r], row_pitch, conj_sign,
                              scale BLUESTEIN_ARGS);
          }
#else
          float2 v[MAX_RADIX];
#pragma unroll
          for (uint q = 0; q < PRE_RADIX; ++q) v[q] = keep[q * HOLD + k * RADIX_LAST + r];
#if UNPACK_MIRRORED
          mirror_pair_bins(v);
#endif
#if TWIDDLE_POWERS
          twiddle_by_powers(v, tw[i], PRE_RADIX);
#else
#pragma unroll
          for (uint q = 1; q < PRE_RADIX; ++q) v[q] = cmul(v[q], tw[q * i]);
#endif
          small_dft(v, PRE_RADIX);
          if (line < lines) {
#pragma unroll
            for (uint m = 0; m < PRE_RADIX; ++m) {
#if BLUESTEIN
              bluestein_store(data, line, i + m * M, v[m], row_pitch, conj_sign, scale BLUESTEIN_ARGS);
#elif DISPLAY_ROUNDS
              keep[m * HOLD + k * RADIX_LAST + r] = v[m];  // bin i + m M, coloured below
#elif DISPLAY_ROWS
              display_store(line, i + m * M, v[m] DISPLAY_ARGS);
#else
              OUT_PTR[out_addr(line, i + m * M, row_pitch, lines)] = (float2)(v[m].x, conj_sign * v[m].y) * scale;
#endif
            }
          }
#endif
        }
      }
    }
#if DISPLAY_ROUNDS
    // Block m of M bins per round through local memory (after the last sub-transform's reads),
    // coloured by the group's loop: the pixels go out in natural order, and the colouring does
    // not hold the registers of every bin.
#pragma unroll
    for (uint m = 0; m < PRE_RADIX; ++m) {
      barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
      for (uint k = 0; k < HOLD; ++k) {
        const uint b = tid + k * THREADS;
        if (k < count) if (total % THREADS == 0 || b < total) {
          const uint2 lj = split_item(b, per);
          const uint base = stage_output_base(lj.y, RADIX_LAST, per);
#pragma unroll
          for (uint r = 0; r < RADIX_LAST; ++r) lm[LIDX(lj.x, base + r * per)] = keep[m * HOLD + k * RADIX_LAST + r];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      DISPLAY_FROM_LM(m * M, 1)
    }
#endif
  }
#endif
#endif
#if FUSED_2D
  }
  // Every work-item's stores reach the device before the group counts itself done.
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    if (!cols_phase) {
      atomic_inc(&fused_sync[1]);
    } else if (atomic_inc(&fused_sync[2]) == phase_groups - 1) {
      // Every group has taken its ticket and ended its wait: ready for the next dispatch.
      atomic_xchg(&fused_sync[0], 0u);
      atomic_xchg(&fused_sync[1], 0u);
      atomic_xchg(&fused_sync[2], 0u);
    }
  }
#endif
  EPILOGUE_END
}
