// The fast path's planner (no GPU): radices, layouts that fit local memory, unsupported sizes.
#include <gtest/gtest.h>

#include <numeric>

#include "backend/fast_axis_plan.h"

namespace fftscope {
namespace {

std::uint32_t product(const std::vector<std::uint32_t>& v) {
  return std::accumulate(v.begin(), v.end(), 1u, std::multiplies<>());
}

TEST(FastPlan, RadicesMultiplyToLengthAndUseWideStages) {
  for (std::uint32_t m = 1; m <= 5000; ++m) {
    const auto r = fast::fast_radices(m);
    std::uint32_t rest = m;
    for (std::uint32_t p : {2u, 3u, 5u, 7u, 11u, 13u})
      while (rest % p == 0) rest /= p;
    if (rest != 1) {
      EXPECT_TRUE(r.empty()) << m;
      continue;
    }
    if (m == 1) continue;
    ASSERT_FALSE(r.empty()) << m;
    EXPECT_EQ(product(r), m);
    for (std::uint32_t x : r) EXPECT_TRUE(x == 2 || x == 3 || x == 4 || x == 5 || x == 7 || x == 8 || x == 11 || x == 13);
  }
  EXPECT_EQ(fast::fast_radices(4096), (std::vector<std::uint32_t>{8, 8, 8, 8}));
  EXPECT_EQ(fast::fast_radices(1024), (std::vector<std::uint32_t>{8, 8, 4, 4}));
  EXPECT_EQ(fast::fast_radices(2), (std::vector<std::uint32_t>{2}));
}

TEST(FastPlan, LayoutsFitNvidiaLocalMemory) {
  const fast::DeviceLimits nvidia{48 * 1024, 1024};
  const fast::Tuning tuning;
  for (std::uint32_t n : {8u, 30u, 210u, 1000u, 1024u, 1080u, 1920u, 2187u, 2401u, 3125u, 4000u, 4096u, 8192u}) {
    for (Axis axis : {Axis::rows, Axis::cols}) {
      const auto p = fast::plan_axis(axis, n, 4096, nvidia, tuning);
      ASSERT_TRUE(p.has_value()) << n;
      EXPECT_LE(p->local_bytes(), 48u * 1024) << p->describe();
      EXPECT_EQ(p->pre_radix * p->m, n);
      EXPECT_EQ(product(p->radices), p->m);
      EXPECT_EQ(p->threads % 32, 0u);
      EXPECT_LE(p->threads, 256u);
      // Every element of the group's lines has a distinct local slot.
      EXPECT_GE(p->line_stride, p->m + (p->m - 1) / 16);
    }
  }
  // 4096 columns: 4 neighbouring columns (a full 32-byte sector per row) via a split of 4.
  const auto c = fast::plan_axis(Axis::cols, 4096, 4096, nvidia, tuning);
  EXPECT_EQ(c->lines_per_group, 4u);
  EXPECT_EQ(c->pre_radix, 4u);
  const auto r = fast::plan_axis(Axis::rows, 4096, 4096, nvidia, tuning);
  EXPECT_EQ(r->pre_radix, 1u);
  EXPECT_EQ(r->lines_per_group, 1u);
}

TEST(FastPlan, LargePrimeFactorsAreNotSupported) {
  const fast::DeviceLimits limits;
  EXPECT_FALSE(fast::plan_axis(Axis::rows, 17, 8, limits, {}).has_value());
  EXPECT_FALSE(fast::plan_axis(Axis::cols, 2 * 4099, 8, limits, {}).has_value());
  EXPECT_TRUE(fast::plan_axis(Axis::rows, 13 * 11 * 8, 8, limits, {}).has_value());
}

TEST(FastPlan, TwiddleTableIsAccurate) {
  const auto t = fast::twiddle_table(4096);
  for (std::uint32_t k = 0; k < 4096; k += 97) {
    const double a = -2.0 * 3.14159265358979323846 * k / 4096;
    EXPECT_NEAR(t[k].real(), std::cos(a), 6e-8);
    EXPECT_NEAR(t[k].imag(), std::sin(a), 6e-8);
  }
}

}  // namespace
}  // namespace fftscope
