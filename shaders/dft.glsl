// dft.glsl — the small DFTs ("radix butterflies") of the seeds: dedicated radix 2, 3, 4, 5, 7,
// 8 and a generic odd radix (11, 13, ...), all in place on an array c[RADIX] of vec2 (re, im).
//
// Defines:
//   RADIX           butterfly size
//   DIRECTION_SIGN  -1.0 forward (exp(-2 pi i jk / R)), +1.0 inverse (no 1/R scaling here)
// The generic radix reads u_dft_w[m] = exp(DIRECTION_SIGN * 2 pi i m / RADIX), m = 0..RADIX-1,
// which the host computes in double precision.

#ifndef RADIX
#error "dft.glsl needs RADIX"
#endif
#ifndef DIRECTION_SIGN
#error "dft.glsl needs DIRECTION_SIGN (-1.0 forward, +1.0 inverse)"
#endif

// DIRECTION_SIGN * i * v: the seeds' (v.y, -v.x) for the forward direction.
vec2 rot(vec2 v) { return DIRECTION_SIGN * vec2(-v.y, v.x); }

#if RADIX == 2
void dft(inout vec2 c[RADIX]) {
  vec2 v0 = c[0];
  c[0] = v0 + c[1];
  c[1] = v0 - c[1];
}
#elif RADIX == 3
const float SQRT3DIV2 = 0.86602540378443865;
void dft(inout vec2 c[RADIX]) {
  vec2 v0 = c[1] + c[2];
  vec2 v1 = rot(c[1] - c[2]) * SQRT3DIV2;
  vec2 m = c[0] - 0.5 * v0;
  c[0] = c[0] + v0;
  c[1] = m + v1;
  c[2] = m - v1;
}
#elif RADIX == 4
void dft(inout vec2 c[RADIX]) {
  vec2 v0 = c[0] + c[2];
  vec2 v1 = c[1] + c[3];
  vec2 v2 = c[0] - c[2];
  vec2 v3 = rot(c[1] - c[3]);
  c[0] = v0 + v1;
  c[2] = v0 - v1;
  c[1] = v2 + v3;
  c[3] = v2 - v3;
}
#elif RADIX == 5
const float W5_A = 0.30901699437494742;
const float W5_B = 0.95105651629515357;
const float W5_C = 0.80901699437494742;
const float W5_D = 0.58778525229247313;
void dft(inout vec2 c[RADIX]) {
  vec2 v0 = c[0];
  vec2 v1 = W5_A * (c[1] + c[4]) - W5_C * (c[2] + c[3]);
  vec2 v2 = W5_C * (c[1] + c[4]) - W5_A * (c[2] + c[3]);
  vec2 v3 = W5_D * (c[1] - c[4]) - W5_B * (c[2] - c[3]);
  vec2 v4 = W5_B * (c[1] - c[4]) + W5_D * (c[2] - c[3]);
  c[0] = v0 + c[1] + c[2] + c[3] + c[4];
  c[1] = v0 + v1 + rot(v4);
  c[2] = v0 - v2 + rot(v3);
  c[3] = v0 - v2 - rot(v3);
  c[4] = v0 + v1 - rot(v4);
}
#elif RADIX == 7
const float W7_A = 0.62348980185873353;
const float W7_B = 0.78183148246802981;
const float W7_C = 0.22252093395631440;
const float W7_D = 0.97492791218182361;
const float W7_E = 0.90096886790241913;
const float W7_F = 0.43388373911755812;
void dft(inout vec2 c[RADIX]) {
  vec2 v0 = c[0];
  vec2 v1 = W7_A * (c[1] + c[6]) - W7_C * (c[2] + c[5]) - W7_E * (c[3] + c[4]);
  vec2 v2 = W7_C * (c[1] + c[6]) + W7_E * (c[2] + c[5]) - W7_A * (c[3] + c[4]);
  vec2 v3 = W7_E * (c[1] + c[6]) - W7_A * (c[2] + c[5]) + W7_C * (c[3] + c[4]);
  vec2 v4 = W7_B * (c[1] - c[6]) + W7_D * (c[2] - c[5]) + W7_F * (c[3] - c[4]);
  vec2 v5 = W7_D * (c[1] - c[6]) - W7_F * (c[2] - c[5]) - W7_B * (c[3] - c[4]);
  vec2 v6 = W7_F * (c[1] - c[6]) - W7_B * (c[2] - c[5]) + W7_D * (c[3] - c[4]);
  c[0] = v0 + c[1] + c[2] + c[3] + c[4] + c[5] + c[6];
  c[1] = v0 + v1 + rot(v4);
  c[2] = v0 - v2 + rot(v5);
  c[3] = v0 - v3 + rot(v6);
  c[4] = v0 - v3 - rot(v6);
  c[5] = v0 - v2 - rot(v5);
  c[6] = v0 + v1 - rot(v4);
}
#elif RADIX == 8
const float SQRT1_2 = 0.70710678118654752;
void dft(inout vec2 c[RADIX]) {
  // Two radix-4 DFTs on the even and odd inputs, then one radix-2 layer with w8^k.
  vec2 e[4] = vec2[4](c[0], c[2], c[4], c[6]);
  vec2 o[4] = vec2[4](c[1], c[3], c[5], c[7]);
  vec2 a0 = e[0] + e[2], a1 = e[1] + e[3], a2 = e[0] - e[2], a3 = rot(e[1] - e[3]);
  e[0] = a0 + a1; e[2] = a0 - a1; e[1] = a2 + a3; e[3] = a2 - a3;
  vec2 b0 = o[0] + o[2], b1 = o[1] + o[3], b2 = o[0] - o[2], b3 = rot(o[1] - o[3]);
  o[0] = b0 + b1; o[2] = b0 - b1; o[1] = b2 + b3; o[3] = b2 - b3;
  o[1] = SQRT1_2 * (o[1] + rot(o[1]));   // w8^1 = (1 + sign i) / sqrt 2
  o[2] = rot(o[2]);                      // w8^2 = sign i
  o[3] = SQRT1_2 * (rot(o[3]) - o[3]);   // w8^3 = (-1 + sign i) / sqrt 2
  for (int k = 0; k < 4; ++k) {
    c[k] = e[k] + o[k];
    c[k + 4] = e[k] - o[k];
  }
}
#else
// Generic radix: the O(R^2) DFT with host-computed roots of unity.
uniform vec2 u_dft_w[RADIX];
void dft(inout vec2 c[RADIX]) {
  vec2 x[RADIX] = c;
  for (int k = 0; k < RADIX; ++k) {
    vec2 acc = x[0];
    for (int j = 1; j < RADIX; ++j) acc += cmul(x[j], u_dft_w[(j * k) % RADIX]);
    c[k] = acc;
  }
}
#endif
