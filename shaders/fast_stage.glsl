// fast_stage.glsl — one Stockham stage of the fast path, included by fast_fft.comp once per stage
// (never compiled alone). Each inclusion defines `void STAGE_FN(uint q)` with the stage's radix
// and span as literal constants, so loop bounds, array sizes and divisions all fold.
//
// Stage of radix R and span NS over the group's LINES lines of M elements: butterfly j reads
// i = j + r M/R, twiddles input r by w_(NS R)^(r (j % NS)), does the radix-R DFT and writes
// (j - j % NS) R + j % NS + r NS. The first stage reads the buffer (FIRST_FROM_GLOBAL), the last
// writes it (a Bluestein pass: through bluestein_store); the others go through shared memory, in
// place (all reads, barrier, all writes, barrier).
//
// Defines needed (set by fast_fft.comp before each inclusion): STAGE_FN, STAGE_R, STAGE_NS,
// STAGE_FIRST (1 for stage 0), STAGE_LAST (1 for the last stage).

#if !defined(STAGE_FN) || !defined(STAGE_R) || !defined(STAGE_NS) || !defined(STAGE_FIRST) || !defined(STAGE_LAST)
#error "fast_stage.glsl needs STAGE_FN STAGE_R STAGE_NS STAGE_FIRST STAGE_LAST"
#endif

void STAGE_FN(uint q) {
  const uint R = uint(STAGE_R);
  const uint NS = uint(STAGE_NS);
  const uint per = uint(M) / R;
  const uint total = uint(LINES) * per;
  const uint count = (total + uint(THREADS) - 1u) / uint(THREADS);
  const bool from_global = STAGE_FIRST != 0 && FIRST_FROM_GLOBAL;
  const bool to_global = STAGE_LAST && FAST_EPILOGUE == 0;  // else local memory, for fast_epilogue.glsl
  uint tid = gl_LocalInvocationID.x;
  vec2 hold[count * R];
  for (uint k = 0u; k < count; ++k) {
    uint b = tid + k * uint(THREADS);
    if (total % uint(THREADS) == 0u || b < total) {
      uvec2 lj = split_item(b, per);
      vec2 v[MAX_RADIX];
      for (uint r = 0u; r < R; ++r) {
        uint i = lj.y + r * per;
        if (from_global)
          v[r] = load_global(g_first_line + lj.x, SPLIT_GLOBAL != 0 ? uint(PRE_RADIX) * i + q : i);
        else
          v[r] = lm[lidx(lj.x, i)];
      }
      if (NS > 1u) {
        uint step = (lj.y % NS) * (uint(N) / (NS * R));
#if TWIDDLE_POWERS
        vec2 w1 = tw[step];
        vec2 w = w1;
        for (uint r = 1u; r < R; ++r) {
          v[r] = cmul_fast(v[r], w);
          w = cmul_fast(w, w1);
        }
#else
        for (uint r = 1u; r < R; ++r) v[r] = cmul_fast(v[r], tw[r * step]);
#endif
      }
      small_dft(v, R);
      for (uint r = 0u; r < R; ++r) hold[k * R + r] = v[r];
    }
  }
  if (!to_global) sync_shared();
  for (uint k = 0u; k < count; ++k) {
    uint b = tid + k * uint(THREADS);
    if (total % uint(THREADS) == 0u || b < total) {
      uvec2 lj = split_item(b, per);
      uint p = lj.y % NS;
      uint base = (lj.y - p) * R + p;
      if (to_global) {
        // One branch around all R stores (not one per store).
        uint line = g_first_line + lj.x;
        if (line < u_lines) {
          for (uint r = 0u; r < R; ++r) {
            uint i = base + r * NS;
            vec2 x = hold[k * R + r];
#if SPLIT_GLOBAL && PRE_RADIX > 1
            data[gaddr(line, uint(PRE_RADIX) * i + q)] = q == 0u ? x : cmul_fast(x, tw[q * i]);
#elif BLUESTEIN_IN != 0 || BLUESTEIN_OUT != 0
            bluestein_store(line, q + uint(PRE_RADIX) * i, x);
#else
            OUT_DATA[gaddr(line, q + uint(PRE_RADIX) * i)] = vec2(x.x, u_conj_sign * x.y) * u_scale;
#endif
          }
        }
      } else {
        for (uint r = 0u; r < R; ++r) lm[lidx(lj.x, base + r * NS)] = hold[k * R + r];
      }
    }
  }
  if (!to_global) sync_shared();
}
