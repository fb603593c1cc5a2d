// display_half.cl — the routed real display's passes around the complex path's routes
// (cl_fast_display.h; the GLSL twins are display_unpack.comp and display_half.comp).
//
// display_unpack: the rows ky <= H/2 of the image's column FFTs, y (W x (H/2 + 1) float2), taken
//   apart from Z (`z`, P x H float2), the FFTs of its complex pair columns z_c = x_2c + i x_2c+1
//   (P = fast::display_pair_columns(W) pairs a row). With Z' = conj(Z[H - ky, c]) (row 0 its own
//   mirror): y[ky, 2c] = (Z[ky, c] + Z') / 2, y[ky, 2c + 1] = (Z[ky, c] - Z') / 2i.
// display_half: each bin of the 2D spectrum's rows ky <= H/2 (`spectrum`, as y) and its
//   Hermitian mirror to their pixels, as the fused display rows colour them (display_pixels.cl;
//   the arguments as fast_epilogue.cl's DISPLAY_ROWS).
//
// Defines: N (W), PAIR_ROWS (H). One work-item per item of y; any group size.

#define FAST_INLINE static inline
#include "display_pixels.cl"

kernel void display_unpack(global const float2* restrict z, global float2* restrict y, const uint pitch) {
  const uint id = get_global_id(0);
  if (id >= N * (PAIR_ROWS / 2 + 1)) return;
  const uint ky = id / N, x = id - ky * N, c = x >> 1;
  const float2 zk = z[ky * pitch + c];
  const float2 zm = z[((PAIR_ROWS - ky) % PAIR_ROWS) * pitch + c];
  const float2 zc = (float2)(zm.x, -zm.y);
  const float2 d = 0.5f * (zk - zc);
  y[id] = (x & 1u) == 0 ? 0.5f * (zk + zc) : (float2)(d.y, -d.x);  // d / i = -i d
}

kernel void display_half(global const float2* restrict spectrum, global uchar4* restrict rgba,
                         global const uchar4* restrict lut, global const int* restrict range_in,
                         global int* restrict range_out, const uint flags, const float lo_arg, const float hi_arg,
                         const float gain) {
  DISPLAY_BEGIN
  const uint id = get_global_id(0);
  // No early return: every work-item reaches DISPLAY_END's barriers.
  if (id < N * (PAIR_ROWS / 2 + 1)) {
    const uint ky = id / N;
    display_store(ky, id - ky * N, spectrum[id] DISPLAY_ARGS);
  }
  DISPLAY_END
}
