// twiddle.cl — the seeds' twiddle factor multiplication between radix stages (one work item
// per complex element), in place.
//
// Data layout: `lines` lines of n float2 (interleaved re/im); element i of line l is
// data[l * dist + i * stride]. For stage Y (span Nx, radix Ny, Ni = Nx * Ny) element n is
// multiplied by exp(+-2 pi i * nx * ky / Ni), nx = n % Nx; `sign` = +1 forward, -1 inverse
// (the inverse uses the conjugate twiddle).
//
// Defines needed:
//   TWIDDLE_OPTIMIZED  0: plain — ky through the seeds' map_n_to_k, angle -2 pi nx ky / Ni
//                      1: optimized — ky = (n / Nx) % Ny, angle (nx * ky) * exp_const

#ifndef FFTSCOPE_COMPLEX_CL
#error "twiddle.cl needs complex.cl prepended"
#endif
#ifndef TWIDDLE_OPTIMIZED
#error "twiddle.cl needs -D TWIDDLE_OPTIMIZED=0|1"
#endif

kernel void twiddle(global float2* data, uint Nx, uint Ny, uint Ni, uint n_len, uint lines, uint stride,
                    uint dist, float sign, float exp_const) {
  const uint gid = get_global_id(0);
  if (gid >= lines * n_len) return;
  const uint2 li = line_and_item(gid, lines, n_len, stride);
  const uint n = li.y;
  const uint nx = n % Nx;
#if TWIDDLE_OPTIMIZED
  const uint ky = (n / Nx) % Ny;
  const float phi = (float)(nx * ky) * exp_const;
#else
  (void)exp_const;
  const uint k = (n * Ny) % Ni + (n / Nx) % Ny + Ni * (n / Ni);
  const uint ky = k % Ny;
  const float phi = (-M_2PI_F * nx * ky) / (float)Ni;
#endif
  const uint i = li.x * dist + n * stride;
  data[i] = twiddle_mul(data[i], sign * phi);
}
