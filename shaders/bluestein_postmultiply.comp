// bluestein_postmultiply.comp — last step of a Bluestein stage: the first p values of each
// convolution row, times the chirp and the scale, become the butterfly's outputs X_k at
// n + k Nx of its line:
//
//   x[line, n + k Nx] = u_scale * scratch[b * m + k] * chirp(k),  k = 0..p-1
//
// u_scale = 1/m (the inner inverse FFT is unscaled), times 1/N after the last stage of an
// inverse transform. chirp(k) as in bluestein_premultiply.comp.
// Buffers: binding 0 data (vec2, line layout), binding 1 scratch (vec2, batch x m), binding 2
// chirp (vec2, p). Uniforms: u_items = batch * p, u_p, u_m, u_nx, u_ni, u_scale.
// Defines: DIRECTION_SIGN (-1.0 forward, +1.0 inverse).

#ifndef DIRECTION_SIGN
#error "bluestein_postmultiply.comp needs DIRECTION_SIGN (-1.0 forward, +1.0 inverse)"
#endif

#include "common.glsl"

layout(std430, binding = 0) writeonly buffer Data { vec2 data[]; };
layout(std430, binding = 1) readonly buffer Scratch { vec2 scratch[]; };
layout(std430, binding = 2) readonly buffer Chirp { vec2 chirp[]; };

uniform uint u_p;
uniform uint u_m;
uniform uint u_nx;
uniform uint u_ni;
uniform float u_scale;

void main() {
  uint id = invocation_index();
  if (id >= u_items) return;
  uint b = id / u_p;
  uint k = id - b * u_p;
  uint per_line = u_line_length / u_p;
  uint line = b / per_line;
  uint kx = b - line * per_line;
  uint nx = kx % u_nx;
  uint n = nx + (kx / u_nx) * u_ni;
  vec2 c = chirp[k];
  data[element_address(line, n + k * u_nx)] =
      u_scale * cmul(scratch[b * u_m + k], vec2(c.x, -DIRECTION_SIGN * c.y));
}
