// fast_stage.glsl — one Stockham stage of the fast path, included by fast_fft.comp once per stage
// (never compiled alone). Each inclusion defines `void STAGE_FN(uint q)` with the stage's radix
// and span as literal constants, so loop bounds, array sizes and divisions all fold.
//
// Stage of radix R and span NS over the group's LINES lines of M elements: butterfly j reads
// i = j + r M/R, twiddles input r by w_(NS R)^(r (j % NS)), does the radix-R DFT and writes
// (j - j % NS) R + j % NS + r NS. The first stage reads the buffer (FIRST_FROM_GLOBAL), the last
// writes it (a Bluestein pass: through bluestein_store); the others go through shared memory, in
// place (all reads, barrier, all writes, barrier); with LOCAL_HALVES (fast_fft.comp) a stage
// instead exchanges its outputs for the next stage's inputs, real parts then imaginary parts.
//
// Defines needed (set by fast_fft.comp before each inclusion): STAGE_FN, STAGE_R, STAGE_NS,
// STAGE_FIRST (1 for stage 0), STAGE_LAST (1 for the last stage); with PREFETCH_TWIDDLES, the
// stage reads its twiddles from STAGE_TW_THIS and first fills STAGE_TW_NEXT for the stage
// (STAGE_R_NEXT, STAGE_NS_NEXT) (radix 1: none).

#if !defined(STAGE_FN) || !defined(STAGE_R) || !defined(STAGE_NS) || !defined(STAGE_FIRST) || !defined(STAGE_LAST) || \
    !defined(STAGE_TW_THIS) || !defined(STAGE_TW_NEXT) || !defined(STAGE_R_NEXT) || !defined(STAGE_NS_NEXT)
#error "fast_stage.glsl needs STAGE_FN STAGE_R STAGE_NS STAGE_FIRST STAGE_LAST STAGE_TW_THIS STAGE_TW_NEXT STAGE_R_NEXT STAGE_NS_NEXT"
#endif

void STAGE_FN(uint q) {
  const uint R = uint(STAGE_R);
  const uint NS = uint(STAGE_NS);
  const uint per = uint(M) / R;
  const uint total = uint(LINES) * per;
  const uint count = (total + uint(THREADS) - 1u) / uint(THREADS);
  const bool from_global = STAGE_FIRST != 0 && FIRST_FROM_GLOBAL;
  const bool from_pre = STAGE_FIRST != 0 && STAGE0_FROM_PRE != 0;  // the split's registers
  const bool to_global = STAGE_LAST && !LAST_TO_LOCAL;  // else shared memory, for an epilogue
  uint tid = gl_LocalInvocationID.x;
#if PREFETCH_TWIDDLES
  {
    const uint RN = uint(STAGE_R_NEXT);
    const uint NSN = uint(STAGE_NS_NEXT);
    if (RN > 1u && NSN > 1u) {
      const uint per_next = uint(M) / RN;
      const uint total_next = uint(LINES) * per_next;
      const uint count_next = (total_next + uint(THREADS) - 1u) / uint(THREADS);
      for (uint k = 0u; k < count_next; ++k) {
        uint b = tid + k * uint(THREADS);
        if (total_next % uint(THREADS) == 0u || b < total_next)
          STAGE_TW_NEXT[k] = tw[STAGE_TWIDDLE_INDEX(split_item(b, per_next).y, RN, NSN)];
      }
    }
  }
#endif
  vec2 hold[count * R];
  for (uint k = 0u; k < count; ++k) {
    uint b = tid + k * uint(THREADS);
    if (total % uint(THREADS) == 0u || b < total) {
      uvec2 lj = split_item(b, per);
      vec2 v[MAX_RADIX];
      for (uint r = 0u; r < R; ++r) {
        uint i = lj.y + r * per;
        // x[P i + q]: sub-transform q of a split in time (through the buffer, or accumulated:
        // there the previous sub-transform's first stage loaded it into g_ahead).
        if (from_global)
#if SPLIT_ACCUMULATE
          v[r] = q == 0u ? load_global(g_first_line + lj.x, uint(PRE_RADIX) * i) : g_ahead[k * R + r];
#elif FOLD_ROWS != 0
          v[r] = q == 0u ? fold_load(g_first_line + lj.x, i, k * R + r) : g_fold[k * R + r];
#else
          v[r] = load_global(g_first_line + lj.x, uint(PRE_RADIX) * i + q);
#endif
#if STAGE0_FROM_PRE != 0
        else if (from_pre)
          v[r] = split_value(k + r * (STAGE0_STEP / uint(THREADS)), q);
#endif
        else
#if LOCAL_HALVES
          v[r] = g_in[k * R + r];
#else
          v[r] = lm[lidx_plus(lj.x, lj.y, r * per, READ_SPLITS(per))];
#endif
#if SPLIT_ACCUMULATE
        if (from_global && q + 1u < uint(PRE_RADIX))
          g_ahead[k * R + r] = load_global(g_first_line + lj.x, uint(PRE_RADIX) * i + q + 1u);
#endif
      }
      if (NS > 1u) {
        uint step = STAGE_TWIDDLE_INDEX(lj.y, R, NS);
#if TWIDDLE_POWERS
#if PREFETCH_TWIDDLES
        twiddle_by_powers(v, STAGE_TW_THIS[k], R);
#else
        twiddle_by_powers(v, tw[step], R);
#endif
#else
        for (uint r = 1u; r < R; ++r) v[r] = cmul_fast(v[r], tw[r * step]);
#endif
      }
      small_dft(v, R);
      for (uint r = 0u; r < R; ++r) hold[k * R + r] = v[r];
    }
  }
#if LOCAL_HALVES
  if (!to_global) {
    // Real parts, then imaginary parts: write this stage's outputs, read the next stage's inputs.
    const uint RN = uint(STAGE_R_NEXT);
    const uint per_next = uint(M) / RN;
    const uint total_next = uint(LINES) * per_next;
    const uint count_next = (total_next + uint(THREADS) - 1u) / uint(THREADS);
    for (uint part = 0u; part < 2u; ++part) {
      sync_shared();  // every read of the previous exchange is done
      for (uint k = 0u; k < count; ++k) {
        uint b = tid + k * uint(THREADS);
        if (total % uint(THREADS) == 0u || b < total) {
          uvec2 lj = split_item(b, per);
          uint base = STAGE_OUTPUT_BASE(lj.y, R, NS);
          for (uint r = 0u; r < R; ++r)
            lm_half[lidx_plus(lj.x, base, r * NS, WRITE_SPLITS(R, NS))] = hold[k * R + r][part];
        }
      }
      sync_shared();
      for (uint k = 0u; k < count_next; ++k) {
        uint b = tid + k * uint(THREADS);
        if (total_next % uint(THREADS) == 0u || b < total_next) {
          uvec2 lj = split_item(b, per_next);
          for (uint r = 0u; r < RN; ++r)
            g_in[k * RN + r][part] = lm_half[lidx_plus(lj.x, lj.y, r * per_next, READ_SPLITS(per_next))];
        }
      }
    }
    return;
  }
#else
  if (!to_global) sync_shared();
#endif
  for (uint k = 0u; k < count; ++k) {
    uint b = tid + k * uint(THREADS);
    if (total % uint(THREADS) == 0u || b < total) {
      uvec2 lj = split_item(b, per);
      uint base = STAGE_OUTPUT_BASE(lj.y, R, NS);
#if SPLIT_DIT
      if (to_global) {
        // Sub-transform q's outputs stay in registers for the combine (fast_fft.comp).
        for (uint r = 0u; r < R; ++r) g_keep[q * uint(HOLD) + k * R + r] = hold[k * R + r];
      } else
#elif SPLIT_ACCUMULATE
      if (to_global) {
        // Y_q[i] w_N^(q (i + s M)) into the accumulators of bins i + s M (see LIVE_BLOCKS).
        for (uint r = 0u; r < R; ++r) {
          vec2 x = q == 0u ? hold[k * R + r] : cmul_fast(hold[k * R + r], tw[q * (base + r * NS)]);
          for (uint s = 0u; s < uint(LIVE_BLOCKS); ++s) {
            vec2 t = q == 0u || s == 0u ? x : cmul_fast(x, SPLIT_ROOT(q, s));
            g_keep[s * uint(HOLD) + k * R + r] = q == 0u ? t : g_keep[s * uint(HOLD) + k * R + r] + t;
          }
        }
      } else
#endif
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
#elif FOLD_ROWS != 0
            store_output(2u * line + q, i, x);  // a into row 2n, b into row 2n + 1
#else
            store_output(line, q + uint(PRE_RADIX) * i, x);
#endif
          }
        }
      } else {
#if !LOCAL_HALVES
        for (uint r = 0u; r < R; ++r) lm[lidx_plus(lj.x, base, r * NS, WRITE_SPLITS(R, NS))] = hold[k * R + r];
#endif
      }
    }
  }
#if !LOCAL_HALVES
  if (!to_global) sync_shared();
#endif
}
