// digit_reverse.comp — the seeds' digit-reverse gather, one complex value per invocation:
//   dst[line, i] = src[line, table[i]]   for every line and i < N (out of place).
//
// Buffers: binding 0 src (vec2), binding 1 dst (vec2, same layout), binding 2 table (uint, N
// entries: Plan1D::digit_reverse). u_items = lines * N.
// Defines: none besides the local_size layout line the host prepends.

#include "common.glsl"

layout(std430, binding = 0) readonly buffer Src { vec2 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec2 dst[]; };
layout(std430, binding = 2) readonly buffer Table { uint table[]; };

void main() {
  uint id = invocation_index();
  if (id >= u_items) return;
  uint line = id / u_line_length;
  uint i = id - line * u_line_length;
  dst[element_address(line, i)] = src[element_address(line, table[i])];
}
