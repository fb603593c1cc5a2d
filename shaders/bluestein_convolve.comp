// bluestein_convolve.comp — middle step of a Bluestein stage: multiply the spectrum of the
// premultiplied sequence by the chirp filter's spectrum, and gather the product into the
// digit-reverse order of the inner inverse length-m FFT that follows (out of place):
//
//   dst[b * m + i] = src[b * m + j] * filter(j),  j = table[i]
//
// filter(j) = BluesteinTables::filter_spectrum[j] forward, its conjugate inverse.
// Buffers: binding 0 src (vec2, batch x m), binding 1 dst (same), binding 2 filter (vec2, m),
// binding 3 table (uint, m). Uniforms: u_items = batch * m, u_m.
// Defines: DIRECTION_SIGN of the outer transform (-1.0 forward, +1.0 inverse).

#ifndef DIRECTION_SIGN
#error "bluestein_convolve.comp needs DIRECTION_SIGN (-1.0 forward, +1.0 inverse)"
#endif

#include "common.glsl"

layout(std430, binding = 0) readonly buffer Src { vec2 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec2 dst[]; };
layout(std430, binding = 2) readonly buffer Filter { vec2 filter_spectrum[]; };
layout(std430, binding = 3) readonly buffer Table { uint table[]; };

uniform uint u_m;

void main() {
  uint id = invocation_index();
  if (id >= u_items) return;
  uint b = id / u_m;
  uint i = id - b * u_m;
  uint j = table[i];
  vec2 f = filter_spectrum[j];
  dst[id] = cmul(src[b * u_m + j], vec2(f.x, -DIRECTION_SIGN * f.y));
}
