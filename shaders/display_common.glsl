// display_common.glsl — helpers of the spectrum display as core/spectrum.cpp computes them,
// shared by spectrum_values.comp, spectrum_colorize.comp and fast_epilogue.glsl (the real-input
// display path). Included, never compiled alone.
#ifndef FFTSCOPE_DISPLAY_COMMON_GLSL
#define FFTSCOPE_DISPLAY_COMMON_GLSL

float signed_log1p(float v) { return sign(v) * log(1.0 + abs(v)); }

float to_byte(float v) { return v > 0.0 ? (v >= 1.0 ? 255.0 : floor(v * 255.0 + 0.5)) : 0.0; }

// As the core's hsv_to_rgb8, op for op, so the bytes agree; rgb in 0..255.
vec3 hsv_to_rgb8(float h, float s, float v) {
  h -= floor(h);
  if (isinf(h) || isnan(h)) h = 0.0;
  s = clamp(s, 0.0, 1.0);
  v = clamp(v, 0.0, 1.0);
  float h6 = h * 6.0;
  int sector = min(int(h6), 5);
  float f = h6 - float(sector);
  float p = v * (1.0 - s), q = v * (1.0 - s * f), u = v * (1.0 - s * (1.0 - f));
  vec3 rgb;
  if (sector == 0) rgb = vec3(v, u, p);
  else if (sector == 1) rgb = vec3(q, v, p);
  else if (sector == 2) rgb = vec3(p, v, u);
  else if (sector == 3) rgb = vec3(p, q, v);
  else if (sector == 4) rgb = vec3(u, p, v);
  else rgb = vec3(v, p, q);
  return vec3(to_byte(rgb.r), to_byte(rgb.g), to_byte(rgb.b));
}

#endif
