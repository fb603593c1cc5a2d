// spectrum_values.comp — the value a spectrum view shows per bin, written in display order
// (fftshift applied when u_shift != 0), as in core/spectrum.cpp spectrum_values():
//   values[y * W + x] = f(data[sy * W + sx]),  (sx, sy) = ifftshift of (x, y) when shifting
// f by u_component: 0 magnitude / 4 phase_hue (|x|, or log(1 + |x|) when u_log), 1 phase
// (arg, ignores u_log), 2 real, 3 imaginary (signed log(1 + |v|) when u_log).
//
// Buffers: binding 0 data (vec2, row-major W x H), binding 1 values (float, W x H).
// Uniforms: u_items = W * H, u_width, u_height, u_shift, u_log, u_component.
// Defines: none besides the local_size layout line the host prepends.

#include "common.glsl"

layout(std430, binding = 0) readonly buffer Data { vec2 data[]; };
layout(std430, binding = 1) writeonly buffer Values { float values[]; };

uniform uint u_width;
uniform uint u_height;
uniform uint u_shift;
uniform uint u_log;
uniform uint u_component;

#include "display_common.glsl"

void main() {
  uint id = invocation_index();
  if (id >= u_items) return;
  uint y = id / u_width;
  uint x = id - y * u_width;
  // ifftshift: the source bin whose value lands at display position (x, y).
  uint sx = u_shift != 0u ? (x + u_width - u_width / 2u) % u_width : x;
  uint sy = u_shift != 0u ? (y + u_height - u_height / 2u) % u_height : y;
  vec2 c = data[sy * u_width + sx];
  float v;
  if (u_component == 1u) {
    v = arg(c);
  } else if (u_component == 2u) {
    v = u_log != 0u ? signed_log1p(c.x) : c.x;
  } else if (u_component == 3u) {
    v = u_log != 0u ? signed_log1p(c.y) : c.y;
  } else {
    float m = length(c);
    v = u_log != 0u ? log(1.0 + m) : m;
  }
  values[id] = v;
}
