// display_common.cl — the per-bin value and the colour helpers of the spectrum display, as
// core/spectrum.cpp computes them, shared by display.cl (the display kernels) and
// fast_epilogue.cl (the real-input display path). Included, never compiled alone.
// component: 0 magnitude, 1 phase, 2 real, 3 imaginary, 4 phase_hue (as SpectrumComponent).
#ifndef FFTSCOPE_DISPLAY_COMMON_CL
#define FFTSCOPE_DISPLAY_COMMON_CL

float signed_log1p(float v) { return copysign(log1p(fabs(v)), v); }

float bin_value(float2 x, uint component, uint log_scale) {
  switch (component) {
    case 1: return atan2(x.y, x.x);
    case 2: return log_scale ? signed_log1p(x.x) : x.x;
    case 3: return log_scale ? signed_log1p(x.y) : x.y;
    default: {
      // sqrt and log(1 + m), as the GL twin: hypot's care against overflow and log1p's near 0
      // change no colour of a spectrum (its bins are at most W H times the largest input). With
      // display_range's quotient: OpenCL's display rows 4096-point 83 -> 77 us, 8192-point 346 ->
      // 313 (H100, docs/fast_path.md).
      const float m = sqrt(x.x * x.x + x.y * x.y);
      return log_scale ? log(1.0f + m) : m;
    }
  }
}

uchar to_byte(float v) {
  if (!(v > 0.0f)) return 0;
  if (v >= 1.0f) return 255;
  return (uchar)floor(v * 255.0f + 0.5f);
}

uchar4 hsv_to_rgba(float h, float v) {  // saturation 1, as phase_hue uses
  h -= floor(h);
  if (!isfinite(h)) h = 0.0f;
  v = clamp(v, 0.0f, 1.0f);
  const float h6 = h * 6.0f;
  const int sector = min((int)h6, 5);
  const float f = h6 - (float)sector;
  // Same operations as core hsv_to_rgb8 with s = 1, so the bytes agree.
  const float p = v * (1.0f - 1.0f), q = v * (1.0f - f), u = v * (1.0f - (1.0f - f));
  float r, g, b;
  switch (sector) {
    case 0: r = v; g = u; b = p; break;
    case 1: r = q; g = v; b = p; break;
    case 2: r = p; g = v; b = u; break;
    case 3: r = p; g = q; b = v; break;
    case 4: r = u; g = p; b = v; break;
    default: r = v; g = p; b = q; break;
  }
  return (uchar4)(to_byte(r), to_byte(g), to_byte(b), 255);
}

#endif
