// twiddle.comp — the seeds' twiddle-factor multiplication between two radix stages, in place,
// one complex value per invocation: x[n] *= exp(DIRECTION_SIGN * 2 pi i * nx * ky / Ni) with
// nx = n % Nx.
//
// Buffers: binding 0 data (vec2). u_items = lines * N. Uniforms u_nx (span Nx), u_ny (radix),
// u_ni (Nx * Ny), u_exp_const (DIRECTION_SIGN * 2 pi / Ni, rounded from double on the host).
// The factor itself comes from twiddle() in common.glsl (exact quarter-turn reduction, see there).
// Defines:
//   TWIDDLE_PLAIN      ky = map_n_to_k(n) % Ny and the angle constant computed here (the seed's first form)
//   TWIDDLE_OPTIMIZED  ky = (n / Nx) % Ny and the angle constant passed in (the seed's optimized form)
//                      (exactly one of the two)
//   DIRECTION_SIGN     -1.0 forward, +1.0 inverse

#if !defined(TWIDDLE_PLAIN) && !defined(TWIDDLE_OPTIMIZED)
#error "twiddle.comp needs TWIDDLE_PLAIN or TWIDDLE_OPTIMIZED"
#endif
#ifndef DIRECTION_SIGN
#error "twiddle.comp needs DIRECTION_SIGN (-1.0 forward, +1.0 inverse)"
#endif

#include "common.glsl"

layout(std430, binding = 0) buffer Data { vec2 data[]; };

uniform uint u_nx;
uniform uint u_ny;
uniform uint u_ni;
uniform float u_exp_const;

uint map_n_to_k(uint n, uint nx_span, uint ny) {
  uint ni = nx_span * ny;
  return (n * ny) % ni + (n / nx_span) % ny + ni * (n / ni);
}

void main() {
  uint id = invocation_index();
  if (id >= u_items) return;
  uint line = id / u_line_length;
  uint n = id - line * u_line_length;
  uint nx = n % u_nx;
#ifdef TWIDDLE_PLAIN
  uint ky = map_n_to_k(n, u_nx, u_ny) % u_ny;
  float exp_const = DIRECTION_SIGN * M_2PI_F / float(u_ni);
#else
  uint ky = (n / u_nx) % u_ny;
  float exp_const = u_exp_const;
#endif
  uint a = element_address(line, n);
  data[a] = cmul(data[a], twiddle(nx * ky, u_ni, exp_const));
}
