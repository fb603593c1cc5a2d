// common.glsl — helpers shared by the fftscope compute shaders (#include "common.glsl").
//
// Data layout: complex values are vec2 (x = re, y = im), interleaved, in std430 SSBOs.
// A "line" is one 1D transform (an image row, or a column); element i of line l lives at
//   l * u_line_stride + i * u_elem_stride
// (rows: stride 1, line stride = width; columns read in place: stride = width, line stride 1).
//
// Dispatch: kernels are 1D (local_size_x only); the host may spread the work groups over x and
// y because x is limited to 65535 groups, so invocation_index() flattens both.
//
// Defines: none required here. DIRECTION_SIGN (-1.0 forward, +1.0 inverse) is checked by the
// files that use it.

const float M_2PI_F = 6.283185307179586;

uniform uint u_items;        // work items of this dispatch; invocations past it return
uniform uint u_line_length;  // N: elements per line
uniform uint u_elem_stride;  // distance between consecutive elements of a line
uniform uint u_line_stride;  // distance between the first elements of consecutive lines

uint invocation_index() {
  return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x +
         gl_LocalInvocationIndex;
}

uint element_address(uint line, uint i) { return line * u_line_stride + i * u_elem_stride; }

// arg(x) in [-pi, pi]; 0 for x = 0, like std::arg (GLSL leaves atan(0, 0) undefined).
float arg(vec2 c) { return (c.x == 0.0 && c.y == 0.0) ? 0.0 : atan(c.y, c.x); }

vec2 cmul(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

// exp(i * t * exp_const) for an integer t >= 0 and exp_const = +-2 pi / ni (the seeds' angle
// constant): the twiddle factor exp(+-2 pi i t / ni).
// Precision: GPU cos/sin are approximations whose absolute error is fixed (NVIDIA: ~2^-21 on
// [-pi, pi]) and the float angle t * exp_const itself is off by up to an ulp of 2 pi. So the
// angle is split exactly, in integers, into q quarter turns and a rest |x| <= pi/4, and cos/sin
// of x come from their Taylor series to x^10 (truncation < 2e-9): the result is within about
// an ulp of the core's double-precision twiddle rounded to float.
vec2 twiddle(uint t, uint ni, float exp_const) {
  int n = int(ni);
  int t4 = 4 * int(t);  // t < Ni <= 2^28 (the plan's limit): no overflow
  int q = int(round(float(t4) / float(n)));
  float x = float(t4 - q * n) * (0.25 * exp_const);
  float x2 = x * x;
  float s = x * (1.0 + x2 * (-1.0 / 6.0 + x2 * (1.0 / 120.0 + x2 * (-1.0 / 5040.0 + x2 * (1.0 / 362880.0)))));
  float c = 1.0 + x2 * (-0.5 + x2 * (1.0 / 24.0 + x2 * (-1.0 / 720.0 + x2 * (1.0 / 40320.0 - x2 * (1.0 / 3628800.0)))));
  // q quarter turns in the direction of exp_const: times (sign i)^q.
  float sg = exp_const < 0.0 ? -1.0 : 1.0;
  int k = q & 3;
  if (k == 0) return vec2(c, s);
  if (k == 1) return sg * vec2(-s, c);
  if (k == 2) return vec2(-c, -s);
  return sg * vec2(s, -c);
}
