// bluestein.cl — a prime radix p > 13 computed as a chirp-z convolution of length m (a power of
// two), for every butterfly of the stage at once. The three kernels bracket an m-point forward
// FFT run by the radix kernels on `scratch` (batch lines of m, contiguous).
//
// Data layout: `data` is the transform buffer (lines of n float2; element i of line l at
// l * dist + i * stride); the stage has span Nx, radix p, Ni = Nx * p, per_line = n / p
// butterflies a line, batch = lines * per_line; butterfly b = l * per_line + kx. `scratch_a`
// and `scratch_b` are batch x m float2. `chirp` holds p forward values exp(-i pi j^2 / p),
// `filter` the m forward values of the plan's filter_spectrum, `m_table` the digit-reverse
// table of the m-point plan. `sign` = +1 forward, -1 inverse: the inverse is the forward
// convolution on conjugated inputs, conjugated (as in the CPU reference).
// Defines needed: none beyond complex.cl.

#ifndef FFTSCOPE_COMPLEX_CL
#error "bluestein.cl needs complex.cl prepended"
#endif

uint butterfly_base(uint b, uint per_line, uint Nx, uint Ni, uint stride, uint dist, uint* nx) {
  const uint l = b / per_line, kx = b % per_line;
  *nx = kx % Nx;
  return l * dist + (*nx + (kx / Nx) * Ni) * stride;
}

// scratch_a[b][i] = u[table[i]]: u_j = conj?(x_j) * twiddle_j * chirp_j for j < p, 0 beyond; the
// digit-reverse gather of the inner FFT is folded in here.
kernel void bluestein_premultiply(global const float2* data, global float2* scratch_a, global const float2* chirp,
                                  global const uint* m_table, uint p, uint m, uint Nx, uint Ni, uint per_line,
                                  uint batch, uint stride, uint dist, float sign) {
  const uint gid = get_global_id(0);
  if (gid >= batch * m) return;
  const uint b = gid / m, j = m_table[gid % m];
  float2 u = (float2)(0.0f, 0.0f);
  if (j < p) {
    uint nx;
    const uint base = butterfly_base(b, per_line, Nx, Ni, stride, dist, &nx);
    u = conj_if(data[base + j * Nx * stride], sign);
    u = twiddle_mul(u, -M_2PI_F * ((float)(j * nx) / (float)Ni));
    u = cmul(u, chirp[j]);
  }
  scratch_a[gid] = u;
}

// scratch_b[b][i] = conj(A[table[i]] * filter[table[i]]): the inverse m-point FFT is run as a
// forward one on conjugated data (and conjugated back in postmultiply); gather folded in again.
kernel void bluestein_convolve(global const float2* scratch_a, global float2* scratch_b, global const float2* filter,
                             global const uint* m_table, uint m, uint batch) {
  const uint gid = get_global_id(0);
  if (gid >= batch * m) return;
  const uint b = gid / m, j = m_table[gid % m];
  const float2 v = cmul(scratch_a[b * m + j], filter[j]);
  scratch_b[gid] = (float2)(v.x, -v.y);
}

// X_k = chirp_k * conj(B_k) / m for k < p, conjugated again for the inverse, written back.
kernel void bluestein_postmultiply(global const float2* scratch_b, global float2* data, global const float2* chirp,
                                   uint p, uint m, uint Nx, uint Ni, uint per_line, uint batch, uint stride,
                                   uint dist, float sign) {
  const uint gid = get_global_id(0);
  if (gid >= batch * p) return;
  const uint b = gid / p, k = gid % p;
  uint nx;
  const uint base = butterfly_base(b, per_line, Nx, Ni, stride, dist, &nx);
  const float2 v = scratch_b[b * m + k];
  const float2 x = cmul((float2)(v.x, -v.y) * (1.0f / (float)m), chirp[k]);
  data[base + k * Nx * stride] = conj_if(x, sign);
}
