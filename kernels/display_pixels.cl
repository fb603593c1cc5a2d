// display_pixels.cl — the real display's pixels: a bin of the rows ky <= H/2 and its Hermitian
// mirror coloured as display.cl colours them, and the frame's range folded in (see
// fast_epilogue.cl for the arguments). Included by fast_epilogue.cl (DISPLAY_ROWS: the fused
// display rows) and display_half.cl (the routed display's passes); never compiled alone.
// Defines: N (W), PAIR_ROWS (H), FAST_INLINE.

// The display settings (fast_epilogue.cl's flags): the kernel argument `flags`, or with
// DISPLAY_FLAGS (Tuning::display_constant_flags, the fused display rows only) a compile-time
// constant, one program per set of settings, as GL's display rows always take them.
#ifdef DISPLAY_FLAGS
#define EP_FLAGS ((uint)(DISPLAY_FLAGS))
#else
#define EP_FLAGS flags
#endif

// The pass's start and end, in every work-item of a group (the kernel's arguments range_in,
// range_out, flags, lo_arg, hi_arg in scope). ep_minmax: this work-item's finite [lo, hi];
// ep_range: the range the colours use, as (lo, gain / (hi - lo)) (display_range).
#define DISPLAY_BEGIN                                                              \
  __local int range_local[2];                                                      \
  float ep_minmax[2] = {INFINITY, -INFINITY};                                      \
  const float2 ep_range = display_range(range_in, EP_FLAGS, lo_arg, hi_arg, gain); \
  if (get_local_id(0) == 0) {                                                      \
    range_local[0] = INT_MAX;                                                      \
    range_local[1] = INT_MIN;                                                      \
  }
#define DISPLAY_END display_range_fold(range_local, range_out, EP_FLAGS, ep_minmax[0], ep_minmax[1]);

// What display_store needs, passed down to the stages and the split's combine.
#define DISPLAY_PARAMS                                                                                       \
  , __global uchar4* restrict rgba, __global const uchar4* restrict lut, const uint flags, const float2 ep_range, \
      float* ep_minmax
#define DISPLAY_ARGS , rgba, lut, EP_FLAGS, ep_range, ep_minmax

// Floats as ints whose signed order is the floats' order (finite values), for atomic_min/max.
FAST_INLINE int ordered_int(float v) {
  const int b = as_int(v);
  return b >= 0 ? b : b ^ 0x7fffffff;
}
FAST_INLINE float ordered_float(int i) { return as_float(i >= 0 ? i : i ^ 0x7fffffff); }

// The range as (lo, gain / (hi - lo)), 0 for an empty range (every t 0): one multiply per bin
// where a division was.
FAST_INLINE float2 display_range(__global const int* range_in, uint flags, float lo_arg, float hi_arg, float gain) {
  float lo = lo_arg, hi = hi_arg;
  if (flags & 256u) {
    const int ilo = range_in[0], ihi = range_in[1];
    if (ilo > ihi) return (float2)(0.0f, 0.0f);  // no finite value seen yet
    lo = ordered_float(ilo);
    hi = ordered_float(ihi);
  }
  return (float2)(lo, hi > lo ? gain / (hi - lo) : 0.0f);
}

#include "display_common.cl"

// The display colour of bin value x under `range` = (lo, gain / (hi - lo)) (display_range); folds
// its value into [lo, hi].
FAST_INLINE uchar4 ep_color(__global const uchar4* lut, float2 x, uint flags, float2 range, float* lo,
                            float* hi) {
  const uint component = (flags >> 4) & 15u;
  const float v = bin_value(x, component, (flags & 2u) != 0);
  if (isfinite(v)) {
    *lo = fmin(*lo, v);
    *hi = fmax(*hi, v);
  }
  float t = (v - range.x) * range.y;
  t = isnan(t) ? 0.0f : clamp(t, 0.0f, 1.0f);
  uchar4 c;
  if (component == 4) {
    c = hsv_to_rgba((atan2(x.y, x.x) + M_PI_F) / (2.0f * M_PI_F), t);
  } else {
    c = lut[(uint)floor(t * 255.0f + 0.5f)];
    c.w = 255;
  }
  return c;
}

// DISPLAY_ROWS: bin x = F[ky, kx] of one of the rows ky <= H/2 to its pixel, and to the pixel of
// its Hermitian mirror F[H - ky, (W - kx) % W] = conj(x) (rows 0 and H/2 of an even H are their
// own mirrors).
FAST_INLINE void display_store(const uint ky, const uint kx, const float2 x DISPLAY_PARAMS) {
  const uint width = N, height = PAIR_ROWS;
  const bool shift = (flags & 1u) != 0;
  const uint component = (flags >> 4) & 15u;
  uchar4 c = ep_color(lut, x, flags, ep_range, &ep_minmax[0], &ep_minmax[1]);
  rgba[(shift ? (ky + height / 2) % height : ky) * width + (shift ? (kx + width / 2) % width : kx)] = c;
  const uint my = height - ky;
  if (ky > 0 && my != ky) {
    const uint mx = kx == 0 ? 0 : width - kx;
    // The mirror holds conj(x): the same colour for magnitude and real part, not for phase.
    if (component != 0 && component != 2)
      c = ep_color(lut, (float2)(x.x, -x.y), flags, ep_range, &ep_minmax[0], &ep_minmax[1]);
    rgba[(shift ? (my + height / 2) % height : my) * width + (shift ? (mx + width / 2) % width : mx)] = c;
  }
}

// The group's [lo, hi] into range_out: local atomics, then one global atomic min and max.
FAST_INLINE void display_range_fold(__local int* range_local, __global int* range_out, uint flags, float lo,
                                    float hi) {
  if (!(flags & 256u)) return;  // uniform over the dispatch
  barrier(CLK_LOCAL_MEM_FENCE);  // range_local's first values (a one-stage pass has no barrier)
  if (lo <= hi) {
    atomic_min(&range_local[0], ordered_int(lo));
    atomic_max(&range_local[1], ordered_int(hi));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0 && range_local[0] <= range_local[1]) {
    atomic_min(&range_out[0], range_local[0]);
    atomic_max(&range_out[1], range_local[1]);
  }
}
