#pragma once
// The sizes and split cases both fast-path suites (test_fast_cl, test_fast_gl) run, kept in one
// place so the two backends are always checked on the same list.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "core/fast_plan.h"
#include "core/plan_wisdom.h"
#include "core/timing.h"
#include "core/types.h"
#include "support/reference.h"

namespace fftscope::test {

struct FastSize {
  std::size_t width, height;
};
using FastCase = std::tuple<FastSize, Direction>;

/// Powers of two, 2·3·5·7-smooth, odd (13 x 11), long thin lines, both directions.
inline auto fast_cases() {
  return ::testing::Combine(::testing::Values(FastSize{8, 8}, FastSize{64, 32}, FastSize{256, 256}, FastSize{1000, 8},
                                              FastSize{30, 210}, FastSize{1024, 1024}, FastSize{13, 11},
                                              FastSize{16, 4096}, FastSize{8192, 8}),
                            ::testing::Values(Direction::forward, Direction::inverse));
}

inline std::string fast_case_name(const ::testing::TestParamInfo<FastCase>& info) {
  const FastSize size = std::get<0>(info.param);
  return std::to_string(size.width) + "x" + std::to_string(size.height) + "_" + to_string(std::get<1>(info.param));
}

/// Lengths with a prime factor above 13, which the fast path runs through Bluestein: on rows, on
/// columns, on both, 4099-point lines both ways (padded to 9216), both directions. Few distinct
/// padded lengths and line counts, so PoCL compiles few programs.
inline auto fast_bluestein_cases() {
  return ::testing::Combine(::testing::Values(FastSize{17, 16}, FastSize{16, 17}, FastSize{97, 101}, FastSize{4099, 8},
                                              FastSize{8, 4099}, FastSize{211, 5}),
                            ::testing::Values(Direction::forward, Direction::inverse));
}

/// The bound on a fast-path result's relative L2 error: float_fft_tolerance over the lengths
/// the kernels transform (L instead of N on a Bluestein axis), with Bluestein's factor 4 where
/// an axis uses it (three FFTs deep).
inline double fast_tolerance(std::size_t width, std::size_t height, const fast::AxisRoute& rows,
                             const fast::AxisRoute& cols) {
  const std::size_t n = (rows.bluestein() ? rows.l : width) * (cols.bluestein() ? cols.l : height);
  return float_fft_tolerance(n, rows.bluestein() || cols.bluestein());
}

/// The timing records the fast path must produce for one axis of `lines` lines: "fast_rows" (or
/// cols) reading and writing the lines once; a Bluestein axis two records, with the bytes each
/// pass reads and writes (forward: image, chirp, filter, scratch; inverse: scratch, chirp, image).
inline std::vector<TimingRecord> expected_fast_records(const fast::AxisRoute& route, std::uint64_t lines) {
  const std::string axis = route.plan.axis == Axis::rows ? "rows" : "cols";
  auto rec = [&](std::string name, std::uint64_t bytes) {
    TimingRecord r;
    r.kernel = std::move(name);
    r.axis = route.plan.axis;
    r.bytes = bytes;
    return r;
  };
  if (route.n <= 1) return {};
  const std::uint64_t n = route.n, l = route.l, c = sizeof(Complex);
  if (route.four_step()) {
    // Pass A also reads the column's n-point twiddle table once.
    const std::string of = " of " + std::to_string(n) + ")";
    return {rec("fast_" + axis + "_a(" + std::to_string(route.plan.n) + of, n * lines * c * 2 + n * c),
            rec("fast_" + axis + "_b(" + std::to_string(route.second->n) + of, n * lines * c * 2)};
  }
  // Folded columns (AxisRoute::fold): the rows also read the fold's H/2 twiddles once; the
  // columns run half as long over twice the lines.
  if (route.fold != 0) {
    if (route.plan.axis == Axis::rows) return {rec("fast_rows", n * lines * c * 2 + route.fold / 2 * c)};
    return {rec("fast_cols", n * route.dispatched_lines(lines) * c * 2)};
  }
  if (!route.bluestein()) return {rec("fast_" + axis, n * lines * c * 2)};
  const std::string length = "(L=" + std::to_string(l);
  return {rec("fast_" + axis + length + "; chirp in; filter out)", (n * lines + n + l + l * lines) * c),
          rec("fast_" + axis + "_inv" + length + "; chirp out)", (l * lines + n + n * lines) * c)};
}

/// Lines longer than a 4096-byte local-memory cap (512 elements), so both axes split in 2:
/// through registers (default) or through the buffer, twiddles as powers of one table entry
/// (default) or all from the table.
struct FastSplitCase {
  std::size_t width, height;
  bool through_buffer, twiddle_powers;
};
inline constexpr std::size_t fast_split_local_bytes = 4096;
inline constexpr FastSplitCase fast_split_cases[] = {{512, 960, false, true}, {960, 512, false, false}, {960, 512, true, true}};
/// `base` for a split case: local memory capped so that the case's lines split, through the
/// buffer or the registers, the stage twiddles from powers of one table entry or all from it.
inline fast::Tuning split_case_tuning(const fast::Tuning& base, const FastSplitCase& c) {
  fast::Tuning tuning = base;
  tuning.local_bytes_cap = fast_split_local_bytes;
  tuning.split_global = c.through_buffer ? 1 : 0;
  tuning.twiddle_powers = c.twiddle_powers ? 1 : 0;
  return tuning;
}

/// The kernels' scheduling options against their defaults (each changes code, not results):
/// stage twiddles read a stage ahead in every plan or in none, and the split's first stage from
/// the registers or through local memory. Under the split cap, 2048 x 6 splits its rows with one
/// line per group and 960 x 512 its columns, both with stage 0 from the registers by default;
/// 96 x 100 (uncapped) does not split.
struct FastScheduleCase {
  std::size_t width, height;
  bool split_cap;
};
inline constexpr FastScheduleCase fast_schedule_cases[] = {{2048, 6, true}, {960, 512, true}, {96, 100, false}};
inline constexpr std::uint32_t fast_schedule_prefetch[] = {0, 2};  // never, every plan (default: split plans)

/// The split in frequency's sub-transforms as one loop (Tuning::sub_transform_loop_min_split, GL)
/// against unrolled, under the split cap: rows and columns, splits by 2, 4 and 5.
inline constexpr FastSize fast_sub_transform_loop_cases[] = {{2048, 6}, {6, 2048}, {960, 512}, {6, 1875}};

/// The split in time (Tuning::split_dit) against the split in frequency: under the split
/// cap, 2048 x 6 splits its rows and 960 x 512 its columns with the first stage from the
/// registers (radix 8 at most), and 2 x 509 its Bluestein columns (509 padded to 1024 points,
/// 2 columns split 8 x 128, the chirp and filter in the split's loads and stores).
inline constexpr FastScheduleCase fast_split_in_time_cases[] = {{2048, 6, true}, {960, 512, true}, {2, 509, true}};

/// Bluestein splits using their live blocks (Tuning::prune_padding) against not, with the first
/// stage from the registers or through local memory, under the split cap (radix 8 at most, rows
/// one per group): 2 x 509 splits its padded columns (1024 = 8 x 128, 2 columns; 509 points
/// live: 4 blocks of 8) and 509 x 6 its padded rows (1024 = 4 x 256; 2 of 4). Under a register
/// budget of fast_live_inputs_hold values, which only the live inputs fit, the columns become 1
/// split 4 x 256 and the rows keep their split, both holding 2 of 4 values per element.
inline constexpr FastSize fast_live_blocks_cases[] = {{2, 509}, {509, 6}};
inline constexpr std::uint32_t fast_live_inputs_hold = 16;

/// Radix-25 stages (Tuning::max_radix 25): 3125-point rows (25 25 5) and 625-point columns (25 25).
inline constexpr FastSize fast_radix25_cases[] = {{3125, 4}, {8, 625}};

/// Radix-10 and radix-15 stages (Tuning::composite_radices): rows of 1000 (10 10 10) and 60
/// (4 15), columns of 1080 (split, with a 15 or a 10) and 500 (10 10 5, or split).
inline constexpr FastSize fast_composite_cases[] = {{1000, 4}, {60, 8}, {8, 1080}, {8, 500}};

/// Rows whose radix-16 stages are fewer than radix 8's (Tuning::rows_radix16): 1440 (16 10 9)
/// instead of (8 4 9 5), 240 (16 15) instead of (4 4 15).
inline constexpr FastSize fast_rows_radix16_cases[] = {{1440, 3}, {240, 8}};

/// Split columns in radix-16 stages (what Tuning::split_columns_radix16 plans, max_radix 16 over
/// GL's 8): 2048-point columns (GL: 8 x 256 (16 16)) and 2160-point (GL: 5 x 432 (16 9 3)).
inline constexpr FastSize fast_columns_radix16_cases[] = {{16, 2048}, {8, 2160}};

/// Split columns whose first stage reads the registers at a group size that is not a multiple of
/// 32 (Tuning::exact_split_threads; local memory capped at 32 KiB so that every device splits
/// them): 3125 (5 x 625) and 1080.
inline constexpr FastSize fast_exact_split_threads_cases[] = {{16, 3125}, {8, 1080}};
inline fast::Tuning exact_split_threads_tuning(fast::Tuning tuning) {
  tuning.exact_split_threads = 1;
  tuning.local_bytes_cap = 32 * 1024;
  return tuning;
}

/// Split columns in whole warps past GL's 512 invocations (Tuning::split_columns_whole_warps):
/// 3456 points, 8 split 8 x 432 (4 4 9 3) in 864 invocations, the sub-transforms unrolled.
inline constexpr FastSize fast_whole_warp_split_cases[] = {{8, 3456}};

/// OpenCL's columns split by 5 and 7 where four lines unsplit exceed the local memory
/// (Tuning::odd_splits_past_four_columns; the local memory capped at 48 KiB, NVIDIA's, so that
/// every device takes them): 1715 points (8 split 5 x 343), 2401 (4 split 7 x 343).
inline constexpr FastSize fast_odd_splits_past_four_columns_cases[] = {{8, 1715}, {8, 2401}};
inline fast::Tuning odd_splits_past_four_columns_tuning(fast::Tuning tuning) {
  tuning.odd_splits_past_four_columns = 1;
  tuning.local_bytes_cap = 48 * 1024;
  return tuning;
}
/// GL's even columns split by 5 or 7 in groups of 8 where they would go four by their halves
/// (Tuning::even_columns_odd_splits; the local memory capped at 8 KiB, so that 330 and 390 points
/// go four by halves without it): 330 (8 split 5 x 66), 390 (8 split 5 x 78), lengths 7 does not
/// divide, so that first_split_odd_min's own splits by 7 take none of them where the device's
/// units are few or unknown; 1056 columns, a group of 8 for each of the H100's 132 units.
inline constexpr FastSize fast_even_columns_odd_splits_cases[] = {{1056, 330}, {1056, 390}};
inline fast::Tuning even_columns_odd_splits_tuning(fast::Tuning tuning) {
  tuning.even_columns_odd_splits = 1;
  tuning.local_bytes_cap = 8 * 1024;
  return tuning;
}
/// A column plan that takes odd_splits_past_four_columns or even_columns_odd_splits: split by 5
/// or 7, at least 4 lines.
inline bool splits_by_5_or_7(const fast::AxisPlan& plan) {
  return (plan.pre_radix == 5 || plan.pre_radix == 7) && plan.lines_per_group >= 4;
}

/// OpenCL's exact split columns holding more than max_pre_hold values
/// (Tuning::exact_split_max_pre_hold; the local memory capped at 48 KiB, NVIDIA's): 4000 points
/// (4 split 4 x 1000 in 200 work-items, 80 values each), 3430 (4 split 5 x 686 in 196, 70).
inline constexpr FastSize fast_exact_split_hold_cases[] = {{4, 4000}, {4, 3430}};
inline fast::Tuning exact_split_hold_tuning(fast::Tuning tuning) {
  tuning.exact_split_max_pre_hold = 80;
  tuning.local_bytes_cap = 48 * 1024;
  return tuning;
}
/// A split-column plan that takes exact_split_max_pre_hold: its first stage from the registers,
/// more values per work-item than max_pre_hold (64 in exact_split_hold_tuning's base), 4 lines.
inline bool holds_past_max_pre_hold(const fast::AxisPlan& plan) {
  return plan.pre_radix > 1 && plan.stage0_from_registers && plan.pre_hold > fast::Tuning{}.max_pre_hold &&
         plan.lines_per_group == 4;
}

/// Rows through half the local memory where few are resident (Tuning::rows_halves_above): 1000
/// points (10 10 10), two per group in 224 invocations (600 rows: enough groups for two per group
/// on the H100); 2560 (16 16 10) in 256.
inline constexpr FastSize fast_rows_halves_cases[] = {{1000, 600}, {2560, 2}};

/// Plans whose widest stage would leave more than a third of its lanes idle, so the default
/// Tuning::balance_threads takes fewer work-items: GL's 3125-point rows (5^5: 625 butterflies,
/// 320 instead of 512), OpenCL's 2187-point columns (4 split 3 x 729: 192 instead of 256).
inline constexpr FastSize fast_balanced_cases[] = {{3125, 4}, {8, 2187}};

/// Columns in two passes (Tuning::four_step_min_bytes, AxisRoute::second) where the direct
/// columns need a split under fast_four_step_local_bytes: 512 = 16 x 32, 729 = 27 x 27 (radix 3
/// and 9 in both passes), 1000 = 25 x 40, on widths the four-step groups divide.
inline constexpr FastSize fast_four_step_cases[] = {{64, 512}, {40, 729}, {48, 1000}};
inline constexpr std::uint64_t fast_four_step_local_bytes = 4096;
/// Unsplit columns in two passes (Tuning::four_step_unsplit_min_bytes) on widths no power-of-two
/// group divides: the groups are the width (45 = 3^2 5, 49 = 7^2), 1715 = 35 x 49, 1225 = 35 x 35
/// (direct columns unsplit within llvmpipe's 32 KiB too).
inline constexpr FastSize fast_four_step_divisor_cases[] = {{45, 1715}, {49, 1225}};
/// Split columns of one line per group in two passes of divisor groups
/// (Tuning::four_step_divisor_groups; fast_four_step_one_line_tuning makes the direct plan hold
/// one line): 1014 = 26 x 39 on a width of 45, which no power-of-two group divides.
inline constexpr FastSize fast_four_step_one_line_cases[] = {{45, 1014}};
inline fast::Tuning fast_four_step_one_line_tuning(fast::Tuning tuning) {
  tuning.local_bytes_cap = fast_four_step_local_bytes;
  tuning.max_pre_hold = 8;  // no split of 2 lines fits
  tuning.exact_split_max_pre_hold = 0;
  tuning.four_step_min_bytes = 1;
  tuning.four_step_max_direct_lines = 64;
  tuning.four_step_elements = 256;  // divisor groups of 9 and 5 columns under the 4 KiB cap
  tuning.four_step_divisor_groups = 1;
  return tuning;
}

/// The real display's pair columns in four steps through groups of a divisor of their count
/// (route_real_columns keeps the divisor groups' rules, as the complex columns do): 88 x 1014's 44
/// pair columns would split one line per group directly; in four steps 13 x 78, the first pass in
/// groups of 22 (its largest power of two under four_step_elements, 32, does not divide 44).
inline constexpr FastSize fast_display_divisor_group_cases[] = {{88, 1014}};
inline fast::Tuning display_divisor_group_tuning(fast::Tuning tuning) {
  tuning = fast_four_step_one_line_tuning(tuning);
  tuning.four_step_elements = 512;
  return tuning;
}
/// The first pass of such columns: a part of their length, in groups that are not a power of two.
inline bool in_divisor_groups(const fast::AxisPlan& plan) {
  return plan.n < fast_display_divisor_group_cases[0].height && !std::has_single_bit(plan.lines_per_group);
}

/// Both directions of a w x h image through `run` (as the schedule checks below take it) under
/// `tuning`, each within the error bound of the routes it ran (fast_tolerance); `what` names the
/// case where one fails.
template <class Run>
void expect_both_directions_match(Run& run, std::size_t w, std::size_t h, const fast::Tuning& tuning,
                                  std::uint64_t seed, const std::string& what) {
  for (const Direction d : {Direction::forward, Direction::inverse}) {
    double tolerance = 0;
    const double err = run(w, h, d, tuning, seed, &tolerance);
    EXPECT_LT(err, tolerance) << w << "x" << h << " " << to_string(d) << " " << what;
  }
}

/// The tunings the GPU suites' schedule checks start from where they are not the API's default
/// (run_schedule_check, at the end of this file, pairs each check with its base).
///
/// GL, for expect_split_in_time_matches_fftw and the bases below: 8 elements per invocation
/// (GL's default is 4), so that at these sizes the first stage's inputs are each invocation's own,
/// as for 4096-point columns with the default.
inline fast::Tuning gl_eight_values_base() {
  fast::Tuning t = fast::gl_default_tuning();
  t.elements_per_thread = 8;
  return t;
}
/// GL, for expect_schedule_options_match_fftw: also 2048-point rows split with radix 8, whose
/// first stage reads the registers, and no rows that prefetch in every plan (FastPlan tests that).
inline fast::Tuning gl_schedule_options_base() {
  fast::Tuning t = gl_eight_values_base();
  t.pow2_rows_radix16 = 0;
  t.row_prefetch_twiddles = 0;
  return t;
}
/// GL, for expect_live_blocks_match_fftw: also splits in rounds of 32 invocations (the split's
/// first stage from the registers).
inline fast::Tuning gl_live_blocks_base() {
  fast::Tuning t = gl_eight_values_base();
  t.col_one_round_threads = 0;
  t.bluestein_row_one_round_threads = 0;
  return t;
}
/// GL, for expect_balanced_groups_match_fftw: balancing alone (fast::rows_in_rounds). With the
/// rows' one-round rules on, the H100's limits take the 3125-point rows to one round of 640
/// invocations whether balanced or not (llvmpipe's do not), and no case would show a balanced
/// group there.
inline fast::Tuning gl_balanced_base() { return fast::rows_in_rounds(fast::gl_default_tuning()); }
/// OpenCL, for expect_schedule_options_match_fftw and expect_split_in_time_matches_fftw: radix 8
/// at most, so that the first stage's inputs are each work-item's own at these sizes (with the
/// default radix 16 they are at 16 x 4096 and 8192 x 8, which ClFast runs).
inline fast::Tuning cl_schedule_base() {
  fast::Tuning t;
  t.max_radix = 8;
  return t;
}

/// GL's one-round rules, each on a few sizes: a plan (split or not, as `split` says) on `axis` in
/// one round of more than 512 invocations with the knobs at 1 024 against the same plan in rounds
/// of at most 512 with them at 0 (expect_one_round_matches_fftw). Split columns
/// (Tuning::col_one_round_threads): 8 columns of 1000 split 4 x 250 (1000 butterflies in the
/// radix-2 stage) and of 600 split 2 x 300 (800), under llvmpipe's 32 KiB (48 KiB would leave
/// them unsplit). Bluestein's split rows (bluestein_row_one_round_threads): 2053-point rows
/// (4608 padded, 576 butterflies) and 4099-point rows (9216), under 32 KiB (48 KiB would leave
/// the 4608-point rows unsplit). Unsplit rows (row_one_round_threads, odd_row_one_round_threads,
/// thirty-fourth session): 3200-point rows in 640 invocations and 2880-point in 576 (fewer values
/// held), 3125-point in 640 and 2187-point in 736 (odd: more at once).
struct OneRoundCase {
  Axis axis;
  std::vector<std::uint32_t fast::Tuning::*> knobs;
  std::vector<FastSize> sizes;
  std::uint32_t local_bytes_cap;  ///< 0: the device's
  bool split;
};
inline OneRoundCase gl_one_round_split_columns() {
  return {Axis::cols, {&fast::Tuning::col_one_round_threads}, {{8, 1000}, {8, 600}}, 32 * 1024, true};
}
inline OneRoundCase gl_one_round_bluestein_rows() {
  return {Axis::rows, {&fast::Tuning::bluestein_row_one_round_threads}, {{2053, 4}, {4099, 2}}, 32 * 1024, true};
}
inline OneRoundCase gl_one_round_rows() {
  return {Axis::rows,
          {&fast::Tuning::row_one_round_threads, &fast::Tuning::odd_row_one_round_threads},
          {{3200, 2}, {2880, 2}, {3125, 3}, {2187, 4}},
          0,
          false};
}

/// One of gl_one_round_cases from GL's defaults, both directions against FFTW.
template <class MakePath, class Run>
void expect_one_round_matches_fftw(const OneRoundCase& c, MakePath make_path, Run run) {
  for (const auto& [w, h] : c.sizes) {
    for (const std::uint32_t one_round : {0u, 1024u}) {
      fast::Tuning tuning = fast::gl_default_tuning();
      for (std::uint32_t fast::Tuning::*knob : c.knobs) tuning.*knob = one_round;
      tuning.first_split_fewer_stages = 0;  // the splits named above (fewer stages: 5 x 200, 3 x 200)
      if (c.local_bytes_cap) tuning.local_bytes_cap = c.local_bytes_cap;
      auto probe = make_path(tuning);
      probe.prepare(w, h);
      const fast::AxisPlan& plan = probe.plan(c.axis);
      EXPECT_EQ(plan.pre_radix > 1, c.split) << plan.describe();
      if (one_round != 0) {
        EXPECT_GT(plan.threads, 512u) << plan.describe();
      } else {
        EXPECT_LE(plan.threads, 512u) << plan.describe();
      }
      expect_both_directions_match(run, w, h, tuning, 59 + w + h + one_round, plan.describe());
    }
  }
}

/// The schedule checks' fast path without a device, for the planner's test: prepare() plans the
/// routes the backend would plan on a device with `limits` (OpenCL's through fast::cl_tuning, as
/// ClFastPath does) and nothing runs; planned_run() is the matching `run`, which transforms
/// nothing and reports no error. The checks require some case to take each schedule they test,
/// which depends on the device's limits: the planner's test runs them over the limits of the
/// devices fftscope meets, so that a GPU whose limits differ from CI's and the H100's still finds
/// every check's cases.
class PlannedPath {
 public:
  PlannedPath(const fast::DeviceLimits& limits, const fast::Tuning& tuning, bool opencl)
      : limits_(limits), tuning_(opencl ? fast::cl_tuning(tuning) : tuning) {}
  void prepare(std::size_t width, std::size_t height) {
    routes_ = fast::route_image(width, height, limits_, tuning_);
    if (!routes_) throw BackendError("no fast route for " + std::to_string(width) + "x" + std::to_string(height));
  }
  const fast::AxisRoute& route(Axis axis) const { return axis == Axis::rows ? routes_->rows : routes_->cols; }
  const fast::AxisPlan& plan(Axis axis) const { return route(axis).plan; }

 private:
  fast::DeviceLimits limits_;
  fast::Tuning tuning_;
  std::optional<fast::ImageRoutes> routes_;
};
inline auto planned_run() {
  return [](std::size_t, std::size_t, Direction, const fast::Tuning&, std::uint64_t, double* tolerance) {
    if (tolerance) *tolerance = 1;
    return 0.0;
  };
}

/// Schedule checks both suites run the same way. `make_path(tuning)` returns an unprepared fast
/// path of the suite's API; `run(w, h, direction, tuning, seed, &tolerance)` transforms random
/// data on it and returns the relative L2 error against FFTW.
///
/// Work-groups balanced to the widest stage's rounds (Tuning::balance_threads) against
/// unbalanced ones, both directions; fails where no case balanced a group.
template <class MakePath, class Run>
void expect_balanced_groups_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  bool balanced = false;
  for (const auto& [w, h] : fast_balanced_cases) {
    std::uint32_t threads[2][2] = {};
    for (const std::uint32_t balance : {0u, 1u}) {
      fast::Tuning tuning = base;
      tuning.balance_threads = balance;
      tuning.exact_split_threads = 0;  // the balance alone (exact group sizes take its columns)
      auto path = make_path(tuning);
      path.prepare(w, h);
      threads[balance][0] = path.plan(Axis::rows).threads;
      threads[balance][1] = path.plan(Axis::cols).threads;
      expect_both_directions_match(run, w, h, tuning, 53 + w + balance, "balance " + std::to_string(balance));
    }
    balanced |= threads[1][0] < threads[0][0] || threads[1][1] < threads[0][1];
  }
  EXPECT_TRUE(balanced) << "no case balanced a work-group";
}

/// Radix-10 and radix-15 stages (Tuning::composite_radices 2: every plan, split ones too) against
/// FFTW, both directions; fails where no case planned a 10 or no case a 15.
template <class MakePath, class Run>
void expect_composite_radices_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  bool saw_10 = false, saw_15 = false;
  for (const auto& [w, h] : fast_composite_cases) {
    fast::Tuning tuning = base;
    tuning.composite_radices = 2;
    auto path = make_path(tuning);
    path.prepare(w, h);
    const fast::AxisPlan& plan = path.plan(w > h ? Axis::rows : Axis::cols);
    const auto has = [&](std::uint32_t r) { return std::find(plan.radices.begin(), plan.radices.end(), r) != plan.radices.end(); };
    EXPECT_TRUE(has(10) || has(15)) << plan.describe();
    saw_10 = saw_10 || has(10);
    saw_15 = saw_15 || has(15);
    expect_both_directions_match(run, w, h, tuning, 43 + w, plan.describe());
  }
  EXPECT_TRUE(saw_10 && saw_15) << "no case planned a radix-10 or no case a radix-15 stage";
}

/// Measured planning (BackendOptions::measure_fast_plans): each axis takes the fastest of the
/// distinct routes the candidate tunings give it. Which one is the device's business; whichever
/// it took must be one of them, and the transform must still match FFTW, both directions. A
/// second path given the same wisdom takes the same routes from it, without timing.
/// `make_path(tuning, measuring)` and `run(w, h, direction, tuning, measuring, seed, &tolerance)`.
template <class MakePath, class Run>
void expect_measured_plans_match_fftw(const fast::Tuning& base, bool gl, const fast::DeviceLimits& limits,
                                      MakePath make_path, Run run) {
  PlanWisdom wisdom;  // in memory
  const fast::Measuring measuring{fast::measure_candidates(base, gl), &wisdom, "test device"};
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{96, 64}, {250, 120}}) {
    std::set<std::string> rows, cols;
    for (const fast::Tuning& t : measuring.candidates) {
      const auto image = fast::route_image(w, h, limits, t);
      ASSERT_TRUE(image.has_value());
      rows.insert(fast::route_identity(image->rows));
      cols.insert(fast::route_identity(image->cols));
    }
    EXPECT_GT(rows.size() + cols.size(), 2u) << w << "x" << h << ": nothing to choose between";
    auto path = make_path(base, measuring);
    path.prepare(w, h);
    const std::string row_route = fast::route_identity(path.route(Axis::rows));
    const std::string col_route = fast::route_identity(path.route(Axis::cols));
    EXPECT_EQ(rows.count(row_route), 1u) << path.route(Axis::rows).describe();
    EXPECT_EQ(cols.count(col_route), 1u) << path.route(Axis::cols).describe();
    const std::size_t hits = wisdom.hits();
    auto again = make_path(base, measuring);
    again.prepare(w, h);
    EXPECT_EQ(wisdom.hits(), hits + (rows.size() > 1) + (cols.size() > 1)) << "the wisdom's choices";
    EXPECT_EQ(fast::route_identity(again.route(Axis::rows)), row_route);
    EXPECT_EQ(fast::route_identity(again.route(Axis::cols)), col_route);
    for (const Direction d : {Direction::forward, Direction::inverse}) {
      double tolerance = 0;
      const double err = run(w, h, d, base, measuring, 3 * w + h, &tolerance);
      EXPECT_LT(err, tolerance) << w << "x" << h << " " << to_string(d);
    }
  }
}

/// The display path's measured planning keeps its choice: a second display given the same
/// wisdom takes the same plans from it (one hit) without timing. `make_display(tuning, measuring)`.
template <class MakeDisplay>
void expect_display_wisdom_reused(const fast::Tuning& base, bool gl, MakeDisplay make_display) {
  PlanWisdom wisdom;  // in memory
  const fast::Measuring measuring{fast::measure_display_candidates(base, gl), &wisdom, "test device"};
  auto first = make_display(base, measuring);
  first.prepare(64, 48);
  EXPECT_EQ(wisdom.hits(), 0u);
  auto second = make_display(base, measuring);
  second.prepare(64, 48);
  EXPECT_EQ(wisdom.hits(), 1u);
  EXPECT_EQ(fast::plan_identity(first.display_row_plan()), fast::plan_identity(second.display_row_plan()));
  EXPECT_EQ(fast::route_identity(first.column_route()), fast::route_identity(second.column_route()));
}

/// A real display (GlFastDisplay, ClFastDisplay) routes sizes with a prime factor above 13 (which
/// the half spectrum does not take: `half_spectrum()` throws), runs odd widths on the fused passes
/// (but not the half spectrum, whose rows are W/2 points), and refuses widths under 3 (the
/// backend's complex fallback takes them).
template <class Display, class HalfSpectrum>
void expect_display_routes_large_primes_and_refuses_tiny_widths(Display& display, HalfSpectrum half_spectrum) {
  EXPECT_FALSE(display.supports(2, 48));
  EXPECT_FALSE(display.supports(48, 1));
  EXPECT_THROW(display.prepare(2, 48), BackendError);
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{34, 48}, {51, 48}, {48, 34}, {4099, 4}}) {
    EXPECT_TRUE(display.supports(w, h)) << w << "x" << h;
    EXPECT_FALSE(display.fused_plans(w, h)) << w << "x" << h;
  }
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{64, 48}, {63, 48}, {3, 2}}) {
    EXPECT_TRUE(display.supports(w, h)) << w << "x" << h;
    EXPECT_TRUE(display.fused_plans(w, h)) << w << "x" << h;
  }
  display.prepare(51, 48);  // fused columns, routed rows
  EXPECT_TRUE(display.routed());
  EXPECT_TRUE(display.routed_row_route().bluestein());
  EXPECT_FALSE(display.column_route().bluestein());
  EXPECT_THROW(half_spectrum(), BackendError);
  display.prepare(48, 34);  // Bluestein's columns, fused display rows
  EXPECT_TRUE(display.routed());
  EXPECT_TRUE(display.column_route().bluestein());
  EXPECT_EQ(display.display_row_plan().n, 48u);
  display.prepare(63, 48);
  EXPECT_FALSE(display.routed());
  EXPECT_THROW(half_spectrum(), BackendError);
}

/// The scheduling options (twiddles read a stage ahead, the split's first stage from the
/// registers) on and off, on cases that exercise each (fast_schedule_cases), from `base`, the
/// API's tuning with the first stage's inputs each work-item's own at these sizes; some case must
/// run a row split's and a column split's first stage from the registers.
template <class MakePath, class Run>
void expect_schedule_options_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  bool rows_from_registers = false, cols_from_registers = false;
  for (const auto& [w, h, split_cap] : fast_schedule_cases) {
    for (const std::uint32_t prefetch : fast_schedule_prefetch) {
      for (const std::uint32_t from_registers : {0u, 1u}) {
        fast::Tuning tuning = base;
        if (split_cap) tuning.local_bytes_cap = fast_split_local_bytes;
        tuning.prefetch_twiddles = prefetch;
        tuning.stage0_from_registers = from_registers;
        auto probe = make_path(tuning);
        probe.prepare(w, h);
        EXPECT_EQ(probe.plan(Axis::rows).prefetch_twiddles, prefetch == 2) << probe.plan(Axis::rows).describe();
        if (from_registers == 0) {
          EXPECT_FALSE(probe.plan(Axis::rows).stage0_from_registers);
          EXPECT_FALSE(probe.plan(Axis::cols).stage0_from_registers);
        }
        rows_from_registers |= probe.plan(Axis::rows).stage0_from_registers;
        cols_from_registers |= probe.plan(Axis::cols).stage0_from_registers;
        const Direction d = prefetch == 2 ? Direction::forward : Direction::inverse;
        const double err = run(w, h, d, tuning, 5 + w + prefetch + from_registers, nullptr);
        EXPECT_LT(err, float_fft_tolerance(w * h))
            << w << "x" << h << " prefetch " << prefetch << " stage 0 from registers " << from_registers;
      }
    }
  }
  EXPECT_TRUE(rows_from_registers) << "no case ran a row split's first stage from the registers";
  EXPECT_TRUE(cols_from_registers) << "no case ran a column split's first stage from the registers";
}

/// The split decimating in time through registers (SPLIT_DIT) against the split in frequency, on
/// rows, on columns and on a Bluestein axis's padded lines (fast_split_in_time_cases), from `base`
/// as expect_schedule_options_match_fftw's; each must be split in time by some case.
template <class MakePath, class Run>
void expect_split_in_time_matches_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  bool rows_in_time = false, cols_in_time = false, bluestein_in_time = false;
  for (const auto& [w, h, split_cap] : fast_split_in_time_cases) {
    for (const std::uint32_t in_time : {0u, 3u}) {
      fast::Tuning tuning = base;
      if (split_cap) tuning.local_bytes_cap = fast_split_local_bytes;
      tuning.split_dit = in_time;
      if (in_time == 0) tuning.bluestein_cols_in_time = 0;  // GL's Bluestein columns of few per group
      tuning.prune_padding = 0;  // both Bluestein passes in time (pass 2 would accumulate: LiveBlocks)
      auto probe = make_path(tuning);
      probe.prepare(w, h);
      for (const Axis axis : {Axis::rows, Axis::cols}) {
        const fast::AxisPlan& plan = probe.plan(axis);
        EXPECT_EQ(plan.split_dit, in_time != 0 && plan.pre_radix > 1 && !plan.split_global) << plan.describe();
        (axis == Axis::rows ? rows_in_time : cols_in_time) |= plan.split_dit;
        bluestein_in_time |= plan.split_dit && probe.route(axis).bluestein();
      }
      for (const Direction d : {Direction::forward, Direction::inverse}) {
        const double err = run(w, h, d, tuning, 17 + w + in_time, nullptr);
        EXPECT_LT(err, float_fft_tolerance(w * h)) << w << "x" << h << " in time " << in_time;
      }
    }
  }
  EXPECT_TRUE(rows_in_time) << "no case split rows in time";
  EXPECT_TRUE(cols_in_time) << "no case split columns in time";
  EXPECT_TRUE(bluestein_in_time) << "no case split a Bluestein axis's padded lines in time";
}

/// The split in frequency's sub-transforms looped (AxisPlan::sub_transform_loop, from splits by
/// 2 on) and unrolled, both directions (fast_sub_transform_loop_cases), from `base`: nothing loops
/// when the option is off, and the cases loop rows and columns and splits by at least two
/// radices, an odd one among them (which plans loop: FastPlan.GlLoopsLongSplitsOnly).
template <class MakePath, class Run>
void expect_sub_transform_loop_matches_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  bool rows_looped = false, cols_looped = false, odd_looped = false;
  std::set<std::uint32_t> looped_radices;
  for (const auto& [w, h] : fast_sub_transform_loop_cases) {
    for (const std::uint32_t min_split : {0u, 2u}) {
      fast::Tuning tuning = base;
      tuning.local_bytes_cap = fast_split_local_bytes;
      tuning.split_dit = 0;
      tuning.sub_transform_loop_min_split = min_split;
      auto probe = make_path(tuning);
      probe.prepare(w, h);
      for (const Axis axis : {Axis::rows, Axis::cols}) {
        const fast::AxisPlan& plan = probe.plan(axis);
        if (min_split == 0) {
          EXPECT_FALSE(plan.sub_transform_loop) << plan.describe();
        }
        if (!plan.sub_transform_loop) continue;
        (axis == Axis::rows ? rows_looped : cols_looped) = true;
        looped_radices.insert(plan.pre_radix);
        odd_looped |= plan.pre_radix % 2 == 1;
      }
      for (const Direction d : {Direction::forward, Direction::inverse}) {
        const double err = run(w, h, d, tuning, 29 + w + min_split, nullptr);
        EXPECT_LT(err, float_fft_tolerance(w * h)) << w << "x" << h << " looped from " << min_split;
      }
    }
  }
  EXPECT_TRUE(rows_looped) << "no case looped a row split";
  EXPECT_TRUE(cols_looped) << "no case looped a column split";
  EXPECT_GE(looped_radices.size(), 2u) << "every looped split had the same radix";
  EXPECT_TRUE(odd_looped) << "no case looped an odd split";
}

/// Columns in two passes through the scratch (four-step, AxisRoute::second) where the direct
/// columns would split (fast_four_step_cases), where they are unsplit, in groups as wide as
/// the image (fast_four_step_divisor_cases), and where they would split one line per group, in
/// groups of divisors of the width (fast_four_step_one_line_cases), both directions; each case
/// must take that route.
template <class MakePath, class Run>
void expect_four_step_columns_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  std::vector<std::pair<FastSize, fast::Tuning>> cases;
  for (const FastSize size : fast_four_step_cases) {
    fast::Tuning tuning = base;
    tuning.local_bytes_cap = fast_four_step_local_bytes;
    tuning.four_step_min_bytes = 1;
    tuning.four_step_max_direct_lines = 64;
    cases.emplace_back(size, tuning);
  }
  for (const FastSize size : fast_four_step_divisor_cases) {
    fast::Tuning tuning = base;
    tuning.first_split_odd_max = 1;  // direct columns unsplit (GL's own split 1715-point ones by 7)
    tuning.four_step_unsplit_min_bytes = 1;
    tuning.four_step_max_direct_lines = 64;
    cases.emplace_back(size, tuning);
  }
  // Four steps there only through four_step_divisor_groups' one-line rule: no power-of-two group
  // divides 45, and a direct plan of more lines would stay direct.
  for (const FastSize size : fast_four_step_one_line_cases)
    cases.emplace_back(size, fast_four_step_one_line_tuning(base));
  for (const auto& [size, tuning] : cases) {
    const auto [w, h] = size;
    auto path = make_path(tuning);
    path.prepare(w, h);
    const fast::AxisRoute& cols = path.route(Axis::cols);
    EXPECT_TRUE(cols.four_step()) << w << "x" << h << ": " << cols.describe();
    if (tuning.local_bytes_cap != fast_four_step_local_bytes && cols.four_step()) {
      EXPECT_EQ(cols.plan.lines_per_group, w) << cols.describe();
      EXPECT_EQ(cols.second->lines_per_group, w) << cols.describe();
    }
    if (cols.four_step()) {
      for (const std::uint32_t group : {cols.plan.lines_per_group, cols.second->lines_per_group}) {
        EXPECT_EQ(w % group, 0u) << cols.describe();
        EXPECT_GE(group, 2u) << cols.describe();
      }
    }
    expect_both_directions_match(run, w, h, tuning, 61 + w + h, cols.describe());
  }
}

/// The rows' transform handed to the columns in tiles (Tuning::tiled_columns_min_bytes,
/// AxisRoute::tile_lines): columns unsplit and split (the 1080-point ones), both directions;
/// each case must take the tiles, the last as wide as two column groups (Tuning::tile_min_lines).
inline constexpr FastSize fast_tiled_cases[] = {{64, 48}, {72, 36}, {96, 30}, {24, 1080}, {64, 40}};
template <class MakePath, class Run>
void expect_tiled_columns_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  for (std::size_t c = 0; c < std::size(fast_tiled_cases); ++c) {
    const auto [w, h] = fast_tiled_cases[c];
    fast::Tuning tuning = base;
    tuning.tiled_columns_min_bytes = 1;
    const bool wide = c + 1 == std::size(fast_tiled_cases);  // the last: tiles two groups wide
    if (wide) {
      auto groups = make_path(tuning);
      groups.prepare(w, h);
      tuning.tile_min_lines = 2 * groups.route(Axis::cols).plan.lines_per_group;
    }
    auto path = make_path(tuning);
    path.prepare(w, h);
    const fast::AxisRoute& cols = path.route(Axis::cols);
    EXPECT_GE(cols.tile_lines, 2u) << w << "x" << h << ": " << cols.describe();
    if (wide) {
      EXPECT_EQ(cols.tile_lines, 2 * cols.plan.lines_per_group) << cols.describe();
    }
    EXPECT_EQ(path.route(Axis::rows).tile_lines, cols.tile_lines) << w << "x" << h;
    expect_both_directions_match(run, w, h, tuning, 71 + w + h, cols.describe());
  }
}

/// In-place four-step columns and rows in swapped pairs (Tuning::four_step_in_place_min_bytes,
/// fast::RowSwap): each case's tuning (a shared-memory cap and a group size, so llvmpipe's rows
/// split in time with one row per group) gives both axes the swap where the rows split by 2 (the
/// columns' b = a and b = 2 a), and neither where they split by 4 (fast::takes_row_pairs).
/// Every transform matches FFTW both ways, and with four_step_in_place_min_bytes 0 the same
/// sizes run through the scratch, unswapped. `pairs`: the API's kernel has the row pairs (GL);
/// OpenCL's paths drop the knob (fast::cl_tuning) and must run every case through the scratch.
struct FastRowPairCase {
  std::size_t w, h;
  std::uint64_t local_bytes_cap;
  std::uint32_t max_threads;
  bool pairs;  // with the knob on
};
inline constexpr FastRowPairCase fast_row_pair_cases[] = {
    {2048, 256, 16384, 64, true}, {2048, 512, 16384, 64, true}, {2048, 128, 8192, 32, false}};

inline fast::Tuning row_pair_tuning(const fast::Tuning& base, const FastRowPairCase& c, std::uint32_t in_place) {
  fast::Tuning tuning = base;
  tuning.four_step_min_bytes = 1;
  tuning.four_step_max_direct_lines = 64;
  tuning.local_bytes_cap = c.local_bytes_cap;
  tuning.max_threads = c.max_threads;
  tuning.four_step_in_place_min_bytes = in_place;
  return tuning;
}

template <class MakePath, class Run>
void expect_row_pairs_match_fftw(const fast::Tuning& base, bool pairs, MakePath make_path, Run run) {
  for (const FastRowPairCase c : fast_row_pair_cases) {
    for (const std::uint32_t in_place : {1u, 0u}) {
      const fast::Tuning tuning = row_pair_tuning(base, c, in_place);
      auto path = make_path(tuning);
      path.prepare(c.w, c.h);
      const fast::AxisRoute& rows = path.route(Axis::rows);
      const fast::AxisRoute& cols = path.route(Axis::cols);
      EXPECT_TRUE(cols.four_step()) << cols.describe();
      EXPECT_EQ(rows.swap.has_value(), pairs && in_place != 0 && c.pairs) << rows.describe();
      EXPECT_EQ(cols.swap.has_value(), pairs && in_place != 0 && c.pairs) << cols.describe();
      EXPECT_EQ(rows.swap, cols.swap);
      expect_both_directions_match(run, c.w, c.h, tuning, 71 + c.h + in_place, rows.describe());
    }
  }
  if (!pairs) return;
  // Both passes in place through the swizzled layout (GL 8192^2's route since the fifty-first
  // session, both passes in groups of four_step_elements): 2048 x 1024, 1024 = 32 x 32,
  // 32 columns a group through the halves in 4 KiB, three such groups in the multiprocessor's 12 KiB.
  const FastRowPairCase c = fast_row_pair_cases[0];
  constexpr std::size_t height = 1024;
  fast::Tuning tuning = row_pair_tuning(base, c, 1);
  tuning.four_step_halves = 1;
  tuning.local_halves_above = 1;
  tuning.swizzled_columns = 1;
  tuning.unit_local_bytes = 3 * 32 * 32 * sizeof(float);
  auto path = make_path(tuning);
  path.prepare(c.w, height);
  const fast::AxisRoute& cols = path.route(Axis::cols);
  ASSERT_TRUE(cols.four_step() && cols.swap.has_value()) << cols.describe();
  EXPECT_TRUE(cols.plan.local_layout == fast::LocalLayout::swizzled &&
              cols.second->local_layout == fast::LocalLayout::swizzled) << cols.describe();
  expect_both_directions_match(run, c.w, height, tuning, 73, cols.describe());
}

/// Sizes whose unsplit plans exchange through half the local memory above 24 KiB
/// (Tuning::local_halves_above, GL's default): 3000-point rows, 1800-point columns of 2 lines
/// (25.5 and 30.6 KiB as complex values: also within llvmpipe's 32 KiB, where 4096-point rows
/// split), and 1800-point columns of 4 lines, which fit only by their halves (61 KiB as complex
/// values; Tuning::four_columns_by_halves, GL's default).
inline constexpr FastSize fast_halves_cases[] = {{3000, 4}, {2, 1800}, {4, 1800}};

/// The exchange through half the local memory (real parts, then imaginary parts) against the
/// complex exchange on fast_halves_cases: with both halves knobs on, the long axis takes the
/// halves (four columns a group where they fit only so); with both off, neither; every
/// transform matches FFTW, both directions.
template <class MakePath, class Run>
void expect_local_halves_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  for (const auto [w, h] : fast_halves_cases) {
    for (const bool halves : {true, false}) {
      fast::Tuning tuning = base;
      tuning.local_halves_above = halves ? 24 * 1024 : 0;
      tuning.four_columns_by_halves = halves ? 1 : 0;
      tuning.rows_halves_above = 0;  // the knobs above alone (3000-point rows have few resident)
      auto path = make_path(tuning);
      path.prepare(w, h);
      const Axis long_axis = w > h ? Axis::rows : Axis::cols;
      EXPECT_EQ(path.plan(long_axis).local_halves, halves) << path.plan(long_axis).describe();
      if (halves && w == 4) {  // four columns that fit only by their halves
        EXPECT_EQ(path.plan(Axis::cols).lines_per_group, 4u) << path.plan(Axis::cols).describe();
      }
      expect_both_directions_match(run, w, h, tuning, 11 + w + halves, "halves " + std::to_string(halves));
    }
  }
}

/// Lines through half the local memory that the swizzled layout takes: power-of-two rows, one
/// per group (2048 points: radix 16 on OpenCL, 8 on GL; 512; 128, a last radix-2 or -4 stage);
/// and columns 32 per group (32 points in two groups of the 64-wide image, 64 points in three of
/// the 96-wide one; 128 points of 32 columns, GL 8192^2's four-step pass B, exceed llvmpipe's 32
/// KiB as complex values and split there).
struct SwizzledCase {
  Axis axis;
  std::size_t width, height;
};
inline constexpr SwizzledCase fast_swizzled_cases[] = {
    {Axis::rows, 2048, 6}, {Axis::rows, 512, 10}, {Axis::rows, 128, 3}, {Axis::cols, 64, 32}, {Axis::cols, 96, 64}};

/// Lines exchanged through the swizzled layout (Tuning::swizzled_rows, swizzled_columns,
/// LOCAL_PAD 2) against the layout the padding rules give on fast_swizzled_cases: every unsplit
/// plan through its halves, rows one per group and columns 32, and a multiprocessor's local
/// memory (Tuning::unit_local_bytes) set to three swizzled groups, which holds two padded ones, so
/// the rule takes the swizzle where it is on; then four-step columns with both passes swizzled;
/// every transform matches FFTW, both directions.
template <class MakePath, class Run>
void expect_swizzled_lines_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  for (const SwizzledCase& c : fast_swizzled_cases) {
    const bool rows = c.axis == Axis::rows;
    const std::size_t n = rows ? c.width : c.height, lines = rows ? 1 : 32;
    for (const bool swizzled : {true, false}) {
      fast::Tuning tuning = base;
      tuning.local_halves_above = 1;
      tuning.row_elements = static_cast<std::uint32_t>(c.width);  // one row per group
      tuning.col_lines = 32;
      tuning.swizzled_rows = swizzled && rows ? 1 : 0;
      tuning.swizzled_columns = swizzled && !rows ? 1 : 0;
      tuning.unit_local_bytes = 3 * lines * n * sizeof(float);
      auto path = make_path(tuning);
      path.prepare(c.width, c.height);
      const fast::AxisPlan& plan = path.plan(c.axis);
      EXPECT_TRUE(plan.local_halves) << plan.describe();
      EXPECT_EQ(plan.lines_per_group, lines) << plan.describe();
      EXPECT_EQ(plan.local_layout == fast::LocalLayout::swizzled, swizzled) << plan.describe();
      if (swizzled) {
        EXPECT_EQ(plan.local_bytes(), lines * n * sizeof(float)) << plan.describe();
      }
      expect_both_directions_match(run, c.width, c.height, tuning, 13 + n + swizzled, plan.describe());
    }
  }
  // Both passes of four-step columns (GL 8192^2's route): 2048 = 32 x 64, 64 and 32 columns per
  // group, three swizzled groups of 8 KiB in the multiprocessor's 24 KiB.
  fast::Tuning tuning = base;
  tuning.four_step_min_bytes = 1;
  tuning.four_step_max_direct_lines = 64;
  tuning.four_step_elements = 2048;
  tuning.four_step_halves = 1;
  tuning.local_halves_above = 1;
  tuning.col_lines = 32;
  tuning.swizzled_columns = 1;
  tuning.unit_local_bytes = 24 * 1024;
  auto path = make_path(tuning);
  path.prepare(64, 2048);
  const fast::AxisRoute& cols = path.route(Axis::cols);
  ASSERT_TRUE(cols.four_step()) << cols.describe();
  EXPECT_TRUE(cols.plan.local_layout == fast::LocalLayout::swizzled &&
              cols.second->local_layout == fast::LocalLayout::swizzled) << cols.describe();
  expect_both_directions_match(run, 64, 2048, tuning, 17, cols.describe());
}

/// A Bluestein axis beside a split direct axis, under the same local-memory cap: 960 x 17 (rows
/// 960 split, columns 17 padded to 35) and 257 x 512 (rows 257 padded past 512 points, so the
/// padded lines split too; columns 512 split), the last with the direct split through the buffer
/// (the Bluestein passes split through registers whatever the tuning says).
inline constexpr FastSplitCase fast_bluestein_split_cases[] = {
    {960, 17, false, true}, {257, 512, false, true}, {257, 512, true, true}};

/// A Bluestein axis beside a direct axis that splits (and a Bluestein axis whose padded lines
/// split), forced on small sizes by capping local memory (fast_bluestein_split_cases), from the
/// API's `base` tuning, both directions.
template <class MakePath, class Run>
void expect_bluestein_beside_a_split_axis_matches_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  for (const FastSplitCase& c : fast_bluestein_split_cases) {
    const std::size_t w = c.width, h = c.height;
    const fast::Tuning tuning = split_case_tuning(base, c);
    auto probe = make_path(tuning);
    probe.prepare(w, h);
    const fast::AxisRoute& rows = probe.route(Axis::rows);
    const fast::AxisRoute& cols = probe.route(Axis::cols);
    EXPECT_NE(rows.bluestein(), cols.bluestein()) << rows.describe() << " | " << cols.describe();
    const fast::AxisRoute& direct = rows.bluestein() ? cols : rows;
    const fast::AxisRoute& padded = rows.bluestein() ? rows : cols;
    EXPECT_GT(direct.plan.pre_radix, 1u) << direct.describe();
    EXPECT_EQ(direct.plan.split_global, c.through_buffer) << direct.describe();
    EXPECT_FALSE(padded.plan.split_global) << padded.describe();
    if (padded.n == 257) {
      EXPECT_GT(padded.plan.pre_radix, 1u) << padded.describe();
    }
    expect_both_directions_match(run, w, h, tuning, 11 + w, "beside a split axis");
  }
}

/// Bluestein splits with their padded lines' live part (AxisPlan::live_blocks, live_inputs) and
/// without, the first stage from the registers or through local memory, from the API's `base`
/// tuning (max_radix 8, one padded row per group), both directions: none is prune_padding 0;
/// bins 2 (pass 2 of every split accumulates only the live bins); inputs 1 (only where the lines
/// fit no other way), under a register budget only the live inputs fit.
template <class MakePath, class Run>
void expect_live_blocks_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  bool accumulated = false, inputs_from_registers = false, inputs_through_local = false;
  enum class Live { none, bins, inputs };
  for (const auto& [w, h] : fast_live_blocks_cases) {
    for (const Live live : {Live::none, Live::bins, Live::inputs}) {
      for (const std::uint32_t stage0 : {0u, 1u}) {
        fast::Tuning tuning = base;
        tuning.max_radix = 8;
        tuning.local_bytes_cap = fast_split_local_bytes;
        tuning.row_elements = 1024;  // one padded row per group
        tuning.prune_padding = live == Live::none ? 0 : live == Live::bins ? 2 : 1;
        if (live == Live::inputs) tuning.max_pre_hold = fast_live_inputs_hold;
        tuning.stage0_from_registers = stage0;
        auto probe = make_path(tuning);
        probe.prepare(w, h);
        const Axis axis = w < h ? Axis::cols : Axis::rows;
        ASSERT_TRUE(probe.route(axis).bluestein());
        const fast::AxisPlan& plan = probe.plan(axis);
        ASSERT_GT(plan.pre_radix, 1u) << plan.describe();
        EXPECT_EQ(plan.live_blocks, live != Live::none ? (probe.route(axis).n + plan.m - 1) / plan.m : 0u)
            << plan.describe();
        EXPECT_EQ(plan.live_inputs, live == Live::inputs) << plan.describe();
        EXPECT_EQ(plan.stage0_from_registers, stage0 != 0) << plan.describe();
        accumulated |= live == Live::bins && plan.live_blocks > 0;
        if (plan.live_inputs) (plan.stage0_from_registers ? inputs_from_registers : inputs_through_local) = true;
        expect_both_directions_match(run, w, h, tuning, 29 + w + 2 * static_cast<int>(live) + stage0,
                                     "live " + std::to_string(static_cast<int>(live)) + " stage0 " +
                                         std::to_string(stage0));
      }
    }
  }
  EXPECT_TRUE(accumulated) << "no split accumulated its live bins";
  EXPECT_TRUE(inputs_from_registers) << "no split held its live inputs with the first stage from the registers";
  EXPECT_TRUE(inputs_through_local) << "no split held its live inputs with the first stage through local memory";
}

/// The split for lines longer than local memory (decimation in frequency by PRE_RADIX, then the
/// sub-transforms one after another), forced on small sizes by capping local memory: both ways
/// of splitting (through registers, the default, and through the buffer), the stage twiddles
/// from powers of one table entry (the default) and all from the table, both directions.
template <class MakePath, class Run>
void expect_split_lines_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  for (const FastSplitCase& c : fast_split_cases) {
    const std::size_t w = c.width, h = c.height;
    const fast::Tuning tuning = split_case_tuning(base, c);
    auto probe = make_path(tuning);
    probe.prepare(w, h);
    EXPECT_GT(probe.plan(Axis::rows).pre_radix, 1u) << probe.plan(Axis::rows).describe();
    EXPECT_GT(probe.plan(Axis::cols).pre_radix, 1u) << probe.plan(Axis::cols).describe();
    expect_both_directions_match(run, w, h, tuning, 7 + w, "split");
  }
}

/// Each case planned under `tuning` and checked by `planned(probe)` (the check's point: a case that
/// misses it fails), then both directions against FFTW.
template <class MakePath, class Run, class Planned>
void expect_cases_planned_and_matching(std::span<const FastSize> cases, const fast::Tuning& tuning, Planned planned,
                                       std::uint64_t seed, const char* what, MakePath make_path, Run run) {
  for (const auto& [w, h] : cases) {
    auto probe = make_path(tuning);
    probe.prepare(w, h);
    planned(probe, w, h);
    expect_both_directions_match(run, w, h, tuning, seed + w + h, what);
  }
}

inline bool has_radix(const fast::AxisPlan& plan, std::uint32_t radix) {
  return std::find(plan.radices.begin(), plan.radices.end(), radix) != plan.radices.end();
}

/// A split whose first stage reads the registers in a group that is not whole warps: what
/// Tuning::exact_split_threads plans.
inline bool at_exact_split_threads(const fast::AxisPlan& plan) {
  return plan.pre_radix > 1 && plan.stage0_from_registers && plan.threads % 32 != 0;
}

/// expect_cases_planned_and_matching's check that the axis' plan has a radix-`radix` stage.
inline auto expect_axis_radix(Axis axis, std::uint32_t radix) {
  return [axis, radix](auto& probe, std::size_t, std::size_t) {
    EXPECT_TRUE(has_radix(probe.plan(axis), radix)) << probe.plan(axis).describe();
  };
}

/// Radix-25 stages (5 x 5 in registers) from the API's `base` tuning, both directions.
template <class MakePath, class Run>
void expect_radix25_matches_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  fast::Tuning tuning = base;
  tuning.max_radix = 25;
  expect_cases_planned_and_matching(
      fast_radix25_cases, tuning,
      [](auto& probe, std::size_t w, std::size_t h) {
        const fast::AxisPlan& plan = probe.plan(w > h ? Axis::rows : Axis::cols);
        EXPECT_TRUE(has_radix(plan, 25)) << plan.describe();
      },
      41, "radix 25", make_path, run);
}

/// Rows in radix-16 stages where those are fewer (Tuning::rows_radix16 1, over GL's radix 8; on
/// either API), both directions; fails where a case planned no radix-16 stage.
template <class MakePath, class Run>
void expect_rows_radix16_matches_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  fast::Tuning tuning = base;
  tuning.max_radix = 8;
  tuning.rows_radix16 = 1;
  expect_cases_planned_and_matching(fast_rows_radix16_cases, tuning, expect_axis_radix(Axis::rows, 16), 59,
                                    "rows radix 16", make_path, run);
}

/// Columns in radix-16 stages (max_radix 16, as Tuning::split_columns_radix16 plans them over
/// GL's 8), both directions; fails where a case planned no radix-16 stage in its columns.
template <class MakePath, class Run>
void expect_columns_radix16_matches_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  fast::Tuning tuning = base;
  tuning.max_radix = 16;
  expect_cases_planned_and_matching(fast_columns_radix16_cases, tuning, expect_axis_radix(Axis::cols, 16), 61,
                                    "columns radix 16", make_path, run);
}

/// Split columns in groups whose size is not a multiple of 32, their first stage from the
/// registers (Tuning::exact_split_threads, the default), both directions; fails where a case
/// planned another group size or no such first stage.
template <class MakePath, class Run>
void expect_exact_split_threads_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  expect_cases_planned_and_matching(
      fast_exact_split_threads_cases, exact_split_threads_tuning(base),
      [](auto& probe, std::size_t, std::size_t) {
        EXPECT_TRUE(at_exact_split_threads(probe.plan(Axis::cols))) << probe.plan(Axis::cols).describe();
      },
      67, "exact split threads", make_path, run);
}

/// GL's split columns in whole warps past its group bound, unrolled, their first stage from the
/// registers (Tuning::split_columns_whole_warps, the default), both directions; fails where a
/// case planned rounds of at most 512 or a loop.
template <class MakePath, class Run>
void expect_whole_warp_split_columns_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  fast::Tuning tuning = base;
  tuning.split_columns_whole_warps = 1;
  expect_cases_planned_and_matching(
      fast_whole_warp_split_cases, tuning,
      [](auto& probe, std::size_t, std::size_t) {
        const fast::AxisPlan& plan = probe.plan(Axis::cols);
        EXPECT_TRUE(plan.pre_radix > 1 && plan.threads > 512 && plan.threads % 32 == 0 && !plan.sub_transform_loop &&
                    plan.stage0_from_registers)
            << plan.describe();
      },
      71, "split columns in whole warps", make_path, run);
}

/// GL's rows through half the local memory where few are resident (Tuning::rows_halves_above, the
/// default), both directions; fails where a case's rows exchange whole.
template <class MakePath, class Run>
void expect_rows_halves_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  fast::Tuning tuning = base;
  tuning.rows_halves_above = 16 * 1024;
  expect_cases_planned_and_matching(
      fast_rows_halves_cases, tuning,
      [](auto& probe, std::size_t, std::size_t) {
        EXPECT_TRUE(probe.plan(Axis::rows).local_halves) << probe.plan(Axis::rows).describe();
      },
      73, "rows through halves", make_path, run);
}

/// OpenCL's columns split by 5 or 7 in groups of 4 or more where four lines unsplit exceed the
/// local memory (Tuning::odd_splits_past_four_columns, the default), both directions; fails
/// where a case planned another split or fewer lines.
template <class MakePath, class Run>
void expect_odd_splits_past_four_columns_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  expect_cases_planned_and_matching(
      fast_odd_splits_past_four_columns_cases, odd_splits_past_four_columns_tuning(base),
      [](auto& probe, std::size_t, std::size_t) {
        EXPECT_TRUE(splits_by_5_or_7(probe.plan(Axis::cols))) << probe.plan(Axis::cols).describe();
      },
      79, "columns split by 5 and 7", make_path, run);
}

/// GL's even columns split by 5 or 7 where they would go four by their halves
/// (Tuning::even_columns_odd_splits, the default), both directions; fails where a case planned
/// four columns or another split.
template <class MakePath, class Run>
void expect_even_columns_odd_splits_match_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  expect_cases_planned_and_matching(
      fast_even_columns_odd_splits_cases, even_columns_odd_splits_tuning(base),
      [](auto& probe, std::size_t, std::size_t) {
        const fast::AxisPlan& plan = probe.plan(Axis::cols);
        EXPECT_TRUE(splits_by_5_or_7(plan) && plan.lines_per_group == 8) << plan.describe();
      },
      89, "even columns split by 5 and 7", make_path, run);
}

/// OpenCL's exact split columns holding up to exact_split_max_pre_hold values (the default),
/// both directions; fails where a case planned fewer values, another group size or more lines.
template <class MakePath, class Run>
void expect_exact_split_hold_matches_fftw(const fast::Tuning& base, MakePath make_path, Run run) {
  expect_cases_planned_and_matching(
      fast_exact_split_hold_cases, exact_split_hold_tuning(base),
      [](auto& probe, std::size_t, std::size_t) {
        EXPECT_TRUE(holds_past_max_pre_hold(probe.plan(Axis::cols))) << probe.plan(Axis::cols).describe();
      },
      83, "exact split columns past max_pre_hold", make_path, run);
}

/// The schedule checks above as the GPU suites run them, each from the base its API's suite
/// passes: one list and one pairing of check and base, so that the planner's test
/// (FastPlan.ScheduleChecksFindTheirCasesOnAnyDevice) plans exactly what test_fast_gl and
/// test_fast_cl run.
enum class ScheduleCheck {
  split_lines,
  schedule_options,
  split_in_time,
  sub_transform_loop,       // GL only: OpenCL never loops (fast::cl_tuning)
  one_round_split_columns,  // GL only, as the next two: OpenCL keeps groups of 256
  one_round_bluestein_rows,
  one_round_rows,
  radix25,
  composite_radices,
  rows_radix16,
  columns_radix16,  // GL only: OpenCL's radix bound is past 16 already
  whole_warp_split_columns,  // GL only, as the next two: rules of GL's defaults
  rows_halves,
  even_columns_odd_splits,
  odd_splits_past_four_columns,  // OpenCL only, as the next: rules of its defaults
  exact_split_hold,
  exact_split_threads,
  balanced_groups,
  four_step_columns,
  tiled_columns,
  row_pairs,
  live_blocks,
  local_halves,
  swizzled_lines,
  bluestein_beside_a_split_axis,  // the last (schedule_checks counts up to it)
};

/// Whether the API's suite runs `check`: the rules of one API's defaults are checked on it alone.
inline bool runs_on(ScheduleCheck check, bool opencl) {
  switch (check) {
    case ScheduleCheck::sub_transform_loop:
    case ScheduleCheck::one_round_split_columns:
    case ScheduleCheck::one_round_bluestein_rows:
    case ScheduleCheck::one_round_rows:
    case ScheduleCheck::columns_radix16:
    case ScheduleCheck::whole_warp_split_columns:
    case ScheduleCheck::rows_halves:
    case ScheduleCheck::even_columns_odd_splits: return !opencl;
    case ScheduleCheck::odd_splits_past_four_columns:
    case ScheduleCheck::exact_split_hold: return opencl;
    default: return true;
  }
}

/// Every check the API's suite runs.
inline std::vector<ScheduleCheck> schedule_checks(bool opencl) {
  std::vector<ScheduleCheck> out;
  for (int i = 0; i <= static_cast<int>(ScheduleCheck::bluestein_beside_a_split_axis); ++i) {
    const auto check = static_cast<ScheduleCheck>(i);
    if (runs_on(check, opencl)) out.push_back(check);
  }
  return out;
}

/// Runs one check on the API's fast path (`make_path` and `run` as for the checks above) from the
/// base its suite uses.
template <class MakePath, class Run>
void run_schedule_check(ScheduleCheck check, bool opencl, MakePath make_path, Run run) {
  if (!runs_on(check, opencl)) {
    ADD_FAILURE() << "schedule check " << static_cast<int>(check) << " is " << (opencl ? "GL's" : "OpenCL's")
                  << " alone";
    return;
  }
  const fast::Tuning api = opencl ? fast::Tuning{} : fast::gl_default_tuning();
  switch (check) {
    case ScheduleCheck::split_lines: return expect_split_lines_match_fftw(fast::Tuning{}, make_path, run);
    case ScheduleCheck::schedule_options:
      return expect_schedule_options_match_fftw(opencl ? cl_schedule_base() : gl_schedule_options_base(), make_path,
                                                run);
    case ScheduleCheck::split_in_time:
      return expect_split_in_time_matches_fftw(opencl ? cl_schedule_base() : gl_eight_values_base(), make_path, run);
    case ScheduleCheck::sub_transform_loop: return expect_sub_transform_loop_matches_fftw(api, make_path, run);
    case ScheduleCheck::one_round_split_columns:
      return expect_one_round_matches_fftw(gl_one_round_split_columns(), make_path, run);
    case ScheduleCheck::one_round_bluestein_rows:
      return expect_one_round_matches_fftw(gl_one_round_bluestein_rows(), make_path, run);
    case ScheduleCheck::one_round_rows: return expect_one_round_matches_fftw(gl_one_round_rows(), make_path, run);
    case ScheduleCheck::radix25: return expect_radix25_matches_fftw(api, make_path, run);
    case ScheduleCheck::composite_radices: return expect_composite_radices_match_fftw(api, make_path, run);
    case ScheduleCheck::rows_radix16: return expect_rows_radix16_matches_fftw(api, make_path, run);
    case ScheduleCheck::columns_radix16: return expect_columns_radix16_matches_fftw(api, make_path, run);
    case ScheduleCheck::whole_warp_split_columns:
      return expect_whole_warp_split_columns_match_fftw(api, make_path, run);
    case ScheduleCheck::rows_halves: return expect_rows_halves_match_fftw(api, make_path, run);
    case ScheduleCheck::even_columns_odd_splits: return expect_even_columns_odd_splits_match_fftw(api, make_path, run);
    case ScheduleCheck::odd_splits_past_four_columns:
      return expect_odd_splits_past_four_columns_match_fftw(api, make_path, run);
    case ScheduleCheck::exact_split_hold: return expect_exact_split_hold_matches_fftw(api, make_path, run);
    case ScheduleCheck::exact_split_threads: return expect_exact_split_threads_match_fftw(api, make_path, run);
    case ScheduleCheck::balanced_groups:
      return expect_balanced_groups_match_fftw(opencl ? api : gl_balanced_base(), make_path, run);
    case ScheduleCheck::four_step_columns: return expect_four_step_columns_match_fftw(api, make_path, run);
    case ScheduleCheck::tiled_columns: return expect_tiled_columns_match_fftw(api, make_path, run);
    case ScheduleCheck::row_pairs: return expect_row_pairs_match_fftw(api, !opencl, make_path, run);
    case ScheduleCheck::live_blocks:
      return expect_live_blocks_match_fftw(opencl ? api : gl_live_blocks_base(), make_path, run);
    case ScheduleCheck::local_halves: return expect_local_halves_match_fftw(api, make_path, run);
    case ScheduleCheck::swizzled_lines: return expect_swizzled_lines_match_fftw(api, make_path, run);
    case ScheduleCheck::bluestein_beside_a_split_axis:
      return expect_bluestein_beside_a_split_axis_matches_fftw(api, make_path, run);
  }
}

}  // namespace fftscope::test
