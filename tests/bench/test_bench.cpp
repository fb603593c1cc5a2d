// The benchmark harness computes what it claims: every available implementation's result is
// checked against FFTW, runs are counted, and an unavailable library says why instead of failing.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <iomanip>
#include <span>
#include <sstream>
#include <stdexcept>

#include "backend/backend.h"
#include "bench/bench.h"
#include "support/gpu_skip.h"
#include "support/quick_sweep.h"
#include "support/reference.h"

namespace fftscope::bench {
namespace {

TEST(Bench, EveryImplementationIsCheckedAgainstFftw) {
  const SweepOptions options =
      test::quick_sweep({{16, 8}, {30, 12}}, {"fftscope-cpu-fused", "fftscope-gl-fused", "fftscope-cl-fast", "fftw",
                                              "vkfft-opencl", "clfft", "cufft", copy_reference});
  std::size_t seen = 0;
  const auto entries = run_sweep(options, [&](const std::vector<BenchEntry>& finished) { EXPECT_EQ(finished.size(), ++seen); });
  ASSERT_EQ(entries.size(), options.sizes.size() * options.implementations.size());
  EXPECT_EQ(seen, entries.size());
  for (const BenchEntry& e : entries) {
    if (!e.available) {
      EXPECT_FALSE(e.reason.empty()) << e.implementation;
      // Only cuFFT may be missing here: GL and CL run on llvmpipe and PoCL wherever tests run.
      if (e.implementation != "cufft" && test::gpu_required()) ADD_FAILURE() << e.implementation << ": " << e.reason;
      continue;
    }
    EXPECT_EQ(e.repeats, 3u) << e.implementation;
    EXPECT_GT(e.median_us, 0.0) << e.implementation;
    EXPECT_LE(e.min_us, e.median_us);
    EXPECT_LE(e.median_us, e.max_us);
    EXPECT_GE(e.rel_error, 0.0);
    EXPECT_LT(e.rel_error, test::float_fft_tolerance(e.size.width * e.size.height)) << e.implementation;
    // Our fast entries say which routes ran (both axes of 16 x 8 are short enough for one
    // plan each; not square, so two dispatches); the others have nothing to say.
    if (e.implementation == "fftscope-cl-fast") {
      EXPECT_NE(e.plan.find("rows n=" + std::to_string(e.size.width)), std::string::npos) << e.plan;
      EXPECT_NE(e.plan.find("cols n=" + std::to_string(e.size.height)), std::string::npos) << e.plan;
    } else {
      EXPECT_TRUE(e.plan.empty()) << e.implementation << ": " << e.plan;
    }
    // The copy reference checks itself: a copy is exact, and moves one read and one write.
    if (e.implementation == copy_reference) {
      EXPECT_EQ(e.rel_error, 0.0);
      EXPECT_NEAR(e.bandwidth_gbs * e.median_us * 1e3, 16.0 * static_cast<double>(e.size.width * e.size.height), 1e-6);
    }
  }
  const std::string json = sweep_to_json(entries, 2900);
  EXPECT_NE(json.find("\"copy_bandwidth_gbs\": 2900"), std::string::npos);
  EXPECT_NE(json.find("\"implementation\": \"fftw\""), std::string::npos);
  const bool cl_fast_ran = std::any_of(entries.begin(), entries.end(), [](const BenchEntry& e) {
    return e.available && e.implementation == "fftscope-cl-fast";
  });
  EXPECT_EQ(json.find("\"plan\": \"rows n=") != std::string::npos, cl_fast_ran) << json;
  EXPECT_NE(sweep_to_table(entries).find("30x12"), std::string::npos);
  // The "x 2 copies" column: each transform against twice the copy of its size in the same run.
  const std::string table = sweep_to_table(entries);
  EXPECT_NE(table.find("x 2 copies"), std::string::npos);
  std::size_t ratios = 0;
  for (const BenchEntry& copy : entries) {
    if (!copy.available || copy.implementation != copy_reference) continue;
    for (const BenchEntry& e : entries) {
      if (!e.available || e.implementation != "fftscope-cl-fast" || e.size.width != copy.size.width ||
          e.size.height != copy.size.height)
        continue;
      std::ostringstream ratio;
      ratio << " " << std::fixed << std::setprecision(2) << e.median_us / (2 * copy.median_us) << " ";
      std::ostringstream size_text;
      size_text << e.size.width << "x" << e.size.height << " ";
      const std::string size = size_text.str();
      std::istringstream lines(table);
      std::string line;
      while (std::getline(lines, line) && !(line.starts_with(size) && line.find(" fftscope-cl-fast ") != std::string::npos)) {
      }
      EXPECT_NE(line.find(ratio.str()), std::string::npos) << line << " (want " << ratio.str() << ")\n" << table;
      ++ratios;
    }
  }
  if (test::gpu_required()) {
    EXPECT_EQ(ratios, options.sizes.size()) << table;
  }
}

// A run's time is its span where the backend recorded spans (the sum of its dispatches beside
// it where they recorded any), else the sum of its dispatches; the timer column says which, and
// says so when the host clock took them.
TEST(Bench, FftscopeRunsTakeSpansBeforeSumsOfDispatches) {
  const auto record = [](const char* kernel, std::uint64_t execution, double ms, bool host = false) {
    TimingRecord r;
    r.kernel = kernel;
    r.execution = execution;
    r.milliseconds = ms;
    r.host_measured = host;
    if (std::string(kernel) == transform_span_kernel) r.note = "one query around its dispatches";
    return r;
  };
  // Dispatches only (two runs of two dispatches, and one record outside any run).
  detail::FftscopeRuns sums = detail::fftscope_runs(
      {record("rows", 1, 0.25), record("cols", 1, 0.5), record("rows", 2, 0.125), record("cols", 2, 0.25), record("x", 0, 9)});
  EXPECT_FALSE(sums.spans);
  EXPECT_EQ(sums.ms, (std::vector<double>{0.75, 0.375}));
  EXPECT_EQ(detail::fftscope_timer(sums, 0), "GPU timers, sum of dispatches");
  // Spans, untimed dispatches (the fast paths under time_spans).
  detail::FftscopeRuns spans = detail::fftscope_runs({record(transform_span_kernel, 1, 0.5), record(transform_span_kernel, 2, 0.25)});
  EXPECT_TRUE(spans.spans);
  EXPECT_EQ(spans.ms, (std::vector<double>{0.5, 0.25}));
  EXPECT_EQ(detail::fftscope_timer(spans, 0), "span of each transform: one query around its dispatches (its dispatches untimed)");
  // Spans with their dispatches timed too (OpenCL's teaching pipeline): the span counts, the
  // median sum of the measured runs' dispatches is beside it.
  detail::FftscopeRuns both = detail::fftscope_runs({record(transform_span_kernel, 1, 1.0), record("a", 1, 0.5),
                                                     record(transform_span_kernel, 2, 2.0), record("a", 2, 0.75)});
  EXPECT_EQ(both.ms, (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(both.dispatch_ms, (std::vector<double>{0.5, 0.75}));
  EXPECT_EQ(detail::fftscope_timer(both, 1), "span of each transform: one query around its dispatches (sum of its dispatches: 750.0 us)");
  // Host-timed spans (llvmpipe's GL) and host-timed dispatches say so.
  EXPECT_EQ(detail::fftscope_timer(detail::fftscope_runs({record(transform_span_kernel, 1, 0.5, true)}), 0),
            "host clock around each transform (driver timer unusable) (its dispatches untimed)");
  EXPECT_EQ(detail::fftscope_timer(detail::fftscope_runs({record("rows", 1, 0.5, true)}), 0),
            "host clock around each dispatch (driver timer unusable)");
}

// Several rounds keep the round with the median time, whole (its min, max and plan), with every
// round's median beside it and the worst error of any round.
TEST(Bench, RoundsKeepTheMedianRound) {
  const auto round = [](double median, double error, const char* plan) {
    BenchEntry e;
    e.implementation = "x";
    e.available = true;
    e.median_us = median;
    e.min_us = median - 1;
    e.max_us = median + 1;
    e.rel_error = error;
    e.plan = plan;
    return e;
  };
  const BenchEntry three = detail::merge_rounds({round(50, 1e-7, "a"), round(10, 3e-7, "b"), round(30, 2e-7, "c")});
  EXPECT_EQ(three.median_us, 30);
  EXPECT_EQ(three.min_us, 29);
  EXPECT_EQ(three.max_us, 31);
  EXPECT_EQ(three.plan, "c");
  EXPECT_EQ(three.round_medians_us, (std::vector<double>{50, 10, 30}));
  EXPECT_EQ(three.rel_error, 3e-7);
  // An even count keeps the lower middle one; one round is itself.
  EXPECT_EQ(detail::merge_rounds({round(40, 0, "a"), round(20, 0, "b")}).median_us, 20);
  EXPECT_EQ(detail::merge_rounds({round(40, 0, "a"), round(20, 0, "b"), round(90, 0, "c"), round(30, 0, "d")}).plan, "d");
  const BenchEntry one = detail::merge_rounds({round(7, 0, "a")});
  EXPECT_EQ(one.median_us, 7);
  EXPECT_EQ(one.round_medians_us, (std::vector<double>{7}));
  // A round that failed makes the entry fail, with its reason.
  BenchEntry failed;
  failed.implementation = "x";
  failed.reason = "lost the device";
  const BenchEntry lost = detail::merge_rounds({round(10, 0, "a"), failed, round(12, 0, "c")});
  EXPECT_FALSE(lost.available);
  EXPECT_EQ(lost.reason, "lost the device");
  EXPECT_THROW(detail::merge_rounds({}), std::invalid_argument);
}

// FFTW's planning limit (SweepOptions::fftw_planning_ms): 1 ms cannot measure a 320 x 200 plan
// (no other test plans that size, so no wisdom shortens it), and the entry says its planning
// stopped there, also in a second round, whose planning FFTW's wisdom answers at once; a minute
// plans 12 x 10 whole, and the entry says nothing of a limit. Every result matches the
// double-precision reference.
TEST(Bench, FftwEntrySaysWhereItsPlanningReachedTheLimit) {
  SweepOptions options = test::quick_sweep({}, {"fftw"});
  for (const auto& [size, planning_ms] : {std::pair{BenchSize{320, 200}, 1}, std::pair{BenchSize{320, 200}, 1},
                                          std::pair{BenchSize{12, 10}, 60'000}}) {
    options.sizes = {size};
    options.fftw_planning_ms = planning_ms;
    const auto entries = run_sweep(options);
    ASSERT_EQ(entries.size(), 1u);
    const BenchEntry& e = entries.front();
    ASSERT_TRUE(e.available) << e.reason;
    EXPECT_EQ(e.device.find("planning stopped") != std::string::npos, planning_ms == 1) << e.device;
    if (planning_ms == 1) {
      EXPECT_NE(e.device.find("planning stopped at its 0.001 s limit"), std::string::npos) << e.device;
    }
    EXPECT_LT(e.rel_error, test::float_fft_tolerance(size.width * size.height)) << e.device;
  }
}

TEST(Bench, SweepRoundsMeasureEachEntryAgain) {
  SweepOptions options = test::quick_sweep({{16, 8}}, {"fftw", "fftscope-cl-fast"});
  options.rounds = 3;
  std::size_t seen = 0;
  const auto entries = run_sweep(options, [&](const std::vector<BenchEntry>& finished) { EXPECT_EQ(finished.size(), ++seen); });
  ASSERT_EQ(entries.size(), options.implementations.size());
  EXPECT_EQ(seen, entries.size());
  for (const BenchEntry& e : entries) {
    if (!e.available) {
      if (test::gpu_required() || e.implementation == "fftw") ADD_FAILURE() << e.implementation << ": " << e.reason;
      continue;
    }
    ASSERT_EQ(e.round_medians_us.size(), 3u) << e.implementation;
    std::vector<double> sorted = e.round_medians_us;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(e.median_us, sorted[1]) << e.implementation;
    EXPECT_EQ(e.repeats, 3u);
    EXPECT_LT(e.rel_error, test::float_fft_tolerance(e.size.width * e.size.height)) << e.implementation;
  }
  const std::string json = sweep_to_json(entries);
  EXPECT_NE(json.find("\"round_medians_us\": ["), std::string::npos) << json;
  // One round: no list in the JSON (the files of earlier sweeps stay as they were).
  options.rounds = 1;
  options.implementations = {"fftw"};
  EXPECT_EQ(sweep_to_json(run_sweep(options)).find("round_medians_us"), std::string::npos);
}

// The real display entries: the fused path (16 x 8, and the odd width 15 x 8), the routed path
// where the size has a prime factor above 13 (17 x 8) and the complex fallback where the width
// is under 3 (2 x 8), each timed as one span; each picture against render_spectrum of FFTW's
// spectrum (the error: the fraction of pixels more than one colour step off).
TEST(Bench, DisplayEntriesTimeTheFusedRoutedAndFallbackPaths) {
  const SweepOptions options =
      test::quick_sweep({{16, 8}, {15, 8}, {17, 8}, {2, 8}}, {"fftscope-gl-display", "fftscope-cl-display"});
  const auto entries = run_sweep(options);
  ASSERT_EQ(entries.size(), 8u);
  for (const BenchEntry& e : entries) {
    if (!e.available) {
      if (test::gpu_required()) ADD_FAILURE() << e.implementation << ": " << e.reason;
      continue;
    }
    const std::string size = std::to_string(e.size.width) + "x" + std::to_string(e.size.height);
    EXPECT_GT(e.median_us, 0.0) << e.implementation << " " << size;
    EXPECT_LE(e.rel_error, 0.01) << e.implementation << " " << size;
    EXPECT_EQ(e.timer.find("routed") != std::string::npos, e.size.width == 17)
        << e.implementation << " " << size << ": " << e.timer;
    EXPECT_EQ(e.timer.find("complex fallback") != std::string::npos, e.size.width == 2)
        << e.implementation << " " << size << ": " << e.timer;
    EXPECT_EQ(e.timer.find("sum of its dispatches"), std::string::npos) << e.timer;  // one span, nothing beside
  }
}

TEST(Bench, UnknownImplementationIsReportedNotThrown) {
  SweepOptions options;
  options.sizes = {{4, 4}};
  options.implementations = {"no-such-library"};
  const auto entries = run_sweep(options);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_FALSE(entries[0].available);
  EXPECT_NE(entries[0].reason.find("no-such-library"), std::string::npos);
}

// cuFFT needs its runtime and the NVIDIA driver; where either is missing the entry says which, not
// a bare CUDA error code (a runtime without a driver fails every call with code 35).
TEST(Bench, CufftSaysWhatIsMissing) {
  // What this machine has, by the names the entries themselves try.
  auto loads = [](std::span<const char* const> names) {
    for (const char* name : names)
      if (void* handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)) {
        dlclose(handle);
        return true;
      }
    return false;
  };
  const bool runtime = loads(detail::cudart_names) && loads(detail::cufft_names);
  const bool driver = loads(detail::cuda_driver_names);
  const SweepOptions options = test::quick_sweep({{16, 8}}, {"cufft", "cufft-r2c-display"}, 2);
  for (const BenchEntry& e : run_sweep(options)) {
    SCOPED_TRACE(e.implementation + ": " + e.reason);
    EXPECT_EQ(e.reason.find('\n'), std::string::npos);
    if (!runtime) {
      EXPECT_FALSE(e.available);
      EXPECT_EQ(e.reason, "cuFFT: libcudart/libcufft not found (no CUDA here)");
    } else if (!driver) {
      EXPECT_FALSE(e.available);
      EXPECT_EQ(e.reason, "cuFFT: libcuda.so.1 not found (no NVIDIA driver)");
    } else if (!e.available) {
      // A driver without a usable GPU: the runtime's own name for the error, not a bare code.
      EXPECT_NE(e.reason.find(" ("), std::string::npos);
    }
  }
}

TEST(Bench, DefaultSweepCoversTheIssuesSizes) {
  const auto sizes = default_sweep_sizes();
  auto has = [&](std::size_t w, std::size_t h) {
    for (const BenchSize& s : sizes)
      if (s.width == w && s.height == h) return true;
    return false;
  };
  for (std::size_t n = 256; n <= 8192; n *= 2) EXPECT_TRUE(has(n, n)) << n;
  for (std::size_t n : {1000, 2187, 2401, 3125, 4000, 4099}) EXPECT_TRUE(has(n, n)) << n;
  EXPECT_TRUE(has(1920, 1080));
}

}  // namespace
}  // namespace fftscope::bench
