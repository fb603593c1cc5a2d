// The fast path's planner (no GPU): radices, layouts that fit local memory, unsupported sizes,
// and Bluestein's padded length, chirp and filter for lengths with a prime factor above 13.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <numbers>
#include <numeric>
#include <set>
#include <span>
#include <string>
#include <utility>

#include "core/fast_plan.h"
#include "core/validate.h"
#include "support/reference.h"
#include "fast_cases.h"

namespace fftscope {
namespace {

// The H100's limits as NVIDIA's drivers report them (48 KiB of local memory per group, 1 024
// invocations, 132 multiprocessors): the machine the defaults were tuned on.
const fast::DeviceLimits nvidia{48 * 1024, 1024, 132};

using Sizes = std::initializer_list<std::pair<std::size_t, std::size_t>>;

// Where a rule must leave the real display alone: each w x h image's display columns planned the
// same under `a` and `b` (the NVIDIA limits), or under neither.
void expect_same_display_columns(Sizes sizes, const fast::Tuning& a, const fast::Tuning& b) {
  for (const auto& [w, h] : sizes) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const auto da = fast::plan_real_display(w, h, nvidia, a);
    const auto db = fast::plan_real_display(w, h, nvidia, b);
    ASSERT_EQ(da.has_value(), db.has_value());
    if (da) {
      EXPECT_EQ(da->cols.describe(), db->cols.describe());
    }
  }
}

// Where a rule must leave plans alone: each w x h image's rows, columns and real-display
// columns planned the same under `a` and `b` (the NVIDIA limits).
void expect_same_routes(Sizes sizes, const fast::Tuning& a, const fast::Tuning& b) {
  for (const auto& [w, h] : sizes) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const auto ra = fast::route_image(w, h, nvidia, a);
    const auto rb = fast::route_image(w, h, nvidia, b);
    ASSERT_TRUE(ra && rb);
    EXPECT_EQ(ra->rows.describe(), rb->rows.describe());
    EXPECT_EQ(ra->cols.describe(), rb->cols.describe());
  }
  expect_same_display_columns(sizes, a, b);
}

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
    for (std::uint32_t x : r)
      EXPECT_TRUE(x == 2 || x == 3 || x == 4 || x == 5 || x == 7 || x == 8 || x == 9 || x == 11 || x == 13);
    EXPECT_LE(std::count(r.begin(), r.end(), 3u), 1) << m;  // 3s pair into 9s
  }
  EXPECT_EQ(fast::fast_radices(4096), (std::vector<std::uint32_t>{8, 8, 8, 8}));
  EXPECT_EQ(fast::fast_radices(1024), (std::vector<std::uint32_t>{8, 8, 4, 4}));
  EXPECT_EQ(fast::fast_radices(2), (std::vector<std::uint32_t>{2}));
  // With radix 16: 16s first, and 2^(4k+1) as 16s, 8 and 4 rather than a radix-2 stage.
  EXPECT_EQ(fast::fast_radices(4096, 16), (std::vector<std::uint32_t>{16, 16, 16}));
  EXPECT_EQ(fast::fast_radices(1024, 16), (std::vector<std::uint32_t>{16, 16, 4}));
  EXPECT_EQ(fast::fast_radices(512, 16), (std::vector<std::uint32_t>{16, 8, 4}));
  EXPECT_EQ(fast::fast_radices(32, 16), (std::vector<std::uint32_t>{8, 4}));
  EXPECT_EQ(fast::fast_radices(2048 * 3, 16), (std::vector<std::uint32_t>{16, 16, 8, 3}));
  for (std::uint32_t m = 2; m <= 1u << 16; m *= 2) EXPECT_EQ(product(fast::fast_radices(m, 16)), m) << m;
  EXPECT_EQ(fast::fast_radices(2187), (std::vector<std::uint32_t>{9, 9, 9, 3}));
  EXPECT_EQ(fast::fast_radices(1080), (std::vector<std::uint32_t>{8, 9, 3, 5}));
  // With radix 25: from 5^4 on, 5s pair into 25s (at most one 5 left); fewer 5s, or radix 16
  // alone, keep them.
  EXPECT_EQ(fast::fast_radices(3125, 25), (std::vector<std::uint32_t>{25, 25, 5}));
  EXPECT_EQ(fast::fast_radices(625, 25), (std::vector<std::uint32_t>{25, 25}));
  EXPECT_EQ(fast::fast_radices(2 * 625, 25), (std::vector<std::uint32_t>{2, 25, 25}));
  EXPECT_EQ(fast::fast_radices(1000, 25), (std::vector<std::uint32_t>{8, 5, 5, 5}));
  EXPECT_EQ(fast::fast_radices(4000, 25), (std::vector<std::uint32_t>{8, 4, 5, 5, 5}));
  EXPECT_EQ(fast::fast_radices(3125, 16), (std::vector<std::uint32_t>{5, 5, 5, 5, 5}));
  // Split plans keep radix 16 at most (3125-point columns split 5 x 625: 4 x 5, not 25 x 25).
  const auto cols_3125 = fast::plan_axis(Axis::cols, 3125, 3125, nvidia, fast::Tuning{});
  ASSERT_TRUE(cols_3125 && cols_3125->pre_radix > 1) << cols_3125->describe();
  EXPECT_EQ(std::count(cols_3125->radices.begin(), cols_3125->radices.end(), 25u), 0) << cols_3125->describe();
  EXPECT_EQ(fast::plan_axis(Axis::rows, 3125, 3125, nvidia, fast::Tuning{})->radices,
            (std::vector<std::uint32_t>{25, 25, 5}));
  // The display rows stop at radix 16 (Tuning::display_rows_max_radix; ClFastDisplay's 1250 x 8
  // case runs them), and follow the same rule without that bound.
  EXPECT_EQ(fast::plan_display_rows(1250, 8, nvidia, fast::Tuning{})->radices,
            (std::vector<std::uint32_t>{10, 5, 5, 5}));
  EXPECT_EQ(fast::plan_display_rows(3125, 8, nvidia, fast::Tuning{})->radices,
            (std::vector<std::uint32_t>{5, 5, 5, 5, 5}));
  fast::Tuning unbounded_display;
  unbounded_display.display_rows_max_radix = 0;
  EXPECT_EQ(fast::plan_display_rows(1250, 8, nvidia, unbounded_display)->radices,
            (std::vector<std::uint32_t>{2, 25, 25}));
  // GL's display rows exchange through half the shared memory above 17 KiB
  // (Tuning::display_rows_halves_above), below the 24 KiB of its other passes: 2187- and 2401-point
  // rows, not 2048-point ones (17 408 bytes with their padding); the other passes keep 24 KiB.
  const fast::Tuning gl = fast::gl_default_tuning();
  EXPECT_TRUE(fast::plan_display_rows(2401, 2401, nvidia, gl)->local_halves);
  EXPECT_TRUE(fast::plan_display_rows(2187, 2187, nvidia, gl)->local_halves);
  EXPECT_FALSE(fast::plan_display_rows(2048, 2048, nvidia, gl)->local_halves);
  EXPECT_FALSE(fast::plan_axis(Axis::rows, 2401, 2401, nvidia, gl)->local_halves);
  // GL's odd-length display rows in at most 256 invocations (Tuning::display_rows_odd_max_threads),
  // without the odd rows' one-round rule: 2187 points in 256 (not 512), 2401 in 352 (the held-values
  // rule), 3125 in 640 (the same); even lengths and the complex rows keep their counts.
  EXPECT_EQ(fast::plan_display_rows(2187, 2187, nvidia, gl)->threads, 256u);
  EXPECT_EQ(fast::plan_display_rows(2401, 2401, nvidia, gl)->threads, 352u);
  EXPECT_EQ(fast::plan_display_rows(3125, 3125, nvidia, gl)->threads, 640u);
  EXPECT_EQ(fast::plan_display_rows(2048, 2048, nvidia, gl)->threads, 512u);
  EXPECT_EQ(fast::plan_axis(Axis::rows, 2187, 2187, nvidia, gl)->threads, 736u);
  // Composite radices where they take fewer stages: a 2 and a 5 as 10, the lone 3 and a 5 as 15.
  EXPECT_EQ(fast::fast_radices(1000, 8, true), (std::vector<std::uint32_t>{10, 10, 10}));
  EXPECT_EQ(fast::fast_radices(4000, 8, true), (std::vector<std::uint32_t>{8, 10, 10, 5}));
  EXPECT_EQ(fast::fast_radices(540, 8, true), (std::vector<std::uint32_t>{4, 9, 15}));
  EXPECT_EQ(fast::fast_radices(1920, 8, true), (std::vector<std::uint32_t>{8, 8, 10, 3}));
  EXPECT_EQ(fast::fast_radices(1920, 16, true), (std::vector<std::uint32_t>{16, 8, 15}));
  EXPECT_EQ(fast::fast_radices(3125, 25, true), (std::vector<std::uint32_t>{25, 25, 5}));
  // The fewest composite stages among equally short lists; none where they save no stage.
  EXPECT_EQ(fast::fast_radices(3000, 8, true), (std::vector<std::uint32_t>{8, 15, 5, 5}));
  EXPECT_EQ(fast::fast_radices(2000, 16, true), (std::vector<std::uint32_t>{16, 5, 5, 5}));
  EXPECT_EQ(fast::fast_radices(4096, 8, true), fast::fast_radices(4096, 8));
  for (std::uint32_t m = 1; m <= 5000; ++m) {
    const auto plain = fast::fast_radices(m, 8);
    const auto r = fast::fast_radices(m, 8, true);
    ASSERT_EQ(r.empty(), plain.empty()) << m;
    if (r.empty()) continue;
    EXPECT_EQ(product(r), m);
    EXPECT_LE(r.size(), plain.size()) << m;
    if (r.size() == plain.size()) {
      EXPECT_EQ(r, plain) << m;
    }
  }
  for (std::uint32_t m = 1; m <= 5000; ++m) {
    const auto r = fast::fast_radices(m, 25);
    if (fast::fast_radices(m).empty()) continue;
    ASSERT_FALSE(r.empty()) << m;
    EXPECT_EQ(product(r), m);
    int fives = 0;
    for (std::uint32_t rest = m; rest % 5 == 0; rest /= 5) ++fives;
    EXPECT_EQ(std::count(r.begin(), r.end(), 5u), fives >= 4 ? fives % 2 : fives) << m;
    EXPECT_EQ(std::count(r.begin(), r.end(), 25u), fives >= 4 ? fives / 2 : 0) << m;
  }
}

// GL's complex rows of a length 16 divides, not a power of two, take radix-16 stages where those
// are fewer than radix 8's (Tuning::rows_radix16): 3840 (16 16 15) instead of (8 8 4 15), 1920
// (16 8 15) instead of (8 8 10 3). Not the real display's rows (1920 x 1080's display lost with
// them on the H200).
TEST(FastPlan, GlRowsTakeRadix16WhereItMakesFewerStages) {
  using Radices = std::vector<std::uint32_t>;
  const fast::Tuning gl = fast::gl_default_tuning();
  const auto uhd = fast::route_image(3840, 2160, nvidia, gl);
  ASSERT_TRUE(uhd);
  EXPECT_EQ(uhd->rows.plan.radices, (Radices{16, 16, 15})) << uhd->rows.describe();
  EXPECT_EQ(fast::route_image(1920, 1080, nvidia, gl)->rows.plan.radices, (Radices{16, 8, 15}));
  EXPECT_EQ(fast::plan_display_rows(1920, 1080, nvidia, gl)->radices, (Radices{8, 8, 10, 3}));
  // The columns keep radix 8 (GL's 4096-point columns lost with 16), and so do rows whose stage
  // count radix 16 leaves as it was (4000: (16 10 5 5) lost 99.7 -> 108.5 us on the H200).
  for (const std::uint32_t radix : uhd->cols.plan.radices) EXPECT_LE(radix, 15u) << uhd->cols.describe();
  EXPECT_EQ(fast::route_image(4000, 4000, nvidia, gl)->rows.plan.radices, (Radices{8, 10, 10, 5}));
  EXPECT_EQ(fast::route_image(2880, 2880, nvidia, gl)->rows.plan.radices, (Radices{8, 8, 9, 5}));
  EXPECT_EQ(fast::rows_max_radix(gl, 3840), 16u);
  EXPECT_EQ(fast::rows_max_radix(gl, 4000), 8u);
  EXPECT_EQ(fast::rows_max_radix(gl, 4096), 8u);  // powers of two: Tuning::pow2_rows_radix16
  EXPECT_EQ(fast::rows_max_radix(gl, 3000), 8u);  // 16 does not divide it
  // Without the rule, and on OpenCL (radix 16 already within its max_radix 25).
  fast::Tuning gl_radix8 = gl;
  gl_radix8.rows_radix16 = 0;
  EXPECT_EQ(fast::route_image(3840, 2160, nvidia, gl_radix8)->rows.plan.radices, (Radices{8, 8, 4, 15}));
  EXPECT_EQ(fast::rows_max_radix(fast::Tuning{}, 3840), 25u);
}

// The swizzled layout (Tuning::swizzled_rows, swizzled_columns) where it lets half as many
// groups again stay resident.
TEST(FastPlan, GlSwizzlesLinesWhereMoreGroupsStayResident) {
  const fast::Tuning gl = fast::gl_default_tuning();
  // GL's power-of-two rows through the halves take the swizzled layout where it keeps half as
  // many groups again resident (Tuning::swizzled_rows): 4096 points in 16 KiB, three groups in
  // NVIDIA's 48 KiB where the padded 17 408 bytes leave two; not 2048 points (five -> six);
  // OpenCL's defaults never.
  const auto rows_4096 = fast::plan_axis(Axis::rows, 4096, 4096, nvidia, gl);
  EXPECT_EQ(rows_4096->local_layout, fast::LocalLayout::swizzled) << rows_4096->describe();
  EXPECT_EQ(rows_4096->local_bytes(), 16384u) << rows_4096->describe();
  EXPECT_EQ(fast::plan_display_rows(4096, 4096, nvidia, gl)->local_layout, fast::LocalLayout::swizzled);
  EXPECT_EQ(fast::plan_axis(Axis::rows, 2048, 2048, nvidia, gl)->local_layout, fast::LocalLayout::padded);
  EXPECT_EQ(fast::plan_axis(Axis::rows, 4096, 4096, nvidia, fast::Tuning{})->local_layout, fast::LocalLayout::padded);
  fast::Tuning gl_padded = gl;
  gl_padded.swizzled_rows = 0;
  EXPECT_EQ(fast::plan_axis(Axis::rows, 4096, 4096, nvidia, gl_padded)->local_bytes(), 17408u);
  // Rows that are not powers of two keep the padding rules' layout (GL's 4000-point rows
  // unpadded, 3200-point padded: the swizzle lost there on the H200).
  EXPECT_EQ(fast::plan_axis(Axis::rows, 4000, 4000, nvidia, gl)->local_layout, fast::LocalLayout::unpadded);
  EXPECT_EQ(fast::plan_axis(Axis::rows, 3200, 3200, nvidia, gl)->local_layout, fast::LocalLayout::padded);
  // Columns 32 per group the same way (Tuning::swizzled_columns): GL 8192^2's four-step pass B
  // (32 128-point columns, 20 608 bytes padded: two groups) and pass A (64 64-point columns,
  // 17 408 bytes padded) in 16 KiB, three groups; not pass A in groups of 2 048 values (32
  // 64-point columns, 8 704 bytes: five groups, six swizzled); padded again with the knob off (pass
  // B as 20 608 bytes where the groups stay at 4 096 values; by default, unswizzled, they take
  // four_step_unswizzled_elements: 16 columns, 9 280 bytes), and never OpenCL's.
  const auto swizzled_8192 = fast::route_axis(Axis::cols, 8192, 8192, nvidia, gl);
  ASSERT_TRUE(swizzled_8192 && swizzled_8192->four_step()) << swizzled_8192->describe();
  EXPECT_EQ(swizzled_8192->plan.local_layout, fast::LocalLayout::swizzled) << swizzled_8192->describe();
  EXPECT_EQ(swizzled_8192->plan.local_bytes(), 16384u) << swizzled_8192->describe();
  fast::Tuning gl_2048 = gl;
  gl_2048.four_step_elements = 2048;
  const auto narrow_8192 = fast::route_axis(Axis::cols, 8192, 8192, nvidia, gl_2048);
  ASSERT_TRUE(narrow_8192 && narrow_8192->four_step()) << narrow_8192->describe();
  EXPECT_EQ(narrow_8192->plan.lines_per_group, 32u) << narrow_8192->describe();
  EXPECT_NE(narrow_8192->plan.local_layout, fast::LocalLayout::swizzled) << narrow_8192->describe();
  EXPECT_EQ(swizzled_8192->second->local_layout, fast::LocalLayout::swizzled) << swizzled_8192->describe();
  EXPECT_EQ(swizzled_8192->second->local_bytes(), 16384u) << swizzled_8192->describe();
  fast::Tuning gl_padded_columns = gl;
  gl_padded_columns.swizzled_columns = 0;
  fast::Tuning padded_by_4096 = gl_padded_columns;
  padded_by_4096.four_step_unswizzled_elements = 0;
  const auto padded_8192 = fast::route_axis(Axis::cols, 8192, 8192, nvidia, padded_by_4096);
  ASSERT_TRUE(padded_8192 && padded_8192->four_step()) << padded_8192->describe();
  EXPECT_EQ(padded_8192->second->local_layout, fast::LocalLayout::padded) << padded_8192->describe();
  EXPECT_EQ(padded_8192->second->local_bytes(), 20608u) << padded_8192->describe();
  const auto narrow_padded = fast::route_axis(Axis::cols, 8192, 8192, nvidia, gl_padded_columns);
  ASSERT_TRUE(narrow_padded && narrow_padded->four_step()) << narrow_padded->describe();
  EXPECT_EQ(narrow_padded->second->local_bytes(), 9280u) << narrow_padded->describe();
  const auto cl_8192 = fast::route_axis(Axis::cols, 8192, 8192, nvidia, fast::Tuning{});
  ASSERT_TRUE(cl_8192 && cl_8192->four_step()) << cl_8192->describe();
  EXPECT_NE(cl_8192->second->local_layout, fast::LocalLayout::swizzled) << cl_8192->describe();
}

TEST(FastPlan, LayoutsFitNvidiaLocalMemory) {
  const fast::DeviceLimits units_unknown{48 * 1024, 1024};
  const fast::Tuning tuning;
  for (std::uint32_t n : {8u, 30u, 210u, 1000u, 1024u, 1080u, 1920u, 2187u, 2401u, 3125u, 4000u, 4096u, 8192u}) {
    for (Axis axis : {Axis::rows, Axis::cols}) {
      const auto p = fast::plan_axis(axis, n, 4096, units_unknown, tuning);
      ASSERT_TRUE(p.has_value()) << n;
      EXPECT_LE(p->local_bytes(), 48u * 1024) << p->describe();
      EXPECT_EQ(p->pre_radix * p->m, n);
      EXPECT_EQ(product(p->radices), p->m);
      // Groups of whole warps, but split columns whose first stage reads the registers at a size
      // that is not a multiple of 32 (Tuning::exact_split_threads).
      EXPECT_TRUE(p->threads % 32 == 0 || (axis == Axis::cols && p->pre_radix > 1 && p->stage0_from_registers))
          << p->describe();
      EXPECT_LE(p->threads, 256u);
      // Every element of the group's lines has a distinct local slot; odd lengths and the
      // columns of lengths that are not powers of two, 4 or more per group, unpadded
      // (Tuning::local_unpadded 2).
      const bool power_of_two = (p->m & (p->m - 1)) == 0;
      const bool unpadded = p->m % 2 == 1 || (!power_of_two && axis == Axis::cols && p->lines_per_group >= 4);
      EXPECT_EQ(p->local_layout, unpadded ? fast::LocalLayout::unpadded : fast::LocalLayout::padded) << p->describe();
      EXPECT_GE(p->line_stride, p->m + (p->local_layout == fast::LocalLayout::padded ? (p->m - 1) / 16 : 0));
    }
  }
  // The padding decides the layout, unpadded plans only drop it: GL's 3000-point rows keep
  // their exchange through half the shared memory, its 3000-point columns their split by 8.
  fast::Tuning padded = tuning;
  padded.local_unpadded = 0;
  EXPECT_EQ(fast::plan_axis(Axis::rows, 2187, 4096, units_unknown, padded)->local_layout, fast::LocalLayout::padded);
  fast::Tuning gl = fast::gl_default_tuning(), gl_padded = gl;
  gl_padded.local_unpadded = 0;
  for (Axis axis : {Axis::rows, Axis::cols}) {
    const auto unpadded_plan = fast::plan_axis(axis, 3000, 3000, nvidia, gl);
    const auto padded_plan = fast::plan_axis(axis, 3000, 3000, nvidia, gl_padded);
    EXPECT_EQ(unpadded_plan->local_layout, fast::LocalLayout::unpadded);
    EXPECT_EQ(padded_plan->local_layout, fast::LocalLayout::padded);
    EXPECT_EQ(unpadded_plan->local_halves, padded_plan->local_halves) << unpadded_plan->describe();
    EXPECT_EQ(unpadded_plan->pre_radix, padded_plan->pre_radix) << unpadded_plan->describe();
    EXPECT_EQ(unpadded_plan->threads, padded_plan->threads) << unpadded_plan->describe();
    EXPECT_LT(unpadded_plan->local_elems, padded_plan->local_elems) << unpadded_plan->describe();
  }
  // GL's 2430-point columns: four by their halves, one group per multiprocessor, so as many
  // invocations as a group takes.
  const auto halves_columns = fast::plan_axis(Axis::cols, 2430, 2430, nvidia, gl);
  EXPECT_TRUE(halves_columns->local_halves && halves_columns->lines_per_group == 4) << halves_columns->describe();
  EXPECT_EQ(halves_columns->threads, 1024u) << halves_columns->describe();
  // Bluestein's 9216-point lines (4099^2) stay padded: GL's rows split in time, OpenCL's columns
  // of one line per group, GL's of two.
  for (const auto& [t, limits] : {std::pair{gl, nvidia}, std::pair{tuning, units_unknown}}) {
    const auto routes = fast::route_image(4099, 4099, limits, t);
    ASSERT_TRUE(routes.has_value());
    EXPECT_EQ(routes->rows.plan.local_layout, fast::LocalLayout::padded) << routes->rows.describe();
    EXPECT_EQ(routes->cols.plan.local_layout, fast::LocalLayout::padded) << routes->cols.describe();
  }
  // 4096 columns: 4 neighbouring columns (a full 32-byte sector per row) via a split of 4.
  const auto c = fast::plan_axis(Axis::cols, 4096, 4096, units_unknown, tuning);
  EXPECT_EQ(c->lines_per_group, 4u);
  EXPECT_EQ(c->pre_radix, 4u);
  const auto r = fast::plan_axis(Axis::rows, 4096, 4096, units_unknown, tuning);
  EXPECT_EQ(r->pre_radix, 1u);
  EXPECT_EQ(r->lines_per_group, 1u);
}

// The first planning round's odd-split rule (measured on the H100, docs/fast_path.md): OpenCL
// splits 3^7-point columns by 3 to get 4 neighbouring columns, and 7^4-point ones by 7 in groups
// of 4 (Tuning::odd_splits_past_four_columns; without it, unsplit in pairs); GL splits odd
// lengths by 3 and 5 where four columns fit only by their halves (Tuning::odd_length_splits,
// H200), by 7 only where that leaves at least two groups per multiprocessor
// (Tuning::first_split_odd_min), and even lengths by neither.
TEST(FastPlan, FirstRoundOddSplitsFollowEachApisMeasurements) {
  const auto cl_2187 = fast::plan_axis(Axis::cols, 2187, 2187, nvidia, fast::Tuning{});
  ASSERT_TRUE(cl_2187.has_value());
  EXPECT_EQ(cl_2187->lines_per_group, 4u) << cl_2187->describe();
  EXPECT_EQ(cl_2187->pre_radix, 3u) << cl_2187->describe();
  const auto cl_2401 = fast::plan_axis(Axis::cols, 2401, 2401, nvidia, fast::Tuning{});
  ASSERT_TRUE(cl_2401.has_value());
  EXPECT_EQ(cl_2401->lines_per_group, 4u) << cl_2401->describe();
  EXPECT_EQ(cl_2401->pre_radix, 7u) << cl_2401->describe();
  fast::Tuning cl_no_past_four;
  cl_no_past_four.odd_splits_past_four_columns = 0;
  const auto cl_2401_unsplit = fast::plan_axis(Axis::cols, 2401, 2401, nvidia, cl_no_past_four);
  ASSERT_TRUE(cl_2401_unsplit.has_value());
  EXPECT_EQ(cl_2401_unsplit->lines_per_group, 2u) << cl_2401_unsplit->describe();
  EXPECT_EQ(cl_2401_unsplit->pre_radix, 1u) << cl_2401_unsplit->describe();
  // GL splits 3^7 by 3 too, ahead of 4 lines unsplit by their halves, and 1875 = 3 x 5^4 by 3 in
  // groups of 8; without odd_length_splits both keep 4 lines by their halves. Even 1458 = 2 x
  // 3^6 and 3000 take no split by 3 or 5 (they lost there).
  const fast::Tuning gl = fast::gl_default_tuning();
  fast::Tuning gl_no_odd = gl;
  gl_no_odd.odd_length_splits = 0;
  for (const auto& [n, lines] : {std::pair{2187u, 4u}, {1875u, 8u}}) {
    const auto split = fast::plan_axis(Axis::cols, n, n, nvidia, gl);
    ASSERT_TRUE(split.has_value()) << n;
    EXPECT_EQ(split->pre_radix, 3u) << split->describe();
    EXPECT_EQ(split->lines_per_group, lines) << split->describe();
    const auto unsplit = fast::plan_axis(Axis::cols, n, n, nvidia, gl_no_odd);
    EXPECT_EQ(unsplit->pre_radix, 1u) << unsplit->describe();
    EXPECT_TRUE(unsplit->local_halves && unsplit->lines_per_group == 4) << unsplit->describe();
  }
  EXPECT_EQ(fast::plan_axis(Axis::cols, 1458, 1458, nvidia, gl)->pre_radix, 1u);
  EXPECT_EQ(fast::plan_axis(Axis::cols, 3000, 3000, nvidia, gl)->pre_radix, 8u);
  // Only where four columns' complex values (unpadded) exceed GL's 48 KiB and their floats do
  // not (1 537 to 3 072 points): at every odd length from 1 401 to 3 299 with a factor 3 or 5
  // and no prime factor above 13, the knob changes the columns' plan inside that range only, and
  // there into a split in groups of 4 or more (by 3 or 5, or the split by 7 that fit first).
  const auto planned_length = [](std::uint32_t n) {
    for (const std::uint32_t p : {3u, 5u, 7u, 11u, 13u})
      while (n % p == 0) n /= p;
    return n == 1;
  };
  int in_range = 0;
  for (std::uint32_t n = 1401; n < 3300; n += 2) {
    if ((n % 3 != 0 && n % 5 != 0) || !planned_length(n)) continue;
    const auto with = fast::plan_axis(Axis::cols, n, n, nvidia, gl);
    const auto without = fast::plan_axis(Axis::cols, n, n, nvidia, gl_no_odd);
    ASSERT_TRUE(with && without) << n;
    if (n < 1537 || n > 3072) {
      EXPECT_EQ(with->describe(), without->describe()) << n;
      continue;
    }
    ++in_range;
    EXPECT_GT(with->pre_radix, 1u) << with->describe();
    EXPECT_GE(with->lines_per_group, 4u) << with->describe();
    EXPECT_FALSE(with->local_halves) << with->describe();
  }
  EXPECT_GE(in_range, 20);
  // 3969's display columns (1 985 pairs; four fit not even by their halves) keep 8 split by 7.
  const auto display_3969 = fast::plan_real_display(3969, 3969, nvidia, gl);
  ASSERT_TRUE(display_3969.has_value());
  EXPECT_EQ(display_3969->cols.plan.pre_radix, 7u) << display_3969->cols.describe();
  EXPECT_EQ(display_3969->cols.plan.lines_per_group, 8u) << display_3969->cols.describe();
  for (std::uint32_t n : {2401u, 3584u}) {  // 8 columns split 7 x 343 / 7 x 512 (looped), not four steps
    const auto route = fast::route_axis(Axis::cols, n, n, nvidia, gl);
    ASSERT_TRUE(route.has_value()) << n;
    EXPECT_FALSE(route->second.has_value()) << route->describe();
    EXPECT_EQ(route->plan.pre_radix, 7u) << route->describe();
    EXPECT_EQ(route->plan.lines_per_group, 8u) << route->describe();
  }
  // 2401^2's display columns, 1 204 pairs: 151 groups of 8 for 132 multiprocessors (fewer than two
  // each), so 4 lines unsplit; where the units are unknown, the split by 7.
  const auto few = fast::plan_axis(Axis::cols, 2401, 1204, nvidia, gl);
  ASSERT_TRUE(few.has_value());
  EXPECT_EQ(few->pre_radix, 1u) << few->describe();
  EXPECT_EQ(few->lines_per_group, 4u) << few->describe();
  fast::DeviceLimits units_unknown = nvidia;
  units_unknown.compute_units = 0;
  EXPECT_EQ(fast::plan_axis(Axis::cols, 2401, 1204, units_unknown, gl)->pre_radix, 7u);
  // Splits by 3 and 5 stay out of GL's first round: 3000-point columns split 8 x 375.
  EXPECT_EQ(fast::plan_axis(Axis::cols, 3000, 3000, nvidia, gl)->pre_radix, 8u);
}

// GL's first round lets a column split with fewer stages replace the one its rules take
// (Tuning::first_split_fewer_stages; measured on the H100, docs/fast_path.md): 1080-point columns
// 3 x 360 (8 9 5) instead of 2 x 540 (4 9 3 5), 5400-point ones (4 per group) 8 x 675 instead of
// 4 x 1350; equal stage counts keep the rules' split (3000-point 8 x 375, 896-point 2 x 448, 3430-point
// 7 x 490), and so does OpenCL, which never weighs them.
TEST(FastPlan, GlFirstRoundSplitsGiveWayToFewerStages) {
  const fast::Tuning gl = fast::gl_default_tuning();
  const auto split = [&](std::uint32_t n, std::uint32_t lines, const fast::Tuning& t) {
    const auto plan = fast::plan_axis(Axis::cols, n, lines, nvidia, t);
    EXPECT_TRUE(plan.has_value()) << n;
    return plan ? std::pair{plan->pre_radix, plan->radices.size()} : std::pair{0u, std::size_t{0}};
  };
  EXPECT_EQ(split(1080, 1920, gl), (std::pair{3u, std::size_t{3}}));
  EXPECT_EQ(split(5400, 5400, gl), (std::pair{8u, std::size_t{4}}));
  EXPECT_EQ(fast::plan_axis(Axis::cols, 5400, 5400, nvidia, gl)->lines_per_group, 4u);
  EXPECT_EQ(split(3000, 3000, gl).first, 8u);
  EXPECT_EQ(split(896, 896, gl).first, 2u);
  EXPECT_EQ(split(3430, 3430, gl).first, 7u);
  fast::Tuning off = gl;
  off.first_split_fewer_stages = 0;
  EXPECT_EQ(split(1080, 1920, off), (std::pair{2u, std::size_t{4}}));
  EXPECT_EQ(split(5400, 5400, off).first, 4u);
  EXPECT_EQ(split(1080, 1920, fast::Tuning{}).first, 2u);  // OpenCL: 4 columns split 2 x 540
}

// GL's rows stay padded where 2^4 divides the length they transform and 5^3 does not (the
// measured split: rows of 125 x 2^k and those with few factors of 2 won unpadded); odd rows are
// unpadded always, OpenCL's rows (local_unpadded 2) never.
TEST(FastPlan, GlRowsPaddedWherePowersOfTwoMeetInTheBanks) {
  const fast::Tuning gl = fast::gl_default_tuning();
  const auto padded = [&](std::uint32_t n, const fast::Tuning& t) {
    const auto plan = fast::plan_axis(Axis::rows, n, 1024, nvidia, t);
    EXPECT_TRUE(plan.has_value()) << n;
    return plan && plan->local_layout == fast::LocalLayout::padded;
  };
  for (std::uint32_t n : {960u, 1200u, 1280u, 1440u, 1536u, 1600u, 1920u, 2160u, 2560u, 3200u, 3584u, 3840u, 4032u})
    EXPECT_TRUE(padded(n, gl)) << n;
  for (std::uint32_t n : {1000u, 2000u, 3000u, 4000u, 1080u, 1372u, 1400u, 2744u, 3430u, 5400u, 2187u, 2401u, 3125u})
    EXPECT_FALSE(padded(n, gl)) << n;
  // Split rows: the sub-length decides (6000 = 2 x 3000 unpadded, 7168 = 2 x 3584 padded).
  for (const auto& [n, pad] : {std::pair{6000u, false}, std::pair{7168u, true}}) {
    const auto split_rows = fast::plan_axis(Axis::rows, n, 3584, nvidia, gl);
    ASSERT_TRUE(split_rows.has_value()) << n;
    EXPECT_EQ(split_rows->pre_radix, 2u) << split_rows->describe();
    EXPECT_EQ(split_rows->local_layout == fast::LocalLayout::padded, pad) << split_rows->describe();
  }
  fast::Tuning any = gl;
  any.padded_rows_min_twos = 0;
  for (std::uint32_t n : {1920u, 2560u, 4000u}) EXPECT_FALSE(padded(n, any)) << n;
  EXPECT_TRUE(padded(1920, fast::Tuning{}));
  EXPECT_TRUE(padded(4000, fast::Tuning{}));
  // The rule reaches the real display's rows too (plan_display_rows plans them as rows).
  EXPECT_EQ(fast::plan_display_rows(1920, 1080, nvidia, gl)->local_layout, fast::LocalLayout::padded);
  EXPECT_EQ(fast::plan_display_rows(4000, 4000, nvidia, gl)->local_layout, fast::LocalLayout::unpadded);
}

// GL's unsplit rows take their widest stage in one round where that cuts the values each
// invocation holds by a third (up to 640 invocations), and odd rows also where it runs more
// invocations on a multiprocessor at once (2 048 invocations and 48 KiB of shared memory each):
// 4032-point rows 288 -> 576 (18 -> 9 values), 3200-point 320 -> 640, 3125-point (three groups of
// 12.5 KB either way) 320 -> 640, 2187-point (two of 17.5 KB) 512 -> 736; the 2187-point display
// rows through halves (four groups of 512 at once, two of 736) keep 512, and so do rows whose
// values held stay (1920, 3000, 3840, 4000) or whose one round needs more than 640 (5184);
// OpenCL and the knobs at 0 never.
TEST(FastPlan, GlRowsTakeOneRoundWhereItHoldsLessOrRunsMoreAtOnce) {
  const fast::Tuning gl = fast::gl_default_tuning();
  const auto threads = [&](std::uint32_t n, const fast::Tuning& t) {
    const auto plan = fast::plan_axis(Axis::rows, n, n, nvidia, t);
    EXPECT_TRUE(plan.has_value()) << n;
    return plan ? plan->threads : 0u;
  };
  const fast::Tuning off = fast::rows_in_rounds(gl);
  for (const auto& [n, before, after] : {std::tuple{4032u, 288u, 576u}, std::tuple{2880u, 288u, 576u},
                                         std::tuple{3200u, 320u, 640u}, std::tuple{3125u, 320u, 640u},
                                         std::tuple{2187u, 512u, 736u}}) {
    EXPECT_EQ(threads(n, off), before) << n;
    EXPECT_EQ(threads(n, gl), after) << n;
  }
  for (std::uint32_t n : {1920u, 3000u, 3840u, 4000u, 5184u, 2401u}) EXPECT_EQ(threads(n, gl), threads(n, off)) << n;
  EXPECT_EQ(fast::plan_display_rows(3125, 3125, nvidia, gl)->threads, 640u);
  EXPECT_EQ(fast::plan_display_rows(4032, 3024, nvidia, gl)->threads, 576u);
  const auto display_2187 = fast::plan_display_rows(2187, 2187, nvidia, gl);
  ASSERT_TRUE(display_2187.has_value());
  EXPECT_TRUE(display_2187->local_halves) << display_2187->describe();
  // The display rows' own bound (Tuning::display_rows_odd_max_threads) holds them to 256; without
  // it, their halves give four groups of 512 at once against two of 736, so 512.
  EXPECT_EQ(display_2187->threads, 256u) << display_2187->describe();
  fast::Tuning gl_odd_unbounded = gl;
  gl_odd_unbounded.display_rows_odd_max_threads = 0;
  EXPECT_EQ(fast::plan_display_rows(2187, 2187, nvidia, gl_odd_unbounded)->threads, 512u);
  // Odd rows by the count at once only where the local memory per multiprocessor is known.
  fast::Tuning unknown = gl;
  unknown.unit_local_bytes = 0;
  EXPECT_EQ(threads(2187, unknown), 512u);
  EXPECT_EQ(threads(3125, unknown), 640u);  // 10 -> 5 values: by the values held
  EXPECT_EQ(threads(3125, fast::cl_tuning(fast::Tuning{})), 256u);
}

// The scheduling options' rules: twiddles read a stage ahead in split plans only (by default),
// and a split's first stage from the registers exactly where each work-item's butterfly inputs
// are its own split elements (b = b' + r lines M / R_0, that step a multiple of the threads).
TEST(FastPlan, SchedulingOptionsFollowTheirLayoutRules) {
  const fast::Tuning tuning;
  for (std::uint32_t n : {1000u, 1024u, 1080u, 2048u, 2187u, 4000u, 4096u, 8192u}) {
    for (Axis axis : {Axis::rows, Axis::cols}) {
      const auto p = fast::plan_axis(axis, n, n, nvidia, tuning);
      ASSERT_TRUE(p.has_value()) << n;
      EXPECT_EQ(p->prefetch_twiddles, p->pre_radix > 1) << p->describe();
      const std::uint64_t step = std::uint64_t{p->lines_per_group} * (p->m / p->radices.front());
      const bool own = p->pre_radix > 1 && (axis == Axis::cols || p->lines_per_group == 1) &&
                       step % p->threads == 0 && std::uint64_t{p->lines_per_group} * p->m % p->threads == 0;
      EXPECT_EQ(p->stage0_from_registers, own) << p->describe();
    }
  }
  // 4096-point columns (4 lines split 4 x 1024, (8 8 4 4), 256 threads: step 512) do; 4000-point
  // columns (4 lines split 4 x 1000, (10 10 10): step 400) do not in 256 work-items (their 200,
  // 80 values each, need Tuning::exact_split_max_pre_hold).
  EXPECT_TRUE(fast::plan_axis(Axis::cols, 4096, 4096, nvidia, tuning)->stage0_from_registers);
  fast::Tuning at_most_64 = tuning;
  at_most_64.exact_split_max_pre_hold = 0;
  EXPECT_FALSE(fast::plan_axis(Axis::cols, 4000, 4000, nvidia, at_most_64)->stage0_from_registers);
  fast::Tuning off = tuning;
  off.stage0_from_registers = 0;
  off.prefetch_twiddles = 0;
  const auto c = fast::plan_axis(Axis::cols, 4096, 4096, nvidia, off);
  EXPECT_FALSE(c->stage0_from_registers);
  EXPECT_FALSE(c->prefetch_twiddles);
  const auto defines = c->defines();
  EXPECT_NE(std::find(defines.begin(), defines.end(), std::pair<std::string, std::string>{"STAGE0_FROM_PRE", "0"}),
            defines.end());
}

// GL loops the sub-transforms of splits in frequency by 4 or more in groups of at most 512
// (Tuning::sub_transform_loop_min_split): the 4096- and 2048-point columns, not the 1024-point
// ones (split by 2), nor the 3125-point ones (1 024 invocations), nor splits in time (8192-point
// rows), nor unsplit plans whatever the bound; OpenCL's tuning never loops.
TEST(FastPlan, GlLoopsLongSplitsOnly) {
  fast::Tuning gl = fast::gl_default_tuning();
  gl.exact_split_threads = 0;  // the loop's rule alone (exact group sizes change the counts it reads)
  const auto looped = [&](Axis axis, std::uint32_t n, const fast::Tuning& tuning) {
    const auto plan = fast::plan_axis(axis, n, n, nvidia, tuning);
    EXPECT_TRUE(plan.has_value()) << n;
    return plan && plan->sub_transform_loop;
  };
  EXPECT_TRUE(looped(Axis::cols, 4096, gl));
  EXPECT_TRUE(looped(Axis::cols, 2048, gl));
  EXPECT_FALSE(looped(Axis::cols, 1024, gl));
  EXPECT_FALSE(looped(Axis::cols, 3125, gl));
  EXPECT_FALSE(looped(Axis::rows, 8192, gl));
  fast::Tuning from_one = gl;
  from_one.sub_transform_loop_min_split = 1;
  EXPECT_FALSE(looped(Axis::rows, 4096, from_one));  // unsplit: the shader refuses the loop there
  EXPECT_TRUE(looped(Axis::cols, 4096, from_one));
  const auto cols_4096 = fast::plan_axis(Axis::cols, 4096, 4096, nvidia, gl);
  ASSERT_TRUE(cols_4096.has_value());
  const auto defines = cols_4096->defines();
  EXPECT_NE(std::find(defines.begin(), defines.end(), std::pair<std::string, std::string>{"SUB_TRANSFORM_LOOP", "1"}),
            defines.end());
  for (std::uint32_t n : {2048u, 4096u, 8192u})
    for (Axis axis : {Axis::rows, Axis::cols}) EXPECT_FALSE(looped(axis, n, fast::cl_tuning(gl))) << n;
  // Groups of more than 512 loop only under sub_transform_loop_max_threads (a measured-planning
  // candidate): 1440-point columns, 8 split 4 x 360 in 576 invocations.
  const auto cols_1440 = fast::plan_axis(Axis::cols, 1440, 2560, nvidia, gl);
  ASSERT_TRUE(cols_1440.has_value());
  EXPECT_EQ(cols_1440->pre_radix, 4u) << cols_1440->describe();
  EXPECT_EQ(cols_1440->threads, 576u) << cols_1440->describe();
  EXPECT_FALSE(cols_1440->sub_transform_loop) << cols_1440->describe();
  fast::Tuning wider = gl;
  wider.sub_transform_loop_max_threads = 640;
  EXPECT_TRUE(fast::plan_axis(Axis::cols, 1440, 2560, nvidia, wider)->sub_transform_loop);
}

// GL's power-of-two rows of 2048 points and more take radix 16 in groups of 256, unsplit ones
// through half the shared memory (Tuning::pow2_rows_radix16); its other rows and its columns keep
// radix 8 and 512 invocations; OpenCL's plans are unchanged by the rule.
TEST(FastPlan, PowerOfTwoRowsTakeRadix16OnGl) {
  const fast::Tuning gl = fast::gl_default_tuning();
  for (std::uint32_t n : {2048u, 4096u, 8192u}) {
    const auto image = fast::route_image(n, n, nvidia, gl);
    ASSERT_TRUE(image.has_value()) << n;
    const fast::AxisPlan& rows = image->rows.plan;
    EXPECT_LE(rows.threads, 256u) << rows.describe();
    EXPECT_EQ(rows.radices.front(), 16u) << rows.describe();
    if (rows.pre_radix == 1) {
      EXPECT_TRUE(rows.local_halves) << rows.describe();  // 2048 points (17 KiB) from 16 KiB
    }
    const auto& cols = image->cols.four_step() ? *image->cols.second : image->cols.plan;
    EXPECT_LE(*std::max_element(cols.radices.begin(), cols.radices.end()), 8u) << cols.describe();
    const auto cl = fast::route_image(n, n, nvidia, fast::Tuning{});
    EXPECT_EQ(fast::plan_identity(cl->rows.plan), fast::plan_identity(fast::route_axis(Axis::rows, n, n, nvidia, fast::Tuning{})->plan));
  }
  fast::Tuning gl_rows = gl;  // the other rows change only by row_prefetch_twiddles (below)
  gl_rows.prefetch_twiddles = 2;
  for (std::uint32_t n : {256u, 1024u, 2401u, 4000u}) {
    EXPECT_EQ(fast::route_identity(fast::route_image(n, n, nvidia, gl)->rows),
              fast::route_identity(*fast::route_axis(Axis::rows, n, n, nvidia, gl_rows)))
        << n;
  }
}

// GL's complex rows read the next stage's twiddles ahead in every plan, its columns in split
// plans only (as OpenCL's passes, whose rows keep the rule).
TEST(FastPlan, GlRowsPrefetchTwiddlesInEveryPlan) {
  for (std::uint32_t n : {1000u, 2187u, 4000u, 4096u}) {
    const auto gl = fast::route_image(n, n, nvidia, fast::gl_default_tuning());
    ASSERT_TRUE(gl.has_value()) << n;
    EXPECT_EQ(gl->rows.plan.pre_radix, 1u) << gl->rows.describe();
    EXPECT_TRUE(gl->rows.plan.prefetch_twiddles) << gl->rows.describe();
    const auto cl = fast::route_image(n, n, nvidia, fast::Tuning{});
    EXPECT_EQ(cl->rows.plan.prefetch_twiddles, cl->rows.plan.pre_radix > 1) << cl->rows.describe();
  }
  const auto unsplit = fast::route_image(2430, 2430, nvidia, fast::gl_default_tuning())->cols.plan;
  EXPECT_EQ(unsplit.pre_radix, 1u) << unsplit.describe();
  EXPECT_FALSE(unsplit.prefetch_twiddles) << unsplit.describe();
  const auto split = fast::route_image(2187, 2187, nvidia, fast::gl_default_tuning())->cols.plan;
  EXPECT_EQ(split.pre_radix, 3u) << split.describe();
  EXPECT_TRUE(split.prefetch_twiddles) << split.describe();
}

// GL's split columns take one round of up to 1024 invocations where their widest stage needs
// more than 512 (3125 = 8 columns split 5 x 625: 1000 butterflies); columns already in one round
// and unsplit columns keep their groups; OpenCL's stay at 256.
TEST(FastPlan, GlSplitColumnsTakeOneRoundOfUpTo1024Invocations) {
  fast::Tuning gl = fast::gl_default_tuning();
  gl.exact_split_threads = 0;  // the one-round rule alone (Tuning::exact_split_threads: 1 000 here)
  const auto c3125 = fast::route_image(3125, 3125, nvidia, gl)->cols.plan;
  EXPECT_EQ(c3125.pre_radix, 5u) << c3125.describe();
  EXPECT_EQ(c3125.threads, 1024u) << c3125.describe();
  fast::Tuning off = gl;
  off.col_one_round_threads = 0;
  EXPECT_EQ(fast::route_image(3125, 3125, nvidia, off)->cols.plan.threads, 512u);
  const auto c4096 = fast::route_image(4096, 4096, nvidia, gl)->cols.plan;
  EXPECT_EQ(c4096.threads, 512u) << c4096.describe();  // 8 x 512 / 8 = 512 butterflies
  const auto c4000 = fast::route_image(4000, 4000, nvidia, gl)->cols;
  ASSERT_FALSE(c4000.four_step()) << c4000.describe();
  EXPECT_EQ(c4000.plan.threads, 1024u) << c4000.describe();  // 8 split 8 x 500: 1000 butterflies
  EXPECT_EQ(fast::route_real_columns(4000, 4000, nvidia, gl)->plan.threads, 1024u);
  EXPECT_LE(fast::route_image(3125, 3125, nvidia, fast::Tuning{})->cols.plan.threads, 256u);
}

// GL's Bluestein rows split through registers take one round of up to 1024 invocations where
// their widest stage needs more than 512 (4099: 9216 points split 2 x 4608, 576 butterflies);
// other split rows (6144 = 2 x 3072, 1024 butterflies) and OpenCL's keep their groups.
TEST(FastPlan, GlBluesteinRowsTakeOneRoundOfUpTo1024Invocations) {
  const fast::Tuning gl = fast::gl_default_tuning();
  const auto r4099 = fast::route_image(4099, 4099, nvidia, gl)->rows;
  ASSERT_TRUE(r4099.bluestein()) << r4099.describe();
  EXPECT_EQ(r4099.plan.pre_radix, 2u) << r4099.describe();
  EXPECT_EQ(r4099.plan.threads, 576u) << r4099.describe();
  fast::Tuning off = gl;
  off.bluestein_row_one_round_threads = 0;
  EXPECT_EQ(fast::route_image(4099, 4099, nvidia, off)->rows.plan.threads, 288u);
  const auto r6144 = fast::route_image(6144, 6144, nvidia, gl)->rows.plan;
  EXPECT_EQ(r6144.pre_radix, 2u) << r6144.describe();
  EXPECT_EQ(r6144.threads, fast::route_image(6144, 6144, nvidia, off)->rows.plan.threads) << r6144.describe();
  EXPECT_LE(fast::route_image(4099, 4099, nvidia, fast::cl_tuning(fast::Tuning{}))->rows.plan.threads, 256u);
}

// GL's exchange through half the local memory: unsplit plans above the threshold only, with
// half the bytes; never in OpenCL's defaults or in the display epilogues' plans.
TEST(FastPlan, LocalHalvesOnlyForLargeUnsplitPlans) {
  const fast::Tuning gl = fast::gl_default_tuning();
  bool some = false;
  for (std::uint32_t n : {256u, 1000u, 1024u, 2048u, 2187u, 2401u, 3125u, 4000u, 4096u, 8192u}) {
    for (Axis axis : {Axis::rows, Axis::cols}) {
      const auto p = fast::plan_axis(axis, n, n, nvidia, gl);
      ASSERT_TRUE(p.has_value()) << n;
      const std::uint64_t complex_bytes = std::uint64_t{p->local_elems} * 8;
      const bool wanted = p->pre_radix == 1 && p->radices.size() > 1 && complex_bytes > gl.local_halves_above;
      if (p->local_halves && complex_bytes > nvidia.local_bytes) {  // fits only by its halves
        EXPECT_TRUE(axis == Axis::cols && p->lines_per_group == 4) << p->describe();
      }
      EXPECT_EQ(p->local_halves, wanted) << p->describe();
      EXPECT_EQ(p->local_bytes(), p->local_halves ? complex_bytes / 2 : complex_bytes) << p->describe();
      if (p->local_halves && axis == Axis::cols && p->lines_per_group > 1) {  // neighbouring columns' floats
        EXPECT_EQ(p->line_stride % 32, 32 / p->lines_per_group % 32) << p->describe();
      }
      some |= p->local_halves;
      EXPECT_FALSE(fast::plan_axis(axis, n, n, nvidia, fast::Tuning{})->local_halves) << n;
    }
  }
  EXPECT_TRUE(some) << "no plan took the halves";
  // 4096-point rows (34816 B as complex values) do, 2048-point rows (17408 B) do not.
  EXPECT_TRUE(fast::plan_axis(Axis::rows, 4096, 4096, nvidia, gl)->local_halves);
  EXPECT_FALSE(fast::plan_axis(Axis::rows, 2048, 2048, nvidia, gl)->local_halves);
  // 2430-point columns: 4 lines unsplit in halves (76 KiB as complex values), not 2.
  const auto cols_2430 = fast::plan_axis(Axis::cols, 2430, 2430, nvidia, gl);
  EXPECT_TRUE(cols_2430->local_halves && cols_2430->lines_per_group == 4 && cols_2430->pre_radix == 1)
      << cols_2430->describe();
  // GL's display rows colour each bin where other rows store it, so they take the halves as
  // rows do; coloured from local memory (display_from_registers 0), they do not, nor do the R2C
  // rows (their epilogue reads the last stage's outputs in local memory).
  EXPECT_TRUE(fast::plan_display_rows(4096, 4096, nvidia, gl)->local_halves);
  fast::Tuning gl_from_local = gl;
  gl_from_local.display_from_registers = 0;
  EXPECT_FALSE(fast::plan_display_rows(4096, 4096, nvidia, gl_from_local)->local_halves);
  EXPECT_FALSE(fast::plan_r2c_rows(8192, 4096, nvidia, gl)->local_halves);
  const auto defines = fast::plan_axis(Axis::rows, 4096, 4096, nvidia, gl)->defines();
  EXPECT_NE(std::find(defines.begin(), defines.end(), std::pair<std::string, std::string>{"LOCAL_HALVES", "1"}),
            defines.end());
}

// The split in time: OpenCL's row splits (and Bluestein's padded lines, FastBluestein) by default,
// GL's row splits whose first stage reads the registers, every split through registers with 3;
// the display rows as any rows (the R2C rows are never split).
TEST(FastPlan, SplitInTimeFollowsItsRules) {
  for (const std::uint32_t mode : {0u, 1u, 2u, 3u}) {
    fast::Tuning tuning;
    tuning.split_dit = mode;
    for (std::uint32_t n : {1024u, 2048u, 4000u, 4096u, 8192u}) {
      for (Axis axis : {Axis::rows, Axis::cols}) {
        const auto p = fast::plan_axis(axis, n, n, nvidia, tuning);
        ASSERT_TRUE(p.has_value()) << n;
        const bool split = p->pre_radix > 1 && !p->split_global;
        const bool wanted = split && (mode == 3 || (mode == 2 && axis == Axis::rows) ||
                                      (mode == 1 && axis == Axis::rows && p->stage0_from_registers));
        EXPECT_EQ(p->split_dit, wanted) << mode << ' ' << p->describe();
        const auto gl = fast::plan_axis(axis, n, n, nvidia, fast::gl_default_tuning());
        EXPECT_EQ(gl->split_dit, gl->stage0_from_registers && axis == Axis::rows) << gl->describe();
      }
    }
  }
  const auto rows = fast::plan_axis(Axis::rows, 8192, 8192, nvidia, fast::Tuning{});
  EXPECT_TRUE(rows->split_dit) << rows->describe();  // 2 x 4096, the first stage from the registers
  const auto defines = rows->defines();
  EXPECT_NE(std::find(defines.begin(), defines.end(), std::pair<std::string, std::string>{"SPLIT_DIT", "1"}),
            defines.end());
  EXPECT_FALSE(fast::plan_axis(Axis::cols, 8192, 8192, nvidia, fast::Tuning{})->split_dit);
  // Display rows split in time as other rows do, coloured from the registers or from local
  // memory (OpenCL's default): their pixels then go out in natural order.
  for (fast::Tuning tuning : {fast::Tuning{}, fast::gl_default_tuning()}) {
    for (const std::uint32_t from_registers : {0u, 1u}) {
      tuning.display_from_registers = from_registers;
      const auto display = fast::plan_display_rows(8192, 8192, nvidia, tuning);
      EXPECT_TRUE(display->stage0_from_registers && display->split_dit) << display->describe();
    }
  }
  EXPECT_EQ(fast::Tuning{}.display_from_registers, 0u);
  EXPECT_EQ(fast::gl_default_tuning().display_from_registers, 1u);
}

// The register bound (OpenCL on NVIDIA states it in the PTX): by default split display rows
// (128) and the complex path's unsplit rows with a radix-10 or radix-25 stage (64); other complex
// passes and unsplit display rows keep the compiler's choice, and GL states none. It names no
// #define (the kernel source is the same) and shows in the description.
TEST(FastPlan, RegisterBoundForSplitDisplayRowsAndCompositeRows) {
  const fast::Tuning cl;
  const auto split = fast::plan_display_rows(8192, 8192, nvidia, cl);
  ASSERT_TRUE(split && split->pre_radix > 1) << split->describe();
  EXPECT_EQ(split->max_registers, cl.display_rows_max_registers);
  EXPECT_EQ(cl.display_rows_max_registers, 128u);
  EXPECT_NE(split->describe().find("at most 128 registers"), std::string::npos) << split->describe();
  for (const std::size_t n : {256u, 1000u, 4000u, 4096u}) {
    const auto unsplit = fast::plan_display_rows(n, n, nvidia, cl);
    ASSERT_TRUE(unsplit && unsplit->pre_radix == 1) << unsplit->describe();
    EXPECT_EQ(unsplit->max_registers, 0u) << unsplit->describe();
    EXPECT_EQ(unsplit->describe().find("registers"), std::string::npos) << unsplit->describe();
  }
  EXPECT_EQ(fast::plan_display_rows(8192, 8192, nvidia, fast::gl_default_tuning())->max_registers, 0u);
  for (const Axis axis : {Axis::rows, Axis::cols}) {
    const auto complex = fast::plan_axis(axis, 8192, 8192, nvidia, cl);
    EXPECT_EQ(complex->max_registers, 0u) << complex->describe();
    fast::Tuning bounded = cl;
    bounded.max_registers = 96;
    const auto bound = fast::plan_axis(axis, 8192, 8192, nvidia, bounded);
    EXPECT_EQ(bound->max_registers, 96u);
    EXPECT_EQ(bound->defines(), complex->defines());
  }
  // Tuning::composite_rows_max_registers: the complex path's 3125 (25 25 5), 4000 (16 10 5 5), 1000
  // (10 10 10) rows (route_axis); not their columns, not rows without such a stage (4096, 2187,
  // 2401, 1920), not GL's, not the R2C half spectrum's rows (not measured there).
  for (const std::uint32_t n : {3125u, 4000u, 1000u}) {
    const auto rows = fast::route_axis(Axis::rows, n, n, nvidia, cl)->plan;
    EXPECT_EQ(rows.max_registers, 64u) << rows.describe();
    EXPECT_NE(rows.describe().find("at most 64 registers"), std::string::npos) << rows.describe();
    EXPECT_EQ(fast::route_axis(Axis::cols, n, n, nvidia, cl)->plan.max_registers, 0u);
    EXPECT_EQ(fast::route_axis(Axis::rows, n, n, nvidia, fast::gl_default_tuning())->plan.max_registers, 0u);
    EXPECT_EQ(fast::route_image(n, n, nvidia, cl)->rows.plan.max_registers, 64u);
  }
  for (const std::uint32_t n : {4096u, 2187u, 2401u, 1920u})
    EXPECT_EQ(fast::route_axis(Axis::rows, n, n, nvidia, cl)->plan.max_registers, 0u) << n;
  const auto r2c = fast::plan_r2c_rows(2000, 16, nvidia, cl);  // 1000-point rows (10 10 10)
  ASSERT_TRUE(r2c);
  EXPECT_EQ(r2c->radices, (std::vector<std::uint32_t>{10, 10, 10}));
  EXPECT_EQ(r2c->max_registers, 0u);
  fast::Tuning unbounded = cl;
  unbounded.composite_rows_max_registers = 0;
  EXPECT_EQ(fast::route_axis(Axis::rows, 3125, 3125, nvidia, unbounded)->plan.max_registers, 0u);
  fast::Tuning stated = cl;
  stated.max_registers = 96;  // a bound stated for every pass is kept
  EXPECT_EQ(fast::route_axis(Axis::rows, 3125, 3125, nvidia, stated)->plan.max_registers, 96u);
}

// The registers under which two groups share NVIDIA's register file (65 536 per multiprocessor,
// allocated per warp of 32 in steps of 8 per work-item): 128 for 256 work-items, 168 for 192
// (2 x 192 x 168 = 64 512), 144 for 200 (7 warps: 224 lanes), 64 for 512.
TEST(FastPlan, SecondGroupRegistersFollowTheRegisterFile) {
  EXPECT_EQ(fast::second_group_registers(256, 65536), 128u);
  EXPECT_EQ(fast::second_group_registers(192, 65536), 168u);
  EXPECT_EQ(fast::second_group_registers(200, 65536), 144u);
  EXPECT_EQ(fast::second_group_registers(512, 65536), 64u);
  EXPECT_EQ(fast::second_group_registers(256, 32768), 64u);
  EXPECT_EQ(fast::second_group_registers(256, 0), 0u);
  EXPECT_EQ(fast::second_group_registers(0, 65536), 0u);
}

// Tuning::second_group_columns (no default; a measured-planning candidate on OpenCL): direct split
// columns in more groups than the device has multiprocessors take the registers of two groups,
// where the device names its register file; not where the first stage reads the registers (powers
// of two), not in one wave (1000-point columns: 125 groups; the 1920 x 1080 display's 960 pair
// columns: 120), not rows, four-step or Bluestein columns, GL's plans, nor a plan with a stated
// bound. The program is the same (#defines), only its bound differs.
TEST(FastPlan, SecondGroupForSplitColumnsInMoreThanOneWave) {
  EXPECT_EQ(fast::Tuning{}.second_group_columns, 0u);
  fast::Tuning cl;
  cl.second_group_columns = 1;
  cl.exact_split_threads = 0;  // whose first stage from the registers the bound leaves alone
  const fast::DeviceLimits nvidia_registers{48 * 1024, 1024, 132, 65536};
  EXPECT_EQ(fast::route_image(3125, 3125, nvidia_registers, fast::Tuning{})->cols.plan.max_registers, 0u);
  const auto candidates = fast::measure_candidates(fast::Tuning{}, false);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.second_group_columns == 1; }), 1);
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{3125, 3125}, {4000, 4000}, {1920, 1080}, {3840, 2160}}) {
    const auto image = fast::route_image(w, h, nvidia_registers, cl);
    ASSERT_TRUE(image);
    const fast::AxisPlan& cols = image->cols.plan;
    ASSERT_TRUE(!image->cols.four_step() && cols.pre_radix > 1 && !cols.stage0_from_registers) << cols.describe();
    EXPECT_EQ(cols.max_registers, 128u) << cols.describe();
    EXPECT_NE(cols.describe().find("at most 128 registers"), std::string::npos) << cols.describe();
    const auto unknown = fast::route_image(w, h, nvidia, cl);  // no register file named: no bound
    EXPECT_EQ(unknown->cols.plan.max_registers, 0u) << unknown->cols.describe();
    EXPECT_EQ(unknown->cols.plan.defines(), cols.defines());
    EXPECT_EQ(image->rows.plan.max_registers, unknown->rows.plan.max_registers) << image->rows.describe();
    fast::Tuning gl = fast::gl_default_tuning();
    gl.second_group_columns = 1;  // GL's limits name no register file
    EXPECT_EQ(fast::route_image(w, h, nvidia, gl)->cols.plan.max_registers, 0u);
  }
  EXPECT_EQ(fast::route_image(2187, 2187, nvidia_registers, cl)->cols.plan.max_registers, 168u);  // 192 work-items
  EXPECT_EQ(fast::route_image(2401, 2401, nvidia_registers, cl)->cols.plan.max_registers, 168u);  // 7 x 343 in 192
  EXPECT_EQ(fast::route_real_columns(4000, 4000, nvidia_registers, cl)->plan.max_registers, 128u);
  EXPECT_EQ(fast::route_real_columns(1920, 1080, nvidia_registers, cl)->plan.max_registers, 0u);
  for (const std::size_t n : {1000u, 1024u, 2048u, 4096u, 8192u, 4099u, 512u}) {
    const auto image = fast::route_image(n, n, nvidia_registers, cl);
    ASSERT_TRUE(image);
    EXPECT_EQ(image->cols.plan.max_registers, 0u) << image->cols.describe();
    if (image->cols.second) {
      EXPECT_EQ(image->cols.second->max_registers, 0u) << image->cols.describe();
    }
  }
  fast::Tuning stated = cl;
  stated.max_registers = 96;
  EXPECT_EQ(fast::route_image(3125, 3125, nvidia_registers, stated)->cols.plan.max_registers, 96u);
  fast::Tuning off = cl;
  off.second_group_columns = 0;
  EXPECT_EQ(fast::route_image(3125, 3125, nvidia_registers, off)->cols.plan.max_registers, 0u);
}

// Split columns whose first stage can read the split's registers at a group size that is not a
// multiple of 32 take it (Tuning::exact_split_threads, both APIs' default): the size divides the
// first stage's step and the group's elements, lies between half the group and max_threads, and
// holds at most max_pre_hold values; nothing else moves.
TEST(FastPlan, ExactSplitThreadsLetTheFirstStageReadTheRegisters) {
  EXPECT_EQ(fast::Tuning{}.exact_split_threads, 1u);
  EXPECT_EQ(fast::gl_default_tuning().exact_split_threads, 1u);
  struct Case {
    bool gl;
    std::size_t w, h;
    std::uint32_t threads;  // with the rule
  };
  for (const Case& c : {Case{true, 3125, 3125, 1000}, Case{true, 4000, 4000, 1000}, Case{true, 2401, 2401, 392},
                        Case{true, 3840, 2160, 360}, Case{false, 3125, 3125, 250}, Case{false, 3840, 2160, 180},
                        Case{false, 3000, 3000, 200}, Case{false, 2187, 2187, 162}}) {
    SCOPED_TRACE(std::string(c.gl ? "GL " : "OpenCL ") + std::to_string(c.w) + "x" + std::to_string(c.h));
    fast::Tuning on = c.gl ? fast::gl_default_tuning() : fast::Tuning{};
    fast::Tuning off = on;
    off.exact_split_threads = 0;
    const auto a = fast::route_image(c.w, c.h, nvidia, on);
    const auto b = fast::route_image(c.w, c.h, nvidia, off);
    ASSERT_TRUE(a && b);
    const fast::AxisPlan& cols = a->cols.plan;
    EXPECT_EQ(cols.threads, c.threads) << cols.describe();
    EXPECT_TRUE(cols.stage0_from_registers) << cols.describe();
    EXPECT_FALSE(b->cols.plan.stage0_from_registers) << b->cols.describe();
    EXPECT_EQ(b->cols.plan.threads % 32, 0u);
    const std::uint64_t elements = std::uint64_t{cols.lines_per_group} * cols.m;
    EXPECT_EQ(elements % cols.threads, 0u);
    EXPECT_EQ(std::uint64_t{cols.lines_per_group} * (cols.m / cols.radices.front()) % cols.threads, 0u);
    EXPECT_GE(2 * cols.threads, b->cols.plan.threads);
    // The same split, lines and stages; the rows as they were.
    EXPECT_EQ(cols.pre_radix, b->cols.plan.pre_radix);
    EXPECT_EQ(cols.lines_per_group, b->cols.plan.lines_per_group);
    EXPECT_EQ(cols.radices, b->cols.plan.radices);
    EXPECT_EQ(a->rows.describe(), b->rows.describe());
  }
  // Left: OpenCL's 4000-point columns where only max_pre_hold counts (200 work-items would hold
  // 80 values; Tuning::exact_split_max_pre_hold allows them), GL's 1000-point (below), splits
  // whose first stage already reads the registers (powers of two), Bluestein (4099^2), unsplit
  // columns (512^2), four steps (8192^2).
  for (const bool gl : {false, true}) {
    fast::Tuning on = gl ? fast::gl_default_tuning() : fast::Tuning{};
    on.exact_split_max_pre_hold = 0;
    fast::Tuning off = on;
    off.exact_split_threads = 0;
    for (const std::size_t n : {2048u, 4096u, 4099u, 512u, 8192u}) {
      EXPECT_EQ(fast::route_image(n, n, nvidia, on)->cols.describe(), fast::route_image(n, n, nvidia, off)->cols.describe())
          << n;
    }
    if (!gl) {
      EXPECT_EQ(fast::route_image(4000, 4000, nvidia, on)->cols.describe(),
                fast::route_image(4000, 4000, nvidia, off)->cols.describe());
    } else {
      // GL's 1000-point columns, 5 x 200 in 416 invocations: the one exact size, 200, is under half.
      EXPECT_EQ(fast::route_image(1000, 1000, nvidia, on)->cols.describe(),
                fast::route_image(1000, 1000, nvidia, off)->cols.describe());
    }
    const auto candidates = fast::measure_candidates(gl ? fast::gl_default_tuning() : fast::Tuning{}, gl);
    EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                            [](const fast::Tuning& t) { return t.exact_split_threads == 0; }), 1);
  }
}

// GL's split columns in radix-16 stages where those make the sub-transforms fewer stages in the
// same invocations, in more groups than multiprocessors (Tuning::split_columns_radix16, a measured
// planning candidate): which columns take it, and that nothing else moves.
TEST(FastPlan, SplitColumnsRadix16WhereItTakesAStageAwayInMoreThanOneWave) {
  // The image's own columns (4096^2's would otherwise fold into 2048-point halves).
  const fast::Tuning off = [] {
    fast::Tuning t = fast::gl_default_tuning();
    t.fold_columns_max_length = 0;
    return t;
  }();
  EXPECT_EQ(off.split_columns_radix16, 0u);
  fast::Tuning gl = off;
  gl.split_columns_radix16 = 1;
  // 2048 columns of 2048 points (256 groups of 8): 4 x 512 (8 8 8) -> 8 x 256 (16 16), 512 invocations.
  const auto before = fast::route_image(2048, 2048, nvidia, off);
  const auto after = fast::route_image(2048, 2048, nvidia, gl);
  ASSERT_TRUE(before && after);
  EXPECT_EQ(before->cols.plan.radices, (std::vector<std::uint32_t>{8, 8, 8})) << before->cols.describe();
  EXPECT_EQ(after->cols.plan.radices, (std::vector<std::uint32_t>{16, 16})) << after->cols.describe();
  EXPECT_EQ(after->cols.plan.pre_radix, 8u);
  EXPECT_EQ(after->cols.plan.threads, before->cols.plan.threads);
  EXPECT_EQ(after->cols.plan.lines_per_group, before->cols.plan.lines_per_group);
  EXPECT_EQ(after->rows.describe(), before->rows.describe());
  // 3840 x 2160: 2160-point columns 4 x 540 (4 9 3 5) -> 5 x 432 (16 9 3) in 512 invocations, as
  // measured (run349), where the default's exact group size (360, Tuning::exact_split_threads)
  // is off; with it on, the base takes 360 invocations and radix 16 would take 512, so it is left.
  fast::Tuning gl_whole_warps = gl;
  gl_whole_warps.exact_split_threads = 0;
  const auto uhd = fast::route_image(3840, 2160, nvidia, gl_whole_warps);
  EXPECT_EQ(uhd->cols.plan.radices, (std::vector<std::uint32_t>{16, 9, 3})) << uhd->cols.describe();
  EXPECT_EQ(fast::route_image(3840, 2160, nvidia, gl)->cols.describe(),
            fast::route_image(3840, 2160, nvidia, off)->cols.describe());
  // Left as they are: one wave (1024 x 2048: 128 groups), no multiprocessor count (llvmpipe),
  // radix 16 keeping the stage count or taking invocations away (4096-point columns; 1024-point
  // of 2048 x 1024, 4 x 256 (16 16) in 128 invocations),
  // four steps (8192^2), Bluestein (4099^2), lengths 16 does not divide (1000, 2187, 512's
  // unsplit columns), and OpenCL, whose radix bound is already past 16.
  const fast::DeviceLimits no_count{48 * 1024, 1024, 0};
  EXPECT_EQ(fast::route_image(2048, 2048, no_count, gl)->cols.describe(),
            fast::route_image(2048, 2048, no_count, off)->cols.describe());
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{1024, 2048}, {4096, 4096}, {2048, 1024}, {8192, 8192},
                             {4099, 4099}, {1000, 1000}, {2187, 2187}, {512, 512}}) {
    const auto a = fast::route_image(w, h, nvidia, gl);
    const auto b = fast::route_image(w, h, nvidia, off);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->cols.describe(), b->cols.describe()) << w << "x" << h;
    EXPECT_FALSE(test::has_radix(a->cols.plan, 16) && !test::has_radix(b->cols.plan, 16)) << a->cols.describe();
  }
  fast::Tuning cl;
  cl.split_columns_radix16 = 1;
  EXPECT_EQ(fast::route_image(2048, 2048, nvidia, cl)->cols.describe(),
            fast::route_image(2048, 2048, nvidia, fast::Tuning{})->cols.describe());
  const auto candidates = fast::measure_candidates(off, true);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.split_columns_radix16 == 1; }), 1);
  const auto cl_candidates = fast::measure_candidates(fast::Tuning{}, false);
  EXPECT_EQ(std::count_if(cl_candidates.begin(), cl_candidates.end(),
                          [](const fast::Tuning& t) { return t.split_columns_radix16 == 1; }), 0);
}

// Measured planning's choice (both backends): the candidate fastest relative to the planned route
// timed beside it, not the fastest in absolute time (the clock may change between pairs); none
// faster, or timings that failed, leave the planned route.
TEST(FastPlan, FastestBesideKeepsTheBestRatioToThePlanned) {
  fast::FastestBeside none("rows 64x64", "planned", Warming{});
  none.record(1, {1.0, 1.2}, "slower");
  none.record(2, {1.0, 1.0}, "as fast");
  EXPECT_EQ(none.best(), 0u);

  fast::FastestBeside choice("rows 64x64", "planned", Warming{});
  choice.record(1, {0.5, 0.48}, "0.96 of the planned, the least time");  // the clock was faster here
  choice.record(2, {1.0, 0.85}, "0.85 of the planned");
  choice.record(3, {1.0, 0.95}, "0.95");
  choice.record(4, {-1, 0.1}, "the planned route's timing failed");
  choice.record(5, {1.0, -1}, "the candidate's timing failed");
  EXPECT_EQ(choice.best(), 2u);
}

// GL's split columns whose widest stage needs more than one round even of 1 024 invocations take
// four values of each sub-transform per invocation where that is whole warps and keeps the first
// stage in the registers (Tuning::split_columns_whole_warps): which columns take it, and that
// nothing else moves.
TEST(FastPlan, SplitColumnsInWholeWarpsPastTheGroupBound) {
  const fast::Tuning on = fast::gl_default_tuning();
  EXPECT_EQ(on.split_columns_whole_warps, 1u);
  EXPECT_EQ(fast::Tuning{}.split_columns_whole_warps, 0u);
  fast::Tuning off = on;
  off.split_columns_whole_warps = 0;
  // 3024-point columns (8 split 7 x 432 (4 4 9 3): 1 152 radix-3 butterflies): 432 looped -> 864
  // unrolled; 3456-point (8 x 432) the same, on both paths.
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{4032, 3024}, {3024, 3024}, {3456, 3456}}) {
    const auto before = fast::route_image(w, h, nvidia, off);
    const auto after = fast::route_image(w, h, nvidia, on);
    ASSERT_TRUE(before && after);
    EXPECT_EQ(before->cols.plan.threads, 432u) << before->cols.describe();
    EXPECT_TRUE(before->cols.plan.sub_transform_loop) << before->cols.describe();
    EXPECT_EQ(after->cols.plan.threads, 864u) << after->cols.describe();
    EXPECT_FALSE(after->cols.plan.sub_transform_loop) << after->cols.describe();
    EXPECT_TRUE(after->cols.plan.stage0_from_registers) << after->cols.describe();
    EXPECT_EQ(after->cols.plan.pre_radix, before->cols.plan.pre_radix);
    EXPECT_EQ(after->cols.plan.radices, before->cols.plan.radices);
    EXPECT_EQ(after->rows.describe(), before->rows.describe());
  }
  const auto display = fast::plan_real_display(3456, 3456, nvidia, on);
  ASSERT_TRUE(display);
  EXPECT_EQ(display->cols.plan.threads, 864u) << display->cols.describe();
  // Left as they are: the real display's 3024-point columns (8 x 378 (2 9 3 7): 756 is not whole
  // warps), columns whose widest stage fits one round (3125, 4000, 3200, 1080), those whose four
  // values a sub-transform would break the first stage's layout (4096, 2048: 1 024), unsplit and
  // four-step columns, and OpenCL (off by default; on, its groups of 256 with no one-round bound
  // leave it nothing to take).
  EXPECT_EQ(fast::plan_real_display(4032, 3024, nvidia, on)->cols.describe(),
            fast::plan_real_display(4032, 3024, nvidia, off)->cols.describe());
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{3125, 3125}, {4000, 4000}, {3200, 3200},
                             {1920, 1080}, {4096, 4096}, {2048, 2048}, {2187, 2187}, {2401, 2401}, {8192, 8192},
                             {1000, 1000}, {512, 512}}) {
    const auto a = fast::route_image(w, h, nvidia, on);
    const auto b = fast::route_image(w, h, nvidia, off);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->cols.describe(), b->cols.describe()) << w << "x" << h;
  }
  fast::Tuning cl;
  cl.split_columns_whole_warps = 1;
  EXPECT_EQ(fast::route_image(4032, 3024, nvidia, fast::cl_tuning(cl))->cols.describe(),
            fast::route_image(4032, 3024, nvidia, fast::cl_tuning(fast::Tuning{}))->cols.describe());
  const auto candidates = fast::measure_candidates(on, true);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.split_columns_whole_warps == 0; }), 1);
}

// OpenCL's columns split by 5 and 7 where four lines unsplit exceed the local memory
// (Tuning::odd_splits_past_four_columns): which lengths take it on NVIDIA's 48 KiB, complex and
// real display, and which keep their plans (four lines fit unsplit; rows; GL).
TEST(FastPlan, OpenClSplitsColumnsBy5And7PastFourLines) {
  EXPECT_EQ(fast::Tuning{}.odd_splits_past_four_columns, 1u);
  EXPECT_EQ(fast::gl_default_tuning().odd_splits_past_four_columns, 0u);
  const fast::Tuning on = fast::cl_tuning(fast::Tuning{});
  fast::Tuning off = on;
  off.odd_splits_past_four_columns = 0;
  struct Moved {
    std::size_t n;
    std::uint32_t pre_radix, lines;
  };
  // 2401: four steps of 49 before; 1715: 2 lines unsplit; 1750: 4 split 2 x 875; 3430: 2 split 2 x 1 715.
  for (const Moved& m : {Moved{2401, 7, 4}, Moved{1715, 5, 8}, Moved{1750, 5, 8}, Moved{3430, 5, 4}}) {
    SCOPED_TRACE(m.n);
    const auto before = fast::route_image(m.n, m.n, nvidia, off);
    const auto after = fast::route_image(m.n, m.n, nvidia, on);
    ASSERT_TRUE(before && after);
    EXPECT_NE(before->cols.plan.pre_radix, m.pre_radix) << before->cols.describe();
    EXPECT_EQ(after->cols.plan.pre_radix, m.pre_radix) << after->cols.describe();
    EXPECT_EQ(after->cols.plan.lines_per_group, m.lines) << after->cols.describe();
    EXPECT_FALSE(after->cols.four_step()) << after->cols.describe();
    const auto display = fast::plan_real_display(m.n, m.n, nvidia, on);
    ASSERT_TRUE(display);
    EXPECT_EQ(display->cols.plan.pre_radix, m.pre_radix) << display->cols.describe();
  }
  EXPECT_TRUE(fast::route_image(2401, 2401, nvidia, off)->cols.four_step());
  // Four lines fit unsplit at 1225 and 875 (there the split lost or tied); the sweep's other
  // sizes; 2401-point rows.
  expect_same_routes({{1225, 1225}, {875, 875}, {1000, 1000}, {1024, 1024}, {2048, 2048}, {2187, 2187}, {3125, 3125},
                      {3200, 3200}, {4000, 4000}, {4096, 4096}, {8192, 8192}, {1920, 1080}, {2401, 7}},
                     on, off);
  const auto candidates = fast::measure_candidates(fast::Tuning{}, false);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.odd_splits_past_four_columns == 0; }), 1);
}

// OpenCL's split columns of 4 lines whose exact group size (at least 192 work-items) reads the
// first stage from the registers hold up to 80 values per work-item
// (Tuning::exact_split_max_pre_hold): which lengths take it on NVIDIA's limits, complex and
// display, and which keep their plans (not exact, 2 or 8 lines, more values, smaller groups,
// Bluestein; GL's default is 0).
TEST(FastPlan, OpenClExactSplitColumnsHoldUpTo80Values) {
  EXPECT_EQ(fast::Tuning{}.exact_split_max_pre_hold, 80u);
  EXPECT_EQ(fast::gl_default_tuning().exact_split_max_pre_hold, 0u);
  const fast::Tuning on = fast::cl_tuning(fast::Tuning{});
  fast::Tuning off = on;
  off.exact_split_max_pre_hold = 0;
  struct Moved {
    std::size_t n;
    std::uint32_t pre_radix, lines, threads, lines_before;
  };
  // 4000: 4 x 1000 in 256 work-items before (64 values, first stage through local memory);
  // 3430: 5 x 686 in 256; 5000, 4410: 2 lines split by 2 before.
  for (const Moved& m : {Moved{4000, 4, 4, 200, 4}, Moved{3430, 5, 4, 196, 4}, Moved{5000, 4, 4, 250, 2},
                         Moved{4410, 5, 4, 252, 2}}) {
    SCOPED_TRACE(m.n);
    const auto before = fast::route_image(m.n, m.n, nvidia, off);
    const auto after = fast::route_image(m.n, m.n, nvidia, on);
    ASSERT_TRUE(before && after);
    EXPECT_EQ(before->cols.plan.lines_per_group, m.lines_before) << before->cols.describe();
    EXPECT_LE(before->cols.plan.pre_hold, 64u) << before->cols.describe();
    const fast::AxisPlan& plan = after->cols.plan;
    EXPECT_EQ(plan.pre_radix, m.pre_radix) << plan.describe();
    EXPECT_EQ(plan.lines_per_group, m.lines) << plan.describe();
    EXPECT_EQ(plan.threads, m.threads) << plan.describe();
    EXPECT_TRUE(plan.stage0_from_registers) << plan.describe();
    EXPECT_GT(plan.pre_hold, 64u) << plan.describe();
    EXPECT_LE(plan.pre_hold, 80u) << plan.describe();
    const auto display = fast::plan_real_display(m.n, m.n, nvidia, on);
    ASSERT_TRUE(display);
    EXPECT_GT(display->cols.plan.pre_hold, 64u) << display->cols.describe();
  }
  // Where more values would allow a plan that is not exact (2401, 4802), 8 lines (2160), 2
  // lines (7560, 8100), more than 80 values (3600, 4032, 5625, 7875: 3 x 1 200 in 150 holds 96,
  // ...), a group under 192 (2574: 143 work-items, 3240: 180), a split by 3 (3234, 3528, 3564,
  // 3744, 3822, 3960, 3993: 66 to 78 values in 196 to 242, they lost), or Bluestein's padded
  // columns (4099), and at the sweep's other sizes: as before.
  expect_same_routes({{2401, 2401}, {4802, 4802}, {3840, 2160}, {7560, 7560}, {8100, 8100}, {3600, 3600},
                      {4032, 4032}, {5625, 5625}, {7875, 7875}, {2574, 2574}, {3240, 3240}, {3234, 3234}, {3528, 3528},
                      {3564, 3564}, {3744, 3744}, {3822, 3822}, {3960, 3960}, {3993, 3993}, {4099, 4099}, {4096, 4096},
                      {3125, 3125}, {3200, 3200}, {8192, 8192}, {1920, 1080}, {1000, 1000}},
                     on, off);
  const auto candidates = fast::measure_candidates(fast::Tuning{}, false);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.exact_split_max_pre_hold == 0; }), 1);
}

// A column route direct, and the same columns in four steps through groups that divide `lines`
// (at least 2 columns each).
void expect_route_goes_through_divisor_groups(std::uint64_t lines, const fast::AxisRoute& direct,
                                              const fast::AxisRoute& divided) {
  EXPECT_FALSE(direct.four_step()) << direct.describe();
  EXPECT_TRUE(divided.four_step()) << divided.describe();
  if (divided.four_step()) {
    for (const fast::AxisPlan* pass : {&divided.plan, &*divided.second}) {
      EXPECT_EQ(lines % pass->lines_per_group, 0u) << divided.describe();
      EXPECT_GE(pass->lines_per_group, 2u) << divided.describe();
    }
  }
}

// n x n's columns: direct under `direct_tuning`, in four steps under `divided_tuning` through
// groups that divide the width, its rows as they were. Returns the direct column plan, for the
// caller's own conditions.
fast::AxisPlan expect_columns_go_through_divisor_groups(std::size_t n, const fast::Tuning& direct_tuning,
                                                        const fast::Tuning& divided_tuning) {
  SCOPED_TRACE(n);
  const auto direct = fast::route_image(n, n, nvidia, direct_tuning);
  const auto divided = fast::route_image(n, n, nvidia, divided_tuning);
  if (!direct || !divided) {
    ADD_FAILURE() << "no route";
    return {};
  }
  expect_route_goes_through_divisor_groups(n, direct->cols, divided->cols);
  EXPECT_EQ(divided->rows.describe(), direct->rows.describe());
  return direct->cols.plan;
}

// The same for the real display of n x n: its pair columns (route_real_columns), its display rows
// as they were.
void expect_display_columns_go_through_divisor_groups(std::size_t n, const fast::Tuning& direct_tuning,
                                                      const fast::Tuning& divided_tuning) {
  SCOPED_TRACE("display " + std::to_string(n));
  const auto direct = fast::plan_real_display(n, n, nvidia, direct_tuning);
  const auto divided = fast::plan_real_display(n, n, nvidia, divided_tuning);
  if (!direct || !divided || !direct->rows || !divided->rows) {
    ADD_FAILURE() << "no fused display";
    return;
  }
  expect_route_goes_through_divisor_groups(fast::display_pair_columns(n), direct->cols, divided->cols);
  EXPECT_EQ(divided->rows->describe(), direct->rows->describe());
}

// OpenCL's split columns of one line per group (8190: 8-byte row segments), which no
// power-of-two four-step group divides, in four steps through groups of divisors of the width
// (Tuning::four_step_divisor_groups, the default): which sizes move with it, and that GL's plans
// (whose default has it too) and the other sizes do not.
TEST(FastPlan, OneLineColumnsGoInFourStepsThroughDivisorGroups) {
  EXPECT_EQ(fast::Tuning{}.four_step_divisor_groups, 1u);
  EXPECT_EQ(fast::gl_default_tuning().four_step_divisor_groups, 2u);
  const fast::Tuning on = fast::cl_tuning(fast::Tuning{});
  fast::Tuning off = on;
  off.four_step_divisor_groups = 0;
  for (const std::size_t n : {7865u, 8085u, 8125u, 8190u})
    EXPECT_EQ(expect_columns_go_through_divisor_groups(n, off, on).lines_per_group, 1u) << n;
  // Columns of more lines per group, or four steps of power-of-two groups already: as before.
  expect_same_routes({{4096, 4096}, {8192, 8192}, {8100, 8100}, {6000, 6000}, {2401, 2401}}, on, off);
  // GL: its direct columns at these sizes hold more lines, so none moves.
  fast::Tuning gl_off = fast::gl_default_tuning();
  gl_off.four_step_divisor_groups = 0;
  for (const std::size_t n : {7865u, 8085u, 8125u, 8190u}) {
    SCOPED_TRACE(n);
    EXPECT_EQ(fast::route_image(n, n, nvidia, fast::gl_default_tuning())->cols.describe(),
              fast::route_image(n, n, nvidia, gl_off)->cols.describe());
  }
  const auto candidates = fast::measure_candidates(fast::Tuning{}, false);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.four_step_divisor_groups == 0; }), 1);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.four_step_divisor_groups == 2; }), 1);
  // Two lines per group through divisor groups as well (the candidate): 7500 (2 split 3 x 2 500
  // direct) goes in four steps of 75 x 100.
  fast::Tuning two_lines = on;
  two_lines.four_step_divisor_groups = 2;
  EXPECT_FALSE(fast::route_image(7500, 7500, nvidia, on)->cols.four_step());
  EXPECT_TRUE(fast::route_image(7500, 7500, nvidia, two_lines)->cols.four_step());
}

// OpenCL's split columns of two lines per group whose sub-transforms take a radix-2 stage, in four
// steps through divisor groups too (Tuning::four_step_radix2_divisor_groups): the 17 square sizes
// up to 8192 that move (complex columns), the real display's columns that move with them, that
// two-line columns without a radix-2 stage do not, GL's default without it (unmeasured there),
// and the candidate.
TEST(FastPlan, OpenClTwoLineColumnsWithARadix2StageGoInFourSteps) {
  EXPECT_EQ(fast::Tuning{}.four_step_radix2_divisor_groups, 2u);
  EXPECT_EQ(fast::gl_default_tuning().four_step_radix2_divisor_groups, 0u);
  const fast::Tuning on = fast::cl_tuning(fast::Tuning{});
  fast::Tuning off = on;
  off.four_step_radix2_divisor_groups = 0;
  const auto has_radix2 = [](const fast::AxisPlan& plan) {
    return std::find(plan.radices.begin(), plan.radices.end(), 2u) != plan.radices.end();
  };
  for (const std::size_t n : {4116u, 4732u, 5148u, 5292u, 5324u, 6006u, 6174u, 6318u, 6370u, 6534u, 6776u, 7098u,
                              7546u, 7722u, 7938u, 7986u, 8008u}) {
    const fast::AxisPlan direct = expect_columns_go_through_divisor_groups(n, off, on);
    EXPECT_GT(direct.pre_radix, 1u) << n;
    EXPECT_EQ(direct.lines_per_group, 2u) << n;
    EXPECT_TRUE(has_radix2(direct)) << n;
  }
  // Two-line split columns without a radix-2 stage (4290: 2 x 2 145 (15 11 13); 5625, 6250, 7500,
  // 7560), one-line ones (8190) and the sweep's sizes that split their columns keep their routes
  // (powers of two take four steps of power-of-two groups before any divisor group).
  for (const std::size_t n : {4290u, 5625u, 6250u, 7500u, 7560u}) {
    SCOPED_TRACE(n);
    const auto direct = fast::route_image(n, n, nvidia, off);
    ASSERT_TRUE(direct);
    EXPECT_EQ(direct->cols.plan.lines_per_group, 2u) << direct->cols.describe();
    EXPECT_FALSE(has_radix2(direct->cols.plan)) << direct->cols.describe();
  }
  expect_same_routes({{4290, 4290}, {5625, 5625}, {6250, 6250}, {7500, 7500}, {7560, 7560}, {4000, 4000},
                      {2401, 2401}, {3125, 3125}, {8190, 8190}},
                     on, off);
  // The real display's pair columns too, at the nine sizes they move (each display measured whole:
  // run442, run443; 6370 tied, the rest won, 6318, 6534 and 7986 among them).
  for (const std::size_t n : {6006u, 6318u, 6370u, 6534u, 6776u, 7722u, 7938u, 7986u, 8008u})
    expect_display_columns_go_through_divisor_groups(n, off, on);
  const auto candidates = fast::measure_candidates(fast::Tuning{}, false);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.four_step_radix2_divisor_groups == 0; }), 1);
}

// GL's split columns of up to four lines per group on images of 200 MiB and more, in four steps
// through divisor groups (Tuning::large_four_step_divisor_groups, GL's default): lengths that move
// (measured), the real display's columns where its Z passes the bound, that smaller images (which
// lost) and the sweep's sizes do not, OpenCL's default without it, and the candidate.
TEST(FastPlan, GlLargeImagesSplitColumnsGoInFourStepsThroughDivisorGroups) {
  const fast::Tuning on = fast::gl_default_tuning();
  EXPECT_EQ(on.large_four_step_divisor_groups, 4u);
  EXPECT_EQ(on.large_four_step_divisor_min_bytes, 200ull << 20);
  EXPECT_EQ(fast::Tuning{}.large_four_step_divisor_groups, 0u);
  fast::Tuning off = on;
  off.large_four_step_divisor_groups = 0;
  off.four_step_divisor_groups = 1;  // 8100 and 8190 hold two lines: GL's two-line rule takes them too
  for (const std::size_t n : {5145u, 5292u, 5500u, 5832u, 6174u, 6370u, 6750u, 7128u, 7560u, 7865u, 8100u, 8190u}) {
    const fast::AxisPlan direct = expect_columns_go_through_divisor_groups(n, off, on);
    EXPECT_GT(direct.pre_radix, 1u) << n;
    EXPECT_LE(direct.lines_per_group, 4u) << n;
  }
  // The bound: 5103^2 (208 MB, under 200 MiB) keeps its direct columns, which move without it.
  fast::Tuning unbounded = on;
  unbounded.large_four_step_divisor_min_bytes = 0;
  EXPECT_FALSE(fast::route_image(5103, 5103, nvidia, on)->cols.four_step());
  EXPECT_TRUE(fast::route_image(5103, 5103, nvidia, unbounded)->cols.four_step());
  expect_same_routes({{2916, 2916}, {3564, 3564}, {4860, 4860}, {4900, 4900}, {5103, 5103}, {4000, 4000},
                      {4032, 3024}, {3200, 3200}},
                     on, off);
  // The real display's pair columns too, where Z (half the image's complex bytes) passes the
  // bound: 7560 by this rule alone, 7500, 7722 and 8100 by either (each display measured whole,
  // run442); 5292's and 7128's Z (7128 x 3 564 pairs: 194 MiB) are under it, and both move
  // without it.
  fast::Tuning large_only_off = on;
  large_only_off.large_four_step_divisor_groups = 0;
  expect_display_columns_go_through_divisor_groups(7560, large_only_off, on);
  for (const std::size_t n : {7500u, 7722u, 8100u})
    expect_display_columns_go_through_divisor_groups(n, off, on);
  expect_same_display_columns({{5292, 5292}, {7128, 7128}}, large_only_off, on);
  const auto candidates = fast::measure_candidates(on, true);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.large_four_step_divisor_groups == 0; }), 1);
}

// GL's split columns of two lines per group in four steps through divisor groups at any size the
// four-step rule takes (Tuning::four_step_divisor_groups 2, GL's default; OpenCL's 1): the 20
// square sizes up to 8192 that move (each measured), the real display's two-line columns, that
// four-line columns under the large-image bound (which lost) and the sweep's sizes do not, and the
// candidate.
TEST(FastPlan, GlTwoLineSplitColumnsGoInFourStepsThroughDivisorGroups) {
  const fast::Tuning on = fast::gl_default_tuning();
  EXPECT_EQ(on.four_step_divisor_groups, 2u);
  fast::Tuning off = on;
  off.four_step_divisor_groups = 1;
  for (const std::size_t n : {2970u, 3042u, 3146u, 3250u, 3510u, 3630u, 3718u, 3750u, 4050u, 4158u, 4290u, 4374u,
                              4394u, 4410u, 4550u, 4802u, 4914u, 4950u, 5070u, 5082u}) {
    const fast::AxisPlan direct = expect_columns_go_through_divisor_groups(n, off, on);
    EXPECT_GT(direct.pre_radix, 1u) << n;
    EXPECT_EQ(direct.lines_per_group, 2u) << n;
  }
  // Four-line columns (power-of-two lengths take four steps of power-of-two groups first, and
  // images under four_step_min_bytes none: 4096^2 and 1920 x 1080 could not move).
  expect_same_routes({{2916, 2916}, {3564, 3564}, {4116, 4116}, {4225, 4225}, {4860, 4860}, {4900, 4900},
                      {4000, 4000}, {4032, 3024}, {3200, 3200}, {3125, 3125}},
                     on, off);
  // The real display's two-line pair columns too (each display measured whole, run442).
  for (const std::size_t n : {4374u, 4550u, 4802u, 5070u})
    expect_display_columns_go_through_divisor_groups(n, off, on);
  const auto candidates = fast::measure_candidates(on, true);
  for (const std::uint32_t lines : {0u, 1u}) {
    EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                            [lines](const fast::Tuning& t) { return t.four_step_divisor_groups == lines; }), 1)
        << lines;
  }
}

// GL's even columns that would go four by their halves, split by 5 or 7 in groups of 8 instead
// (Tuning::even_columns_odd_splits, GL's default; a measured-planning candidate): which sizes move
// and from what, and that the real display's columns (which lost with it), odd and 5-smooth
// lengths, lengths already split in 8, fewer groups than multiprocessors and the sweep's sizes keep
// their plans; OpenCL has no such rule.
TEST(FastPlan, GlEvenColumnsSplitBy5Or7WhereTheyWouldGoFourByHalves) {
  const fast::Tuning on = fast::gl_default_tuning();
  EXPECT_EQ(on.even_columns_odd_splits, 1u);
  EXPECT_EQ(fast::Tuning{}.even_columns_odd_splits, 0u);
  fast::Tuning off = on;
  off.even_columns_odd_splits = 0;
  struct Moved {
    std::size_t n;
    std::uint32_t pre_radix;
  };
  for (const Moved m : {Moved{1430, 5}, Moved{1470, 5}, Moved{1638, 7}, Moved{1650, 5}, Moved{1690, 5}, Moved{1694, 7},
                        Moved{1750, 5}, Moved{1890, 5}, Moved{1950, 5}, Moved{2002, 7}, Moved{2058, 7}, Moved{2750, 5},
                        Moved{2860, 5}}) {
    SCOPED_TRACE(m.n);
    const auto before = fast::route_image(m.n, m.n, nvidia, off);
    const auto after = fast::route_image(m.n, m.n, nvidia, on);
    ASSERT_TRUE(before && after);
    if (m.n == 2058) {
      EXPECT_TRUE(before->cols.four_step()) << before->cols.describe();  // 42 x 49: its direct plan went by halves
    } else {
      EXPECT_FALSE(before->cols.four_step()) << before->cols.describe();
      EXPECT_EQ(before->cols.plan.pre_radix, 1u) << before->cols.describe();
      EXPECT_EQ(before->cols.plan.lines_per_group, 4u) << before->cols.describe();
      EXPECT_TRUE(before->cols.plan.local_halves) << before->cols.describe();
    }
    ASSERT_FALSE(after->cols.four_step()) << after->cols.describe();
    EXPECT_EQ(after->cols.plan.pre_radix, m.pre_radix) << after->cols.describe();
    EXPECT_EQ(after->cols.plan.lines_per_group, 8u) << after->cols.describe();
    EXPECT_FALSE(after->cols.plan.local_halves) << after->cols.describe();
    EXPECT_EQ(after->rows.describe(), before->rows.describe());
    const auto display_before = fast::plan_real_display(m.n, m.n, nvidia, off);
    const auto display_after = fast::plan_real_display(m.n, m.n, nvidia, on);
    ASSERT_TRUE(display_before && display_after);
    EXPECT_EQ(display_after->cols.describe(), display_before->cols.describe());
  }
  // Odd lengths (1575, 1715, 2187, 2401), 5-smooth even ones (2250, 2430: they lost), even ones
  // already split in 8 (2310 and 2450 by 7 under first_split_odd_min, 2880 and 3000 by 8), and
  // the sweep's sizes: as before.
  expect_same_routes({{1575, 1575}, {1715, 1715}, {2187, 2187}, {2401, 2401}, {2250, 2250}, {2430, 2430},
                      {2310, 2310}, {2450, 2450}, {2880, 2880},
                      {3000, 3000}, {1000, 1000}, {1024, 1024}, {1920, 1080}, {2048, 2048}, {3125, 3125}, {3200, 3200},
                      {4032, 3024}, {4000, 4000}, {4096, 4096}, {8192, 8192}},
                     on, off);
  // At least one group of 8 per multiprocessor: 1056 columns of 2860 points (132 groups) split,
  // 1048 (131) keep four by their halves.
  EXPECT_EQ(fast::route_image(1056, 2860, nvidia, on)->cols.plan.pre_radix, 5u);
  expect_same_routes({{1048, 2860}}, on, off);
  const auto candidates = fast::measure_candidates(on, true);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.even_columns_odd_splits == 0; }), 1);
}

// GL's rows of lengths that are not powers of two exchange through half the shared memory from
// 16 KiB where their whole exchange leaves a multiprocessor under half its invocations and the
// halves keep the group (Tuning::rows_halves_above): which rows take it, and that nothing else
// moves.
TEST(FastPlan, RowsThroughHalvesWhereFewAreResident) {
  const fast::Tuning on = fast::gl_default_tuning();
  EXPECT_EQ(on.rows_halves_above, 16u * 1024);
  fast::Tuning off = on;
  off.rows_halves_above = 0;
  // 1000-point rows (two per group in 224 invocations, three groups resident), 2160-, 2400- and
  // 2560-point (256 invocations, two groups).
  for (const std::size_t n : {1000u, 2160u, 2400u, 2560u}) {
    const auto before = fast::route_image(n, n, nvidia, off);
    const auto after = fast::route_image(n, n, nvidia, on);
    ASSERT_TRUE(before && after);
    EXPECT_FALSE(before->rows.plan.local_halves) << before->rows.describe();
    EXPECT_TRUE(after->rows.plan.local_halves) << after->rows.describe();
    EXPECT_EQ(after->rows.plan.threads, before->rows.plan.threads) << after->rows.describe();
    EXPECT_EQ(after->rows.plan.lines_per_group, before->rows.plan.lines_per_group);
    EXPECT_EQ(after->rows.plan.radices, before->rows.plan.radices);
    EXPECT_LE(2 * after->rows.plan.local_bytes(), before->rows.plan.local_bytes() + 64) << after->rows.describe();
    EXPECT_EQ(after->cols.describe(), before->cols.describe());
  }
  // Left as they are: rows with half the invocations resident or more (2000: 512 in three groups;
  // 2401, 2430: 512 in two; 2880: 576 in two), 2187-point rows (736 invocations, which the halves
  // would take to 512), powers of two (1024, 2048, 4096: their own rule), rows in halves already
  // (3125, 4000) or split (8192), the real display's rows, OpenCL (off by default), and a device
  // without a multiprocessor's local memory to count by.
  for (const std::size_t n : {2000u, 2401u, 2430u, 2880u, 2187u, 1024u, 2048u, 4096u, 3125u, 4000u, 8192u, 1920u, 512u}) {
    const auto a = fast::route_image(n, n, nvidia, on);
    const auto b = fast::route_image(n, n, nvidia, off);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->rows.describe(), b->rows.describe()) << n;
  }
  EXPECT_EQ(fast::plan_real_display(1000, 1000, nvidia, on)->rows->describe(),
            fast::plan_real_display(1000, 1000, nvidia, off)->rows->describe());
  fast::Tuning unknown = on;
  unknown.unit_local_bytes = 0;
  EXPECT_FALSE(fast::route_image(1000, 1000, nvidia, unknown)->rows.plan.local_halves);
  EXPECT_EQ(fast::Tuning{}.rows_halves_above, 0u);
  const auto candidates = fast::measure_candidates(on, true);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(),
                          [](const fast::Tuning& t) { return t.rows_halves_above == 0; }), 1);
}

// GL's measured planning also tries columns of any length split by 3 and 5 and none four by their
// halves (the rules first_split_odd_min and four_columns_by_halves predate exact split group
// sizes; H200: 2880-point columns 73.5 -> 72.0 us as 5 x 576, 2430-point 78.0 -> 77.5 as 5 x 486),
// and odd lengths' without those splits (Tuning::odd_length_splits undone: 2187-point columns 4 by
// halves in 1 024 invocations instead of 4 split 3 x 729 in 324). Where GL splits by 7 or
// four-steps the columns, neither changes anything.
TEST(FastPlan, GlMeasuresColumnsSplitByThreeAtExactGroupSizes) {
  const fast::Tuning base = fast::gl_default_tuning();
  const auto candidates = fast::measure_candidates(base, true);
  const auto even = std::find_if(candidates.begin(), candidates.end(), [&](const fast::Tuning& t) {
    return t.first_split_odd_min != base.first_split_odd_min;
  });
  const auto odd = std::find_if(candidates.begin(), candidates.end(), [&](const fast::Tuning& t) {
    return t.odd_length_splits != base.odd_length_splits;
  });
  ASSERT_NE(even, candidates.end());
  ASSERT_NE(odd, candidates.end());
  EXPECT_EQ(even->first_split_odd_min, 0u);
  EXPECT_EQ(even->four_columns_by_halves, 0u);
  EXPECT_EQ(odd->odd_length_splits, 0u);
  const auto cols = [](std::uint32_t n, const fast::Tuning& t) { return fast::route_image(n, n, nvidia, t)->cols; };
  EXPECT_EQ(cols(2430, base).plan.pre_radix, 1u) << cols(2430, base).describe();
  EXPECT_EQ(cols(2430, *even).plan.pre_radix, 5u) << cols(2430, *even).describe();
  EXPECT_EQ(cols(2880, base).plan.pre_radix, 8u) << cols(2880, base).describe();
  EXPECT_EQ(cols(2880, *even).plan.pre_radix, 5u) << cols(2880, *even).describe();
  const fast::AxisPlan split = cols(2187, base).plan;
  EXPECT_EQ(split.pre_radix, 3u) << split.describe();
  EXPECT_EQ(split.lines_per_group, 4u);
  EXPECT_EQ(split.threads, 324u);
  EXPECT_TRUE(split.stage0_from_registers) << split.describe();
  EXPECT_LE(split.local_bytes(), 24u * 1024) << "two groups per multiprocessor";
  EXPECT_EQ(cols(2187, *even).describe(), cols(2187, base).describe());
  const fast::AxisPlan halves = cols(2187, *odd).plan;
  EXPECT_EQ(halves.pre_radix, 1u) << halves.describe();
  EXPECT_TRUE(halves.local_halves && halves.lines_per_group == 4) << halves.describe();
  EXPECT_EQ(fast::route_image(2187, 2187, nvidia, *odd)->rows.describe(),
            fast::route_image(2187, 2187, nvidia, base)->rows.describe());
  for (const std::uint32_t n : {2401u, 4096u, 8192u}) {
    EXPECT_EQ(cols(n, *even).describe(), cols(n, base).describe()) << n;
    EXPECT_EQ(cols(n, *odd).describe(), cols(n, base).describe()) << n;
  }
}

// Measured planning's candidates: the base tuning first, then each differing from it in some
// knob; a route's identity tells apart plans that differ in any #define or
// register bound, and only those.
TEST(FastPlan, MeasureCandidatesStartFromTheBaseAndRoutesAreToldApartByTheirPrograms) {
  for (const bool gl : {false, true}) {
    const fast::Tuning base = gl ? fast::gl_default_tuning() : fast::Tuning{};
    const auto candidates = fast::measure_candidates(base, gl);
    ASSERT_GE(candidates.size(), 4u);
    EXPECT_EQ(candidates.front().max_threads, base.max_threads);
    EXPECT_EQ(candidates.front().max_radix, base.max_radix);
    for (std::size_t i = 1; i < candidates.size(); ++i) {
      const fast::Tuning& t = candidates[i];
      // (fast::tuning_knobs: the fields FFTSCOPE_FAST_TUNING sets.)
      const auto knobs = fast::tuning_knobs();
      const bool differs = std::any_of(knobs.begin(), knobs.end(),
                                       [&](const fast::TuningKnob& k) { return k.get(t) != k.get(base); });
      EXPECT_TRUE(differs) << (gl ? "gl " : "cl ") << i;
      if (gl) {
        EXPECT_EQ(t.max_registers, 0u) << "GLSL states no register bound";
      }
    }
  }
  const fast::Tuning base;
  const auto route = fast::route_axis(Axis::rows, 4096, 4096, nvidia, base);
  EXPECT_EQ(fast::route_identity(*route), fast::route_identity(*fast::route_axis(Axis::rows, 4096, 4096, nvidia, base)));
  fast::Tuning other = base;
  other.twiddle_powers = 0;  // a #define only: the description is the same
  const auto no_powers = fast::route_axis(Axis::rows, 4096, 4096, nvidia, other);
  EXPECT_EQ(no_powers->describe(), route->describe());
  EXPECT_NE(fast::route_identity(*no_powers), fast::route_identity(*route));
  other = base;
  other.max_registers = 96;
  EXPECT_NE(fast::route_identity(*fast::route_axis(Axis::rows, 4096, 4096, nvidia, other)), fast::route_identity(*route));
}

// The display path's candidates add its own knobs to the complex path's (where the display rows
// colour from, an API's own); two tunings plan the display differently exactly when their columns'
// routes, display rows or their #defines differ.
TEST(FastPlan, DisplayCandidatesAddTheDisplaysKnobs) {
  for (const bool gl : {false, true}) {
    const fast::Tuning base = gl ? fast::gl_default_tuning() : fast::Tuning{};
    const auto complex = fast::measure_candidates(base, gl);
    const auto display = fast::measure_display_candidates(base, gl);
    ASSERT_EQ(display.size(), complex.size() + (gl ? 4 : 3));
    EXPECT_NE(display[complex.size()].display_from_registers, base.display_from_registers);
    // Split display rows unpacked the other way (Tuning::display_rows_unpack_after): a program
    // of its own at 8192^2 (2 x 4096 in time), none at 4096^2 (unsplit).
    const fast::Tuning& unpack = display[complex.size() + 1];
    EXPECT_NE(unpack.display_rows_unpack_after, base.display_rows_unpack_after);
    EXPECT_NE(fast::display_identity(8192, 8192, nvidia, unpack), fast::display_identity(8192, 8192, nvidia, base));
    EXPECT_EQ(fast::display_identity(4096, 4096, nvidia, unpack), fast::display_identity(4096, 4096, nvidia, base));
    if (!gl) {
      EXPECT_NE(display.back().display_rows_max_registers, base.display_rows_max_registers);
    } else {
      // GL: display rows exchanging whole values (the 4096-point ones take halves by default),
      // odd-length display rows in as many invocations as complex rows (2187-point: 512, not
      // 256; even lengths the same), and among the complex candidates 4 columns per group (the
      // display's 4000-point columns).
      const fast::Tuning& whole = display[complex.size() + 2];
      EXPECT_EQ(whole.local_halves_above, 0u);
      ASSERT_NE(base.local_halves_above, 0u);
      EXPECT_NE(fast::display_identity(4096, 4096, nvidia, whole), fast::display_identity(4096, 4096, nvidia, base));
      const fast::Tuning& odd_threads = display.back();
      EXPECT_NE(odd_threads.display_rows_odd_max_threads, base.display_rows_odd_max_threads);
      EXPECT_NE(fast::display_identity(2187, 2187, nvidia, odd_threads), fast::display_identity(2187, 2187, nvidia, base));
      EXPECT_EQ(fast::display_identity(2048, 2048, nvidia, odd_threads), fast::display_identity(2048, 2048, nvidia, base));
      EXPECT_EQ(fast::route_real_columns(4000, 4000, nvidia, base)->plan.lines_per_group, 8u);
      const auto four = std::find_if(complex.begin(), complex.end(), [](const fast::Tuning& t) { return t.col_lines == 4; });
      ASSERT_NE(four, complex.end());
      EXPECT_EQ(fast::route_real_columns(4000, 4000, nvidia, *four)->plan.lines_per_group, 4u);
    }
  }
  const fast::Tuning base;
  const std::string id = fast::display_identity(8192, 8192, nvidia, base);
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(fast::display_identity(8191, 8192, nvidia, base), "");  // 8191 is prime: no display path
  EXPECT_NE(fast::display_identity(4095, 4096, nvidia, base), "");  // 4095 = 3^2 5 7 13: odd widths plan
  fast::Tuning t = base;
  t.display_rows_max_registers = 0;  // the split 8192-point display rows lose their bound
  EXPECT_NE(fast::display_identity(8192, 8192, nvidia, t), id);
  EXPECT_EQ(fast::display_identity(4096, 4096, nvidia, t), fast::display_identity(4096, 4096, nvidia, base));
  t = base;
  t.display_from_registers = 1;  // a #define of the display rows only
  EXPECT_NE(fast::display_identity(4096, 4096, nvidia, t), fast::display_identity(4096, 4096, nvidia, base));
}

// Four-step columns on a width their power-of-two groups do not divide take the largest power
// of two that does, from 16 (GL's 6000 x 4000: 16); narrower ones keep the direct columns (3000,
// 3125), and the unsplit route keeps its nearest divisor (2401: 49).
TEST(FastPlan, FourStepGroupsDivideTheWidth) {
  const fast::Tuning gl = fast::gl_default_tuning();
  const auto wide = fast::route_image(6000, 4000, nvidia, gl)->cols;
  ASSERT_TRUE(wide.four_step()) << wide.describe();
  EXPECT_EQ(wide.plan.lines_per_group, 16u) << wide.describe();
  EXPECT_EQ(wide.second->lines_per_group, 16u) << wide.describe();
  for (const std::uint32_t n : {3000u, 3125u})
    EXPECT_FALSE(fast::route_image(n, n, nvidia, gl)->cols.four_step()) << n;
  fast::Tuning no_seven = gl;  // (GL's own 2401-point columns split by 7: FirstRoundOddSplits...)
  no_seven.first_split_odd_max = 1;
  const auto unsplit = fast::route_image(2401, 2401, nvidia, no_seven)->cols;
  ASSERT_TRUE(unsplit.four_step()) << unsplit.describe();
  EXPECT_EQ(unsplit.plan.lines_per_group, 49u) << unsplit.describe();
  // 4000^2 (4000 = 125 x 32) where uneven splits take four steps: its passes' groups of 32 and
  // 16 divide the width, as before.
  fast::Tuning uneven = gl;
  uneven.four_step_uneven_split = 1;
  const auto square = fast::route_image(4000, 4000, nvidia, uneven)->cols;
  ASSERT_TRUE(square.four_step()) << square.describe();
  EXPECT_EQ(square.plan.lines_per_group, 32u) << square.describe();
}

// Measured planning's time per choice (FFTSCOPE_PLANNING_LOG=1): one line when the clock goes
// out of scope, whatever way out the measuring took; nothing without the variable.
TEST(FastPlan, PlanningClockLogsOneLineWhereTheLogIsOn) {
  ::unsetenv("FFTSCOPE_PLANNING_LOG");
  testing::internal::CaptureStderr();
  { const fast::PlanningClock quiet("cols 64x64", 3); }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  ::setenv("FFTSCOPE_PLANNING_LOG", "1", 1);
  testing::internal::CaptureStderr();
  { const fast::PlanningClock clock("cols 64x64", 3); }
  const std::string line = testing::internal::GetCapturedStderr();
  ::unsetenv("FFTSCOPE_PLANNING_LOG");
  EXPECT_EQ(line.rfind("planning cols 64x64: 3 distinct routes measured in ", 0), 0u) << line;
  EXPECT_EQ(line.substr(line.size() - 4), " ms\n") << line;
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1);
}

// Every knob FFTSCOPE_FAST_TUNING names sets its own field and no other (tuning_knobs, which the
// plan tool's audit also walks): each set to a value no default holds, then read back.
TEST(FastPlan, EveryKnobSetsItsOwnFieldByName) {
  const auto knobs = fast::tuning_knobs();
  ASSERT_GE(knobs.size(), 60u);
  std::set<std::string> names;
  for (const fast::TuningKnob& knob : knobs) EXPECT_TRUE(names.insert(knob.name).second) << knob.name;
  const fast::Tuning base;
  for (std::size_t i = 0; i < knobs.size(); ++i) {
    const std::uint64_t value = 900001 + i;
    ::setenv("FFTSCOPE_FAST_TUNING", (std::string(knobs[i].name) + "=" + std::to_string(value)).c_str(), 1);
    const fast::Tuning t = fast::tuning_from_env(base);
    ::unsetenv("FFTSCOPE_FAST_TUNING");
    for (std::size_t j = 0; j < knobs.size(); ++j)
      EXPECT_EQ(knobs[j].get(t), j == i ? value : knobs[j].get(base)) << knobs[i].name << " -> " << knobs[j].name;
  }
}

// FFTSCOPE_FAST_TUNING overrides the named knobs of the tuning it is given (32- and 64-bit
// fields alike) and leaves the rest, unknown names and items without '=' ignored.
TEST(FastPlan, TuningFromEnvironmentOverridesNamedKnobs) {
  const fast::Tuning gl = fast::gl_default_tuning();
  ::setenv("FFTSCOPE_FAST_TUNING", "max_threads=128,four_step_min_bytes=8589934592,no_such_knob=3,col_lines", 1);
  const fast::Tuning t = fast::tuning_from_env(gl);
  ::unsetenv("FFTSCOPE_FAST_TUNING");
  EXPECT_EQ(t.max_threads, 128u);
  EXPECT_EQ(t.four_step_min_bytes, 8589934592ull);  // over 32 bits
  EXPECT_EQ(t.col_lines, gl.col_lines);
  EXPECT_EQ(t.four_step_elements, gl.four_step_elements);
  EXPECT_EQ(t.max_radix, gl.max_radix);
  EXPECT_EQ(fast::tuning_from_env(gl).max_threads, gl.max_threads);  // unset: the given tuning
}

// The column route of a w x h image under `t` with the H100's limits (48 KiB, 132 units).
fast::AxisRoute cols(std::size_t w, std::size_t h, const fast::Tuning& t) {
  return fast::route_image(w, h, nvidia, t)->cols;
}

// Tuning::four_step_min_bytes and the rules beside it: 8192-point columns (2 per direct group on
// OpenCL, 4 on GL) go in two passes on both APIs from 128 MiB; on GL also 4096-point columns of
// 64 KiB rows (8192 x 4096), 4000-point ones of 48 000-byte rows (6000 x 4000) and the real
// display's uneven splits (8000 x 4000's pair columns, split 8 x 500); 4096^2, 4000^2 and the
// small sizes directly.
// Each pass is unsplit, its groups divide the width and hold at most four_step_elements values,
// a b = n with a <= b, and the passes' pitches, blocks and shifts address pass A's line
// r2 W + c at rows r2 + b r1 and pass B's line k1 W + c at rows k1 b + r2, storing bin k2 at
// row k1 + a k2.
TEST(FastPlan, FourStepColumnsOnWideImages) {
  for (const fast::Tuning& t : {fast::Tuning{}, fast::gl_default_tuning()}) {
    const bool gl = t.max_threads == fast::gl_default_tuning().max_threads;
    EXPECT_TRUE(cols(8192, 8192, t).four_step()) << gl;
    EXPECT_TRUE(cols(4096, 8192, t).four_step()) << gl;
    EXPECT_TRUE(cols(2048, 8192, t).four_step()) << gl;
    EXPECT_EQ(cols(8192, 4096, t).four_step(), gl);
    EXPECT_FALSE(cols(4000, 4000, t).four_step()) << gl;
    EXPECT_EQ(cols(6000, 4000, t).four_step(), gl);
    EXPECT_EQ(fast::route_real_columns(8000, 4000, nvidia, t)->four_step(), gl);
    EXPECT_EQ(cols(1024, 8192, t).four_step(), gl);  // 64 MiB: under OpenCL's 128
    for (const auto& [w, h] : {std::pair{4096, 4096}, std::pair{3125, 3125}, std::pair{2048, 2048},
                               std::pair{1920, 1080}, std::pair{1000, 1000}})
      EXPECT_FALSE(cols(w, h, t).four_step()) << gl << " " << w << "x" << h;
    fast::Tuning never = t;
    never.four_step_min_bytes = 0;
    EXPECT_FALSE(cols(8192, 8192, never).four_step()) << gl;

    const fast::AxisRoute route = cols(8192, 8192, t);
    ASSERT_TRUE(route.four_step());
    const fast::AxisPlan& a = route.plan;
    const fast::AxisPlan& b = *route.second;
    EXPECT_EQ(std::uint64_t{a.n} * b.n, 8192u);
    EXPECT_LE(a.n, b.n);
    // GL runs both passes in place (Tuning::four_step_in_place_min_bytes), OpenCL through the scratch.
    EXPECT_EQ(route.swap.has_value(), gl);
    EXPECT_EQ(route.scratch_elements(8192), gl ? 0u : 8192u * 8192u);
    for (const fast::AxisPlan* p : {&a, &b}) {
      EXPECT_EQ(p->pre_radix, 1u);
      EXPECT_EQ(8192 % p->lines_per_group, 0u);
      EXPECT_GE(p->lines_per_group, 16u);
      EXPECT_LE(std::uint64_t{p->lines_per_group} * p->n, t.four_step_elements);
      EXPECT_EQ(p->local_halves, gl);
    }
    for (const Direction d : {Direction::forward, Direction::inverse}) {
      const auto passes = fast::axis_passes(route, 8192, d);
      ASSERT_EQ(passes.size(), 2u);
      const fast::AxisPass& pa = passes[0];
      const fast::AxisPass& pb = passes[1];
      EXPECT_STREQ(pa.mode, fast::four_step_a);
      EXPECT_STREQ(pb.mode, fast::four_step_b);
      EXPECT_FALSE(pa.second);
      EXPECT_TRUE(pb.second);
      // Pass A: line r2 W + c, element r1 at (r2 + b r1) W + c = line + r1 (b W).
      EXPECT_EQ(pa.lines, 8192u * b.n);
      EXPECT_EQ(pa.in_pitch, b.n * 8192u);
      EXPECT_EQ(pa.out_pitch, pa.in_pitch);
      EXPECT_EQ(pa.block_shift, 0u);
      EXPECT_EQ(pa.to_scratch, !gl);
      EXPECT_EQ(pb.on_scratch, !gl);
      EXPECT_EQ(pb.defines.empty(), !gl);
      // Pass B: line k1 W + c reads (k1 b + r2) W + c = line + k1 (b - 1) W + r2 W and writes bin
      // k2 at (k1 + a k2) W + c = line + k2 (a W).
      EXPECT_EQ(pb.lines, 8192u * a.n);
      EXPECT_EQ(pb.in_pitch, 8192u);
      EXPECT_EQ(pb.block_lines, 8192u);
      EXPECT_EQ(pb.block_shift, (b.n - 1) * 8192u);
      EXPECT_EQ(pb.out_pitch, a.n * 8192u);
      // The inverse conjugates A's loads and B's stores; only B scales.
      EXPECT_EQ(pa.scale, 1.0f);
      EXPECT_FLOAT_EQ(pb.scale, d == Direction::forward ? 1.0f : 1.0f / 8192.0f);
      EXPECT_EQ(pa.conj_sign, d == Direction::forward ? 1.0f : -1.0f);
      EXPECT_EQ(pb.conj_sign, pa.conj_sign);
    }
  }
}

// In-place four-step columns (Tuning::four_step_in_place_min_bytes, GL's default): 8192 = 64 x 128 leaves
// the rows in the order fast::RowSwap describes, an involution, and the rows' pass takes them in
// its pairs, one group per pair. Pass B's store order (fast_fft.comp: bin k2 of block k1 at row
// k1 b + (k2 % c) a + k2 / c) puts bin k1 + a k2 at a row whose partner is that bin.
TEST(FastPlan, InPlaceFourStepLeavesRowsSwappedInPairs) {
  const auto gl = fast::route_image(8192, 8192, nvidia, fast::gl_default_tuning());
  ASSERT_TRUE(gl.has_value());
  ASSERT_TRUE(gl->cols.swap.has_value()) << gl->cols.describe();
  EXPECT_EQ(gl->rows.swap, gl->cols.swap) << gl->rows.describe();
  const fast::RowSwap swap = *gl->cols.swap;
  EXPECT_EQ(swap.a, 64u);
  EXPECT_EQ(swap.c, 2u);
  EXPECT_EQ(gl->scratch_elements(), 0u);

  std::vector<int> seen(8192, 0);
  std::uint32_t fixed = 0;
  for (std::uint32_t p = 0; p < 8192; ++p) {
    ASSERT_LT(swap.partner(p), 8192u);
    ASSERT_EQ(swap.partner(swap.partner(p)), p) << p;
    fixed += swap.partner(p) == p;
  }
  EXPECT_EQ(fixed, 64u * 2u);
  const std::vector<std::uint32_t> pairs = swap.pairs();
  for (std::size_t i = 0; i < pairs.size(); i += 2) {
    EXPECT_EQ(swap.partner(pairs[i]), pairs[i + 1]);
    ++seen[pairs[i]];
    if (pairs[i + 1] != pairs[i]) ++seen[pairs[i + 1]];
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 8192);
  const std::uint32_t a = 64, b = 128, c = 2;
  for (std::uint32_t k1 = 0; k1 < a; ++k1)
    for (std::uint32_t k2 = 0; k2 < b; ++k2)
      ASSERT_EQ(swap.partner(k1 * b + (k2 % c) * a + k2 / c), k1 + a * k2) << k1 << " " << k2;

  for (const Direction d : {Direction::forward, Direction::inverse}) {
    const auto rows = fast::axis_passes(gl->rows, 8192, d);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_STREQ(rows[0].mode, fast::row_pairs);
    EXPECT_EQ(rows[0].groups, pairs.size() / 2);
    EXPECT_EQ(rows[0].groups, (8192u + 128u) / 2);
    const auto cols = fast::axis_passes(gl->cols, 8192, d);
    ASSERT_EQ(cols.size(), 2u);
    EXPECT_FALSE(cols[0].to_scratch || cols[0].on_scratch || cols[1].to_scratch || cols[1].on_scratch);
  }
  EXPECT_THROW(fast::axis_passes(gl->rows, 8192, Direction::forward, true), std::logic_error);

  // OpenCL keeps its four steps through the scratch; so does GL with the knob off, or where the
  // rows do not split in time one per group (under a 16 KiB cap they split by 8 in frequency).
  const auto cl = fast::route_image(8192, 8192, nvidia, fast::Tuning{});
  EXPECT_FALSE(cl->rows.swap.has_value() || cl->cols.swap.has_value());
  fast::Tuning off = fast::gl_default_tuning();
  off.four_step_in_place_min_bytes = 0;
  const auto gl_off = fast::route_image(8192, 8192, nvidia, off);
  EXPECT_FALSE(gl_off->rows.swap.has_value() || gl_off->cols.swap.has_value());
  EXPECT_EQ(gl_off->scratch_elements(), 8192u * 8192u);
  // In place or through the scratch, both passes' groups hold four_step_elements values (64 of
  // pass A's 64-point columns, 32 of pass B's 128-point ones).
  for (const auto* route : {&*gl, &*gl_off}) {
    EXPECT_EQ(route->cols.plan.lines_per_group, 64u) << route->cols.describe();
    EXPECT_EQ(route->cols.second->lines_per_group, 32u) << route->cols.describe();
  }
  fast::Tuning capped = fast::gl_default_tuning();
  capped.local_bytes_cap = 16384;
  const auto gl_capped = fast::route_image(8192, 8192, nvidia, capped);
  ASSERT_TRUE(gl_capped->cols.four_step());
  EXPECT_FALSE(fast::takes_row_pairs(gl_capped->rows.plan)) << gl_capped->rows.describe();
  EXPECT_FALSE(gl_capped->rows.swap.has_value() || gl_capped->cols.swap.has_value());
  // Nor under 256 MiB (8192 x 2048: 128 MiB), nor where the rows split by 4 (16384-point rows).
  const auto small = fast::route_image(8192, 2048, nvidia, fast::gl_default_tuning());
  ASSERT_TRUE(small->cols.four_step() && fast::takes_row_pairs(small->rows.plan)) << small->cols.describe();
  EXPECT_FALSE(small->rows.swap.has_value() || small->cols.swap.has_value());
  EXPECT_TRUE(fast::route_image(8192, 4096, nvidia, fast::gl_default_tuning())->rows.swap.has_value());
  const auto wide = fast::route_image(16384, 4096, nvidia, fast::gl_default_tuning());
  ASSERT_TRUE(wide->cols.four_step()) << wide->cols.describe();
  EXPECT_EQ(wide->rows.plan.pre_radix, 4u) << wide->rows.describe();
  EXPECT_FALSE(wide->rows.swap.has_value() || wide->cols.swap.has_value());
}

// Tuning::four_step_unsplit_min_bytes: unsplit direct columns in groups of at most
// four_step_max_direct_lines go in two passes where both passes take 32 columns or more, in
// groups of the width's divisor nearest the power of two (2401^2: 49 x 49 in groups of 49, where
// the direct columns take 2 (OpenCL) or 4 (GL)); 2187^2 (27 x 81: pass B's groups of 27) and
// 3125^2 (25 x 125: 25) stay direct, and so does 2401^2 under 32 MiB or with the knob at 0.
TEST(FastPlan, UnsplitNarrowColumnsInTwoPassesOfDivisorGroups) {
  fast::Tuning gl_unsplit = fast::gl_default_tuning();  // GL's own 2401-point columns split by 7
  gl_unsplit.first_split_odd_max = 1;                   // (FirstRoundOddSplitsFollowEachApisMeasurements),
  fast::Tuning cl_unsplit;                              // and OpenCL's since the sixtieth session
  cl_unsplit.odd_splits_past_four_columns = 0;
  for (const fast::Tuning& t : {cl_unsplit, gl_unsplit}) {
    const bool gl = t.max_threads == fast::gl_default_tuning().max_threads;
    const fast::AxisRoute route = cols(2401, 2401, t);
    ASSERT_TRUE(route.four_step()) << gl << " " << route.describe();
    EXPECT_EQ(route.plan.n, 49u);
    EXPECT_EQ(route.second->n, 49u);
    EXPECT_EQ(route.plan.lines_per_group, 49u);
    EXPECT_EQ(route.second->lines_per_group, 49u);
    EXPECT_EQ(route.plan.pre_radix, 1u);
    EXPECT_FALSE(cols(2187, 2187, t).four_step()) << gl;
    EXPECT_FALSE(cols(3125, 3125, t).four_step()) << gl;
    EXPECT_FALSE(cols(2401, 1715, t).four_step()) << gl;  // 31.4 MiB < 32 MiB
    fast::Tuning never = t;
    never.four_step_unsplit_min_bytes = 0;
    const fast::AxisRoute direct = cols(2401, 2401, never);
    EXPECT_FALSE(direct.four_step()) << gl;
    EXPECT_EQ(direct.plan.pre_radix, 1u);
    EXPECT_LE(direct.plan.lines_per_group, t.four_step_max_direct_lines);
  }
  // The real display's pair columns by the image's bytes, not Z's (half of them): 2401^2's 1 204
  // (Z 23 MB) in two passes, 2401 x 1000's (Z 9.6 MB: the image 19 MB) directly.
  EXPECT_TRUE(fast::route_real_columns(2401, 2401, nvidia, cl_unsplit)->four_step());
  EXPECT_FALSE(fast::route_real_columns(1000, 2401, nvidia, cl_unsplit)->four_step());
  // GL's 49-point passes are not swizzled, so they are sized by four_step_unswizzled_elements
  // (2 048), not four_step_elements (4 096): 2401^2's 1 204 pairs then find groups of 28 (< 32)
  // and stay direct; by 4 096 they would find 86.
  const fast::Tuning gl = fast::gl_default_tuning();
  EXPECT_FALSE(fast::route_real_columns(2401, 2401, nvidia, gl)->four_step());
  fast::Tuning gl_by_4096 = gl;
  gl_by_4096.four_step_unswizzled_elements = 0;
  const auto by_4096 = fast::route_real_columns(2401, 2401, nvidia, gl_by_4096);
  ASSERT_TRUE(by_4096->four_step()) << by_4096->describe();
  EXPECT_EQ(by_4096->plan.lines_per_group, 86u) << by_4096->describe();
  EXPECT_NE(by_4096->plan.local_layout, fast::LocalLayout::swizzled) << by_4096->describe();
}

// Tuning::four_step_unswizzled_elements (GL): a four-step pass takes groups of four_step_elements
// values where that plan is swizzled (power-of-two lengths: 4096 x 8192's 64 64-point and 32
// 128-point columns), else of four_step_unswizzled_elements (8000 x 4000's 50- and 80-point
// columns in groups of 32 and 16, unpadded), each pass by itself (4000 x 8192: pass A's 64-point
// columns stay 32 a group, 4 000 not dividing by 64; pass B's 128-point ones take 32).
TEST(FastPlan, GlFourStepPassesTakeLargerGroupsWhereSwizzled) {
  const fast::Tuning gl = fast::gl_default_tuning();
  const auto groups = [&](std::size_t w, std::size_t h, const fast::Tuning& t) {
    const fast::AxisRoute route = cols(w, h, t);
    EXPECT_TRUE(route.four_step()) << w << "x" << h << " " << route.describe();
    if (!route.four_step()) return std::pair<std::uint32_t, std::uint32_t>{0, 0};
    return std::pair{route.plan.lines_per_group, route.second->lines_per_group};
  };
  EXPECT_EQ(groups(4096, 8192, gl), (std::pair<std::uint32_t, std::uint32_t>{64, 32}));
  EXPECT_EQ(groups(16384, 4096, gl), (std::pair<std::uint32_t, std::uint32_t>{64, 64}));
  EXPECT_EQ(groups(8000, 4000, gl), (std::pair<std::uint32_t, std::uint32_t>{32, 16}));
  EXPECT_EQ(groups(4000, 8192, gl), (std::pair<std::uint32_t, std::uint32_t>{32, 32}));
  EXPECT_EQ(cols(4096, 8192, gl).plan.local_layout, fast::LocalLayout::swizzled);
  EXPECT_NE(cols(8000, 4000, gl).plan.local_layout, fast::LocalLayout::swizzled);
  // With the knob at 0 every pass takes four_step_elements; at four_step_elements, 2 048 (the
  // plans before the fifty-second session) the swizzled ones too.
  fast::Tuning all_4096 = gl;
  all_4096.four_step_unswizzled_elements = 0;
  EXPECT_EQ(groups(8000, 4000, all_4096), (std::pair<std::uint32_t, std::uint32_t>{64, 32}));
  fast::Tuning all_2048 = gl;
  all_2048.four_step_elements = 2048;
  EXPECT_EQ(groups(4096, 8192, all_2048), (std::pair<std::uint32_t, std::uint32_t>{32, 16}));
  EXPECT_EQ(groups(8000, 4000, all_2048), (std::pair<std::uint32_t, std::uint32_t>{32, 16}));
}

// The divisor nearest a target by ratio: 2401 = 7^4 against 32 and 64 (49: 1.53 and 1.31 where 7
// is 4.6 and 343 5.4), 2187 = 3^7 against 16 (27: 1.69, 9: 1.78), 12 against 5 (6: 1.2, 4:
// 1.25), a prime against anything (itself or 1, whichever is nearer), a divisor itself.
TEST(FastPlan, NearestDivisorByRatio) {
  EXPECT_EQ(fast::nearest_divisor(2401, 32), 49u);
  EXPECT_EQ(fast::nearest_divisor(2401, 64), 49u);
  EXPECT_EQ(fast::nearest_divisor(2187, 16), 27u);
  EXPECT_EQ(fast::nearest_divisor(12, 5), 6u);
  EXPECT_EQ(fast::nearest_divisor(2953, 64), 2953u);  // 46x against 64x
  EXPECT_EQ(fast::nearest_divisor(2953, 16), 1u);
  EXPECT_EQ(fast::nearest_divisor(1920, 64), 64u);
  EXPECT_EQ(fast::nearest_divisor(1, 8), 1u);
}

// Tuning::balance_threads: fewer work-items only where the stage with the most butterflies would
// leave more than a third of its lanes idle, keeping that stage's rounds, and only where the
// split's registers allow it.
TEST(FastPlan, BalancedGroupsKeepTheRoundsOfTheWidestStage) {
  const auto plan = [&](Axis axis, std::uint32_t n, fast::Tuning tuning, std::uint32_t balance) {
    tuning.balance_threads = balance;
    tuning.exact_split_threads = 0;  // the balance alone
    const auto p = fast::plan_axis(axis, n, n, nvidia, tuning);
    EXPECT_TRUE(p.has_value()) << n;
    return *p;
  };
  // The widest stage's butterflies and the rounds they take.
  const auto widest = [](const fast::AxisPlan& p) {
    const std::uint64_t elements = std::uint64_t{p.lines_per_group} * p.m;
    const std::uint64_t most = elements / *std::min_element(p.radices.begin(), p.radices.end());
    return std::pair{most, (most + p.threads - 1) / p.threads};
  };
  // GL 3125-point rows, 5^5: 625 butterflies in 2 rounds of 512 (39% idle) -> 2 rounds of 320
  // (where the rows' one-round rules do not then take one round of 640).
  const fast::Tuning gl = test::gl_balanced_base();
  const auto rows_3125 = plan(Axis::rows, 3125, gl, 1);
  EXPECT_EQ(rows_3125.threads, 320u) << rows_3125.describe();
  EXPECT_EQ(plan(Axis::rows, 3125, gl, 0).threads, 512u);
  // CL 2187-point columns, 4 x 3 x 729 (9 9 9): 324 butterflies in 2 rounds of 256 -> of 192;
  // the split holds 16 x 3 values per work-item, within max_pre_hold.
  const auto cols_2187 = plan(Axis::cols, 2187, fast::Tuning{}, 1);
  EXPECT_EQ(cols_2187.threads, 192u) << cols_2187.describe();
  EXPECT_EQ(cols_2187.pre_hold, 48u);
  // CL 2401-point rows (7^4): 343 butterflies in 2 rounds of 256, exactly a third idle: kept.
  EXPECT_EQ(plan(Axis::rows, 2401, fast::Tuning{}, 1).threads, plan(Axis::rows, 2401, fast::Tuning{}, 0).threads);
  // Where the balanced group would hold more than max_pre_hold values, the plan is the unbalanced one.
  fast::Tuning tight;
  tight.max_pre_hold = 36;  // 2187 columns: 12 x 3 at 256 work-items fits, 16 x 3 at 192 does not
  EXPECT_EQ(plan(Axis::cols, 2187, tight, 1).describe(), plan(Axis::cols, 2187, tight, 0).describe());
  for (const fast::Tuning& tuning : {fast::Tuning{}, gl})
    for (std::uint32_t n : {256u, 512u, 1000u, 1080u, 1920u, 2048u, 2187u, 2401u, 3125u, 4000u, 4096u, 8192u})
      for (Axis axis : {Axis::rows, Axis::cols}) {
        const auto before = plan(axis, n, tuning, 0), after = plan(axis, n, tuning, 1);
        const auto [most, rounds] = widest(before);
        if (after.threads != before.threads) {
          EXPECT_LT(3 * most, 2 * rounds * before.threads) << after.describe();
          EXPECT_EQ(widest(after).second, rounds) << after.describe();
          EXPECT_LT(after.threads, before.threads);
          EXPECT_EQ(after.threads % 32, 0u);
        } else {
          EXPECT_EQ(after.describe(), before.describe());
        }
      }
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

// ---- Bluestein (issue 6) ----------------------------------------------------------------------

// 100 + 9 per factor 3, 14 per 5, 16 per 7 when l is 2·3·5·7-smooth, else -1.
int weight_if_7_smooth(std::uint64_t l) {
  while (l % 2 == 0) l /= 2;
  int weight = 100;
  for (const auto& [p, w] : {std::pair{3u, 9}, std::pair{5u, 14}, std::pair{7u, 16}})
    for (; l % p == 0; l /= p) weight += w;
  return l == 1 ? weight : -1;
}

TEST(FastBluestein, PaddedLengthFollowsTheDocumentedRule) {
  for (std::uint32_t n = 2; n <= 3000; ++n) {
    const auto lengths = fast::bluestein_lengths(n);
    ASSERT_FALSE(lengths.empty()) << n;
    std::uint64_t pow2 = 1;
    while (pow2 < 2ull * n - 1) pow2 *= 2;
    EXPECT_EQ(fast::bluestein_length_bound(n), pow2);
    // Brute force over every L in [2n - 1, pow2]: the cheapest L·weight, then the smallest.
    std::uint64_t best = 0, best_cost = ~0ull;
    std::size_t smooth = 0;
    for (std::uint64_t l = 2ull * n - 1; l <= pow2; ++l) {
      const int weight = weight_if_7_smooth(l);
      if (weight < 0) continue;
      ++smooth;
      if (l * weight < best_cost) best_cost = l * weight, best = l;
    }
    EXPECT_EQ(lengths.size(), smooth) << n;
    EXPECT_EQ(lengths.front(), best) << n;
    EXPECT_EQ(fast::bluestein_length(n), best) << n;
    for (std::uint32_t l : lengths) {
      EXPECT_GE(l, 2u * n - 1) << n;
      EXPECT_LE(l, pow2) << n;
      EXPECT_GE(weight_if_7_smooth(l), 0) << n << " " << l;
    }
  }
  EXPECT_EQ(fast::bluestein_length(17), 36u);      // 4·9 (cost 4248) before 35 = 5·7 (4550)
  EXPECT_EQ(fast::bluestein_length(4099), 9216u);  // 2^10·9 (1087488) before 8960 = 2^8·5·7 (1164800)
  EXPECT_EQ(fast::bluestein_length(4096), 8192u);  // 2n - 1 = 8191: the power of two, no odd factor
}

TEST(FastBluestein, RoutesLargePrimesThroughBluesteinAndSmoothLengthsDirectly) {
  const fast::Tuning tuning;
  for (const auto& [n, lines] : {std::pair{4099u, 4099u}, std::pair{4099u, 97u}, std::pair{97u, 4099u},
                                 std::pair{17u, 8u}, std::pair{2u * 1009u, 64u}, std::pair{3u * 8u * 211u, 5u}}) {
    for (Axis axis : {Axis::rows, Axis::cols}) {
      const auto route = fast::route_axis(axis, n, lines, nvidia, tuning);
      ASSERT_TRUE(route.has_value()) << n;
      EXPECT_TRUE(route->bluestein()) << n;
      EXPECT_EQ(route->n, n);
      // The first padded length the device takes: for 4099 (and 17) the rule's first choice.
      const auto lengths = fast::bluestein_lengths(n);
      EXPECT_NE(std::find(lengths.begin(), lengths.end(), route->l), lengths.end()) << n;
      for (std::uint32_t earlier : lengths) {
        if (earlier == route->l) break;
        // Passed over: no plan, or (columns) fewer than 2 columns per group where the chosen has more.
        const auto skipped = fast::plan_bluestein_axis(axis, n, earlier, lines, nvidia, tuning);
        EXPECT_TRUE(!skipped || (axis == Axis::cols && skipped->lines_per_group < 2 &&
                                 route->plan.lines_per_group > skipped->lines_per_group))
            << n << " " << earlier;
      }
      if (n == 4099 || n == 17) {
        EXPECT_EQ(route->l, fast::bluestein_length(n)) << n;
      }
      EXPECT_EQ(route->plan.n, route->l);
      EXPECT_EQ(route->plan.pre_radix * product(route->plan.radices), route->l);
      EXPECT_LE(route->plan.local_bytes(), 48u * 1024);
      EXPECT_EQ(route->scratch_elements(lines), std::uint64_t{route->l} * lines);
    }
  }
  // Lengths whose padded lines the device cannot take are refused (the backend runs the fused
  // pipeline): a split holds about n / 256 live values per work-item at 256 threads, at most
  // max_pre_hold (64), so 4 · 4099 is over; 2 · 4099 plans (without pruning it would hold L / 256).
  EXPECT_FALSE(fast::route_axis(Axis::rows, 4 * 4099, 64, nvidia, tuning).has_value());
  EXPECT_TRUE(fast::route_axis(Axis::rows, 2 * 4099, 64, nvidia, tuning).has_value());
  fast::Tuning unpruned = tuning;
  unpruned.prune_padding = 0;
  EXPECT_FALSE(fast::route_axis(Axis::rows, 2 * 4099, 64, nvidia, unpruned).has_value());
  const auto direct = fast::route_axis(Axis::rows, 4096, 4096, nvidia, tuning);
  ASSERT_TRUE(direct.has_value());
  EXPECT_FALSE(direct->bluestein());
  EXPECT_EQ(direct->scratch_elements(4096), 0u);
  EXPECT_EQ(direct->plan.n, 4096u);
}

TEST(FastBluestein, ColumnsPreferAPaddedLengthWithSeveralColumnsPerGroup) {
  // A register budget under which 1401's first candidate (3072 = 3·2^10) plans as one column per
  // group but a later one (2880 = 2^6·3^2·5) as two.
  fast::Tuning tuning;
  tuning.max_pre_hold = 16;
  tuning.prune_padding = 0;  // the rule alone (pruning changes which candidates fit)
  const std::uint32_t n = 1401, lines = 64;
  const auto lengths = fast::bluestein_lengths(n);
  std::optional<fast::AxisPlan> first;
  for (std::uint32_t l : lengths)
    if ((first = fast::plan_bluestein_axis(Axis::cols, n, l, lines, nvidia, tuning))) break;
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->n, 3072u);
  EXPECT_EQ(first->lines_per_group, 1u) << first->describe();
  const auto cols = fast::route_axis(Axis::cols, n, lines, nvidia, tuning);
  ASSERT_TRUE(cols.has_value());
  EXPECT_EQ(cols->l, 2880u) << cols->describe();
  EXPECT_GE(cols->plan.lines_per_group, 2u) << cols->describe();
  // No candidate before it plans with 2 columns or more (and none at all with 4 here).
  for (std::uint32_t l : lengths) {
    const auto p = fast::plan_bluestein_axis(Axis::cols, n, l, lines, nvidia, tuning);
    EXPECT_TRUE(!p || p->lines_per_group < 4) << p->describe();
    if (l == cols->l) break;
    EXPECT_TRUE(!p || p->lines_per_group < 2) << p->describe();
  }
  // Rows, and a single column, keep the first candidate that plans.
  EXPECT_EQ(fast::route_axis(Axis::rows, n, lines, nvidia, tuning)->l,
            fast::plan_bluestein_axis(Axis::rows, n, 3072, lines, nvidia, tuning) ? 3072u : 0u);
  EXPECT_EQ(fast::route_axis(Axis::cols, n, 1, nvidia, tuning)->l, 3072u);
  // The CL defaults (with or without pruning: it keeps the layouts): every candidate of 4099
  // (L > 8192) plans as one column per group, so the rule's first choice stays.
  fast::Tuning cl_unpruned;
  cl_unpruned.prune_padding = 0;
  const auto big = fast::route_axis(Axis::cols, 4099, 4099, nvidia, cl_unpruned);
  ASSERT_TRUE(big.has_value());
  EXPECT_EQ(big->l, 9216u);
  EXPECT_EQ(big->plan.lines_per_group, 1u);
  // GL's defaults (512 threads): two columns at the rule's first choice already.
  fast::Tuning gl_unpruned = fast::gl_default_tuning();
  gl_unpruned.prune_padding = 0;
  const auto gl = fast::route_axis(Axis::cols, 4099, 4099, nvidia, gl_unpruned);
  ASSERT_TRUE(gl.has_value());
  EXPECT_EQ(gl->l, 9216u);
  EXPECT_EQ(gl->plan.lines_per_group, 2u);
}

// Tuning::bluestein_length (for measurements: FFTSCOPE_FAST_TUNING): one of bluestein_lengths(n)
// is taken whatever its rank, any other value leaves the rule's first choice.
TEST(FastBluestein, ANamedPaddedLengthIsTakenOnlyFromTheRulesLengths) {
  fast::Tuning t;
  EXPECT_EQ(fast::route_axis(Axis::rows, 4099, 64, nvidia, t)->l, 9216u);
  t.bluestein_length = 8960;  // 2^8 5 7: the old rule's choice, ranked lower now
  EXPECT_EQ(fast::route_axis(Axis::rows, 4099, 64, nvidia, t)->l, 8960u);
  t.bluestein_length = 9001;  // not 2 3 5 7-smooth
  EXPECT_EQ(fast::route_axis(Axis::rows, 4099, 64, nvidia, t)->l, 9216u);
}

TEST(FastBluestein, SplitsUseTheLiveBlocks) {
  // 4099 points padded to 9216: the splits keep the plans they have without pruning (holding
  // every value) and accumulate only the ceil(4099 / m) live blocks of bins in pass 2 (the CL
  // default, prune_padding 2; GL's 1 leaves them as they are).
  EXPECT_EQ(fast::route_axis(Axis::rows, 4099, 4099, nvidia, fast::gl_default_tuning())->plan.live_blocks, 0u);
  EXPECT_EQ(fast::route_axis(Axis::cols, 4099, 4099, nvidia, fast::gl_default_tuning())->plan.live_blocks, 0u);
  fast::Tuning gl_bins = fast::gl_default_tuning();
  gl_bins.prune_padding = 2;
  for (const fast::Tuning& tuning : {fast::Tuning{}, gl_bins}) {
    fast::Tuning unpruned = tuning;
    unpruned.prune_padding = 0;
    for (Axis axis : {Axis::rows, Axis::cols}) {
      const auto route = fast::route_axis(axis, 4099, 4099, nvidia, tuning);
      const auto plain = fast::route_axis(axis, 4099, 4099, nvidia, unpruned);
      ASSERT_TRUE(route.has_value() && plain.has_value());
      const fast::AxisPlan& p = route->plan;
      ASSERT_EQ(p.n, 9216u) << p.describe();
      ASSERT_GT(p.pre_radix, 1u) << p.describe();
      EXPECT_EQ(p.live_blocks, (4099 + p.m - 1) / p.m) << p.describe();
      EXPECT_LT(p.live_blocks, p.pre_radix) << p.describe();
      EXPECT_FALSE(p.live_inputs) << p.describe();
      EXPECT_EQ(plain->plan.live_blocks, 0u);
      // The same layout as without pruning.
      EXPECT_EQ(p.pre_radix, plain->plan.pre_radix) << p.describe();
      EXPECT_EQ(p.lines_per_group, plain->plan.lines_per_group) << p.describe();
      EXPECT_EQ(p.pre_hold, plain->plan.pre_hold) << p.describe();
      EXPECT_EQ(p.split_dit, plain->plan.split_dit) << p.describe();
      EXPECT_NE(p.describe().find("live bins "), std::string::npos) << p.describe();
    }
  }
  // Padded lines split in time on both axes (the scratch is stored line after line): OpenCL's
  // 4099-point columns (1 per group, split 2 x 4608, through local memory first).
  const auto cols = fast::route_axis(Axis::cols, 4099, 4099, nvidia, fast::Tuning{});
  EXPECT_TRUE(cols->plan.split_dit && !cols->plan.stage0_from_registers) << cols->plan.describe();
  // Lines that fit no other way hold only their live inputs (prune_padding 1 or 2): 2 · 4099
  // rows padded past 16384 points would hold L / 256 > 64 values per OpenCL work-item, their
  // live part about 8198 / 256; GL's 512 threads fit them whole, and 4 · 4099 by the live part
  // in rounds of 512 (in one round of 576, Tuning::bluestein_row_one_round_threads, whole: 64 values each).
  fast::Tuning cl_fallback;
  cl_fallback.prune_padding = 1;
  fast::Tuning gl_rounds = fast::gl_default_tuning();
  gl_rounds.bluestein_row_one_round_threads = 0;
  const auto gl_rows = fast::route_axis(Axis::rows, 4 * 4099, 64, nvidia, gl_rounds);
  ASSERT_TRUE(gl_rows.has_value());
  EXPECT_TRUE(gl_rows->plan.live_inputs) << gl_rows->plan.describe();
  const auto gl_one_round = fast::route_axis(Axis::rows, 4 * 4099, 64, nvidia, fast::gl_default_tuning());
  ASSERT_TRUE(gl_one_round.has_value());
  EXPECT_FALSE(gl_one_round->plan.live_inputs) << gl_one_round->plan.describe();
  EXPECT_EQ(gl_one_round->plan.threads, 576u) << gl_one_round->plan.describe();
  EXPECT_FALSE(fast::route_axis(Axis::rows, 2 * 4099, 64, nvidia, fast::gl_default_tuning())->plan.live_inputs);
  EXPECT_TRUE(fast::route_axis(Axis::rows, 2 * 4099, 64, nvidia, cl_fallback)->plan.live_inputs);
  const auto long_rows = fast::route_axis(Axis::rows, 2 * 4099, 64, nvidia, fast::Tuning{});
  ASSERT_TRUE(long_rows.has_value());
  const fast::AxisPlan& p = long_rows->plan;
  EXPECT_TRUE(p.live_inputs) << p.describe();
  EXPECT_EQ(p.pre_hold, (std::uint64_t{p.lines_per_group} * p.m + p.threads - 1) / p.threads * p.live_blocks)
      << p.describe();
  EXPECT_LE(p.pre_hold, fast::Tuning{}.max_pre_hold) << p.describe();
  EXPECT_GT(std::uint64_t{p.lines_per_group} * p.m / p.threads * p.pre_radix, fast::Tuning{}.max_pre_hold)
      << p.describe();
  EXPECT_FALSE(p.split_dit) << p.describe();  // pass 1 forms y_q in frequency
  EXPECT_NE(p.describe().find("live 2 x"), std::string::npos) << p.describe();
  // Direct axes and unsplit padded lines hold everything: nothing to prune.
  EXPECT_EQ(fast::plan_axis(Axis::cols, 4096, 4096, nvidia, fast::Tuning{})->live_blocks, 0u);
  const auto short_line = fast::route_axis(Axis::rows, 97, 64, nvidia, fast::Tuning{});
  ASSERT_TRUE(short_line.has_value());
  EXPECT_EQ(short_line->plan.pre_radix, 1u);
  EXPECT_EQ(short_line->plan.live_blocks, 0u);
  // The defines the kernels read.
  const auto defines = fast::route_axis(Axis::rows, 4099, 4099, nvidia, fast::Tuning{})->plan.defines();
  EXPECT_NE(std::find(defines.begin(), defines.end(), std::pair<std::string, std::string>{"LIVE_BLOCKS", "1"}),
            defines.end());
  EXPECT_NE(std::find(defines.begin(), defines.end(), std::pair<std::string, std::string>{"LIVE_INPUTS", "0"}),
            defines.end());
}

TEST(FastBluestein, BluesteinPlansSplitThroughRegisters) {
  // The fused passes follow the split through registers only: split_global is ignored for them.
  fast::Tuning tuning;
  tuning.split_global = 1;
  tuning.local_bytes_cap = 4096;
  const auto route = fast::route_axis(Axis::rows, 257, 64, fast::DeviceLimits{}, tuning);
  ASSERT_TRUE(route.has_value());
  EXPECT_TRUE(route->bluestein());
  EXPECT_GT(route->plan.pre_radix, 1u) << route->describe();
  EXPECT_FALSE(route->plan.split_global);
  const auto defines = route->plan.defines();
  EXPECT_NE(std::find(defines.begin(), defines.end(), std::pair<std::string, std::string>{"SPLIT_GLOBAL", "0"}),
            defines.end());
  EXPECT_TRUE(fast::plan_axis(Axis::rows, 960, 64, fast::DeviceLimits{}, tuning)->split_global);
}

TEST(FastBluestein, ChirpMatchesTheClosedForm) {
  for (std::uint32_t n : {17u, 97u, 4099u, 65537u}) {
    const auto c = fast::bluestein_tables(n, fast::bluestein_length(n)).chirp;
    ASSERT_EQ(c.size(), n);
    double worst = 0;
    for (std::uint64_t k = 0; k < n; ++k) {
      // Unreduced, in long double: exp(-i pi k^2 / n) (k^2 < 2^33 is exact; glibc's sinl
      // reduces large arguments exactly).
      const long double a = -std::numbers::pi_v<long double> * static_cast<long double>(k * k) / n;
      worst = std::max(worst, static_cast<double>(std::abs(std::complex<long double>(c[k].real(), c[k].imag()) -
                                                            std::complex<long double>(std::cos(a), std::sin(a)))));
    }
    EXPECT_LT(worst, 1.2e-7) << n;  // float rounding of each part: <= 2^-24 ≈ 6e-8
  }
}

TEST(FastBluestein, FilterAndChirpGiveTheDft) {
  // The tables alone, on the host in double: X = c · IDFT_L(DFT_L(pad(x·c)) · B) against the
  // brute-force DFT — the algorithm the kernels run, with the float-rounded tables.
  for (std::uint32_t n : {17u, 97u, 211u}) {
    const std::uint32_t l = fast::bluestein_length(n);
    const auto [c, b] = fast::bluestein_tables(n, l);
    ASSERT_EQ(b.size(), l);
    const auto x = test::random_complex(n, n);
    std::vector<test::ComplexD> a(l, 0.0);
    for (std::uint32_t i = 0; i < n; ++i) a[i] = x[i] * test::ComplexD(c[i]);
    auto spectrum = test::brute_force_dft(a, Direction::forward);
    for (std::uint32_t i = 0; i < l; ++i) spectrum[i] *= test::ComplexD(b[i]);
    const auto y = test::brute_force_dft(spectrum, Direction::inverse);
    std::vector<test::ComplexD> got(n);
    for (std::uint32_t k = 0; k < n; ++k) got[k] = y[k] * test::ComplexD(c[k]);
    const double err = test::relative_l2_error(got, test::brute_force_dft(x, Direction::forward));
    EXPECT_LT(err, 1e-6) << n << " (L = " << l << ")";
  }
}

// The real display's columns route as a complex image's W/2 columns do (four-step at 8192^2 on
// the H100 with either tuning, direct at 4096^2), out of place: the direct pass stores into the
// output buffer (mode OUTPUT_BUFFER), four-step pass A into the scratch and pass B from it; the
// timing names start with the stem. No Bluestein (those sizes take the complex fallback).
TEST(FastPlan, RealDisplayColumnsRouteAsComplexColumnsOutOfPlace) {
  for (const fast::Tuning& tuning : {fast::Tuning{}, fast::gl_default_tuning()}) {
    for (const std::uint32_t n : {4096u, 8192u}) {
      const auto display = fast::route_real_columns(n, n, nvidia, tuning);
      const auto complex = fast::route_axis(Axis::cols, n, n / 2, nvidia, tuning);
      ASSERT_TRUE(display && complex) << n;
      EXPECT_EQ(display->plan.describe(), complex->plan.describe());
      EXPECT_EQ(display->four_step(), n == 8192) << display->describe();
      // GL's pass B works in place on Z (Tuning::four_step_in_place_min_bytes), its rows left swapped for
      // the display rows to read where they lie (display_rows_defines).
      const bool in_place = display->four_step() && tuning.four_step_in_place_min_bytes != 0 && n == 8192;
      EXPECT_EQ(display->swap.has_value(), in_place) << display->describe();
      const auto rows = fast::plan_display_rows(n, n, nvidia, tuning);
      ASSERT_TRUE(rows) << n;
      const auto defines = fast::display_rows_defines(n, n, *rows, tuning, display->swap);
      EXPECT_EQ(std::count_if(defines.begin(), defines.end(), [](const auto& d) { return d.first == "ROW_SWAP_A"; }),
                in_place ? 1 : 0);
      // GL's 8192-point display rows (2 x 4096 in time) unpack Z's rows after their
      // sub-transforms (Tuning::display_rows_unpack_after); OpenCL's, and unsplit rows, before.
      const bool after = tuning.display_rows_unpack_after != 0 && n == 8192;
      EXPECT_EQ(std::count(defines.begin(), defines.end(), std::pair<std::string, std::string>{"UNPACK_MIRRORED", "1"}),
                after ? 1 : 0)
          << rows->describe();
      EXPECT_EQ(rows->split_dit && rows->pre_radix == 2, n == 8192) << rows->describe();
      const auto passes = fast::axis_passes(*display, n / 2, Direction::forward, true, "fast_cols_real");
      if (display->four_step()) {
        ASSERT_EQ(passes.size(), 2u);
        EXPECT_EQ(passes[0].name, "fast_cols_real_a(" + std::to_string(display->plan.n) + " of 8192)");
        EXPECT_STREQ(passes[0].mode, fast::four_step_a);
        EXPECT_FALSE(passes[0].on_scratch);
        EXPECT_EQ(passes[0].to_scratch, !in_place);
        EXPECT_STREQ(passes[1].mode, fast::four_step_b);
        EXPECT_EQ(passes[1].on_scratch, !in_place);
        EXPECT_EQ(passes[1].on_output, in_place);
        EXPECT_EQ(display->scratch_elements(n / 2), in_place ? 0 : std::uint64_t{n} * n / 2);
      } else {
        ASSERT_EQ(passes.size(), 1u);
        EXPECT_EQ(passes[0].name, "fast_cols_real");
        EXPECT_STREQ(passes[0].mode, fast::output_buffer);
        EXPECT_EQ(passes[0].bytes, std::uint64_t{n} * n * 8);  // the real image read, Z written
      }
      // In place (the complex path), the direct pass has no mode.
      if (!display->four_step()) {
        EXPECT_EQ(fast::axis_passes(*display, n / 2, Direction::forward)[0].mode, nullptr);
      }
    }
  }
  EXPECT_FALSE(fast::route_real_columns(64, 4099, nvidia, fast::Tuning{}).has_value());  // Bluestein
  EXPECT_FALSE(fast::route_real_columns(2, 64, nvidia, fast::Tuning{}).has_value());     // too narrow
  // The columns: the image's (W + 1)/2 pixel pairs (an odd W's last (x[W - 1], 0)), up to a
  // multiple of 4 ...
  EXPECT_EQ(fast::display_pair_columns(63), 32u);
  EXPECT_EQ(fast::display_pair_columns(64), 32u);
  EXPECT_EQ(fast::display_pair_columns(2187), 1096u);
  EXPECT_EQ(fast::display_pair_columns(250), 128u);
  // ... uploaded so, zeros after each row (fast::display_pairs_image); a width of 8k as it is.
  RealImage image(3, 2);
  image.data = {1, 2, 3, 4, 5, 6};
  std::vector<float> padded;
  const std::span<const float> pairs = fast::display_pairs_image(image, padded);
  EXPECT_EQ(std::vector<float>(pairs.begin(), pairs.end()),
            (std::vector<float>{1, 2, 3, 0, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0}));
  const RealImage wide(16, 2);
  EXPECT_EQ(fast::display_pairs_image(wide, padded).data(), wide.data.data());
  const auto odd = fast::route_real_columns(63, 64, nvidia, fast::Tuning{});
  ASSERT_TRUE(odd.has_value());
  EXPECT_EQ(fast::route_identity(*odd), fast::route_identity(*fast::route_real_columns(64, 64, nvidia, fast::Tuning{})));
  const auto bluestein = fast::route_axis(Axis::cols, 4099, 64, nvidia, fast::Tuning{});
  ASSERT_TRUE(bluestein && bluestein->bluestein());
  // Bluestein out of place (the routed display's columns): the first pass reads the image, the
  // second stores into the output; in place both use the image.
  const auto apart = fast::axis_passes(*bluestein, 64, Direction::forward, true);
  ASSERT_EQ(apart.size(), 2u);
  EXPECT_FALSE(apart[0].image_is_output);
  EXPECT_TRUE(apart[1].image_is_output);
  for (const fast::AxisPass& p : fast::axis_passes(*bluestein, 64, Direction::forward)) EXPECT_FALSE(p.image_is_output);
}

// GL's Bluestein columns split in time where a group holds at most 2 of them
// (Tuning::bluestein_cols_in_time), whatever split_dit says; OpenCL's by split_dit 2.
TEST(FastPlan, BluesteinColumnsOfFewPerGroupSplitInTime) {
  const fast::Tuning gl = fast::gl_default_tuning();
  const auto wide = fast::route_axis(Axis::cols, 4099, 4099, nvidia, gl);
  ASSERT_TRUE(wide && wide->bluestein() && wide->plan.pre_radix > 1) << wide->describe();
  EXPECT_LE(wide->plan.lines_per_group, 2u) << wide->describe();
  EXPECT_TRUE(wide->plan.split_dit) << wide->describe();
  const auto many = fast::route_axis(Axis::cols, 2053, 2053, nvidia, gl);
  ASSERT_TRUE(many && many->bluestein() && many->plan.pre_radix > 1) << many->describe();
  EXPECT_GT(many->plan.lines_per_group, 2u) << many->describe();
  EXPECT_FALSE(many->plan.split_dit) << many->describe();
  fast::Tuning off = gl;
  off.bluestein_cols_in_time = 0;
  EXPECT_FALSE(fast::route_axis(Axis::cols, 4099, 4099, nvidia, off)->plan.split_dit);
}

// The rows' transform handed to the columns in tiles (Tuning::tiled_columns_min_bytes): only
// from the knob's size, only where both axes are direct passes; the rows store into the scratch
// (TILE_OUT), the columns read it (TILE_IN) and store into the image, the tile the columns' group;
// a fused single dispatch stays in place.
TEST(FastPlan, TiledColumnsOnlyWhereBothAxesAreDirect) {
  fast::Tuning tuning = fast::gl_default_tuning();
  EXPECT_EQ(fast::route_image(4096, 4096, nvidia, tuning)->cols.tile_lines, 0u);  // GL's 0: never
  EXPECT_EQ(fast::route_image(4096, 4096, nvidia, fast::Tuning{})->cols.tile_lines, 4u);  // OpenCL's 48 MiB
  // Not in tiles of 2 columns (run426: 3146^2 379 -> 218 us without them); two groups of 2 fill
  // a tile of 4 where tile_min_lines asks.
  for (const std::size_t n : {3146u, 4802u, 5400u, 7500u}) {
    SCOPED_TRACE(n);
    const auto pairs = fast::route_image(n, n, nvidia, fast::Tuning{});
    ASSERT_TRUE(pairs.has_value());
    EXPECT_EQ(pairs->cols.plan.lines_per_group, 2u) << pairs->cols.describe();
    EXPECT_EQ(pairs->rows.tile_lines + pairs->cols.tile_lines, 0u) << pairs->cols.describe();
    fast::Tuning four{};
    four.tile_min_lines = 4;
    EXPECT_EQ(fast::route_image(n, n, nvidia, four)->cols.tile_lines, n % 4 == 0 ? 4u : 0u);
  }
  tuning.tiled_columns_min_bytes = 64ull << 20;
  const auto image = fast::route_image(4096, 4096, nvidia, tuning);
  ASSERT_TRUE(image.has_value());
  ASSERT_GE(image->cols.tile_lines, 2u) << image->cols.describe();
  EXPECT_EQ(image->cols.tile_lines, image->cols.plan.lines_per_group);
  EXPECT_EQ(image->rows.tile_lines, image->cols.tile_lines);
  EXPECT_EQ(image->scratch_elements(), 4096u * 4096u);
  EXPECT_EQ(fast::route_image(2048, 2048, nvidia, tuning)->cols.tile_lines, 0u);  // 32 MiB: under the knob

  const auto rows = fast::axis_passes(image->rows, 4096, Direction::forward);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_STREQ(rows[0].mode, fast::output_buffer);
  EXPECT_TRUE(rows[0].to_scratch);
  EXPECT_FALSE(rows[0].on_scratch);
  const std::vector<std::pair<std::string, std::string>> row_defines = {
      {"TILE_OUT", std::to_string(image->cols.tile_lines)}};
  EXPECT_EQ(rows[0].defines, row_defines);
  const auto cols = fast::axis_passes(image->cols, 4096, Direction::inverse);
  ASSERT_EQ(cols.size(), 1u);
  EXPECT_STREQ(cols[0].mode, fast::output_buffer);
  EXPECT_TRUE(cols[0].on_scratch);
  EXPECT_FALSE(cols[0].to_scratch);
  EXPECT_FLOAT_EQ(cols[0].scale, 1.0f / 4096);
  EXPECT_EQ(cols[0].defines.front().first, "TILE_IN");

  tuning.tiled_columns_min_bytes = 1;
  // Bluestein, row pairs, four steps; groups of 4 columns that leave a narrower last tile.
  for (const auto& [w, h] : {std::pair{4099, 4099}, {4099, 64}, {64, 4099}, {8192, 8192}, {6000, 4000}, {2187, 2187}}) {
    const auto other = fast::route_image(w, h, nvidia, tuning);
    ASSERT_TRUE(other.has_value()) << w << "x" << h;
    EXPECT_EQ(other->rows.tile_lines + other->cols.tile_lines, 0u) << w << "x" << h << ": " << other->cols.describe();
  }
  fast::Tuning cl{};
  cl.tiled_columns_min_bytes = 1;
  const auto small = fast::route_image(256, 256, nvidia, cl);
  ASSERT_TRUE(small.has_value());
  EXPECT_GE(small->cols.tile_lines, 4u);
  const auto fused = fast::fused_route(*small, cl);
  ASSERT_TRUE(fused.has_value());
  EXPECT_EQ(fused->tile_lines, 0u);
  EXPECT_TRUE(fast::fused_pass(*fused, 256, Direction::forward).defines.empty());
}

// The real display's passes (fast::plan_real_display): each axis fused where it plans, else by
// the complex path's route, Bluestein's for a prime factor above 13, one scratch for both.
TEST(FastPlan, RealDisplayRoutesOnlyTheAxisThatHasALargePrime) {
  const fast::Tuning cl{};
  const auto smooth = fast::plan_real_display(64, 48, nvidia, cl);
  ASSERT_TRUE(smooth.has_value());
  EXPECT_TRUE(smooth->fused());
  EXPECT_FALSE(smooth->routed_rows.has_value());
  const auto both = fast::plan_real_display(4099, 4099, nvidia, cl);
  ASSERT_TRUE(both.has_value());
  EXPECT_FALSE(both->fused());
  EXPECT_TRUE(both->cols.bluestein());
  ASSERT_TRUE(both->routed_rows.has_value());
  EXPECT_TRUE(both->routed_rows->bluestein());
  EXPECT_EQ(both->scratch_elements(4099, 4099),
            std::max(std::uint64_t{both->cols.l} * fast::display_pair_columns(4099),
                     std::uint64_t{both->routed_rows->l} * 2050));
  const auto rows_only = fast::plan_real_display(51, 48, nvidia, cl);  // 51 = 3 x 17
  ASSERT_TRUE(rows_only.has_value());
  EXPECT_FALSE(rows_only->cols.bluestein());
  EXPECT_FALSE(rows_only->rows.has_value());
  ASSERT_TRUE(rows_only->routed_rows.has_value());
  EXPECT_EQ(rows_only->routed_rows->n, 51u);
  const auto cols_only = fast::plan_real_display(48, 34, nvidia, cl);  // 34 = 2 x 17
  ASSERT_TRUE(cols_only.has_value());
  EXPECT_TRUE(cols_only->cols.bluestein());
  ASSERT_TRUE(cols_only->rows.has_value());
  EXPECT_EQ(cols_only->rows->n, 48u);
  // GL's in-place four-step columns leave Z's rows swapped, which only the fused display rows
  // read where they lie: with rows routed (8191 is prime) the columns run out of place.
  const fast::Tuning gl = fast::gl_default_tuning();
  ASSERT_TRUE(fast::route_real_columns(8192, 8192, nvidia, gl)->swap.has_value());
  const auto swapped = fast::plan_real_display(8192, 8192, nvidia, gl);
  ASSERT_TRUE(swapped && swapped->fused());
  EXPECT_TRUE(swapped->cols.swap.has_value());
  const auto routed = fast::plan_real_display(8191, 8192, nvidia, gl);
  ASSERT_TRUE(routed && routed->routed_rows);
  EXPECT_TRUE(routed->cols.four_step());
  EXPECT_FALSE(routed->cols.swap.has_value());
  EXPECT_FALSE(fast::plan_real_display(2, 48, nvidia, cl).has_value());
  EXPECT_FALSE(fast::plan_real_display(48, 1, nvidia, cl).has_value());
}

TEST(FastPlan, BothAxesInOneDispatchOnlyForSmallSquareImagesWithUnsplitColumns) {
  const fast::Tuning cl{};
  const auto fused = [&](std::size_t w, std::size_t h, const fast::Tuning& t) {
    const auto routes = fast::route_image(w, h, nvidia, t);
    return routes ? fast::fused_route(*routes, t) : std::nullopt;
  };
  for (const std::size_t n : {8u, 96u, 256u, 512u}) {
    const auto route = fused(n, n, cl);
    ASSERT_TRUE(route) << n;
    EXPECT_EQ(route->plan.axis, Axis::cols);
    EXPECT_EQ(route->plan.pre_radix, 1u) << route->describe();
    const fast::AxisPass forward = fast::fused_pass(*route, n, Direction::forward);
    const fast::AxisPass inverse = fast::fused_pass(*route, n, Direction::inverse);
    EXPECT_STREQ(forward.mode, fast::fused_2d);
    EXPECT_EQ(forward.name, "fast_2d");
    EXPECT_EQ(forward.phases, 2u);
    EXPECT_EQ(forward.bytes, 4 * n * n * sizeof(Complex));  // read and write the image once per axis
    EXPECT_EQ(forward.scale, 1.0f);
    EXPECT_FLOAT_EQ(inverse.scale, 1.0f / static_cast<float>(n));  // each phase: 1 / (n n) in all
    EXPECT_EQ(inverse.conj_sign, -1.0f);
  }
  EXPECT_FALSE(fused(1024, 1024, cl));  // its columns split (8 x 1024 x 8 B > 48 KiB)
  // Unsplit columns past 2 MiB (run426: one dispatch lost to two from 640^2 on); under 8 MiB
  // they fuse, as before.
  for (const std::size_t n : {520u, 640u, 875u, 1001u}) {
    ASSERT_TRUE(fast::route_image(n, n, nvidia, cl)) << n;
    EXPECT_FALSE(fused(n, n, cl)) << n;
    fast::Tuning eight = cl;
    eight.fused_max_bytes = 8ull << 20;
    EXPECT_TRUE(fused(n, n, eight)) << n;
  }
  // With Tuning::fused_split_columns and 8 MiB, columns split through registers fuse too (1000^2,
  // 1024^2 on NVIDIA), the pass as the split column plan's; not a split through the buffer, not
  // 2048^2 (over fused_max_bytes).
  fast::Tuning split = cl;
  split.fused_split_columns = 1;
  split.fused_max_bytes = 8ull << 20;
  for (const std::size_t n : {1000u, 1024u}) {
    const auto route = fused(n, n, split);
    ASSERT_TRUE(route) << n;
    EXPECT_GT(route->plan.pre_radix, 1u) << route->describe();
    EXPECT_FALSE(route->plan.split_global);
    EXPECT_EQ(fast::fused_pass(*route, n, Direction::forward).phases, 2u);
  }
  EXPECT_EQ(fused(512, 512, split)->describe(), fused(512, 512, cl)->describe());
  EXPECT_FALSE(fused(2048, 2048, split));
  fast::Tuning through_buffer = split;
  through_buffer.split_global = 1;
  EXPECT_FALSE(fused(1024, 1024, through_buffer));
  EXPECT_FALSE(fused(96, 64, cl));      // not square
  EXPECT_FALSE(fused(17, 17, cl));      // Bluestein
  fast::Tuning never = cl;
  never.fused_max_bytes = 0;
  EXPECT_FALSE(fused(256, 256, never));
  fast::Tuning small = cl;
  small.fused_max_bytes = 256 * 256 * sizeof(Complex);
  EXPECT_TRUE(fused(256, 256, small));
  EXPECT_FALSE(fused(512, 512, small));
  EXPECT_FALSE(fused(256, 256, fast::gl_default_tuning()));  // GL keeps two dispatches
}

// Tuning::fold_columns_max_length: the columns' first radix-2 step in the rows pass (GL only),
// where the height is even and within the bound, the rows direct and unsplit and the columns
// direct; the half-length columns over twice the lines direct whatever their bytes; the rows'
// one pass into the output with FOLD_ROWS over H/2 lines, its inverse carrying the step's 1/2.
TEST(FastPlan, FoldsTheColumnsIntoTheRowsWhereAsked) {
  // GL's default folds the images of at least 128 MiB whose height is at most 4096 (of the
  // sweep's sizes, 4096^2 only), OpenCL's never.
  const fast::Tuning gl_default = fast::gl_default_tuning();
  EXPECT_EQ(fast::route_image(4096, 4096, nvidia, gl_default)->rows.fold, 4096u);
  EXPECT_EQ(fast::route_image(4096, 4096, nvidia, fast::cl_tuning(gl_default))->rows.fold, 0u);
  EXPECT_EQ(fast::route_image(4096, 4096, nvidia, fast::cl_tuning(fast::Tuning{}))->rows.fold, 0u);
  for (const auto& [w, h] : {std::pair{4000, 4000}, {4032, 3024}, {2048, 2048}, {1024, 1024}, {8192, 8192}, {4096, 8192}})
    EXPECT_EQ(fast::route_image(w, h, nvidia, gl_default)->rows.fold, 0u) << w << "x" << h;
  fast::Tuning gl = gl_default;
  gl.fold_columns_max_length = 0;
  fast::Tuning fold = gl;
  fold.fold_columns_max_length = 4096;
  fold.fold_columns_min_bytes = 0;
  // The byte bound alone keeps the default's smaller images unfolded: without it they fold, and
  // a bound of their own size takes them in.
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{4000, 4000}, {4032, 3024}, {2048, 2048}, {1024, 1024}}) {
    EXPECT_EQ(fast::route_image(w, h, nvidia, fold)->rows.fold, h) << w << "x" << h;
    fast::Tuning at_size = gl_default;
    at_size.fold_columns_min_bytes = std::uint64_t{w} * h * sizeof(Complex);
    EXPECT_EQ(fast::route_image(w, h, nvidia, at_size)->rows.fold, h) << w << "x" << h;
    at_size.fold_columns_min_bytes += 1;
    EXPECT_EQ(fast::route_image(w, h, nvidia, at_size)->rows.fold, 0u) << w << "x" << h;
  }
  const auto unfolded = fast::route_image(4096, 4096, nvidia, gl);
  const auto folded = fast::route_image(4096, 4096, nvidia, fold);
  ASSERT_TRUE(unfolded && folded);
  EXPECT_EQ(unfolded->rows.fold, 0u);
  EXPECT_EQ(folded->rows.fold, 4096u);
  EXPECT_EQ(folded->cols.fold, 4096u);
  EXPECT_EQ(fast::plan_identity(folded->rows.plan), fast::plan_identity(unfolded->rows.plan));
  EXPECT_EQ(folded->cols.n, 2048u);
  EXPECT_FALSE(folded->cols.four_step()) << folded->cols.describe();  // 128 MiB: four steps unfolded
  EXPECT_EQ(fast::plan_identity(folded->cols.plan), fast::plan_identity(fast::route_columns(2048, 8192, nvidia, [&] {
                                                                          fast::Tuning t = fold;
                                                                          t.four_step_min_bytes = 0;
                                                                          return t;
                                                                        }())->plan));
  EXPECT_EQ(folded->scratch_elements(), 0u);
  // Not: an odd height, one over the bound, OpenCL's tuning, split rows (8190 x 64: rows of 8190
  // points split), four-step columns (8192^2, in place with row pairs).
  EXPECT_EQ(fast::route_image(64, 63, nvidia, fold)->rows.fold, 0u);
  EXPECT_EQ(fast::route_image(64, 4098, nvidia, fold)->rows.fold, 0u);
  EXPECT_EQ(fast::route_image(4096, 4096, nvidia, fast::cl_tuning(fold))->rows.fold, 0u);
  const auto split_rows = fast::route_image(8192, 64, nvidia, fold);
  ASSERT_TRUE(split_rows);
  EXPECT_GT(split_rows->rows.plan.pre_radix, 1u);
  EXPECT_EQ(split_rows->rows.fold, 0u);
  fast::Tuning fold_large = fold;
  fold_large.fold_columns_max_length = 8192;
  const auto four_step = fast::route_image(8192, 8192, nvidia, fold_large);
  ASSERT_TRUE(four_step && four_step->cols.four_step());
  EXPECT_EQ(four_step->rows.fold, 0u);
  EXPECT_EQ(four_step->cols.n, 8192u);

  for (Direction d : {Direction::forward, Direction::inverse}) {
    const auto rows = fast::axis_passes(folded->rows, 4096, d);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_STREQ(rows[0].mode, fast::output_buffer);
    EXPECT_EQ(rows[0].defines, (std::vector<std::pair<std::string, std::string>>{{"FOLD_ROWS", "1"}}));
    EXPECT_EQ(rows[0].lines, 2048u);
    EXPECT_EQ(rows[0].bytes, 2ull * 4096 * 4096 * sizeof(Complex) + 2048 * sizeof(Complex));
    EXPECT_FLOAT_EQ(rows[0].scale, d == Direction::forward ? 1.0f : 1.0f / 8192.0f);
    const auto cols = fast::axis_passes(folded->cols, 8192, d);
    ASSERT_EQ(cols.size(), 1u);
    EXPECT_EQ(cols[0].mode, nullptr);
    EXPECT_EQ(cols[0].in_pitch, 8192u);
    EXPECT_FLOAT_EQ(cols[0].scale, d == Direction::forward ? 1.0f : 1.0f / 2048.0f);
  }
  EXPECT_NE(folded->rows.describe().find("columns' first radix-2 step"), std::string::npos);
  EXPECT_NE(folded->cols.describe().find("folded"), std::string::npos);
}

TEST(FastPlan, MemoryEstimateCountsTheFourStepScratch) {
  // 8192^2's columns go in four steps (an image-sized scratch, the largest buffer beside the
  // image's); 4096^2 and 2048^2 need none.
  const MemoryEstimate e = estimate_transform_memory(8192, 8192);
  EXPECT_GE(e.four_step, 8ull * 8192 * 8192);
  EXPECT_GE(e.largest_buffer, 8ull * 8192 * 8192);
  EXPECT_EQ(e.bytes, e.buffers + e.tables + e.bluestein + e.four_step);
  EXPECT_EQ(estimate_transform_memory(4096, 4096).four_step, 0u);
  EXPECT_EQ(estimate_transform_memory(2048, 2048).four_step, 0u);
  EXPECT_GT(estimate_transform_memory(4096, 8192).four_step, 0u);
  EXPECT_GT(estimate_transform_memory(8192, 4096).four_step, 0u);  // GL's route
  EXPECT_GT(estimate_transform_memory(6000, 4000).four_step, 0u);  // GL's route (48 000-byte rows)
}

TEST(FastBluestein, MemoryEstimateCountsTheScratch) {
  // Sizes whose axes go through Bluestein on the fast path: the estimate's largest buffer and
  // Bluestein bytes cover the scratch (L x lines) and the axis tables, whatever L the device
  // takes (at most bluestein_length_bound).
  for (const auto& [w, h] : {std::pair{4099u, 4099u}, std::pair{97u, 4099u}, std::pair{17u, 8u}, std::pair{8u, 211u},
                             std::pair{3u * 4099u, 8u}}) {
    const MemoryEstimate e = estimate_transform_memory(w, h);
    std::uint64_t scratch = 0, tables = 0;
    for (const auto& [n, lines] : {std::pair{w, h}, std::pair{h, w}}) {
      // Bluestein where the planner has no direct plan with 48 KiB of local memory (a prime
      // factor above 13).
      if (fast::plan_axis(Axis::rows, n, lines, fast::DeviceLimits{}, fast::Tuning{})) continue;
      scratch = std::max<std::uint64_t>(scratch, 8ull * fast::bluestein_length_bound(n) * lines);
      tables += 8ull * n + 16ull * fast::bluestein_length_bound(n);
    }
    EXPECT_GT(scratch, 0u) << w << "x" << h;
    EXPECT_GE(e.largest_buffer, scratch) << w << "x" << h;
    EXPECT_GE(e.bluestein, scratch + tables) << w << "x" << h;
    EXPECT_EQ(e.bytes, e.buffers + e.tables + e.bluestein + e.four_step);
  }
  // Smooth sizes: nothing extra; nor where the fast path has no route at all (3^10 = 59049-point
  // lines fit no split into 48 KiB, and their padded lines neither, even holding only their
  // live part: the teaching pipeline runs). 3^9 = 19683 has one now (GL's 512 threads).
  EXPECT_EQ(estimate_transform_memory(4096, 4000).bluestein, 0u);
  for (const fast::Tuning& tuning : {fast::Tuning{}, fast::gl_default_tuning()})
    EXPECT_FALSE(fast::route_axis(Axis::rows, 59049, 8, fast::DeviceLimits{}, tuning).has_value());
  EXPECT_EQ(estimate_transform_memory(59049, 8).bluestein, 0u);
  EXPECT_TRUE(fast::route_axis(Axis::rows, 19683, 8, fast::DeviceLimits{}, fast::gl_default_tuning()).has_value());
  EXPECT_GT(estimate_transform_memory(19683, 8).bluestein, 0u);
}

// The GPU suites' schedule checks (fast_cases.h) each need some case to take the schedule they
// test, and which plans a case takes depends on the device's limits: run on CI's llvmpipe and
// PoCL and on the H100 only, a check could find no case on another GPU (as the balanced-groups
// check did on the H100 until its base turned the rows' one-round rules off). Here every check
// runs on the planner alone over the limits of the devices fftscope meets: GL's minimum and
// llvmpipe's 32 KiB, NVIDIA's 48 KiB (the H100's 132 multiprocessors and a desktop's 28), the
// 64 KiB of AMD's and Intel's GL; OpenCL's PoCL (2 MiB, 4096 work-items, 2 or 16 cores), NVIDIA,
// and AMD's and Intel's 64 KiB with 256 and 512 work-items.
TEST(FastPlan, ScheduleChecksFindTheirCasesOnAnyDevice) {
  struct Device {
    const char* name;
    fast::DeviceLimits limits;
  };
  const Device gl_devices[] = {{"GL 32 KiB (llvmpipe)", {32 * 1024, 1024, 0}},
                               {"GL NVIDIA H100", {48 * 1024, 1024, 132}},
                               {"GL NVIDIA, 28 multiprocessors", {48 * 1024, 1024, 28}},
                               {"GL 64 KiB (AMD, Intel)", {64 * 1024, 1024, 0}}};
  const Device cl_devices[] = {{"OpenCL PoCL, 2 cores", {2u << 20, 4096, 2}},
                               {"OpenCL PoCL, 16 cores", {2u << 20, 4096, 16}},
                               {"OpenCL NVIDIA H100", {48 * 1024, 1024, 132}},
                               {"OpenCL 64 KiB, 256 work-items (AMD)", {64 * 1024, 256, 60}},
                               {"OpenCL 64 KiB, 512 work-items (Intel)", {64 * 1024, 512, 96}}};
  for (const bool opencl : {false, true}) {
    for (const Device& device : opencl ? std::span<const Device>(cl_devices) : std::span<const Device>(gl_devices)) {
      SCOPED_TRACE(device.name);
      const auto path = [&](const fast::Tuning& tuning) { return test::PlannedPath(device.limits, tuning, opencl); };
      const auto run = test::planned_run();
      for (const test::ScheduleCheck check : test::schedule_checks(opencl)) {
        SCOPED_TRACE("schedule check " + std::to_string(static_cast<int>(check)));
        test::run_schedule_check(check, opencl, path, run);
      }
    }
  }
}

}  // namespace
}  // namespace fftscope
