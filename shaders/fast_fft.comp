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
// Shared memory: LINES lines of M elements, element i of line l at l * LINE_STRIDE + i + i / 16
// (LOCAL_PAD 1; local_slot below for the unpadded and swizzled layouts).
// Algorithm: N = PRE_RADIX * M; M-point Stockham autosort stages (no digit-reverse pass), the
// first reading the buffer and the last writing it; PRE_RADIX > 1: a decimation-in-frequency
// step in registers first, then the PRE_RADIX sub-transforms one after another.
// Uniforms: u_lines (image lines on this axis), u_row_pitch (the image's row pitch as the pass
// addresses it). Constants from the host, a program per direction: CONJ_SIGN (1.0 forward, -1.0
// inverse: conj(DFT(conj x))), OUT_SCALE (1.0, or 1/N for the inverse): as uniforms NVIDIA's GLSL
// compiler kept a multiply by each for every value loaded and stored (H100: 8192-point rows 447
// -> 440 us, docs/fast_path.md).
// Dispatch: groups may be spread over x and y (at most 65535 each); local_size_x = THREADS is
// set by the host's layout line.
//
// Defines (all required): AXIS_COLS, N, M, PRE_RADIX, LINES, THREADS, LINE_STRIDE, LOCAL_ELEMS,
//   SPLIT_GLOBAL, HOLD, PRE_HOLD, NUM_STAGES (1..8), RADIX_0 .. RADIX_{NUM_STAGES-1}, CONJ_SIGN,
//   OUT_SCALE.
// Optional: R2C_SPLIT / DISPLAY_ROWS (fast_epilogue.glsl), UNPACK_PAIRS, OUTPUT_BUFFER,
//   BLUESTEIN_IN / BLUESTEIN_OUT and LIVE_BLOCKS, FOUR_STEP_A / FOUR_STEP_B, ROW_PAIRS, TILE_OUT /
//   TILE_IN, TEX_INPUT, FOLD_ROWS (below).

#if !defined(AXIS_COLS) || !defined(N) || !defined(M) || !defined(PRE_RADIX) || !defined(LINES) || !defined(THREADS) || !defined(LINE_STRIDE) || !defined(LOCAL_ELEMS) || !defined(HOLD) || !defined(PRE_HOLD) || !defined(NUM_STAGES) || !defined(RADIX_0)
#error "fast_fft.comp needs AXIS_COLS N M PRE_RADIX LINES THREADS LINE_STRIDE LOCAL_ELEMS HOLD PRE_HOLD NUM_STAGES RADIX_0.."
#endif
#if NUM_STAGES > 8
#error "fast_fft.comp: at most 8 stages"
#endif
#ifndef TWIDDLE_POWERS
#define TWIDDLE_POWERS 0
#endif
// PREFETCH_TWIDDLES 1 (with TWIDDLE_POWERS 1): each stage reads the next stage's twiddles ahead
// (as in fast_fft.cl).
#ifndef PREFETCH_TWIDDLES
#define PREFETCH_TWIDDLES 0
#endif
#if PREFETCH_TWIDDLES != 0 && TWIDDLE_POWERS == 0
#error "fast_fft.comp: PREFETCH_TWIDDLES needs TWIDDLE_POWERS 1"
#endif
#ifndef SPLIT_GLOBAL
#error "fast_fft.comp needs SPLIT_GLOBAL (0: split through registers, 1: through the buffer)"
#endif
// NVIDIA's compiler otherwise keeps loops whose register arrays then live in local memory.
#pragma optionNV(unroll all)
#pragma optionNV(inline all)
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

// Real-input display path (issue 6, fast_epilogue.glsl): R2C_SPLIT 1 (rows of a real image, the
// half spectrum) keeps the last stage in shared memory and finishes there; DISPLAY_ROWS 1 (rows
// into display pixels) stores each bin as its display pixels (display_store), from shared memory
// after the last stage (DISPLAY_FROM_LOCAL 1) or where other passes store a complex value
// (store_output), so that it follows every schedule, the split in time and LOCAL_HALVES included.
#ifndef R2C_SPLIT
#define R2C_SPLIT 0
#endif
#ifndef DISPLAY_ROWS
#define DISPLAY_ROWS 0
#endif
#define FAST_EPILOGUE (R2C_SPLIT + DISPLAY_ROWS)
#ifndef DISPLAY_FROM_LOCAL
#define DISPLAY_FROM_LOCAL 0
#endif
#ifndef SPLIT_DIT
#define SPLIT_DIT 0  // see below
#endif
// The last stage leaves its outputs in shared memory for an epilogue (a display split in time
// sends its combined bins through shared memory instead: DISPLAY_ROUNDS).
#define LAST_TO_LOCAL (R2C_SPLIT != 0 || (DISPLAY_ROWS != 0 && DISPLAY_FROM_LOCAL != 0 && SPLIT_DIT == 0))
#define DISPLAY_ROUNDS (DISPLAY_ROWS != 0 && DISPLAY_FROM_LOCAL != 0 && SPLIT_DIT != 0)
// UNPACK_PAIRS 1: rows of X (the column FFTs of a real image) from Z, the FFTs of its complex
// pair columns (PAIR_ROWS = H, PAIR_PITCH pair columns per row); OUTPUT_BUFFER 1: the last stage
// stores into binding 5 instead of `data`. As in fast_fft.cl.
#ifndef UNPACK_PAIRS
#define UNPACK_PAIRS 0
#endif
// UNPACK_MIRRORED 1: a display row split in time by 2 unpacks after its sub-transforms, the
// FFTs of Z's row ky and of row H - ky conjugated (mirror_pair_bins), so that sub-transform 0
// waits for row ky's loads only. As in fast_fft.cl (Tuning::display_rows_unpack_after).
#ifndef UNPACK_MIRRORED
#define UNPACK_MIRRORED 0
#endif
#if UNPACK_MIRRORED != 0 && !(UNPACK_PAIRS != 0 && SPLIT_DIT != 0 && PRE_RADIX == 2)
#error "fast_fft.comp: UNPACK_MIRRORED needs UNPACK_PAIRS and a split in time by 2"
#endif
#ifndef FOUR_STEP_A
#define FOUR_STEP_A 0
#endif
#ifndef FOUR_STEP_B
#define FOUR_STEP_B 0
#endif
#define FOUR_STEP (FOUR_STEP_A + FOUR_STEP_B)
#ifndef OUTPUT_BUFFER
#define OUTPUT_BUFFER FOUR_STEP  // the four-step passes (below) always store there
#endif
// Bluestein (issue 6): the two passes of an axis of n points (a prime factor above 13) as a
// cyclic convolution of the padded length N = L, with the chirp (binding 3, c[i] = exp(-i pi i^2 /
// n), n values) and the filter spectrum (binding 4, B, N values) folded into their loads and
// stores; `data` is the scratch of N-point lines one after another (line * N + i, either axis),
// binding 2 `image` the image's n-point lines
// (rows line * u_row_pitch + i, columns i * u_row_pitch + line), u_bluestein_n = n. As in
// fast_fft.cl:
//   BLUESTEIN_IN 1: loads a[i] = conj?(x[i]) c[i] from `image` (i < n; 0 for the padding), stores
//     A[k] B[k] OUT_SCALE into `data`.
//   BLUESTEIN_OUT 1: loads conj(Y[i]) from `data` (the inner inverse), stores
//     OUT_SCALE conj?(c[k] conj(z[k])) into `image` for k < n (OUT_SCALE 1/N or 1/(N n)).
// The forward pass reads `image` and writes `data`, the inverse the other way round.
#ifndef BLUESTEIN_IN
#define BLUESTEIN_IN 0
#endif
#ifndef BLUESTEIN_OUT
#define BLUESTEIN_OUT 0
#endif
#if (BLUESTEIN_IN != 0 || BLUESTEIN_OUT != 0) && (BLUESTEIN_IN == BLUESTEIN_OUT || FAST_EPILOGUE != 0 || \
    UNPACK_PAIRS != 0 || OUTPUT_BUFFER != 0 || (SPLIT_GLOBAL != 0 && PRE_RADIX > 1))
#error "fast_fft.comp: BLUESTEIN_IN / BLUESTEIN_OUT: one of them, no other optional mode, SPLIT_GLOBAL 0"
#endif

// Four-step columns (issue 6; fast::AxisRoute::second, as in fast_fft.cl): FOUR_STEP_A 1 is pass
// A (loads conjugated for the inverse, output k times w_T^(block k) from binding 6 `outer_tw`,
// the whole column's T-point table, unconjugated), FOUR_STEP_B 1 pass B (loads as stored,
// outputs conjugated and scaled). Both store into binding 5 (OUTPUT_BUFFER, 1 by default with
// them) at u_out_pitch;
// a group's block is g_first_line / u_block_lines, and its loads start block * u_block_shift
// further on.
#if FOUR_STEP != 0 && (FOUR_STEP != 1 || !AXIS_COLS || PRE_RADIX != 1 || OUTPUT_BUFFER == 0 || \
    FAST_EPILOGUE != 0 || UNPACK_PAIRS != 0 || BLUESTEIN_IN != 0 || BLUESTEIN_OUT != 0)
#error "fast_fft.comp: FOUR_STEP_A / FOUR_STEP_B: one of them, columns, unsplit, OUTPUT_BUFFER, no other mode"
#endif
#if FOUR_STEP != 0
uniform uint u_out_pitch;
uniform uint u_block_lines;
uniform uint u_block_shift;
uint g_block;     // the group's block (pass A: r2, pass B: k1)
uint g_in_shift;  // how much further on the group's loads start
#endif
#if FOUR_STEP_A != 0
layout(std430, binding = 6) readonly buffer OuterTwiddles { vec2 outer_tw[]; };
#endif
// In place (fast::RowSwap, OUTPUT_BUFFER bound to the image too): pass B stores bin k2 = u + C v
// (u < C, v < A) at row u A + v of its own block of rows, which it alone reads, so the rows of
// the image come out swapped in pairs, for the rows' pass to undo (ROW_PAIRS).
#ifndef FOUR_STEP_SWAP_A
#define FOUR_STEP_SWAP_A 0
#endif
#if FOUR_STEP_SWAP_A != 0 && (FOUR_STEP_B == 0 || !defined(FOUR_STEP_SWAP_C))
#error "fast_fft.comp: FOUR_STEP_SWAP_A needs FOUR_STEP_B and FOUR_STEP_SWAP_C"
#endif
// ROW_PAIRS 1 (fast::AxisRoute::swap, rows after in-place four-step columns): group g takes the
// rows row_pairs[g] = (p, p'), each holding the other's place in the output. It transforms row p
// by the split in frequency, keeping its bins in registers (X[q + P i], the same slots as the
// split in time keeps), stores them into row p' at the places where the split in time loads
// x[P i + q] (row p' was loaded from there before row p's sub-transforms), and transforms row p'
// by the split in time from those registers into row p. Each place of row p' is read and then
// written by one invocation, so nothing waits; a row paired with itself is transformed twice,
// the second store the same.
#ifndef ROW_PAIRS
#define ROW_PAIRS 0
#endif
#if ROW_PAIRS != 0
layout(std430, binding = 7) readonly buffer RowPairs { uvec2 row_pairs[]; };
uint g_pair_line;  // p', where row p's bins go
#endif
// FOLD_ROWS 1 (fast::AxisRoute::fold, rows of an image of H = 2 u_lines rows, OUTPUT_BUFFER):
// the rows pass also takes the columns' first radix-2 step (in frequency). Line n < H/2 loads
// rows n and n + H/2, forms a = x_n + x_(n+H/2) and b = (x_n - x_(n+H/2)) w_H^n (fold_tw), and
// transforms a, then b (held in registers meanwhile), into rows 2n and 2n + 1 of the output.
// Two output rows then make one row of a 2W-wide image whose H/2-point columns, in place, leave
// bin 2 k1 + k2 of each column at row 2 k1 + k2: the columns' pass is a plain one of half the
// length over twice the lines. GL only (kernels/fast_fft.cl has no FOLD_ROWS).
#ifndef FOLD_ROWS
#define FOLD_ROWS 0
#endif
#if FOLD_ROWS != 0 && (AXIS_COLS || PRE_RADIX != 1 || OUTPUT_BUFFER == 0 || FOUR_STEP != 0 || ROW_PAIRS != 0 || \
                       BLUESTEIN_IN != 0 || BLUESTEIN_OUT != 0 || R2C_SPLIT != 0 || DISPLAY_ROWS != 0)
#error "fast_fft.comp: FOLD_ROWS needs unsplit rows stored into OUTPUT_BUFFER, and no other mode"
#endif
#if FOLD_ROWS != 0
layout(std430, binding = 8) readonly buffer FoldTwiddles { vec2 fold_tw[]; };  // w_H^n, n < H/2
// b's values at stage 0's slots (as many as a stage-0 invocation holds).
#define FOLD_HOLD (((uint(LINES) * (uint(M) / uint(RADIX_0)) + uint(THREADS) - 1u) / uint(THREADS)) * uint(RADIX_0))
vec2 g_fold[FOLD_HOLD];
#endif
// The inverse conjugates loads and stores, or, in four steps, pass A's loads and pass B's stores
// (store_output).
#if FOUR_STEP_B != 0
#define LOAD_SIGN 1.0
#else
#define LOAD_SIGN CONJ_SIGN
#endif

#if SPLIT_GLOBAL && PRE_RADIX > 1
// Invocations of a group read what others wrote earlier in the same dispatch.
layout(std430, binding = 0) coherent buffer Data { vec2 data[]; };
#else
layout(std430, binding = 0) buffer Data { vec2 data[]; };
#endif
layout(std430, binding = 1) readonly buffer Twiddles { vec2 tw[]; };
#if OUTPUT_BUFFER != 0
#if SPLIT_GLOBAL != 0 && PRE_RADIX > 1
#error "fast_fft.comp: OUTPUT_BUFFER needs the split through registers (SPLIT_GLOBAL 0)"
#endif
layout(std430, binding = 5) writeonly buffer Out { vec2 out_data[]; };
#define OUT_DATA out_data
#else
#define OUT_DATA data
#endif
#if BLUESTEIN_IN != 0
layout(std430, binding = 2) readonly buffer Image { vec2 image[]; };
layout(std430, binding = 4) readonly buffer FilterSpectrum { vec2 filter_spectrum[]; };
#elif BLUESTEIN_OUT != 0
layout(std430, binding = 2) writeonly buffer Image { vec2 image[]; };
#endif
#if BLUESTEIN_IN != 0 || BLUESTEIN_OUT != 0
layout(std430, binding = 3) readonly buffer Chirp { vec2 chirp[]; };
uniform uint u_bluestein_n;
#endif

uniform uint u_lines;
uniform uint u_row_pitch;
#if !defined(CONJ_SIGN) || !defined(OUT_SCALE)
#error "fast_fft.comp: needs CONJ_SIGN and OUT_SCALE"
#endif

// LOCAL_HALVES 1 (the host's AxisPlan::local_halves): stages exchange through a float array, real
// parts then imaginary parts, so a group holds half the shared memory. NVIDIA's GL keeps about
// 48 KiB of shared memory per multiprocessor for compute (measured: one group of 32 KiB, two of
// 24 KiB, three of 16 KiB resident), where its OpenCL has up to 228 KiB: a 4096-point line in
// vec2 left one group per multiprocessor. Each exchange then takes four barriers instead of two,
// and a stage's inputs come from the registers the previous exchange filled (g_in).
#ifndef LOCAL_HALVES
#define LOCAL_HALVES 0
#endif
#if LOCAL_HALVES != 0
shared float lm_half[LOCAL_ELEMS];
vec2 g_in[HOLD];  // this stage's inputs, as the previous stage's exchange left them
#else
shared vec2 lm[LOCAL_ELEMS];
#endif

uint g_first_line;  // first image line of this work-group

#ifndef LOCAL_PAD
#define LOCAL_PAD 1
#endif
// The padding of local index i: one element every 16 (LOCAL_PAD 1), or none (LOCAL_PAD 0,
// Tuning::local_unpadded: then every element's index is one computed index plus a constant;
// LOCAL_PAD 2, Tuning::swizzled_rows and swizzled_columns: unpadded, the low five bits XORed with
// the next five on rows, with the line on columns, whose warps span 32 lines at one index).
uint local_pad(uint i) { return LOCAL_PAD == 1 ? i >> 4u : 0u; }
uint local_slot(uint line, uint i) {
  if (LOCAL_PAD == 2) return i ^ (AXIS_COLS != 0 ? line & 31u : (i >> 4u) & 31u);
  return i + local_pad(i);
}
uint lidx(uint line, uint i) { return line * uint(LINE_STRIDE) + local_slot(line, i); }

// lidx(line, a + c) for a constant c. Where the caller knows that (a % 16) + (c % 16) < 16, the
// padding splits too ((a + c) / 16 = a / 16 + c / 16), so every element of an invocation adds a
// constant to one computed index: NVIDIA's GLSL compiler otherwise computes each element's
// index anew (shifts and adds per access, found against a SPIR-V build of the same shader; H100:
// 4096-point columns 189 -> 167 us, docs/fast_path.md).
uint lidx_plus(uint line, uint a, uint c, bool split) {
  return LOCAL_PAD != 2 && (split || LOCAL_PAD == 0) ? lidx(line, a) + c + local_pad(c) : lidx(line, a + c);
}
// Whether element r of the read at j + r * per (j < per) may split: per a multiple of 16, or a
// divisor of 16 (a power of two: then j + r * per stays in the 16-chunk of r * per).
#define READ_SPLITS(per) ((per) % 16u == 0u || 16u % (per) == 0u)
// Whether the outputs base + r NS of butterfly j of the stage (R, NS) may split (base =
// STAGE_OUTPUT_BASE): NS a multiple of 16; or NS a divisor of 16 with NS R a multiple of 16
// (base % 16 = j % NS < NS) or a divisor of 16 (the R outputs lie within one 16-chunk).
#define WRITE_SPLITS(R, NS) ((NS) % 16u == 0u || (16u % (NS) == 0u && (((NS) * (R)) % 16u == 0u || 16u % ((NS) * (R)) == 0u)))

// Tiles (fast::AxisRoute::tile_lines; as in fast_fft.cl): TILE_OUT t (rows) stores column c of
// row r at (c / t) t H + r t + c % t of OUTPUT_BUFFER (the scratch; H = u_lines), so that each t
// neighbouring columns lie one after another; TILE_IN t (columns, groups dividing t) reads its lines
// from there and stores into OUTPUT_BUFFER (the image) at the image's places.
#ifndef TILE_OUT
#define TILE_OUT 0
#endif
#ifndef TILE_IN
#define TILE_IN 0
#endif
#if (TILE_OUT != 0 && (AXIS_COLS || OUTPUT_BUFFER == 0 || TILE_IN != 0)) || \
    (TILE_IN != 0 && (!AXIS_COLS || OUTPUT_BUFFER == 0 || TILE_IN % LINES != 0))
#error "fast_fft.comp: TILE_OUT: rows into OUTPUT_BUFFER; TILE_IN: columns, groups dividing the tile, into OUTPUT_BUFFER"
#endif

// TEX_INPUT 1 (fast::Tuning::texture_inputs): the pass reads `data` through u_data_texture, a
// buffer texture over the same buffer, and stores as before. The barrier before the pass is then
// GL_TEXTURE_FETCH_BARRIER_BIT; NVIDIA's driver empties the instruction caches at the storage bit
// but not at that one. Only a pass none of whose invocations reads what its own dispatch stored
// (the texture would not see it) may: in place, whose groups read all their values before any
// store, and whose stores each depend on every value of their line (so none overtakes a load of
// the same place); into OUTPUT_BUFFER (the real display's columns; four-step passes A and B); or
// the display rows (DISPLAY_ROWS, whose UNPACK_PAIRS loads read Z and whose stores go to the
// pixels). Not ROW_PAIRS: its stores into row p' do not depend on what it loaded from there.
#ifndef TEX_INPUT
#define TEX_INPUT 0
#endif
#if TEX_INPUT != 0 && (BLUESTEIN_IN != 0 || BLUESTEIN_OUT != 0 || SPLIT_GLOBAL != 0 || TILE_IN != 0 || \
                       TILE_OUT != 0 || ROW_PAIRS != 0 || R2C_SPLIT != 0 || UNPACK_PAIRS != DISPLAY_ROWS)
#error "fast_fft.comp: TEX_INPUT only for a pass with no split through the buffer: in place, into OUTPUT_BUFFER, four-step or the display rows"
#endif
#if TEX_INPUT != 0
layout(binding = 15) uniform samplerBuffer u_data_texture;  // the host's data_texture_unit
#endif
// Element `index` of `data` as the pass loads it (TEX_INPUT: through the texture).
vec2 data_in(uint index) {
#if TEX_INPUT != 0
  return texelFetch(u_data_texture, int(index)).xy;
#else
  return data[index];
#endif
}

// Index of element i of line `line` in `data`: the image, or Bluestein's scratch, whose padded
// lines lie one after another on both axes (as in fast_fft.cl).
uint gaddr(uint line, uint i) {
#if FOUR_STEP != 0
  return i * u_row_pitch + line + g_in_shift;
#elif TILE_IN != 0
  return (line / uint(TILE_IN)) * (uint(N) * uint(TILE_IN)) + i * uint(TILE_IN) + line % uint(TILE_IN);
#elif AXIS_COLS && BLUESTEIN_IN == 0 && BLUESTEIN_OUT == 0
  return i * u_row_pitch + line;
#elif R2C_SPLIT != 0
  return line * u_row_pitch + i;  // the real image's rows, fast::display_pair_columns pairs apart
#else
  return line * uint(N) + i;
#endif
}

// Index of output i of line `line` in OUT_DATA (the plain passes' stores).
uint out_addr(uint line, uint i) {
#if TILE_OUT != 0
  return (i / uint(TILE_OUT)) * (u_lines * uint(TILE_OUT)) + line * uint(TILE_OUT) + i % uint(TILE_OUT);
#elif TILE_IN != 0
  return i * u_row_pitch + line;
#else
  return gaddr(line, i);
#endif
}

#if FAST_EPILOGUE != 0
#include "fast_epilogue.glsl"
#else
#define EPILOGUE_BEGIN()
#define EPILOGUE(Q)
#define EPILOGUE_END()
#endif

// The last store of output i of line `line`, into OUT_DATA.
void store_output(uint line, uint i, vec2 x) {
#if FOUR_STEP_A != 0
  OUT_DATA[i * u_out_pitch + line] = cmul_fast(x, outer_tw[g_block * i]) * OUT_SCALE;
#elif FOUR_STEP_B != 0 && FOUR_STEP_SWAP_A != 0
  uint row = (i % uint(FOUR_STEP_SWAP_C)) * uint(FOUR_STEP_SWAP_A) + i / uint(FOUR_STEP_SWAP_C);
  OUT_DATA[gaddr(line, row)] = vec2(x.x, CONJ_SIGN * x.y) * OUT_SCALE;
#elif FOUR_STEP_B != 0
  OUT_DATA[i * u_out_pitch + line] = vec2(x.x, CONJ_SIGN * x.y) * OUT_SCALE;
#elif DISPLAY_ROWS != 0
  display_store(line, i, x);
#else
  OUT_DATA[out_addr(line, i)] = vec2(x.x, CONJ_SIGN * x.y) * OUT_SCALE;
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

#if BLUESTEIN_IN != 0 || BLUESTEIN_OUT != 0
// Index of element i of image line `line` (n-point lines, the image's row pitch).
uint image_addr(uint line, uint i) {
#if AXIS_COLS
  return i * u_row_pitch + line;
#else
  return line * u_row_pitch + i;
#endif
}
#endif

// Lines past the image (the last group's) read the last line instead of branching: a load
// inside a branch is issued on its own, and NVIDIA then waits on each one in turn. Their
// results are never stored.
#if UNPACK_PAIRS != 0
// Where bin row k of Z lies: row k, or where in-place four-step columns left it (fast::RowSwap,
// ROW_SWAP_A / ROW_SWAP_C: row x A C + y A + z holds bin z A C + y A + x).
uint z_row(uint k) {
#if defined(ROW_SWAP_A)
  const uint ac = uint(ROW_SWAP_A) * uint(ROW_SWAP_C);
  return (k % uint(ROW_SWAP_A)) * ac + (k / uint(ROW_SWAP_A)) % uint(ROW_SWAP_C) * uint(ROW_SWAP_A) + k / ac;
#else
  return k;
#endif
}
// Z's rows hold PAIR_PITCH pair columns (fast::display_pair_columns: (N + 1) / 2 and zero pairs
// up to a multiple of 4); an odd N's last pair is (x[N - 1], 0), whose odd half is never read.
#if UNPACK_MIRRORED
// Element i of the line: Z's row ky at even i, row H - ky conjugated at odd i, pair column i / 2.
vec2 load_global(uint line, uint i) {  // forward only
  uint ky = min(line, u_lines - 1u);
  uint row = (i & 1u) != 0u ? (uint(PAIR_ROWS) - ky) % uint(PAIR_ROWS) : ky;
  vec2 z = data_in(z_row(row) * uint(PAIR_PITCH) + (i >> 1u));
  return vec2(z.x, (i & 1u) != 0u ? -z.y : z.y);
}
// v[0] = Zy[k] and v[1] = conj(Zm[-k]) in, FFT(X_2c)[k] and FFT(X_2c+1)[k] out: the combine's inputs.
void mirror_pair_bins(inout vec2 v[MAX_RADIX]) {
  vec2 y = v[0], mc = v[1];
  vec2 d = 0.5 * (y - mc);
  v[0] = 0.5 * (y + mc);
  v[1] = vec2(d.y, -d.x);  // d / i
}
#else
vec2 load_global(uint line, uint i) {  // forward only
  uint ky = min(line, u_lines - 1u), c = i >> 1u;
  vec2 a = data_in(z_row(ky) * uint(PAIR_PITCH) + c);
  vec2 b = data_in(z_row((uint(PAIR_ROWS) - ky) % uint(PAIR_ROWS)) * uint(PAIR_PITCH) + c);
  vec2 bc = vec2(b.x, -b.y);
  return (i & 1u) != 0u ? vec2(0.5 * (a.y - bc.y), -0.5 * (a.x - bc.x)) : 0.5 * (a + bc);
}
#endif
#elif BLUESTEIN_IN != 0
// a[i] = conj?(x[i]) c[i] for i < n, 0 for the padding: clamped loads and a select.
vec2 load_global(uint line, uint i) {
  uint ic = min(i, u_bluestein_n - 1u);
  vec2 x = image[image_addr(min(line, u_lines - 1u), ic)];
  vec2 a = cmul_fast(vec2(x.x, CONJ_SIGN * x.y), chirp[ic]);
  return i < u_bluestein_n ? a : vec2(0.0);
}
#elif BLUESTEIN_OUT != 0
// conj(Y[i]): the inner inverse, in both outer directions (CONJ_SIGN applies at the store).
vec2 load_global(uint line, uint i) {
  vec2 x = data[gaddr(min(line, u_lines - 1u), i)];
  return vec2(x.x, -x.y);
}
#else
vec2 load_global(uint line, uint i) {
  vec2 x = data_in(gaddr(min(line, u_lines - 1u), i));
  return vec2(x.x, LOAD_SIGN * x.y);
}
#endif

#if FOLD_ROWS != 0
// Element i of line n's a (returned) and b (into g_fold[slot]): rows n and n + H/2 of the image.
vec2 fold_load(uint line, uint i, uint slot) {
  uint n = min(line, u_lines - 1u);  // (load_global would clamp row n + H/2 too)
  vec2 x0 = data_in(gaddr(n, i)), x1 = data_in(gaddr(n + u_lines, i));
  x0.y *= LOAD_SIGN;
  x1.y *= LOAD_SIGN;
  g_fold[slot] = cmul_fast(x0 - x1, fold_tw[n]);
  return x0 + x1;
}
#endif

#if BLUESTEIN_IN != 0
// The last store of bin k of a Bluestein pass: times the filter, into the scratch.
void bluestein_store(uint line, uint k, vec2 x) {
  data[gaddr(line, k)] = cmul_fast(x, filter_spectrum[k]) * OUT_SCALE;
}
#elif BLUESTEIN_OUT != 0
// Bins k < n only, into the image; the chirp entry is read before the branch (clamped).
void bluestein_store(uint line, uint k, vec2 x) {
  vec2 y = cmul_fast(vec2(x.x, -x.y), chirp[min(k, u_bluestein_n - 1u)]);
  if (k < u_bluestein_n) image[image_addr(line, k)] = vec2(y.x, CONJ_SIGN * y.y) * OUT_SCALE;
}
#endif

// barrier() alone: by the GLSL spec it makes the group's shared writes before it visible to its
// reads after it. memoryBarrierShared() before it (as GLFFT writes it) put a MEMBAR.SC.CTA before
// each of NVIDIA's BAR.SYNC, which also waits for the invocation's global loads and stores in
// flight (H100: 4096^2 columns 167.2 -> 163.5 us, 2187^2 103.3 -> 100.5, docs/fast_path.md).
void sync_shared() {
  barrier();
}

// w_P^(q b) of the split's radix-P step, a table entry (w_N^(q b M)), as in fast_fft.cl.
#define SPLIT_ROOT(q, b) tw[(((q) * (b)) % uint(PRE_RADIX)) * uint(M)]
// Table index of w_(NS R)^(j % NS), the twiddle of butterfly j of the stage (R, NS). A macro, so
// the stage's literal R and NS fold into it (see the stage functions below).
#define STAGE_TWIDDLE_INDEX(j, R, NS) (((j) % (NS)) * (uint(N) / ((NS) * (R))))
// Where output 0 of butterfly j of the stage (R, NS) goes; output r goes r NS further.
#define STAGE_OUTPUT_BASE(j, R, NS) (((j) - (j) % (NS)) * (R) + (j) % (NS))

// Stage twiddles (PREFETCH_TWIDDLES): stage s reads g_tw_a (odd s) or g_tw_b (even s) and fills
// the other for stage s + 1.
vec2 g_tw_a[HOLD];
vec2 g_tw_b[HOLD];

// LIVE_BLOCKS > 0 (a Bluestein split, the host's AxisPlan::live_blocks): only the first
// LIVE_BLOCKS blocks of M points of a padded line are live (as in fast_fft.cl). Pass 2
// (SPLIT_ACCUMULATE) decimates in time, each sub-transform reading its x[P i + q] from the
// scratch (the next one's loads issued by its first stage into g_ahead) and adding
// Y_q[i] w_N^(q k) to the accumulators of the bins k = i + s M (s < LIVE_BLOCKS) that the
// invocation owns, stored after the last one. LIVE_INPUTS 1 (AxisPlan::live_inputs): pass 1
// holds x[j + b M] for b < LIVE_BLOCKS only and forms y_q[j] = w_N^(q j) sum_b x[j + b M]
// w_P^(q b) when sub-transform q reads it (split_value; LIVE_HELD).
#ifndef LIVE_BLOCKS
#define LIVE_BLOCKS 0
#endif
#ifndef LIVE_INPUTS
#define LIVE_INPUTS 0
#endif
#if LIVE_BLOCKS != 0 && !((BLUESTEIN_IN != 0 || BLUESTEIN_OUT != 0) && PRE_RADIX > 1 && SPLIT_GLOBAL == 0 && \
                          LIVE_BLOCKS < PRE_RADIX)
#error "fast_fft.comp: LIVE_BLOCKS needs a Bluestein pass split through registers"
#endif
#if LIVE_INPUTS != 0 && !(LIVE_BLOCKS != 0 && SPLIT_DIT == 0)
#error "fast_fft.comp: LIVE_INPUTS needs LIVE_BLOCKS and the split in frequency"
#endif
#define LIVE_HELD (BLUESTEIN_IN != 0 && LIVE_INPUTS != 0)
#define SPLIT_ACCUMULATE (BLUESTEIN_OUT != 0 && LIVE_BLOCKS != 0)
#if SPLIT_ACCUMULATE
// The plan's split in time is pass 1's.
#undef SPLIT_DIT
#define SPLIT_DIT 0
#endif
// Values the split holds per element: y_q for every q, or the live inputs.
#define PRE_PER (LIVE_HELD ? LIVE_BLOCKS : PRE_RADIX)

// The first stage reads the buffer unless the split holds its inputs in registers.
#define FIRST_FROM_GLOBAL (PRE_RADIX == 1 || SPLIT_GLOBAL != 0 || SPLIT_ACCUMULATE)

// SUB_TRANSFORM_LOOP 1 (the host's AxisPlan::sub_transform_loop): the split in frequency's
// sub-transforms as one loop the compiler cannot unroll, each reading slot 0 of its element's
// values, which the loop then shifts down by one (constant indices, so g_pre stays in
// registers): a program about PRE_RADIX times shorter, which NVIDIA's GL runs faster.
#ifndef SUB_TRANSFORM_LOOP
#define SUB_TRANSFORM_LOOP 0
#endif
#if SUB_TRANSFORM_LOOP != 0 && !(PRE_RADIX > 1 && SPLIT_GLOBAL == 0 && SPLIT_DIT == 0 && LIVE_BLOCKS == 0)
#error "fast_fft.comp: SUB_TRANSFORM_LOOP needs a split in frequency through registers, no LIVE_BLOCKS"
#endif
#if PRE_RADIX > 1 && SPLIT_GLOBAL == 0 && !SPLIT_ACCUMULATE
vec2 g_pre[PRE_HOLD];  // this invocation's elements: PRE_PER values each

// y_q of element k of this invocation's split (elements THREADS apart): as the DIF step left it
// in g_pre, or formed from the live inputs (LIVE_HELD).
vec2 split_value(uint k, uint q) {
#if LIVE_HELD
  vec2 y = g_pre[k * uint(LIVE_BLOCKS)];
  for (uint b = 1u; b < uint(LIVE_BLOCKS); ++b) {
    vec2 x = g_pre[k * uint(LIVE_BLOCKS) + b];
    y += q == 0u ? x : cmul_fast(x, SPLIT_ROOT(q, b));
  }
  uint j = split_item(gl_LocalInvocationID.x + k * uint(THREADS), uint(M)).y;
  return q == 0u ? y : cmul_fast(y, tw[q * j]);
#elif SUB_TRANSFORM_LOOP
  return g_pre[k * uint(PRE_RADIX)];  // run_sub_transforms moves y_q into slot 0
#else
  return g_pre[k * uint(PRE_RADIX) + q];
#endif
}
#endif
// STAGE0_FROM_PRE 1 (the host's AxisPlan::stage0_from_registers): the split's first stage reads
// y_q straight from g_pre (as in fast_fft.cl): no shared-memory write, read and barrier before it.
// Pass 2 with LIVE_BLOCKS reads the scratch in every sub-transform: the plan's flag is pass 1's.
#ifndef STAGE0_FROM_PRE
#define STAGE0_FROM_PRE 0
#endif
#if SPLIT_ACCUMULATE
#undef STAGE0_FROM_PRE
#define STAGE0_FROM_PRE 0
#endif
#define STAGE0_STEP (uint(LINES) * (uint(M) / uint(RADIX_0)))
#if ROW_PAIRS != 0 && (AXIS_COLS || PRE_RADIX < 2 || SPLIT_GLOBAL != 0 || SPLIT_DIT == 0 || STAGE0_FROM_PRE == 0 || \
                       LINES != 1 || FOUR_STEP != 0 || FAST_EPILOGUE != 0 || UNPACK_PAIRS != 0 || \
                       BLUESTEIN_IN != 0 || BLUESTEIN_OUT != 0 || OUTPUT_BUFFER != 0 || (M % THREADS) != 0)
#error "fast_fft.comp: ROW_PAIRS needs rows split in time from the registers, one per group, and no other mode"
#endif
#if STAGE0_FROM_PRE != 0 && !(PRE_RADIX > 1 && SPLIT_GLOBAL == 0 && (AXIS_COLS != 0 || LINES == 1) && \
                              (LINES * (M / RADIX_0)) % THREADS == 0 && (LINES * M) % THREADS == 0)
#error "fast_fft.comp: STAGE0_FROM_PRE needs a split through registers whose first stage's inputs are each invocation's own"
#endif
// SPLIT_DIT 1 (the host's AxisPlan::split_dit): the split decimates in time through registers
// (as in fast_fft.cl): each invocation loads x[P n + q] for every q, runs sub-transform q from
// g_pre, keeps its outputs in g_keep, and ends with the radix-P combine and the stores.
#if SPLIT_DIT != 0 && !(PRE_RADIX > 1 && SPLIT_GLOBAL == 0 && R2C_SPLIT == 0)
#error "fast_fft.comp: SPLIT_DIT needs a split through registers (and not the R2C epilogue)"
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
#if SPLIT_DIT != 0
vec2 g_keep[PRE_RADIX * HOLD];  // sub-transform q's outputs at q * HOLD + the last stage's slot
#elif SPLIT_ACCUMULATE
vec2 g_keep[LIVE_BLOCKS * HOLD];  // bin i + s M of the last stage's slot at s * HOLD + slot
vec2 g_ahead[HOLD];               // the next sub-transform's first-stage inputs
#endif
#if LOCAL_HALVES != 0 && (LAST_TO_LOCAL || PRE_RADIX > 1)
#error "fast_fft.comp: LOCAL_HALVES is for unsplit plans without a shared-memory epilogue"
#endif

// One function per stage, stamped out of fast_stage.glsl with the stage's radix and span as
// literal constants, so every loop bound and array index folds (NVIDIA's GLSL compiler does
// not propagate constants through function parameters reliably).
#define STAGE_FN fft_stage_0
#define STAGE_TW_THIS g_tw_b
#define STAGE_TW_NEXT g_tw_a
#define STAGE_R_NEXT (NUM_STAGES > 1 ? RADIX_1 : 1)
#define STAGE_NS_NEXT (RADIX_0)
#define STAGE_R RADIX_0
#define STAGE_NS 1
#define STAGE_FIRST 1
#define STAGE_LAST (NUM_STAGES == 1)
#include "fast_stage.glsl"
#undef STAGE_FN
#undef STAGE_R
#undef STAGE_NS
#undef STAGE_FIRST
#undef STAGE_LAST
#undef STAGE_TW_THIS
#undef STAGE_TW_NEXT
#undef STAGE_R_NEXT
#undef STAGE_NS_NEXT
#if NUM_STAGES > 1
#define STAGE_FN fft_stage_1
#define STAGE_TW_THIS g_tw_a
#define STAGE_TW_NEXT g_tw_b
#define STAGE_R_NEXT (NUM_STAGES > 2 ? RADIX_2 : 1)
#define STAGE_NS_NEXT (RADIX_0 * RADIX_1)
#define STAGE_R RADIX_1
#define STAGE_NS (RADIX_0)
#define STAGE_FIRST 0
#define STAGE_LAST (NUM_STAGES == 2)
#include "fast_stage.glsl"
#undef STAGE_FN
#undef STAGE_R
#undef STAGE_NS
#undef STAGE_FIRST
#undef STAGE_LAST
#undef STAGE_TW_THIS
#undef STAGE_TW_NEXT
#undef STAGE_R_NEXT
#undef STAGE_NS_NEXT
#endif
#if NUM_STAGES > 2
#define STAGE_FN fft_stage_2
#define STAGE_TW_THIS g_tw_b
#define STAGE_TW_NEXT g_tw_a
#define STAGE_R_NEXT (NUM_STAGES > 3 ? RADIX_3 : 1)
#define STAGE_NS_NEXT (RADIX_0 * RADIX_1 * RADIX_2)
#define STAGE_R RADIX_2
#define STAGE_NS (RADIX_0 * RADIX_1)
#define STAGE_FIRST 0
#define STAGE_LAST (NUM_STAGES == 3)
#include "fast_stage.glsl"
#undef STAGE_FN
#undef STAGE_R
#undef STAGE_NS
#undef STAGE_FIRST
#undef STAGE_LAST
#undef STAGE_TW_THIS
#undef STAGE_TW_NEXT
#undef STAGE_R_NEXT
#undef STAGE_NS_NEXT
#endif
#if NUM_STAGES > 3
#define STAGE_FN fft_stage_3
#define STAGE_TW_THIS g_tw_a
#define STAGE_TW_NEXT g_tw_b
#define STAGE_R_NEXT (NUM_STAGES > 4 ? RADIX_4 : 1)
#define STAGE_NS_NEXT (RADIX_0 * RADIX_1 * RADIX_2 * RADIX_3)
#define STAGE_R RADIX_3
#define STAGE_NS (RADIX_0 * RADIX_1 * RADIX_2)
#define STAGE_FIRST 0
#define STAGE_LAST (NUM_STAGES == 4)
#include "fast_stage.glsl"
#undef STAGE_FN
#undef STAGE_R
#undef STAGE_NS
#undef STAGE_FIRST
#undef STAGE_LAST
#undef STAGE_TW_THIS
#undef STAGE_TW_NEXT
#undef STAGE_R_NEXT
#undef STAGE_NS_NEXT
#endif
#if NUM_STAGES > 4
#define STAGE_FN fft_stage_4
#define STAGE_TW_THIS g_tw_b
#define STAGE_TW_NEXT g_tw_a
#define STAGE_R_NEXT (NUM_STAGES > 5 ? RADIX_5 : 1)
#define STAGE_NS_NEXT (RADIX_0 * RADIX_1 * RADIX_2 * RADIX_3 * RADIX_4)
#define STAGE_R RADIX_4
#define STAGE_NS (RADIX_0 * RADIX_1 * RADIX_2 * RADIX_3)
#define STAGE_FIRST 0
#define STAGE_LAST (NUM_STAGES == 5)
#include "fast_stage.glsl"
#undef STAGE_FN
#undef STAGE_R
#undef STAGE_NS
#undef STAGE_FIRST
#undef STAGE_LAST
#undef STAGE_TW_THIS
#undef STAGE_TW_NEXT
#undef STAGE_R_NEXT
#undef STAGE_NS_NEXT
#endif
#if NUM_STAGES > 5
#define STAGE_FN fft_stage_5
#define STAGE_TW_THIS g_tw_a
#define STAGE_TW_NEXT g_tw_b
#define STAGE_R_NEXT (NUM_STAGES > 6 ? RADIX_6 : 1)
#define STAGE_NS_NEXT (RADIX_0 * RADIX_1 * RADIX_2 * RADIX_3 * RADIX_4 * RADIX_5)
#define STAGE_R RADIX_5
#define STAGE_NS (RADIX_0 * RADIX_1 * RADIX_2 * RADIX_3 * RADIX_4)
#define STAGE_FIRST 0
#define STAGE_LAST (NUM_STAGES == 6)
#include "fast_stage.glsl"
#undef STAGE_FN
#undef STAGE_R
#undef STAGE_NS
#undef STAGE_FIRST
#undef STAGE_LAST
#undef STAGE_TW_THIS
#undef STAGE_TW_NEXT
#undef STAGE_R_NEXT
#undef STAGE_NS_NEXT
#endif
#if NUM_STAGES > 6
#define STAGE_FN fft_stage_6
#define STAGE_TW_THIS g_tw_b
#define STAGE_TW_NEXT g_tw_a
#define STAGE_R_NEXT (NUM_STAGES > 7 ? RADIX_7 : 1)
#define STAGE_NS_NEXT (RADIX_0 * RADIX_1 * RADIX_2 * RADIX_3 * RADIX_4 * RADIX_5 * RADIX_6)
#define STAGE_R RADIX_6
#define STAGE_NS (RADIX_0 * RADIX_1 * RADIX_2 * RADIX_3 * RADIX_4 * RADIX_5)
#define STAGE_FIRST 0
#define STAGE_LAST (NUM_STAGES == 7)
#include "fast_stage.glsl"
#undef STAGE_FN
#undef STAGE_R
#undef STAGE_NS
#undef STAGE_FIRST
#undef STAGE_LAST
#undef STAGE_TW_THIS
#undef STAGE_TW_NEXT
#undef STAGE_R_NEXT
#undef STAGE_NS_NEXT
#endif
#if NUM_STAGES > 7
#define STAGE_FN fft_stage_7
#define STAGE_TW_THIS g_tw_a
#define STAGE_TW_NEXT g_tw_b
#define STAGE_R_NEXT 1
#define STAGE_NS_NEXT (RADIX_0 * RADIX_1 * RADIX_2 * RADIX_3 * RADIX_4 * RADIX_5 * RADIX_6 * RADIX_7)
#define STAGE_R RADIX_7
#define STAGE_NS (RADIX_0 * RADIX_1 * RADIX_2 * RADIX_3 * RADIX_4 * RADIX_5 * RADIX_6)
#define STAGE_FIRST 0
#define STAGE_LAST (NUM_STAGES == 8)
#include "fast_stage.glsl"
#undef STAGE_FN
#undef STAGE_R
#undef STAGE_NS
#undef STAGE_FIRST
#undef STAGE_LAST
#undef STAGE_TW_THIS
#undef STAGE_TW_NEXT
#undef STAGE_R_NEXT
#undef STAGE_NS_NEXT
#endif

void run_stages(const uint q) {
  fft_stage_0(q);
#if NUM_STAGES > 1
  fft_stage_1(q);
#endif
#if NUM_STAGES > 2
  fft_stage_2(q);
#endif
#if NUM_STAGES > 3
  fft_stage_3(q);
#endif
#if NUM_STAGES > 4
  fft_stage_4(q);
#endif
#if NUM_STAGES > 5
  fft_stage_5(q);
#endif
#if NUM_STAGES > 6
  fft_stage_6(q);
#endif
#if NUM_STAGES > 7
  fft_stage_7(q);
#endif
}

#if PRE_RADIX > 1 && SPLIT_GLOBAL == 0
// Sub-transform q: y_q into shared memory (or straight into the first stage), then its M-point
// stages, written to X[q + P k] (SPLIT_ACCUMULATE: its inputs from the buffer, its outputs added
// to the bins' accumulators).
void sub_transform(const uint q) {
#if SPLIT_ACCUMULATE || STAGE0_FROM_PRE != 0
  // (The first stage's own barrier orders its shared writes after the previous reads.)
  run_stages(q);
  EPILOGUE(q);
#else
  const uint ptotal = uint(LINES) * uint(M);
  const uint pcount = (ptotal + uint(THREADS) - 1u) / uint(THREADS);
  sync_shared();  // the previous sub-transform's last reads are done
  for (uint k = 0u; k < uint(PRE_HOLD / PRE_PER); ++k) {
    uint b = gl_LocalInvocationID.x + k * uint(THREADS);
    if (k < pcount && (ptotal % uint(THREADS) == 0u || b < ptotal)) {
      uvec2 ln = split_item(b, uint(M));
      lm[lidx(ln.x, ln.y)] = split_value(k, q);
    }
  }
  sync_shared();
  run_stages(q);
  EPILOGUE(q);
#endif
}

// All sub-transforms, one after another.
#if SUB_TRANSFORM_LOOP
void run_sub_transforms() {
  // gl_NumWorkGroups.z is 1 in every dispatch: a count the compiler cannot know keeps the loop.
  for (uint q = 0u; q < uint(PRE_RADIX) * gl_NumWorkGroups.z; ++q) {
    sub_transform(q);
    for (uint k = 0u; k < uint(PRE_HOLD / PRE_RADIX); ++k)
      for (uint s = 1u; s < uint(PRE_RADIX); ++s) g_pre[k * uint(PRE_RADIX) + s - 1u] = g_pre[k * uint(PRE_RADIX) + s];
  }
}
#else
void run_sub_transforms() {
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
#if PRE_RADIX > 8  // (a split by 9, which no plan takes, runs sub-transforms 0 .. 8 only)
  sub_transform(8u);
#endif
#if PRE_RADIX > 9
  sub_transform(9u);
  sub_transform(10u);
#endif
#if PRE_RADIX > 11
  sub_transform(11u);
  sub_transform(12u);
#endif
}
#endif

#if (SPLIT_DIT == 0 || ROW_PAIRS != 0) && !LIVE_HELD && !SPLIT_ACCUMULATE
// The split in frequency's loads: x[j + m M] for every m of this invocation's elements j, the
// radix-P step and the twiddles w_N^(q j), y_q into g_pre.
void load_split_in_frequency() {
  const uint ptotal = uint(LINES) * uint(M);
  const uint pcount = (ptotal + uint(THREADS) - 1u) / uint(THREADS);
  for (uint k = 0u; k < uint(PRE_HOLD / PRE_RADIX); ++k) {
    uint b = gl_LocalInvocationID.x + k * uint(THREADS);
    if (k < pcount && (ptotal % uint(THREADS) == 0u || b < ptotal)) {
      uvec2 ln = split_item(b, uint(M));
      vec2 v[MAX_RADIX];
      for (uint m = 0u; m < uint(PRE_RADIX); ++m) v[m] = load_global(g_first_line + ln.x, ln.y + m * uint(M));
      small_dft(v, uint(PRE_RADIX));
#if TWIDDLE_POWERS
      twiddle_by_powers(v, tw[ln.y], uint(PRE_RADIX));
#else
      for (uint qq = 1u; qq < uint(PRE_RADIX); ++qq) v[qq] = cmul_fast(v[qq], tw[ln.y * qq]);
#endif
      for (uint qq = 0u; qq < uint(PRE_RADIX); ++qq) g_pre[k * uint(PRE_RADIX) + qq] = v[qq];
    }
  }
}
#endif

#if ROW_PAIRS != 0
#if ((M / RADIX_LAST) % THREADS) != 0
#error "fast_fft.comp: ROW_PAIRS needs the last stage's butterflies in whole rounds of the group"
#endif
// Row p's bins X[q + P i] (kept by its split in frequency at the slots where the split in time
// keeps output i of sub-transform q) into row p', whose element there is loaded first into the
// split in time's slot for x[P i + q] (element i of the invocation's loads).
vec2 g_partner[PRE_RADIX * HOLD];  // row p' at the slots where row p's bins go

// Element (k, r, q) of the swap: row p's bin q + P i, i = b + r per, b = invocation + k THREADS.
uint swap_index(uint k, uint r, uint q) {
  const uint per = uint(M) / uint(RADIX_LAST);
  return q + uint(PRE_RADIX) * (gl_LocalInvocationID.x + k * uint(THREADS) + r * per);
}

// Row p' loaded before row p's sub-transforms run, so the loads overlap them (H100, 8192-point
// rows: 529 -> 450 us against loading it between the two transforms).
void load_partner() {
  const uint RL = uint(RADIX_LAST);
  const uint rounds = uint(M) / RL / uint(THREADS);
  for (uint k = 0u; k < rounds; ++k)
    for (uint r = 0u; r < RL; ++r)
      for (uint q = 0u; q < uint(PRE_RADIX); ++q)
        g_partner[(k * RL + r) * uint(PRE_RADIX) + q] = data[gaddr(g_pair_line, swap_index(k, r, q))];
}

// Row p's bins into row p' (where load_partner read), row p' into the split in time's slots.
void swap_with_partner() {
  const uint RL = uint(RADIX_LAST);
  const uint rounds = uint(M) / RL / uint(THREADS);
  for (uint k = 0u; k < rounds; ++k) {
    for (uint r = 0u; r < RL; ++r) {
      for (uint q = 0u; q < uint(PRE_RADIX); ++q) {
        vec2 x = g_keep[q * uint(HOLD) + k * RL + r];
        data[gaddr(g_pair_line, swap_index(k, r, q))] = vec2(x.x, CONJ_SIGN * x.y) * OUT_SCALE;
        vec2 y = g_partner[(k * RL + r) * uint(PRE_RADIX) + q];
        g_pre[(k + r * rounds) * uint(PRE_RADIX) + q] = vec2(y.x, LOAD_SIGN * y.y);
      }
    }
  }
}
#endif
#endif

void main() {
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  g_first_line = group * uint(LINES);
#if ROW_PAIRS != 0
  g_first_line = row_pairs[group].x;
  g_pair_line = row_pairs[group].y;
#endif
#if FOUR_STEP != 0
  g_block = g_first_line / u_block_lines;
  g_in_shift = g_block * u_block_shift;
#endif
  EPILOGUE_BEGIN();
#if FOLD_ROWS != 0  // (unsplit: PRE_RADIX 1)
  run_stages(0u);  // a, into row 2n
  sync_shared();   // the last stage's reads of shared memory before the next round's writes
  run_stages(1u);  // b, into row 2n + 1
#elif PRE_RADIX == 1
  run_stages(0u);
  EPILOGUE(0u);
#elif SPLIT_GLOBAL
  // Decimation in time through the buffer (see fast_fft.cl): sub-transforms in place, then one
  // radix-P combine that holds all of the group's values before writing any.
  for (uint q = 0u; q < uint(PRE_RADIX); ++q) run_stages(q);
  memoryBarrierBuffer();
  barrier();
  const uint ptotal = uint(LINES) * uint(M);
  const uint pcount = (ptotal + uint(THREADS) - 1u) / uint(THREADS);
  vec2 pre[PRE_HOLD];
  for (uint k = 0u; k < uint(PRE_HOLD / PRE_RADIX); ++k) {
    uint b = gl_LocalInvocationID.x + k * uint(THREADS);
    if (k < pcount && (ptotal % uint(THREADS) == 0u || b < ptotal)) {
      uvec2 ln = split_item(b, uint(M));
      uint line = g_first_line + ln.x;
      vec2 v[MAX_RADIX];
      for (uint m = 0u; m < uint(PRE_RADIX); ++m)
        v[m] = data[gaddr(min(line, u_lines - 1u), uint(PRE_RADIX) * ln.y + m)];
      small_dft(v, uint(PRE_RADIX));
      for (uint m = 0u; m < uint(PRE_RADIX); ++m) pre[k * uint(PRE_RADIX) + m] = v[m];
    }
  }
  memoryBarrierBuffer();
  barrier();
  for (uint k = 0u; k < uint(PRE_HOLD / PRE_RADIX); ++k) {
    uint b = gl_LocalInvocationID.x + k * uint(THREADS);
    if (k < pcount && (ptotal % uint(THREADS) == 0u || b < ptotal)) {
      uvec2 ln = split_item(b, uint(M));
      uint line = g_first_line + ln.x;
      if (line < u_lines) {
        for (uint m = 0u; m < uint(PRE_RADIX); ++m) {
          vec2 x = pre[k * uint(PRE_RADIX) + m];
          data[gaddr(line, ln.y + m * uint(M))] = vec2(x.x, CONJ_SIGN * x.y) * OUT_SCALE;
        }
      }
    }
  }
#else
  const uint ptotal = uint(LINES) * uint(M);
  const uint pcount = (ptotal + uint(THREADS) - 1u) / uint(THREADS);
#if SPLIT_DIT && ROW_PAIRS
  load_split_in_frequency();  // row p
  load_partner();
  run_sub_transforms();
  swap_with_partner();        // row p' into g_pre, row p's bins in its place
#elif SPLIT_DIT
  // x[P i + q], sub-transform 0's elements first.
  for (uint q = 0u; q < uint(PRE_RADIX); ++q) {
    for (uint k = 0u; k < uint(PRE_HOLD / PRE_RADIX); ++k) {
      uint b = gl_LocalInvocationID.x + k * uint(THREADS);
      if (k < pcount && (ptotal % uint(THREADS) == 0u || b < ptotal)) {
        uvec2 ln = split_item(b, uint(M));
        g_pre[k * uint(PRE_RADIX) + q] = load_global(g_first_line + ln.x, uint(PRE_RADIX) * ln.y + q);
      }
    }
  }
#elif LIVE_HELD
  // The live inputs only (see LIVE_BLOCKS); split_value forms y_q from them.
  for (uint k = 0u; k < uint(PRE_HOLD / LIVE_BLOCKS); ++k) {
    uint b = gl_LocalInvocationID.x + k * uint(THREADS);
    if (k < pcount && (ptotal % uint(THREADS) == 0u || b < ptotal)) {
      uvec2 ln = split_item(b, uint(M));
      for (uint m = 0u; m < uint(LIVE_BLOCKS); ++m)
        g_pre[k * uint(LIVE_BLOCKS) + m] = load_global(g_first_line + ln.x, ln.y + m * uint(M));
    }
  }
#elif !SPLIT_ACCUMULATE
  load_split_in_frequency();
#endif
  run_sub_transforms();
#if SPLIT_DIT || SPLIT_ACCUMULATE
  // Output k of every sub-transform sits in the same invocation (the last stage's layout does
  // not depend on q): the combine's radix-P step runs in registers (SPLIT_DIT), the accumulated
  // bins are stored from them (SPLIT_ACCUMULATE).
  {
    const uint RL = uint(RADIX_LAST);
    const uint per = uint(M) / RL;  // also the last stage's span
    const uint total = uint(LINES) * per;
    const uint count = (total + uint(THREADS) - 1u) / uint(THREADS);
    for (uint k = 0u; k < count; ++k) {
      uint b = gl_LocalInvocationID.x + k * uint(THREADS);
      if (total % uint(THREADS) == 0u || b < total) {
        uvec2 lj = split_item(b, per);
        uint base = STAGE_OUTPUT_BASE(lj.y, RL, per);
        uint line = g_first_line + lj.x;
        for (uint r = 0u; r < RL; ++r) {
          uint i = base + r * per;
#if SPLIT_ACCUMULATE
          if (line < u_lines) {
            for (uint s = 0u; s < uint(LIVE_BLOCKS); ++s)
              bluestein_store(line, i + s * uint(M), g_keep[s * uint(HOLD) + k * RL + r]);
          }
#else
          vec2 v[MAX_RADIX];
          for (uint q = 0u; q < uint(PRE_RADIX); ++q) v[q] = g_keep[q * uint(HOLD) + k * RL + r];
#if UNPACK_MIRRORED
          mirror_pair_bins(v);
#endif
#if TWIDDLE_POWERS
          twiddle_by_powers(v, tw[i], uint(PRE_RADIX));
#else
          for (uint q = 1u; q < uint(PRE_RADIX); ++q) v[q] = cmul_fast(v[q], tw[q * i]);
#endif
          small_dft(v, uint(PRE_RADIX));
          if (line < u_lines) {
            for (uint m = 0u; m < uint(PRE_RADIX); ++m) {
#if BLUESTEIN_IN != 0 || BLUESTEIN_OUT != 0
              bluestein_store(line, i + m * uint(M), v[m]);
#elif DISPLAY_ROUNDS
              g_keep[m * uint(HOLD) + k * RL + r] = v[m];  // bin i + m M, coloured below
#else
              store_output(line, i + m * uint(M), v[m]);
#endif
            }
          }
#endif
        }
      }
    }
#if DISPLAY_ROUNDS
    // Block m of M bins per round through shared memory (after the last sub-transform's reads),
    // coloured by the group's loop (as in fast_fft.cl).
    for (uint m = 0u; m < uint(PRE_RADIX); ++m) {
      sync_shared();
      for (uint k = 0u; k < count; ++k) {
        uint b = gl_LocalInvocationID.x + k * uint(THREADS);
        if (total % uint(THREADS) == 0u || b < total) {
          uvec2 lj = split_item(b, per);
          uint base = STAGE_OUTPUT_BASE(lj.y, RL, per);
          for (uint r = 0u; r < RL; ++r)
            lm[lidx_plus(lj.x, base, r * per, WRITE_SPLITS(RL, per))] = g_keep[m * uint(HOLD) + k * RL + r];
        }
      }
      sync_shared();
      display_from_local(m * uint(M), 1u);
    }
#endif
  }
#endif
#endif
  EPILOGUE_END();
}
