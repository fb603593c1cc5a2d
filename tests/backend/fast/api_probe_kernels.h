#pragma once
// Kernels that fast_probe_gl and fast_probe_cl build from one text, in GLSL and in OpenCL C through
// a few macros, to compare the two APIs on the same work (docs/fast_path.md, twenty-ninth
// session: GL's 4096-point columns take 163 µs where OpenCL's same plan takes 115 on the H100).
// Both sides define KERNEL_HEAD (the entry point and, in OpenCL, its arguments), LOCAL_DECL (the
// shared array where OpenCL C must declare it), LID, GID, N (uint), BARRIER(), and UNROLL.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/timing.h"

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
// With RECORD_GROUPS (FFTSCOPE_*_LADDER=residency: 1, =phases: 2) each group's first invocation
// writes a record into uint rec[] (GroupRecord, or PhaseRecord: a barrier after the loads have
// arrived and another after the work, the clock at each), through SM_ID, SM_CLOCK(),
// TAKE_SLOT() and NUM_GROUPS that each API defines.

inline const char* ladder_body() {
  return R"(
#if defined(RECORD_GROUPS)
#define REC_WORDS (RECORD_GROUPS == 2 ? 8u : 4u)
#define GROUP_BEGIN uint slot_ = 0u; if (LID == 0u) { slot_ = TAKE_SLOT(); rec[4u + REC_WORDS * slot_] = SM_ID; \
    rec[5u + REC_WORDS * slot_] = SM_CLOCK(); rec[3u + REC_WORDS * (slot_ + 1u)] = NUM_GROUPS; }
#if RECORD_GROUPS == 2
#define GROUP_END BARRIER(); if (LID == 0u) rec[8u + 8u * slot_] = SM_CLOCK();
#else
#define GROUP_END if (LID == 0u) rec[6u + 4u * slot_] = SM_CLOCK();
#endif
#if RECORD_GROUPS == 2
#define PHASE(k) { float s_ = 0.0f; UNROLL for (uint m = 0u; m < 64u; ++m) s_ += v[m].x; sh[LID].x = s_; BARRIER(); \
    if (LID == 0u) rec[5u + 8u * slot_ + (k)] = SM_CLOCK(); }
#endif
#else
#define GROUP_BEGIN
#define GROUP_END
#endif
#ifndef PHASE
#define PHASE(k)
#endif
VEC2 cmul2(VEC2 a, VEC2 b) { return MAKE2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

#define ROUND(r) { VEC2 w = tw[(LID + (r)) & 63u]; UNROLL for (uint m = 0u; m < 64u; ++m) { \
    uint p = m ^ (1u << ((r) % 6u)); if (p > m) { VEC2 a = v[m], b = cmul2(v[p], w); v[m] = a + b; v[p] = a - b; } } }
#define EXCHANGE(q) { UNROLL for (uint j = 0u; j < 16u; ++j) sh[j * 256u + LID] = v[(q) * 16u + j]; BARRIER(); \
    UNROLL for (uint j = 0u; j < 16u; ++j) v[(q) * 16u + j] = sh[j * 256u + ((LID + 37u) & 255u)]; BARRIER(); }

KERNEL_HEAD {
  LOCAL_DECL
  GROUP_BEGIN
  VEC2 v[64];
  UNROLL for (uint m = 0u; m < 64u; ++m) v[m] = src[GID * 16384u + m * 256u + LID];
#ifdef BARRIER_AFTER_LOADS
  BARRIER();
#endif
  PHASE(1)
#if STEP == 1
  UNROLL for (uint q = 0u; q < 4u; ++q) EXCHANGE(q)
#elif STEP == 2
  UNROLL for (uint r = 0u; r < 12u; ++r) ROUND(r)
#elif STEP == 3
  UNROLL for (uint q = 0u; q < 4u; ++q) { ROUND(3u * q) ROUND(3u * q + 1u) ROUND(3u * q + 2u) EXCHANGE(q) }
#endif
#if defined(PAD) || defined(PAD_RUNTIME)
  {  // The same arithmetic as a long program (PAD: a literal count, unrolled) or a short one (a loop whose count the
     // compiler cannot know): four FMA chains, their sum kept in v[0] at a scale that leaves it unchanged.
#ifdef PAD
    const uint pad_count = PAD;
#else
    uint pad_rounds = PAD_RUNTIME, pad_count = (N / 4096u) * pad_rounds;
#endif
    float a_ = v[0].x, b_ = v[1].x, c_ = v[2].x, d_ = v[3].x;
    UNROLL for (uint i = 0u; i < pad_count; ++i) {
      a_ = fma(a_, 0.9999f, 0.0001f); b_ = fma(b_, 0.9999f, 0.0001f); c_ = fma(c_, 0.9999f, 0.0001f); d_ = fma(d_, 0.9999f, 0.0001f);
    }
    v[0].x += (a_ + b_ + c_ + d_) * 1.0e-30f;
  }
#endif
  PHASE(2)
#ifdef BARRIER_BEFORE_STORES
  BARRIER();
#endif
  UNROLL for (uint m = 0u; m < 64u; ++m) {
    uint e = m * 256u + LID;
#if defined(STORE_CONTIGUOUS)
    dst[GID * 16384u + e] = v[m];
#elif defined(STORE_COLUMNS)
    // Tiles of STORE_COLUMNS columns: N / STORE_COLUMNS groups side by side, each 16384 / STORE_COLUMNS rows.
    uint k = STORE_COLUMNS, across = N / k, rows = 16384u / k;  // (no cast syntax common to GLSL and OpenCL C)
    dst[((GID / across) * rows + e / k) * N + (GID % across) * k + e % k] = v[m];
#elif defined(STORE_SWIZZLE)
    // The group's 4 columns at tile (GID * STORE_SWIZZLE) mod N / 4: neighbouring groups, which run at
    // the same time, then write different 128-byte lines.
    uint s = STORE_SWIZZLE;
    dst[(e >> 2u) * N + 4u * ((GID * s) % (N / 4u)) + (e & 3u)] = v[m];
#else
    dst[(e >> 2u) * N + 4u * GID + (e & 3u)] = v[m];
#endif
  }
  GROUP_END
}
)";
}

/// FFTSCOPE_LADDER_DEFINES=A,B=1,...: more #defines for the ladder in both APIs (BARRIER_AFTER_LOADS:
/// a barrier between the loads and the rest, so that every load is issued before any arithmetic;
/// BARRIER_BEFORE_STORES: one between the work and the stores; STORE_CONTIGUOUS: the stores as the
/// loads, whole lines, instead of 32 bytes in each of 4 096 rows; STORE_COLUMNS=k: k columns' values
/// in each row (8 k bytes) of 16 384 / k rows; STORE_SWIZZLE=s (odd): group g writes the columns of
/// tile g s mod N / 4; in OpenCL only, STRONG_LOADS /
/// STRONG_STORES: through volatile pointers, as strong as GL's; PAD=n / PAD_RUNTIME=n: n rounds of four FMA
/// chains before the stores, unrolled into a long program or kept as a loop in a short one).
inline std::string ladder_extra_defines() {
  std::string defines;
  const char* env = std::getenv("FFTSCOPE_LADDER_DEFINES");
  for (std::string rest = env ? env : ""; !rest.empty();) {
    const std::size_t comma = rest.find(',');
    std::string item = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    if (const std::size_t eq = item.find('='); eq != std::string::npos) item[eq] = ' ';
    if (!item.empty()) defines += "#define " + item + "\n";
  }
  return defines;
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

// Work-group residency: each group's first invocation takes a slot from rec[0] and writes one
// record at rec[4 + 4 * slot]: its multiprocessor, the clock (low 32 bits) at its start and its
// end, and its dispatch's group count. The clocks are the multiprocessor's own, so they compare
// only within one multiprocessor.
struct GroupRecord {
  std::uint32_t sm, start, end, groups;
};
inline constexpr std::uint32_t max_group_records = 1u << 16;

/// The ladder's RECORD_GROUPS 2: the clocks at the start, once the loads have arrived, after the
/// step's work, and at the end (a barrier after the stores: every invocation's last store issued).
struct PhaseRecord {
  std::uint32_t sm, start, loaded, worked, end, unused[2], groups;
};

/// Median cycles of each phase over the groups.
inline void report_phases(const std::string& what, const std::vector<PhaseRecord>& records) {
  std::vector<double> load, work, store, whole;
  for (const auto& r : records) {
    load.push_back(static_cast<double>(r.loaded - r.start));
    work.push_back(static_cast<double>(r.worked - r.loaded));
    store.push_back(static_cast<double>(r.end - r.worked));
    whole.push_back(static_cast<double>(r.end - r.start));
  }
  if (records.empty()) {
    std::printf("phases %s: no records\n", what.c_str());
    return;
  }
  std::printf("phases %s: %zu groups, median cycles: loads %.0f, work %.0f, stores %.0f, whole %.0f\n", what.c_str(),
              records.size(), median(load), median(work), median(store), median(whole));
}

/// Per multiprocessor: the most groups that ran at once, how long one took, and how much of
/// the multiprocessor's span (first start to last end) had none running.
inline void report_residency(const std::string& what, const std::vector<GroupRecord>& records) {
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> per_sm;
  std::vector<double> lengths;
  for (const auto& r : records) {
    if (r.sm >= per_sm.size()) per_sm.resize(r.sm + 1);
    per_sm[r.sm].emplace_back(r.start, r.end);
    lengths.push_back(static_cast<double>(r.end - r.start));
  }
  std::vector<double> concurrency, groups_per_sm, spans, idle;
  for (auto& intervals : per_sm) {
    if (intervals.empty()) continue;
    std::uint32_t base = intervals[0].first;
    for (auto& [a, b] : intervals)
      if (static_cast<std::int32_t>(a - base) < 0) base = a;
    std::vector<std::pair<std::int64_t, int>> events;  // (time, +1 start / -1 end); ends first on ties
    std::int64_t last = 0;
    for (auto& [a, b] : intervals) {
      events.emplace_back(static_cast<std::int64_t>(a - base), 1);
      events.emplace_back(static_cast<std::int64_t>(b - base), -1);
      last = std::max<std::int64_t>(last, b - base);
    }
    std::sort(events.begin(), events.end());
    int now = 0, most = 0;
    std::int64_t empty = 0, previous = 0;
    for (auto& e : events) {
      if (now == 0) empty += e.first - previous;
      previous = e.first;
      most = std::max(most, now += e.second);
    }
    concurrency.push_back(most);
    groups_per_sm.push_back(static_cast<double>(intervals.size()));
    spans.push_back(static_cast<double>(last));
    idle.push_back(last > 0 ? 100.0 * static_cast<double>(empty) / static_cast<double>(last) : 0.0);
  }
  if (concurrency.empty()) {
    std::printf("residency %s: no records\n", what.c_str());
    return;
  }
  std::sort(concurrency.begin(), concurrency.end());
  // Slots are taken in the order the groups start: the first one per multiprocessor are the first wave.
  const std::size_t first_wave = std::min(lengths.size(), concurrency.size());
  const double first_median = median(std::vector<double>(lengths.begin(), lengths.begin() + static_cast<std::ptrdiff_t>(first_wave)));
  const double later_median = first_wave < lengths.size()
                                  ? median(std::vector<double>(lengths.begin() + static_cast<std::ptrdiff_t>(first_wave), lengths.end()))
                                  : 0.0;
  std::sort(lengths.begin(), lengths.end());
  double total = 0;
  for (double length : lengths) total += length;
  std::printf("residency %s: %zu groups on %zu SMs (ids up to %zu; %.1f each); most at once per SM: min %.0f median "
              "%.0f max %.0f; group length median %.0f cycles, mean %.0f, 90th percentile %.0f (median of the first "
              "wave %.0f, of the rest %.0f); SM span median %.0f cycles, %.1f %% of it with no group\n",
              what.c_str(), records.size(), concurrency.size(), per_sm.size() - 1, median(groups_per_sm),
              concurrency.front(), median(concurrency), concurrency.back(), median(lengths),
              total / static_cast<double>(lengths.size()), lengths[lengths.size() * 9 / 10], first_median, later_median,
              median(spans), median(idle));
}

/// The ladder's records as its RECORD_GROUPS wrote them (1: GroupRecord, 2: PhaseRecord), whole
/// records from the start of `words`, reported by report_residency or report_phases.
inline void report_records(const std::string& what, int record_groups, const std::vector<std::uint32_t>& words) {
  const auto records = [&](auto record) {
    std::vector<decltype(record)> out(words.size() * sizeof words[0] / sizeof record);
    std::memcpy(out.data(), words.data(), out.size() * sizeof record);
    return out;
  };
  if (record_groups == 1) report_residency(what, records(GroupRecord{}));
  else report_phases(what, records(PhaseRecord{}));
}

}  // namespace fftscope::test
