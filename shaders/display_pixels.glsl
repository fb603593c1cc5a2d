// display_pixels.glsl — the real display's pixels: a bin of the rows ky <= H/2 and its Hermitian
// mirror coloured as spectrum_colorize.comp would colour them, and the frame's range folded in.
// Included by fast_epilogue.glsl (DISPLAY_ROWS: the fused display rows) and display_half.comp
// (the routed display's last pass); never compiled alone.
//
// Bindings 2 `lut` (256 uint 0x00BBGGRR), 4 `range_out` (this frame's finite min and max folded
// in, one atomic pair per work-group), 5 `pixels` (W x H RGBA8, packUnorm4x8, row-major, row y =
// display row y); uniform block 3 `range_in` (the previous frame's range_out as order-preserving
// ints, used with flag 256: a uniform block, so that the barrier between frames needs no storage
// bit, which empties NVIDIA's instruction caches).
// Defines: N (W), PAIR_ROWS (H), DISPLAY_FLAGS (bit 0 shift, bit 1 log, bits 4..7 component or
// 15 for the uniform u_component, bit 8 auto range). Uniforms u_lo, u_hi (fixed range), u_gain.
// Every invocation of a group calls display_begin() first and display_end() last.

const int EP_INT_MAX = 2147483647;
const int EP_INT_MIN = -2147483647 - 1;

layout(std430, binding = 2) readonly buffer Lut { uint lut[]; };
layout(std140, binding = 3) uniform RangeIn { ivec2 range_in; };
layout(std430, binding = 4) buffer RangeOut { int range_out[]; };
// A buffer rather than an image2D: the texture's block-linear layout took these row-wise stores
// at about 60 % of the speed (H100: 4096-point display rows 107 -> 86 us, docs/fast_path.md).
layout(std430, binding = 5) writeonly buffer Pixels { uint pixels[]; };

// The display settings are compile-time constants: as a uniform, NVIDIA's GLSL compiler kept a
// branch per setting around every pixel (H100: 4096-point display rows 109.5 -> 104.2 us,
// 2048-point 35.3 -> 28.5); each set of settings compiles once (gl_fast_display.cpp). But the
// real and imaginary parts (component bits 15) read their component from u_component: with it a
// constant, NVIDIA's compiler (driver 580) drew whole bins wrong in one-warp groups, where only
// one part of the last stage's outputs is live; opaque, they are right (docs/fast_path.md).
#ifndef DISPLAY_FLAGS
#error "display_pixels.glsl: needs DISPLAY_FLAGS"
#endif
const uint display_flags = uint(DISPLAY_FLAGS);
#if ((DISPLAY_FLAGS >> 4) & 15) == 15
uniform uint u_component;
#define EP_COMPONENT u_component
#else
#define EP_COMPONENT ((display_flags >> 4) & 15u)
#endif
uniform float u_lo;
uniform float u_hi;
uniform float u_gain;

shared int range_local[2];
float g_ep_lo, g_ep_hi;  // this invocation's finite min and max
vec2 g_ep_range;         // the range the colours use

int ordered_int(float v) {
  int b = floatBitsToInt(v);
  return b >= 0 ? b : b ^ 0x7fffffff;
}
float ordered_float(int i) { return intBitsToFloat(i >= 0 ? i : i ^ 0x7fffffff); }

void display_begin() {
  g_ep_lo = 1.0 / 0.0;
  g_ep_hi = -1.0 / 0.0;
  g_ep_range = vec2(u_lo, u_hi);
  if ((display_flags & 256u) != 0u) {
    int lo = range_in.x, hi = range_in.y;
    g_ep_range = lo > hi ? vec2(0.0) : vec2(ordered_float(lo), ordered_float(hi));
  }
  if (gl_LocalInvocationID.x == 0u) {
    range_local[0] = EP_INT_MAX;
    range_local[1] = EP_INT_MIN;
  }
}

float ep_arg(vec2 c) { return (c.x == 0.0 && c.y == 0.0) ? 0.0 : atan(c.y, c.x); }
#include "display_common.glsl"

// The pixel of bin value x, RGBA8 as the texture holds it (0xAABBGGRR, alpha 255): the
// colormap's entry itself, as the OpenCL twin stores it (unpacking it to floats and packing them
// again cost every pixel a dozen instructions); folds its value into this invocation's range.
uint ep_pixel(vec2 x) {
  uint component = EP_COMPONENT;
  bool log_scale = (display_flags & 2u) != 0u;
  float v;
  if (component == 1u) v = ep_arg(x);
  else if (component == 2u) v = log_scale ? signed_log1p(x.x) : x.x;
  else if (component == 3u) v = log_scale ? signed_log1p(x.y) : x.y;
  else {
    float m = length(x);
    v = log_scale ? log(1.0 + m) : m;
  }
  if (!isinf(v) && !isnan(v)) {
    g_ep_lo = min(g_ep_lo, v);
    g_ep_hi = max(g_ep_hi, v);
  }
  float t = 0.0;
  if (g_ep_range.y > g_ep_range.x) {
    t = u_gain * (v - g_ep_range.x) / (g_ep_range.y - g_ep_range.x);
    t = isnan(t) ? 0.0 : clamp(t, 0.0, 1.0);
  }
  if (component == 4u) {
    const float pi = 3.14159265358979;
    // packUnorm4x8 rounds as a store into an RGBA8 texture would.
    return packUnorm4x8(vec4(hsv_to_rgb8((ep_arg(x) + pi) / (2.0 * pi), 1.0, t) / 255.0, 1.0));
  }
  return lut[uint(floor(t * 255.0 + 0.5))] | 0xFF000000u;
}

void ep_store(uint px, uint py, uint pixel) { pixels[py * uint(N) + px] = pixel; }

// DISPLAY_ROWS (see fast_epilogue.cl): bin x = F[ky, kx] of a row ky <= H/2 to its pixel, and
// to the pixel of its mirror F[H - ky, (W - kx) % W] = conj(x).
void display_store(uint ky, uint kx, vec2 x) {
  uint width = uint(N), height = uint(PAIR_ROWS);
  bool shift = (display_flags & 1u) != 0u;
  uint component = EP_COMPONENT;
  uint pixel = ep_pixel(x);
  ep_store(shift ? (kx + width / 2u) % width : kx, shift ? (ky + height / 2u) % height : ky, pixel);
  uint my = height - ky;
  if (ky > 0u && my != ky) {
    uint mx = kx == 0u ? 0u : width - kx;
    // The mirror holds conj(x): the same colour for magnitude and real part, not for phase.
    if (component != 0u && component != 2u) pixel = ep_pixel(vec2(x.x, -x.y));
    ep_store(shift ? (mx + width / 2u) % width : mx, shift ? (my + height / 2u) % height : my, pixel);
  }
}

void display_end() {
  if ((display_flags & 256u) != 0u) {  // uniform over the dispatch
    // barrier() alone orders shared memory (fast_fft.comp's sync_shared says why no
    // memoryBarrierShared()): range_local's first values (a one-stage pass has no barrier).
    barrier();
    if (g_ep_lo <= g_ep_hi) {
      atomicMin(range_local[0], ordered_int(g_ep_lo));
      atomicMax(range_local[1], ordered_int(g_ep_hi));
    }
    barrier();
    if (gl_LocalInvocationID.x == 0u && range_local[0] <= range_local[1]) {
      atomicMin(range_out[0], range_local[0]);
      atomicMax(range_out[1], range_local[1]);
    }
  }
}
