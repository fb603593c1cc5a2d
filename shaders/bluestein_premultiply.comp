// bluestein_premultiply.comp — first step of a Bluestein stage (prime radix p > 13): for every
// butterfly b of the stage, gather its p inputs x_j (j = 0..p-1, at n + j Nx of its line),
// multiply by the stage twiddle exp(sign 2 pi i j nx / Ni) and by the chirp c_j, zero-pad to
// length m and write the result to scratch row b in the digit-reverse order of the inner
// length-m FFT (so that FFT starts directly with its radix stages).
//
//   scratch[b * m + i] = (j = table[i]) < p ? x_j * tw_j * chirp(j) : 0
//
// chirp(j) = BluesteinTables::chirp[j] forward, its conjugate inverse.
// Buffers: binding 0 data (vec2, line layout of common.glsl), binding 1 scratch (vec2, batch x
// m rows), binding 2 chirp (vec2, p), binding 3 table (uint, m: the inner plan's digit_reverse).
// Uniforms: u_items = batch * m; u_p, u_m, u_nx, u_ni, u_exp_const (sign 2 pi / Ni).
// Defines: DIRECTION_SIGN (-1.0 forward, +1.0 inverse).

#ifndef DIRECTION_SIGN
#error "bluestein_premultiply.comp needs DIRECTION_SIGN (-1.0 forward, +1.0 inverse)"
#endif

#include "common.glsl"

layout(std430, binding = 0) readonly buffer Data { vec2 data[]; };
layout(std430, binding = 1) writeonly buffer Scratch { vec2 scratch[]; };
layout(std430, binding = 2) readonly buffer Chirp { vec2 chirp[]; };
layout(std430, binding = 3) readonly buffer Table { uint table[]; };

uniform uint u_p;
uniform uint u_m;
uniform uint u_nx;
uniform uint u_ni;
uniform float u_exp_const;

void main() {
  uint id = invocation_index();
  if (id >= u_items) return;
  uint b = id / u_m;
  uint i = id - b * u_m;
  uint j = table[i];
  vec2 value = vec2(0.0);
  if (j < u_p) {
    uint per_line = u_line_length / u_p;
    uint line = b / per_line;
    uint kx = b - line * per_line;
    uint nx = kx % u_nx;
    uint n = nx + (kx / u_nx) * u_ni;
    vec2 x = data[element_address(line, n + j * u_nx)];
    x = cmul(x, twiddle(nx * j, u_ni, u_exp_const));
    vec2 c = chirp[j];
    value = cmul(x, vec2(c.x, -DIRECTION_SIGN * c.y));
  }
  scratch[id] = value;
}
