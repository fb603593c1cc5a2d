// transpose.cl — out-of-place transpose through a local-memory tile, so that both the reads
// and the writes of a work group touch whole rows.
//
// Data layout: `in` is height rows of width float2 (row-major); `out` becomes width rows of
// height float2. Launch with a 2D range rounded up to TILE x TILE and local size TILE x TILE.
//
// Defines needed:
//   TILE  tile edge in elements (e.g. 16); the local array is TILE x (TILE + 1) float2

#ifndef FFTSCOPE_COMPLEX_CL
#error "transpose.cl needs complex.cl prepended"
#endif
#ifndef TILE
#error "transpose.cl needs -D TILE=<edge>"
#endif

kernel void transpose(global const float2* in, global float2* out, uint width, uint height) {
  local float2 tile[TILE][TILE + 1];  // +1: no bank conflicts on the column read
  const uint lx = get_local_id(0), ly = get_local_id(1);
  const uint x = get_group_id(0) * TILE + lx, y = get_group_id(1) * TILE + ly;
  if (x < width && y < height) tile[ly][lx] = in[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint ox = get_group_id(1) * TILE + lx, oy = get_group_id(0) * TILE + ly;
  if (ox < height && oy < width) out[oy * height + ox] = tile[lx][ly];
}
