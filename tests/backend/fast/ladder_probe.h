#pragma once
// The "ladder" probe (FFTSCOPE_GL_LADDER / FFTSCOPE_CL_LADDER): one kernel text, built in GLSL and
// in OpenCL C through a few macros, that climbs from the 4096-point column pass's memory pattern
// towards its work, one step at a time, so that GL and OpenCL can be compared where they part
// (GL's columns take 163 µs where OpenCL's same plan takes 115 on the H100, and neither the access
// paths nor the load schedule nor single primitives explain it; docs/fast_path.md, twenty-ninth
// session). A group of 256 reads a tile of 4 columns x N rows (16 384 values, 64 per invocation,
// contiguous, as OpenCL's columns read their tiles) and stores it down its 4 columns of the image.
//   STEP 0: load, store.  1: + four exchanges of 16 values each through 32 KiB of shared memory,
//   two barriers each.  2: + twelve rounds of 32 radix-2 butterflies in registers (a twiddle read
//   per round).  3: the rounds and the exchanges interleaved (three rounds, an exchange; four times),
//   as the FFT's stages and exchanges are.
// The macros: KERNEL_HEAD, LOCAL_DECL, LID, GID, LOAD(i), STORE(i, v), TW(i), SH(i), BARRIER(),
// VEC2, MAKE2(x, y), UNROLL, STEP, and the width N (uint).

namespace fftscope::test {

inline const char* ladder_body() {
  return R"(
VEC2 cmul2(VEC2 a, VEC2 b) { return MAKE2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

#define ROUND(r) { VEC2 w = TW((LID + (r)) & 63u); UNROLL for (uint m = 0u; m < 64u; ++m) { \
    uint p = m ^ (1u << ((r) % 6u)); if (p > m) { VEC2 a = v[m], b = cmul2(v[p], w); v[m] = a + b; v[p] = a - b; } } }
#define EXCHANGE(q) { UNROLL for (uint j = 0u; j < 16u; ++j) SH(j * 256u + LID) = v[(q) * 16u + j]; BARRIER(); \
    UNROLL for (uint j = 0u; j < 16u; ++j) v[(q) * 16u + j] = SH(j * 256u + ((LID + 37u) & 255u)); BARRIER(); }

KERNEL_HEAD {
  LOCAL_DECL
  VEC2 v[64];
  UNROLL for (uint m = 0u; m < 64u; ++m) v[m] = LOAD(GID * 16384u + m * 256u + LID);
#if STEP == 1
  UNROLL for (uint q = 0u; q < 4u; ++q) EXCHANGE(q)
#elif STEP == 2
  UNROLL for (uint r = 0u; r < 12u; ++r) ROUND(r)
#elif STEP == 3
  UNROLL for (uint q = 0u; q < 4u; ++q) { ROUND(3u * q) ROUND(3u * q + 1u) ROUND(3u * q + 2u) EXCHANGE(q) }
#endif
  UNROLL for (uint m = 0u; m < 64u; ++m) {
    uint e = m * 256u + LID;
    STORE((e >> 2u) * N + 4u * GID + (e & 3u), v[m]);
  }
}
)";
}

}  // namespace fftscope::test
