// display.cl — the spectrum display on the device: per-bin values (fftshift, component,
// scale), their finite min/max by a two-pass reduction, and the colour mapping to RGBA8. The
// formulas follow core/spectrum.cpp (render_spectrum) so both give the same image.
//
// Data layout: `data` is the transformed image, width x height float2 (interleaved re/im,
// row-major). `values` is width x height float at *display* positions (after the shift).
// `rgba` is width x height uchar4 (RGBA8, row-major, top row first). `lut` is 256 uchar4
// (the core's colormap_table, alpha unused). `range` is one float2 (lo, hi).
// component: 0 magnitude, 1 phase, 2 real, 3 imaginary, 4 phase_hue (as SpectrumComponent).
//
// Defines needed:
//   REDUCE_WG  work-group size of display_range_partial / display_range_final (power of two)

#ifndef FFTSCOPE_COMPLEX_CL
#error "display.cl needs complex.cl prepended"
#endif
#ifndef REDUCE_WG
#error "display.cl needs -D REDUCE_WG=<power of two>"
#endif

uint ifftshift_index(uint i, uint n) { return (i + n - n / 2) % n; }

#include "display_common.cl"

kernel void display_values(global const float2* data, global float* values, uint width, uint height, uint shift,
                           uint component, uint log_scale) {
  const uint x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  const uint sx = shift ? ifftshift_index(x, width) : x;
  const uint sy = shift ? ifftshift_index(y, height) : y;
  values[y * width + x] = bin_value(data[sy * width + sx], component, log_scale);
}

// Pass 1: each work group folds a grid-strided share of `values` into partials[group] = (lo, hi).
// Non-finite values are skipped, as one inf or NaN bin must not wash out the view.
kernel void display_range_partial(global const float* values, uint count, global float2* partials) {
  local float lo_l[REDUCE_WG], hi_l[REDUCE_WG];
  const uint lid = get_local_id(0);
  float lo = INFINITY, hi = -INFINITY;
  for (uint i = get_global_id(0); i < count; i += get_global_size(0)) {
    const float v = values[i];
    if (isfinite(v)) {
      lo = fmin(lo, v);
      hi = fmax(hi, v);
    }
  }
  lo_l[lid] = lo;
  hi_l[lid] = hi;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = REDUCE_WG / 2; s > 0; s >>= 1) {
    if (lid < s) {
      lo_l[lid] = fmin(lo_l[lid], lo_l[lid + s]);
      hi_l[lid] = fmax(hi_l[lid], hi_l[lid + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partials[get_group_id(0)] = (float2)(lo_l[0], hi_l[0]);
}

// Pass 2: one work group folds the partials into range[0]; no finite value at all gives (0, 0).
kernel void display_range_final(global const float2* partials, uint count, global float2* range) {
  local float lo_l[REDUCE_WG], hi_l[REDUCE_WG];
  const uint lid = get_local_id(0);
  float lo = INFINITY, hi = -INFINITY;
  for (uint i = lid; i < count; i += REDUCE_WG) {
    lo = fmin(lo, partials[i].x);
    hi = fmax(hi, partials[i].y);
  }
  lo_l[lid] = lo;
  hi_l[lid] = hi;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = REDUCE_WG / 2; s > 0; s >>= 1) {
    if (lid < s) {
      lo_l[lid] = fmin(lo_l[lid], lo_l[lid + s]);
      hi_l[lid] = fmax(hi_l[lid], hi_l[lid + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) range[0] = lo_l[0] > hi_l[0] ? (float2)(0.0f, 0.0f) : (float2)(lo_l[0], hi_l[0]);
}

// rgba = colour of t = clamp(gain * (v - lo) / (hi - lo), 0, 1); [lo, hi] from range[0] when
// use_range_buffer, else (lo_arg, hi_arg).
kernel void display_colorize(global const float* values, global const float2* data, global const float2* range,
                             global const uchar4* lut, global uchar4* rgba, uint width, uint height, uint shift,
                             uint hue, uint use_range_buffer, float lo_arg, float hi_arg, float gain) {
  const uint x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  const float2 r = use_range_buffer ? range[0] : (float2)(lo_arg, hi_arg);
  const uint i = y * width + x;
  float t = 0.0f;
  if (r.y > r.x) {
    t = gain * (values[i] - r.x) / (r.y - r.x);
    t = isnan(t) ? 0.0f : clamp(t, 0.0f, 1.0f);
  }
  if (hue) {
    const uint sx = shift ? ifftshift_index(x, width) : x;
    const uint sy = shift ? ifftshift_index(y, height) : y;
    const float2 c = data[sy * width + sx];
    rgba[i] = hsv_to_rgba((atan2(c.y, c.x) + M_PI_F) / (2.0f * M_PI_F), t);
  } else {
    const uchar4 col = lut[(uint)floor(t * 255.0f + 0.5f)];
    rgba[i] = (uchar4)(col.x, col.y, col.z, 255);
  }
}
