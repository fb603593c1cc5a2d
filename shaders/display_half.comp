// display_half.comp — the routed real display's last pass (gl_fast_display.h): each bin of the
// 2D spectrum's rows ky <= H/2 (binding 0, vec2, W x (H/2 + 1), row-major) and its Hermitian
// mirror to their pixels, as the fused display rows colour them (display_pixels.glsl).
//
// Buffers: binding 0 the rows; 2, 4, 5 and uniform block 3 as display_pixels.glsl says.
// Uniforms: u_items = W (H/2 + 1); display_pixels.glsl's.
// Defines: N (W), PAIR_ROWS (H), DISPLAY_FLAGS, besides the local_size layout line.

#include "common.glsl"

layout(std430, binding = 0) readonly buffer Spectrum { vec2 spectrum[]; };

#include "display_pixels.glsl"

void main() {
  display_begin();
  uint id = invocation_index();
  // No early return: every invocation reaches display_end's barriers.
  if (id < u_items) {
    uint ky = id / uint(N);
    display_store(ky, id - ky * uint(N), spectrum[id]);
  }
  display_end();
}
