// radix.cl — radix stage kernels: the seeds' radix-2/3/4/5/7 first-stage and general kernels,
// plus a generic radix (any radix up to GENERIC_MAX_RADIX: 8, 11, 13).
//
// Data layout: `data` holds `lines` independent lines of float2 (interleaved re/im). Element i
// of line l is data[l * dist + i * stride] (rows: stride 1, dist = width; columns: stride =
// width, dist 1). Each work item computes one butterfly: per_line = n / Ny butterflies a line,
// the work item count rounded up to the work-group size (extra items return at once).
// Stage s (span Nx, radix Ny, Ni = Nx * Ny): butterfly kx takes n + j * Nx, j < Ny, with
// n = (kx % Nx) + (kx / Nx) * Ni (seeds' map_k_to_n).
// `sign` = +1 forward, -1 inverse (see complex.cl); `exp_const` = -2 pi / Ni.
//
// Defines needed:
//   FUSED_TWIDDLE  0: the general kernels run the butterfly only (a twiddle kernel ran before)
//                  1: they multiply input j by exp(i * j * nx * exp_const) first (seeds' fused)
//   GENERIC_MAX_RADIX  largest radix of radix_generic (private array size), e.g. 16

#ifndef FFTSCOPE_COMPLEX_CL
#error "radix.cl needs complex.cl prepended"
#endif
#ifndef FUSED_TWIDDLE
#error "radix.cl needs -D FUSED_TWIDDLE=0|1"
#endif
#ifndef GENERIC_MAX_RADIX
#error "radix.cl needs -D GENERIC_MAX_RADIX=<n>"
#endif

// ---- first stage (Nx = 1, contiguous lines of length n = per_line * R, dist = n): the seeds'
// vector loads; butterfly g starts at float offset g * 2R. No twiddles (they are all 1).

kernel void radix_2_first_stage(global float* data, uint total, float sign) {
  const uint g = get_global_id(0);
  if (g >= total) return;
  global float* p = data + g * 4;
  float4 in = vload4(0, p);
  float2 c0 = conj_if(in.s01, sign), c1 = conj_if(in.s23, sign);
  DFT_2(c0, c1);
  vstore4((float4)(conj_if(c0, sign), conj_if(c1, sign)), 0, p);
}

kernel void radix_3_first_stage(global float* data, uint total, float sign) {
  const uint g = get_global_id(0);
  if (g >= total) return;
  global float* p = data + g * 6;
  float4 in0 = vload4(0, p);
  float2 in1 = vload2(0, p + 4);
  float2 c0 = conj_if(in0.s01, sign), c1 = conj_if(in0.s23, sign), c2 = conj_if(in1, sign);
  DFT_3(c0, c1, c2);
  vstore4((float4)(conj_if(c0, sign), conj_if(c1, sign)), 0, p);
  vstore2(conj_if(c2, sign), 0, p + 4);
}

kernel void radix_4_first_stage(global float* data, uint total, float sign) {
  const uint g = get_global_id(0);
  if (g >= total) return;
  global float* p = data + g * 8;
  float8 in = vload8(0, p);
  float2 c0 = conj_if(in.s01, sign), c1 = conj_if(in.s23, sign), c2 = conj_if(in.s45, sign),
         c3 = conj_if(in.s67, sign);
  DFT_4(c0, c1, c2, c3);
  vstore8((float8)(conj_if(c0, sign), conj_if(c1, sign), conj_if(c2, sign), conj_if(c3, sign)), 0, p);
}

kernel void radix_5_first_stage(global float* data, uint total, float sign) {
  const uint g = get_global_id(0);
  if (g >= total) return;
  global float* p = data + g * 10;
  float8 in0 = vload8(0, p);
  float2 in1 = vload2(0, p + 8);
  float2 c0 = conj_if(in0.s01, sign), c1 = conj_if(in0.s23, sign), c2 = conj_if(in0.s45, sign),
         c3 = conj_if(in0.s67, sign), c4 = conj_if(in1, sign);
  DFT_5(c0, c1, c2, c3, c4);
  vstore8((float8)(conj_if(c0, sign), conj_if(c1, sign), conj_if(c2, sign), conj_if(c3, sign)), 0, p);
  vstore2(conj_if(c4, sign), 0, p + 8);
}

kernel void radix_7_first_stage(global float* data, uint total, float sign) {
  const uint g = get_global_id(0);
  if (g >= total) return;
  global float* p = data + g * 14;
  float8 in0 = vload8(0, p);
  float4 in1 = vload4(0, p + 8);
  float2 in2 = vload2(0, p + 12);
  float2 c0 = conj_if(in0.s01, sign), c1 = conj_if(in0.s23, sign), c2 = conj_if(in0.s45, sign),
         c3 = conj_if(in0.s67, sign), c4 = conj_if(in1.s01, sign), c5 = conj_if(in1.s23, sign),
         c6 = conj_if(in2, sign);
  DFT_7(c0, c1, c2, c3, c4, c5, c6);
  vstore8((float8)(conj_if(c0, sign), conj_if(c1, sign), conj_if(c2, sign), conj_if(c3, sign)), 0, p);
  vstore4((float4)(conj_if(c4, sign), conj_if(c5, sign)), 0, p + 8);
  vstore2(conj_if(c6, sign), 0, p + 12);
}

// ---- general stages

#define STAGE_ARGS                                                                             \
  global float2 *data, uint Nx, uint Ni, uint per_line, uint lines, uint stride, uint dist, \
      float sign, float exp_const

// Finds this work item's butterfly, loads its R inputs (conjugated for the inverse) into c[],
// and applies the fused twiddles when FUSED_TWIDDLE is 1.
#define STAGE_LOAD(R)                                                        \
  const uint gid = get_global_id(0);                                         \
  if (gid >= lines * per_line) return;                                       \
  const uint2 li = line_and_item(gid, lines, per_line, stride);              \
  const uint nx = li.y % Nx;                                                 \
  const uint base = li.x * dist + (nx + (li.y / Nx) * Ni) * stride;          \
  const uint step = Nx * stride;                                             \
  float2 c[R];                                                               \
  for (uint j = 0; j < (R); ++j) c[j] = conj_if(data[base + j * step], sign); \
  STAGE_TWIDDLE(R)

#if FUSED_TWIDDLE
#define STAGE_TWIDDLE(R)                                                  \
  {                                                                       \
    const float phi = (float)nx * exp_const; /* seeds: no ky here */      \
    for (uint j = 1; j < (R); ++j) c[j] = twiddle_mul(c[j], (float)j * phi); \
  }
#else
#define STAGE_TWIDDLE(R) (void)exp_const;
#endif

#define STAGE_STORE(R) \
  for (uint j = 0; j < (R); ++j) data[base + j * step] = conj_if(c[j], sign);

kernel void radix_2(STAGE_ARGS) {
  STAGE_LOAD(2)
  DFT_2(c[0], c[1]);
  STAGE_STORE(2)
}

kernel void radix_3(STAGE_ARGS) {
  STAGE_LOAD(3)
  DFT_3(c[0], c[1], c[2]);
  STAGE_STORE(3)
}

kernel void radix_4(STAGE_ARGS) {
  STAGE_LOAD(4)
  DFT_4(c[0], c[1], c[2], c[3]);
  STAGE_STORE(4)
}

kernel void radix_5(STAGE_ARGS) {
  STAGE_LOAD(5)
  DFT_5(c[0], c[1], c[2], c[3], c[4]);
  STAGE_STORE(5)
}

kernel void radix_7(STAGE_ARGS) {
  STAGE_LOAD(7)
  DFT_7(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
  STAGE_STORE(7)
}

// Any radix up to GENERIC_MAX_RADIX as a direct DFT: out_k = sum_j c_j exp(-2 pi i j k / R).
kernel void radix_generic(STAGE_ARGS, uint R) {
  const uint gid = get_global_id(0);
  if (gid >= lines * per_line) return;
  const uint2 li = line_and_item(gid, lines, per_line, stride);
  const uint nx = li.y % Nx;
  const uint base = li.x * dist + (nx + (li.y / Nx) * Ni) * stride;
  const uint step = Nx * stride;
  float2 c[GENERIC_MAX_RADIX];
  float2 root[GENERIC_MAX_RADIX];
  for (uint j = 0; j < R; ++j) c[j] = conj_if(data[base + j * step], sign);
#if FUSED_TWIDDLE
  const float phi = (float)nx * exp_const;
  for (uint j = 1; j < R; ++j) c[j] = twiddle_mul(c[j], (float)j * phi);
#else
  (void)exp_const;
#endif
  for (uint m = 0; m < R; ++m) {
    float cs;
    const float sn = sincos(-M_2PI_F * (float)m / (float)R, &cs);
    root[m] = (float2)(cs, sn);
  }
  for (uint k = 0; k < R; ++k) {
    float2 acc = c[0];
    uint jk = 0;  // j * k mod R, stepped to avoid a modulo per term
    for (uint j = 1; j < R; ++j) {
      jk += k;
      if (jk >= R) jk -= R;
      acc += cmul(c[j], root[jk]);
    }
    data[base + k * step] = conj_if(acc, sign);
  }
}
