// Timing summaries and their CSV / JSON export.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "core/timing.h"

namespace fftscope {
namespace {

TimingRecord record(const std::string& kernel, Axis axis, int stage, std::uint32_t radix, double ms) {
  TimingRecord r;
  r.kernel = kernel;
  r.axis = axis;
  r.stage = stage;
  r.radix = radix;
  r.milliseconds = ms;
  return r;
}

TEST(Median, OddEvenEmpty) {
  EXPECT_EQ(median({}), 0.0);
  EXPECT_EQ(median({3.0}), 3.0);
  EXPECT_EQ(median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(median({1.0, 1.0, 1.0, 9.0}), 1.0);
  EXPECT_EQ(median({-2.0, 8.0}), 3.0);
}

TEST(Summarize, GroupsByDispatchInFirstSeenOrder) {
  std::vector<TimingRecord> records = {
      record("digit_reverse", Axis::rows, -1, 0, 1.0), record("radix_4", Axis::rows, 0, 4, 2.0),
      record("radix_4", Axis::cols, 0, 4, 7.0),        record("digit_reverse", Axis::rows, -1, 0, 3.0),
      record("radix_4", Axis::rows, 0, 4, 6.0),        record("radix_4", Axis::rows, 1, 4, 0.5),
      record("radix_4", Axis::rows, 0, 4, 4.0),
  };
  records[6].bytes = 4000000;
  records[6].note = "last";
  const auto rows = summarize_timings(records);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].last.kernel, "digit_reverse");
  EXPECT_EQ(rows[0].count, 2u);
  EXPECT_EQ(rows[0].min_ms, 1.0);
  EXPECT_EQ(rows[0].max_ms, 3.0);
  EXPECT_EQ(rows[0].median_ms, 2.0);
  EXPECT_EQ(rows[1].last.axis, Axis::rows);
  EXPECT_EQ(rows[1].last.stage, 0);
  EXPECT_EQ(rows[1].count, 3u);
  EXPECT_EQ(rows[1].median_ms, 4.0);
  EXPECT_EQ(rows[1].last.note, "last");
  EXPECT_EQ(rows[1].last.milliseconds, 4.0);
  EXPECT_EQ(rows[2].last.axis, Axis::cols);
  EXPECT_EQ(rows[3].last.stage, 1);
  EXPECT_TRUE(summarize_timings({}).empty());
  EXPECT_DOUBLE_EQ(records[6].gigabytes_per_second(), 1.0);  // 4e6 bytes in 4 ms
}

TEST(Export, CsvHasHeaderQuotingAndBandwidth) {
  auto r = record("radix_8", Axis::cols, 2, 8, 2.0);
  r.bytes = 8000000;
  r.global_size = {64, 32, 1};
  r.note = "copy, \"pbo\"";
  r.host_measured = true;
  const std::string csv = timings_to_csv(summarize_timings({r, r}));
  EXPECT_EQ(csv,
            "kernel,axis,stage,radix,global_x,global_y,global_z,count,min_ms,median_ms,max_ms,last_ms,bytes,gb_per_s,"
            "host_measured,note\n"
            "radix_8,cols,2,8,64,32,1,2,2,2,2,2,8000000,4,true,\"copy, \"\"pbo\"\"\"\n");
}

TEST(Export, JsonEscapesAndHandlesNonFinite) {
  auto r = record("tw\"id\\dle\n", Axis::rows, -1, 0, 0.125);
  const std::string json = timings_to_json(summarize_timings({r}));
  EXPECT_NE(json.find("\"kernel\": \"tw\\\"id\\\\dle\\n\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"median_ms\": 0.125"), std::string::npos) << json;
  EXPECT_NE(json.find("\"gb_per_s\": 0,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"global_size\": [1, 1, 1]"), std::string::npos) << json;
  EXPECT_EQ(json.front(), '[');
  auto inf = record("k", Axis::rows, 0, 2, INFINITY);
  const std::string j2 = timings_to_json(summarize_timings({inf}));
  EXPECT_NE(j2.find("\"max_ms\": null"), std::string::npos) << j2;
  EXPECT_EQ(timings_to_json({}), "[]\n");
  // Numbers are the shortest text that reads back exactly.
  auto third = record("k", Axis::rows, 0, 2, 1.0 / 3.0);
  const std::string j3 = timings_to_json(summarize_timings({third}));
  EXPECT_NE(j3.find("\"last_ms\": 0.3333333333333333,"), std::string::npos) << j3;
}

// run_untimed_pairs: at least two pairs, and pairs until min_ms has passed.
TEST(RunUntimedPairs, AtLeastTwoAndForAtLeastTheMinimum) {
  int calls = 0;
  run_untimed_pairs([&] { ++calls; }, 0);
  EXPECT_EQ(calls, 2);

  // Each call's start, so that what is asserted holds however long the sleeps take on a loaded
  // machine (counting calls of 3 ms each failed there: sleeps overran).
  std::vector<std::chrono::steady_clock::time_point> starts;
  const auto start = std::chrono::steady_clock::now();
  run_untimed_pairs(
      [&] {
        starts.push_back(std::chrono::steady_clock::now());
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
      },
      15);
  const auto ms = [](auto from, auto to) { return std::chrono::duration<double, std::milli>(to - from).count(); };
  const double elapsed = ms(start, std::chrono::steady_clock::now());
  ASSERT_GE(starts.size(), 2u);
  EXPECT_GE(elapsed, 15.0);  // not done before the minimum
  // No call begun once the minimum had passed: the last began under 15 ms after the first.
  if (starts.size() > 2) {
    EXPECT_LT(ms(starts.front(), starts.back()), 15.0);
  }
  EXPECT_LT(elapsed, 1000.0);
}

// warm_until_steady: batches until two in a row agree and min_ms has passed, at most max_ms,
// never after a batch that measured nothing.
TEST(WarmUntilSteady, StopsOnceTwoBatchesAgreeAfterTheMinimum) {
  int calls = 0;
  const Warming w = warm_until_steady(
      [&] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        return calls < 3 ? 10.0 * calls : 5.0;  // 10, 20, then steady at 5
      },
      15, 5000, 0.05);
  EXPECT_GE(w.spent_ms, 15.0);
  EXPECT_LT(w.spent_ms, 1000.0);
  EXPECT_GE(calls, 4);  // 10, 20, 5 and a 5 that agrees
  EXPECT_EQ(w.batch_ms, 5.0);
}

TEST(WarmUntilSteady, GivesUpAtTheMaximumAndOnANegativeTime) {
  int calls = 0;
  Warming w = warm_until_steady(
      [&] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        return calls % 2 == 0 ? 1.0 : 2.0;  // never within 5 %
      },
      1, 30, 0.05);
  EXPECT_GE(w.spent_ms, 30.0);
  EXPECT_LT(w.spent_ms, 1000.0);
  EXPECT_GE(calls, 2);

  calls = 0;
  w = warm_until_steady([&] { return ++calls, -1.0; }, 100, 5000, 0.05);
  EXPECT_EQ(calls, 1);
  EXPECT_LT(w.batch_ms, 0.0);

  calls = 0;
  w = warm_until_steady([&] { return ++calls, 1.0; }, 0, 5000, 0.05);
  EXPECT_EQ(calls, 0) << "min_ms 0: no warming";
}

}  // namespace
}  // namespace fftscope
