// complex.cl — shared helpers, prepended to every fftscope OpenCL program (never built alone).
//
// Data layout: complex float32 as float2 (x = re, y = im), interleaved, row-major lines.
// Defines needed: none. Defines provided: FFTSCOPE_COMPLEX_CL (the other files check it).
//
// Direction: every kernel takes `float sign` (+1 forward, -1 inverse) and computes an inverse
// butterfly as conj(DFT(conj(x))): loads are multiplied by (1, sign), twiddled with the forward
// twiddle, put through the forward DFT, and multiplied by (1, sign) again. Twiddles in the
// separate twiddle kernels use the conjugate twiddle for the inverse directly.

#define FFTSCOPE_COMPLEX_CL 1

#define M_2PI_F 6.283185482025146484375f

float2 cmul(float2 a, float2 b) { return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
// Multiplies by exp(i phi).
float2 twiddle_mul(float2 a, float phi) {
  float c;
  const float s = sincos(phi, &c);
  return cmul(a, (float2)(c, s));
}
float2 conj_if(float2 a, float sign) { return (float2)(a.x, sign * a.y); }

// Work-item to (line, index within line). Lines of contiguous data (stride 1) keep a line's
// items together; strided lines (columns) put neighbouring lines on neighbouring work items so
// that their loads coalesce.
uint2 line_and_item(uint gid, uint lines, uint per_line, uint stride) {
  return stride == 1 ? (uint2)(gid / per_line, gid % per_line) : (uint2)(gid % lines, gid / lines);
}

// The seeds' radix DFTs (Mali blog, part 2), forward direction.
#define DFT_2(c0, c1) \
  {                   \
    float2 v0 = c0;   \
    c0 = v0 + c1;     \
    c1 = v0 - c1;     \
  }

#define SQRT3DIV2 0.86602540378443f
#define DFT_3(c0, c1, c2)                             \
  {                                                   \
    float2 v0 = c1 + c2;                              \
    float2 v1 = c1 - c2;                              \
    c1.x = c0.x - 0.5f * v0.x + v1.y * SQRT3DIV2;     \
    c1.y = c0.y - 0.5f * v0.y - v1.x * SQRT3DIV2;     \
    c2.x = c0.x - 0.5f * v0.x - v1.y * SQRT3DIV2;     \
    c2.y = c0.y - 0.5f * v0.y + v1.x * SQRT3DIV2;     \
    c0 = c0 + v0;                                     \
  }

#define DFT_4(c0, c1, c2, c3)  \
  {                            \
    float2 v0, v1, v2, v3;     \
    v0 = c0 + c2;              \
    v1 = c1 + c3;              \
    v2 = c0 - c2;              \
    v3.x = c1.y - c3.y;        \
    v3.y = c3.x - c1.x;        \
    c0 = v0 + v1;              \
    c2 = v0 - v1;              \
    c1 = v2 + v3;              \
    c3 = v2 - v3;              \
  }

#define W5_A 0.30901699437494f
#define W5_B 0.95105651629515f
#define W5_C 0.80901699437494f
#define W5_D 0.58778525229247f
#define DFT_5(c0, c1, c2, c3, c4)                            \
  {                                                          \
    float2 v0, v1, v2, v3, v4;                               \
    v0 = c0;                                                 \
    v1 = W5_A * (c1 + c4) - W5_C * (c2 + c3);                \
    v2 = W5_C * (c1 + c4) - W5_A * (c2 + c3);                \
    v3 = W5_D * (c1 - c4) - W5_B * (c2 - c3);                \
    v4 = W5_B * (c1 - c4) + W5_D * (c2 - c3);                \
    c0 = v0 + c1 + c2 + c3 + c4;                             \
    c1 = v0 + v1 + (float2)(v4.y, -v4.x);                    \
    c2 = v0 - v2 + (float2)(v3.y, -v3.x);                    \
    c3 = v0 - v2 + (float2)(-v3.y, v3.x);                    \
    c4 = v0 + v1 + (float2)(-v4.y, v4.x);                    \
  }

#define W7_A 0.62348980185873f
#define W7_B 0.78183148246802f
#define W7_C 0.22252093395631f
#define W7_D 0.97492791218182f
#define W7_E 0.90096886790241f
#define W7_F 0.43388373911755f
#define DFT_7(c0, c1, c2, c3, c4, c5, c6)                                   \
  {                                                                         \
    float2 v0, v1, v2, v3, v4, v5, v6;                                      \
    v0 = c0;                                                                \
    v1 = W7_A * (c1 + c6) - W7_C * (c2 + c5) - W7_E * (c3 + c4);            \
    v2 = W7_C * (c1 + c6) + W7_E * (c2 + c5) - W7_A * (c3 + c4);            \
    v3 = W7_E * (c1 + c6) - W7_A * (c2 + c5) + W7_C * (c3 + c4);            \
    v4 = W7_B * (c1 - c6) + W7_D * (c2 - c5) + W7_F * (c3 - c4);            \
    v5 = W7_D * (c1 - c6) - W7_F * (c2 - c5) - W7_B * (c3 - c4);            \
    v6 = W7_F * (c1 - c6) - W7_B * (c2 - c5) + W7_D * (c3 - c4);            \
    c0 = v0 + c1 + c2 + c3 + c4 + c5 + c6;                                  \
    c1 = v0 + v1 + (float2)(v4.y, -v4.x);                                   \
    c2 = v0 - v2 + (float2)(v5.y, -v5.x);                                   \
    c3 = v0 - v3 + (float2)(v6.y, -v6.x);                                   \
    c4 = v0 - v3 + (float2)(-v6.y, v6.x);                                   \
    c5 = v0 - v2 + (float2)(-v5.y, v5.x);                                   \
    c6 = v0 + v1 + (float2)(-v4.y, v4.x);                                   \
  }
