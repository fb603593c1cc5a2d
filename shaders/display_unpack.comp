// display_unpack.comp — the routed real display's middle pass (gl_fast_display.h): the rows
// ky <= H/2 of the image's column FFTs, Y[ky, x] (W points each), taken apart from Z, the FFTs of
// its complex pair columns z_c = x_2c + i x_2c+1 (P pairs a row: fast::display_pair_columns).
// With Z' = conj(Z[H - ky, c]) (row 0 its own mirror):
//   Y[ky, 2c] = (Z[ky, c] + Z') / 2,  Y[ky, 2c + 1] = (Z[ky, c] - Z') / 2i.
// The rows' FFTs then give the 2D spectrum's rows ky <= H/2 (display_half.comp colours them).
//
// Buffers: binding 0 Z (vec2, P x H), binding 1 Y (vec2, W x (H/2 + 1)).
// Uniforms: u_items = W (H/2 + 1), u_width W, u_height H, u_pitch P.
// Defines: none besides the local_size layout line the host prepends.

#include "common.glsl"

layout(std430, binding = 0) readonly buffer Pairs { vec2 z[]; };
layout(std430, binding = 1) writeonly buffer Rows { vec2 y[]; };

uniform uint u_width;
uniform uint u_height;
uniform uint u_pitch;

void main() {
  uint id = invocation_index();
  if (id >= u_items) return;
  uint ky = id / u_width;
  uint x = id - ky * u_width;
  uint c = x >> 1u;
  vec2 zk = z[ky * u_pitch + c];
  vec2 zm = z[((u_height - ky) % u_height) * u_pitch + c];
  vec2 zc = vec2(zm.x, -zm.y);
  vec2 d = 0.5 * (zk - zc);
  // d / i = -i d = (d.y, -d.x)
  y[id] = (x & 1u) == 0u ? 0.5 * (zk + zc) : vec2(d.y, -d.x);
}
