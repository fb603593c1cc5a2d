// transpose.comp — tiled transpose through shared memory (as in the thesis seed), out of place:
//   dst[x * height + y] = src[y * width + x]   for a row-major width x height src.
// Each work group loads a TILE x TILE tile with coalesced reads along src rows and writes it
// with coalesced writes along dst rows; the tile row is padded by one to avoid bank conflicts.
//
// Buffers: binding 0 src (vec2), binding 1 dst (vec2). Uniforms u_width, u_height (of src).
// Dispatch: ceil(width / TILE) x ceil(height / TILE) groups.
// Defines: TILE (the host also prepends local_size_x = local_size_y = TILE).

#ifndef TILE
#error "transpose.comp needs TILE"
#endif

layout(std430, binding = 0) readonly buffer Src { vec2 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec2 dst[]; };

uniform uint u_width;
uniform uint u_height;

shared vec2 tile[TILE][TILE + 1];

void main() {
  uvec2 l = gl_LocalInvocationID.xy;
  uvec2 base = gl_WorkGroupID.xy * uint(TILE);
  uint x = base.x + l.x;
  uint y = base.y + l.y;
  if (x < u_width && y < u_height) tile[l.y][l.x] = src[y * u_width + x];
  barrier();
  // Swap the roles of the tile's axes: this invocation writes dst row (base.x + l.y).
  uint ox = base.y + l.x;  // column in dst (= src row)
  uint oy = base.x + l.y;  // row in dst (= src column)
  if (ox < u_height && oy < u_width) dst[oy * u_height + ox] = tile[l.x][l.y];
}
