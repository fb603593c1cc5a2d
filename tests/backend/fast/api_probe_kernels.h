#pragma once
// Kernels that fast_probe_gl and fast_probe_cl build from one text, in GLSL and in OpenCL C through
// a few macros, to compare the two APIs on the same work (docs/fast_path.md, twenty-ninth
// session: GL's 4096-point columns take 163 µs where OpenCL's same plan takes 115 on the H100).
// Both sides define KERNEL_HEAD (the entry point and, in OpenCL, its arguments), LOCAL_DECL (the
// shared array where OpenCL C must declare it), LID, GID, N (uint), BARRIER(), and UNROLL.
#include <cmath>
#include <cstdint>
#include <vector>

namespace fftscope::test {

// FFTSCOPE_GL_MICRO / FFTSCOPE_CL_MICRO: KIND 0 four independent FMA chains, 1 a shared-memory
// exchange between two barriers, 2 a chain of dependent loads from a 16 KiB table (L1-resident),
// N iterations; buffers d (float, where nothing is written unless the values go wrong) and t
// (uint: micro_chase_table), shared float s[256].
inline const char* micro_body() {
  return R"(
KERNEL_HEAD {
  LOCAL_DECL
  uint l = LID;
#if KIND == 0
  float a = l * 1.0f, b = a + 1.0f, c = a + 2.0f, e = a + 3.0f;
  for (uint i = 0u; i < N; ++i) {
    a = fma(a, 0.9999f, 0.0001f); b = fma(b, 0.9999f, 0.0001f); c = fma(c, 0.9999f, 0.0001f); e = fma(e, 0.9999f, 0.0001f);
  }
  float x = a + b + c + e;
  if (x == -1.0f) d[l] = x;
#elif KIND == 1
  float x = l * 1.0f;
  for (uint i = 0u; i < N; ++i) { s[l] = x; BARRIER(); x += s[(l + 1u) & 255u] * 0.5f; BARRIER(); }
  if (x == -1.0f) d[l] = x;
#else
  uint k = l;
  for (uint i = 0u; i < N; ++i) k = t[k];
  if (k == 0xffffffffu) d[l] = k * 1.0f;
#endif
}
)";
}
inline constexpr const char* micro_names[3] = {"4 FMA chains", "shared exchange + 2 barriers", "dependent table loads"};

/// The table the dependent loads walk: 4 096 indices, each the next one's.
inline std::vector<std::uint32_t> micro_chase_table() {
  std::vector<std::uint32_t> table(4096);
  for (std::uint32_t i = 0; i < table.size(); ++i) table[i] = (i * 1021u + 7u) % 4096u;
  return table;
}

// FFTSCOPE_GL_LADDER / FFTSCOPE_CL_LADDER: one kernel that climbs from the 4096-point column
// pass's memory pattern towards its work, one step at a time, to see where GL parts from OpenCL.
// A group of 256 reads a tile of 4 columns x N rows (16 384 values, 64 per invocation, contiguous,
// as OpenCL's columns read their tiles) and stores it down its 4 columns of the image.
//   STEP 0: load, store.  1: + four exchanges of 16 values each through 32 KiB of shared memory,
//   two barriers each.  2: + twelve rounds of 32 radix-2 butterflies in registers (a twiddle read
//   per round).  3: the rounds and the exchanges interleaved (three rounds, an exchange; four times),
//   as the FFT's stages and exchanges are.
// Buffers src, dst (N x N VEC2), tw (ladder_twiddles), shared VEC2 sh[4096]; also VEC2, MAKE2(x, y).

inline const char* ladder_body() {
  return R"(
VEC2 cmul2(VEC2 a, VEC2 b) { return MAKE2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

#define ROUND(r) { VEC2 w = tw[(LID + (r)) & 63u]; UNROLL for (uint m = 0u; m < 64u; ++m) { \
    uint p = m ^ (1u << ((r) % 6u)); if (p > m) { VEC2 a = v[m], b = cmul2(v[p], w); v[m] = a + b; v[p] = a - b; } } }
#define EXCHANGE(q) { UNROLL for (uint j = 0u; j < 16u; ++j) sh[j * 256u + LID] = v[(q) * 16u + j]; BARRIER(); \
    UNROLL for (uint j = 0u; j < 16u; ++j) v[(q) * 16u + j] = sh[j * 256u + ((LID + 37u) & 255u)]; BARRIER(); }

KERNEL_HEAD {
  LOCAL_DECL
  VEC2 v[64];
  UNROLL for (uint m = 0u; m < 64u; ++m) v[m] = src[GID * 16384u + m * 256u + LID];
#if STEP == 1
  UNROLL for (uint q = 0u; q < 4u; ++q) EXCHANGE(q)
#elif STEP == 2
  UNROLL for (uint r = 0u; r < 12u; ++r) ROUND(r)
#elif STEP == 3
  UNROLL for (uint q = 0u; q < 4u; ++q) { ROUND(3u * q) ROUND(3u * q + 1u) ROUND(3u * q + 2u) EXCHANGE(q) }
#endif
  UNROLL for (uint m = 0u; m < 64u; ++m) {
    uint e = m * 256u + LID;
    dst[(e >> 2u) * N + 4u * GID + (e & 3u)] = v[m];
  }
}
)";
}

/// The ladder's twiddles: the 64th roots of unity, w^k = exp(-2 pi i k / 64), as (re, im) pairs.
inline std::vector<float> ladder_twiddles() {
  std::vector<float> twiddles(128);
  for (int k = 0; k < 64; ++k) {
    twiddles[2 * k] = static_cast<float>(std::cos(-2.0 * M_PI * k / 64));
    twiddles[2 * k + 1] = static_cast<float>(std::sin(-2.0 * M_PI * k / 64));
  }
  return twiddles;
}

}  // namespace fftscope::test
