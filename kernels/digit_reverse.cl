// digit_reverse.cl — the seeds' digit-reverse gather, out of place: out[i] = in[table[i]] on
// every line.
//
// Data layout: `lines` lines of n float2 (interleaved re/im); element i of line l is at
// l * dist + i * stride in both buffers. `table` is the plan's digit_reverse (n uints).
// Defines needed: none beyond complex.cl.

#ifndef FFTSCOPE_COMPLEX_CL
#error "digit_reverse.cl needs complex.cl prepended"
#endif

kernel void digit_reverse(global const float2* in, global float2* out, global const uint* table, uint n_len,
                          uint lines, uint stride, uint dist) {
  const uint gid = get_global_id(0);
  if (gid >= lines * n_len) return;
  const uint2 li = line_and_item(gid, lines, n_len, stride);
  const uint base = li.x * dist;
  out[base + li.y * stride] = in[base + table[li.y] * stride];
}
