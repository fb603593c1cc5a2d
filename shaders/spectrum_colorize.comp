// spectrum_colorize.comp — maps display values to colours and writes them to an RGBA8 image,
// as core/spectrum.cpp render_spectrum() does:
//   t = clamp(u_gain * (v - lo) / (hi - lo), 0, 1) (0 for an empty range or NaN),
//   rgb = lut[round(t * 255)], or for phase_hue hsv(hue = (arg + pi) / 2 pi, 1, t); alpha 255.
// [lo, hi] is range[0] (from minmax_reduce.comp) when u_auto_range, else (u_lo, u_hi); a
// range with no finite value ((+inf, -inf)) counts as (0, 0) like the core.
// Image row y is display row y (top row first, as core RgbaImage).
//
// Buffers: binding 0 values (float, W x H display order), binding 1 data (vec2, the unshifted
// spectrum, read for phase_hue), binding 2 lut (uint, 256 packed 0x00BBGGRR), binding 3 range
// (vec2). Image unit 0: the rgba8 target. Uniforms: u_items = W * H, u_width, u_height,
// u_shift, u_phase_hue, u_auto_range, u_lo, u_hi, u_gain.
// Defines: none besides the local_size layout line the host prepends.

#include "common.glsl"

layout(std430, binding = 0) readonly buffer Values { float values[]; };
layout(std430, binding = 1) readonly buffer Data { vec2 data[]; };
layout(std430, binding = 2) readonly buffer Lut { uint lut[]; };
layout(std430, binding = 3) readonly buffer Range { vec2 range[]; };
layout(rgba8, binding = 0) writeonly uniform image2D u_image;

uniform uint u_width;
uniform uint u_height;
uniform uint u_shift;
uniform uint u_phase_hue;
uniform uint u_auto_range;
uniform float u_lo;
uniform float u_hi;
uniform float u_gain;

const float PI = 3.14159265358979;

#include "display_common.glsl"

void main() {
  uint id = invocation_index();
  if (id >= u_items) return;
  uint y = id / u_width;
  uint x = id - y * u_width;
  float lo = u_lo, hi = u_hi;
  if (u_auto_range != 0u) {
    lo = range[0].x;
    hi = range[0].y;
    if (lo > hi) { lo = 0.0; hi = 0.0; }
  }
  float t = 0.0;
  if (hi > lo) {
    t = u_gain * (values[id] - lo) / (hi - lo);
    t = isnan(t) ? 0.0 : clamp(t, 0.0, 1.0);
  }
  vec3 rgb8;
  if (u_phase_hue != 0u) {
    uint sx = u_shift != 0u ? (x + u_width - u_width / 2u) % u_width : x;
    uint sy = u_shift != 0u ? (y + u_height - u_height / 2u) % u_height : y;
    vec2 c = data[sy * u_width + sx];
    rgb8 = hsv_to_rgb8((arg(c) + PI) / (2.0 * PI), 1.0, t);
  } else {
    uint rgb = lut[uint(floor(t * 255.0 + 0.5))];
    rgb8 = vec3(float(rgb & 0xFFu), float((rgb >> 8) & 0xFFu), float((rgb >> 16) & 0xFFu));
  }
  imageStore(u_image, ivec2(x, y), vec4(rgb8 / 255.0, 1.0));
}
