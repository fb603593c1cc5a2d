// radix_stage.comp — one radix stage of the seeds' pipeline: each invocation computes one
// length-RADIX butterfly in place on the elements n, n + Nx, ..., n + (RADIX - 1) Nx of a line,
// with n = (kx % Nx) + (kx / Nx) * Ni (first stage: Nx = 1, so n = kx * RADIX, contiguous).
//
// Buffers: binding 0 data (vec2). u_items = lines * N / RADIX. Uniforms u_nx (span), u_ni
// (Nx * RADIX), u_exp_const (DIRECTION_SIGN * 2 pi / Ni, for the fused twiddle), u_scale (1, or
// 1/N after the last stage of an inverse transform).
// Defines:
//   RADIX            butterfly size (2, 3, 4, 5, 7, 8 dedicated; other odd sizes generic)
//   DIRECTION_SIGN   -1.0 forward, +1.0 inverse
//   FIRST_STAGE      1: the seeds' first-stage kernel (Nx = 1, no twiddles), 0: general kernel
//   FUSED_TWIDDLE    1: multiply input j by exp(sign 2 pi i j nx / Ni) here (the seeds' fused
//                    kernel), 0: a separate twiddle.comp dispatch did it

#ifndef FIRST_STAGE
#error "radix_stage.comp needs FIRST_STAGE (0 or 1)"
#endif
#ifndef FUSED_TWIDDLE
#error "radix_stage.comp needs FUSED_TWIDDLE (0 or 1)"
#endif

#include "common.glsl"
#include "dft.glsl"

layout(std430, binding = 0) buffer Data { vec2 data[]; };

uniform uint u_nx;
uniform uint u_ni;
uniform float u_exp_const;
uniform float u_scale;

void main() {
  uint id = invocation_index();
  if (id >= u_items) return;
  uint per_line = u_line_length / uint(RADIX);
  uint line = id / per_line;
  uint kx = id - line * per_line;
#if FIRST_STAGE
  uint n = kx * uint(RADIX);
  const uint span = 1u;
#else
  uint nx = kx % u_nx;
  uint n = nx + (kx / u_nx) * u_ni;
  uint span = u_nx;
#endif

  vec2 c[RADIX];
  for (int j = 0; j < RADIX; ++j) c[j] = data[element_address(line, n + uint(j) * span)];

#if FUSED_TWIDDLE && !FIRST_STAGE
  for (int j = 1; j < RADIX; ++j)
    c[j] = cmul(c[j], twiddle(nx * uint(j), u_ni, u_exp_const));
#endif

  dft(c);

  for (int j = 0; j < RADIX; ++j) data[element_address(line, n + uint(j) * span)] = u_scale * c[j];
}
