// The fast variant through the Backend interface (make_backend + KernelVariant::fast), for every
// GPU backend compiled in: whole-axis dispatches named fast_rows / fast_cols, the same result
// as FFTW, lengths with a prime factor above 13 through the fast path's Bluestein, and the stage
// pipeline when a stop is requested.
#include <gtest/gtest.h>

#include <map>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "core/fast_plan.h"
#include "core/errors.h"
#include "support/gpu_skip.h"
#include "support/reference.h"

namespace fftscope {
namespace {

std::unique_ptr<Backend> gpu_backend(BackendKind kind, std::string& why, const BackendOptions& options = {}) {
  try {
    return make_backend(kind, options);
  } catch (const std::exception& e) {
    why = e.what();
    return nullptr;
  }
}

// `input` as the float image the backends take.
ComplexImage float_image(const std::vector<test::ComplexD>& input, std::size_t w, std::size_t h) {
  ComplexImage image(w, h);
  image.data = test::to_float(input);
  return image;
}

std::vector<std::string> kernel_names(Backend& backend) {
  backend.finish();  // every timer is ready after it
  std::vector<std::string> names;
  for (const TimingRecord& r : backend.take_timings()) names.push_back(r.kernel);
  return names;
}

class FastVariant : public ::testing::TestWithParam<BackendKind> {};

TEST_P(FastVariant, RunsWholeAxisKernelsAndMatchesFftw) {
  std::string why;
  auto backend = gpu_backend(GetParam(), why);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    const std::size_t w = 60, h = 48;
    const auto input = test::random_complex(w * h, 11);
    const ComplexImage image = float_image(input, w, h);
    backend->take_timings();
    const ComplexImage out = run_transform(*backend, make_plan_2d(w, h), image, direction, KernelVariant::fast);
    EXPECT_LT(test::relative_l2_error(out.data, test::fftw_2d(input, w, h, direction)), test::float_fft_tolerance(w * h));
    EXPECT_EQ(kernel_names(*backend), (std::vector<std::string>{"fast_rows", "fast_cols"}));
  }
}

// BackendOptions::measure_fast_plans: the same transform, and the routes the planner kept
// described (empty for the other variants).
TEST_P(FastVariant, MeasuredPlansMatchFftwAndAreDescribed) {
  ::setenv("FFTSCOPE_PLAN_CACHE", "", 1);  // measure here, whatever an earlier run kept
  BackendOptions options;
  options.measure_fast_plans = true;
  std::string why;
  auto backend = gpu_backend(GetParam(), why, options);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  const std::size_t w = 60, h = 48;
  const Plan2D plan = make_plan_2d(w, h);
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    const auto input = test::random_complex(w * h, 19);
    const ComplexImage image = float_image(input, w, h);
    const ComplexImage out = run_transform(*backend, plan, image, direction, KernelVariant::fast);
    EXPECT_LT(test::relative_l2_error(out.data, test::fftw_2d(input, w, h, direction)), test::float_fft_tolerance(w * h));
    const std::string described = backend->fast_plan_description();
    EXPECT_NE(described.find("rows n=60"), std::string::npos) << described;
    EXPECT_NE(described.find("cols n=48"), std::string::npos) << described;
  }
  backend->prepare(plan, KernelVariant::fused);
  EXPECT_EQ(backend->fast_plan_description(), "");
}

TEST_P(FastVariant, StageStopTakesTheStagePipeline) {
  std::string why;
  auto backend = gpu_backend(GetParam(), why);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  // A stop after the first row stage: the teaching pipeline, stopped where asked.
  const std::size_t w = 16, h = 12;
  const ComplexImage image = float_image(test::random_complex(w * h, 3), w, h);
  const Plan2D plan = make_plan_2d(w, h);
  backend->take_timings();
  const ComplexImage stopped = run_transform(*backend, plan, image, Direction::forward, KernelVariant::fast,
                                             StageStop{Axis::rows, 0});
  const ComplexImage reference = run_transform(*backend, plan, image, Direction::forward, KernelVariant::fused,
                                               StageStop{Axis::rows, 0});
  EXPECT_LT(test::relative_l2_error(stopped.data, test::to_double(reference.data)), 1e-6);
  for (const std::string& name : kernel_names(*backend)) EXPECT_NE(name.rfind("fast_", 0), 0u) << name;
}

TEST_P(FastVariant, LargePrimeLengthsRunBluesteinOnTheFastPath) {
  std::string why;
  auto backend = gpu_backend(GetParam(), why);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  // 17 has no factorization into radices <= 13: rows through the fast path's Bluestein (padded
  // to 35 = 5·7), columns (8) directly; both directions.
  const std::size_t w = 17, h = 8;
  const std::string l = "(L=" + std::to_string(fast::bluestein_length(17));
  const auto input = test::random_complex(w * h, 4);
  const ComplexImage image = float_image(input, w, h);
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    backend->take_timings();
    const ComplexImage out = run_transform(*backend, make_plan_2d(w, h), image, direction, KernelVariant::fast);
    EXPECT_LT(test::relative_l2_error(out.data, test::fftw_2d(input, w, h, direction)),
              test::float_fft_tolerance(35 * h, true))
        << to_string(direction);
    EXPECT_EQ(kernel_names(*backend),
              (std::vector<std::string>{"fast_rows" + l + "; chirp in; filter out)",
                                        "fast_rows_inv" + l + "; chirp out)", "fast_cols"}))
        << to_string(direction);
  }
}

// BackendOptions::time_spans: each backend records one span per fast execute() and per fused
// execute_real_display() (OpenCL: from a marker before its dispatches to one after them; GL: one
// GL_TIME_ELAPSED query around them, host time on llvmpipe) in place of the fast path's
// per-dispatch records; without the option, per-dispatch records only. The teaching pipeline
// keeps its per-dispatch records on both (OpenCL adds its span).
TEST_P(FastVariant, TimeSpansRecordEachExecution) {
  // Per execution: the span's time, and the number and sum of the other records.
  struct Times {
    std::map<std::uint64_t, double> span_ms, dispatch_ms;
  };
  const auto times_of = [](const std::vector<TimingRecord>& records) {
    Times t;
    for (const TimingRecord& r : records) {
      EXPECT_NE(r.execution, 0u) << r.kernel;
      if (r.kernel == transform_span_kernel) {
        EXPECT_EQ(t.span_ms.count(r.execution), 0u) << "one span per execution";
        t.span_ms[r.execution] = r.milliseconds;
      } else {
        t.dispatch_ms[r.execution] += r.milliseconds;
      }
    }
    return t;
  };
  for (const bool spans : {false, true}) {
    BackendOptions options;
    options.time_spans = spans;
    std::string why;
    auto backend = gpu_backend(GetParam(), why, options);
    if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
    const std::size_t w = 64, h = 48;
    const auto input = test::random_complex(w * h, 5);
    const ComplexImage image = float_image(input, w, h);
    backend->prepare(make_plan_2d(w, h), KernelVariant::fast);
    backend->take_timings();
    for (int run = 0; run < 3; ++run) {
      backend->upload(image);
      backend->execute(Direction::forward);
    }
    // The transform is the same with or without its dispatches' timers.
    EXPECT_LT(test::relative_l2_error(backend->download().data, test::fftw_2d(input, w, h, Direction::forward)),
              test::float_fft_tolerance(w * h));
    Times fast = times_of(backend->take_timings());
    ASSERT_EQ(fast.span_ms.size(), spans ? 3u : 0u) << to_string(GetParam()) << " time_spans " << spans;
    ASSERT_EQ(fast.dispatch_ms.size(), spans ? 0u : 3u) << to_string(GetParam()) << " time_spans " << spans;
    for (const auto& [execution, ms] : fast.span_ms) EXPECT_GT(ms, 0.0) << "execution " << execution;

    // The real display path (fused at this size): the same, per execute_real_display().
    ASSERT_EQ(backend->real_display_path(w, h), RealDisplayPath::fused) << to_string(GetParam());
    RealImage real(w, h);
    for (std::size_t i = 0; i < real.data.size(); ++i) real.data[i] = static_cast<float>(input[i].real());
    backend->upload_real(real);
    backend->take_timings();
    for (int run = 0; run < 2; ++run) backend->execute_real_display(SpectrumSettings{}, run > 0);
    backend->finish();
    Times display = times_of(backend->take_timings());
    ASSERT_EQ(display.span_ms.size(), spans ? 2u : 0u) << to_string(GetParam()) << " display, time_spans " << spans;
    ASSERT_EQ(display.dispatch_ms.size(), spans ? 0u : 2u) << to_string(GetParam()) << " display, time_spans " << spans;
    for (const auto& [execution, ms] : display.span_ms) EXPECT_GT(ms, 0.0) << "display execution " << execution;

    // The teaching pipeline keeps its dispatches' records.
    backend->prepare(make_plan_2d(w, h), KernelVariant::fused);
    backend->upload(image);
    backend->take_timings();
    backend->execute(Direction::forward);
    backend->finish();
    Times teaching = times_of(backend->take_timings());
    EXPECT_EQ(teaching.dispatch_ms.size(), 1u) << to_string(GetParam()) << " teaching, time_spans " << spans;
    EXPECT_EQ(teaching.span_ms.size(), spans && GetParam() == BackendKind::cl ? 1u : 0u)
        << to_string(GetParam()) << " teaching, time_spans " << spans;
  }
}

// Backend::finish waits for everything queued, so every execution's timers are ready after it
// without a download (the benchmark's wait between runs), and it leaves the data as it was:
// forward, inverse, forward, then finish, gives three executions' timings and a spectrum that
// matches FFTW. (llvmpipe's and PoCL's timers are ready at once; on the H100, the benchmark
// read no GL timers at all without GL's finish: docs/results/h100-probes-13.txt, call 14.)
TEST_P(FastVariant, FinishReadiesEveryTimerAndKeepsTheData) {
  std::string why;
  auto backend = gpu_backend(GetParam(), why);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  const std::size_t w = 96, h = 40;
  const auto input = test::random_complex(w * h, 11);
  const ComplexImage image = float_image(input, w, h);
  backend->prepare(make_plan_2d(w, h), KernelVariant::fast);
  backend->upload(image);
  backend->take_timings();
  for (const Direction d : {Direction::forward, Direction::inverse, Direction::forward}) backend->execute(d);
  backend->finish();
  std::map<std::uint64_t, double> ms;
  for (const TimingRecord& r : backend->take_timings()) ms[r.execution] += r.milliseconds;
  ASSERT_EQ(ms.size(), 3u) << to_string(GetParam());
  for (const auto& [execution, t] : ms) EXPECT_GT(t, 0.0) << "execution " << execution;
  EXPECT_LT(test::relative_l2_error(backend->download().data, test::fftw_2d(input, w, h, Direction::forward)),
            test::float_fft_tolerance(w * h));
}

// FFTSCOPE_FAST_TUNING for one test, the previous value put back after.
class ScopedTuningEnv {
 public:
  explicit ScopedTuningEnv(const char* value) {
    if (const char* old = std::getenv(kName)) old_ = old;
    setenv(kName, value, 1);
  }
  ~ScopedTuningEnv() {
    if (old_) setenv(kName, old_->c_str(), 1);
    else unsetenv(kName);
  }

 private:
  static constexpr const char* kName = "FFTSCOPE_FAST_TUNING";
  std::optional<std::string> old_;
};

// Columns folded into the rows (fast::Tuning::fold_columns_max_length; GL only, OpenCL's tuning
// drops it): on GL each transform leaves the result in the backend's other image buffer, which
// becomes its image; forward, inverse and forward again, each downloaded and checked.
TEST_P(FastVariant, FoldedColumnsMoveTheImageToTheOtherBuffer) {
  const ScopedTuningEnv tuning("fold_columns_max_length=4096,fold_columns_min_bytes=0");
  std::string why;
  auto backend = gpu_backend(GetParam(), why);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  const std::size_t w = 96, h = 40;
  const auto input = test::random_complex(w * h, 29);
  backend->prepare(make_plan_2d(w, h), KernelVariant::fast);
  backend->upload(float_image(input, w, h));
  // GL folds; OpenCL's tuning drops the knob (fast::cl_tuning).
  EXPECT_EQ(backend->fast_plan_description().find("columns' first radix-2 step") != std::string::npos,
            GetParam() == BackendKind::gl)
      << backend->fast_plan_description();
  const auto spectrum = test::fftw_2d(input, w, h, Direction::forward);
  backend->execute(Direction::forward);
  EXPECT_LT(test::relative_l2_error(backend->download().data, spectrum), test::float_fft_tolerance(w * h));
  backend->execute(Direction::inverse);
  EXPECT_LT(test::relative_l2_error(backend->download().data, input), 1e-5);
  backend->execute(Direction::forward);
  EXPECT_LT(test::relative_l2_error(backend->download().data, spectrum), test::float_fft_tolerance(w * h));
}

std::vector<BackendKind> gpu_kinds() {
  std::vector<BackendKind> kinds;
  for (BackendKind k : compiled_backends())
    if (k != BackendKind::cpu) kinds.push_back(k);
  return kinds;
}

std::string kind_name(const ::testing::TestParamInfo<BackendKind>& param_info) { return to_string(param_info.param); }

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FastVariant);
INSTANTIATE_TEST_SUITE_P(Gpu, FastVariant, ::testing::ValuesIn(gpu_kinds()), kind_name);

}  // namespace
}  // namespace fftscope
