// minmax_reduce.comp — min and max of the finite values (inf and NaN skipped, as in
// core spectrum_range), in two passes: pass 1 (REDUCE_PARTIALS 0) reduces u_items floats to
// one (min, max) per work group; pass 2 (REDUCE_PARTIALS 1, one work group) reduces those
// partials to result[0]. A group that saw no finite value yields (+inf, -inf).
//
// Buffers: binding 0 input (float values, or vec2 partials in pass 2), binding 1 output (vec2).
// Uniforms: u_items (inputs to reduce).
// Defines: REDUCE_PARTIALS (0 or 1), GROUP_SIZE (power of two; the host prepends the same
// local_size_x).

#ifndef REDUCE_PARTIALS
#error "minmax_reduce.comp needs REDUCE_PARTIALS (0 or 1)"
#endif
#ifndef GROUP_SIZE
#error "minmax_reduce.comp needs GROUP_SIZE"
#endif

#include "common.glsl"

#if REDUCE_PARTIALS
layout(std430, binding = 0) readonly buffer Input { vec2 partials_in[]; };
#else
layout(std430, binding = 0) readonly buffer Input { float values[]; };
#endif
layout(std430, binding = 1) writeonly buffer Output { vec2 partials_out[]; };

shared vec2 range[GROUP_SIZE];

void main() {
  const float inf = uintBitsToFloat(0x7F800000u);
  vec2 r = vec2(inf, -inf);
  // Grid-stride loop: each invocation folds many inputs before the tree reduction.
  uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * uint(GROUP_SIZE);
  for (uint i = invocation_index(); i < u_items; i += stride) {
#if REDUCE_PARTIALS
    vec2 p = partials_in[i];
    r = vec2(min(r.x, p.x), max(r.y, p.y));
#else
    float v = values[i];
    if (!isinf(v) && !isnan(v)) r = vec2(min(r.x, v), max(r.y, v));
#endif
  }
  range[gl_LocalInvocationIndex] = r;
  barrier();
  for (uint s = uint(GROUP_SIZE) / 2u; s > 0u; s >>= 1u) {
    if (gl_LocalInvocationIndex < s) {
      vec2 o = range[gl_LocalInvocationIndex + s];
      vec2 m = range[gl_LocalInvocationIndex];
      range[gl_LocalInvocationIndex] = vec2(min(m.x, o.x), max(m.y, o.y));
    }
    barrier();
  }
  if (gl_LocalInvocationIndex == 0u)
    partials_out[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = range[0];
}
