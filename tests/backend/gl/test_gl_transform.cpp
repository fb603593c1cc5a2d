// Whole 2D transforms on the GL backend against FFTW (double): every radix the plan uses
// (2, 3, 4, 5, 7, 8, generic 11 and 13, Bluestein primes), mixed and non-square sizes, both
// directions, every kernel variant and both column strategies.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <tuple>

#include "gl_test_util.h"
#include "support/reference.h"

namespace fftscope {

inline void PrintTo(GlColumnMode m, std::ostream* os) { *os << (m == GlColumnMode::transpose ? "transpose" : "strided"); }

namespace {

struct SizeCase {
  std::size_t width, height;
  std::uint32_t max_power_of_two_radix;
};

std::string name_of(const SizeCase& c) {
  return std::to_string(c.width) + "x" + std::to_string(c.height) + "_p2r" + std::to_string(c.max_power_of_two_radix);
}

void PrintTo(const SizeCase& c, std::ostream* os) { *os << name_of(c); }

class GlTransform : public ::testing::TestWithParam<std::tuple<SizeCase, GlColumnMode>> {};

TEST_P(GlTransform, MatchesFftwForEveryVariantAndDirection) {
  const auto [size, columns] = GetParam();
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend, BackendOptions{}, GlBackendTuning{columns, 64});
  const Plan2D plan = make_plan_2d(size.width, size.height, PlanOptions{size.max_power_of_two_radix});
  const bool bluestein = plan.rows.uses_bluestein() || plan.cols.uses_bluestein();
  ComplexImage input(size.width, size.height);
  input.data = test::to_float(test::random_complex(size.width * size.height, 7 + size.width));
  const double tolerance = test::float_fft_tolerance(size.width * size.height, bluestein);
  double worst = 0;
  for (KernelVariant variant : {KernelVariant::plain, KernelVariant::optimized, KernelVariant::fused}) {
    for (Direction d : {Direction::forward, Direction::inverse}) {
      const ComplexImage out = run_transform(*backend, plan, input, d, variant);
      const auto expected = test::fftw_2d(test::to_double(input.data), size.width, size.height, d);
      const double error = test::relative_l2_error(out.data, expected);
      EXPECT_LT(error, tolerance) << name_of(size) << " " << to_string(variant) << " " << to_string(d);
      worst = std::max(worst, error);
    }
  }
  // The margin, for comparing drivers (llvmpipe, NVIDIA) in the test log.
  std::printf("%s: worst relative L2 error %.3g = %.2f x tolerance\n", name_of(size).c_str(), worst, worst / tolerance);
}

const SizeCase kSizes[] = {
    {16, 8, 4},    // radix 4, 4 and 4, 2
    {32, 32, 2},   // pure radix 2
    {64, 8, 8},    // radix 8
    {27, 25, 4},   // radix 3 and 5
    {49, 14, 4},   // radix 7 (and 2)
    {11, 13, 4},   // generic odd radices
    {60, 42, 4},   // mixed 4 3 5 / 2 3 7
    {1, 5, 4},     // a single column
    {9, 1, 4},     // a single row
    {17, 6, 4},    // Bluestein p = 17 on rows
    {97, 3, 4},    // Bluestein p = 97
    {1009, 2, 4},  // Bluestein p = 1009 (m = 2048)
    {12, 34, 4},   // Bluestein p = 17 on columns, after a radix 2 stage
    {289, 2, 4},   // two Bluestein stages (17, 17): the second with span 17 and twiddles
    {57, 23, 4},   // 3 then Bluestein 19; Bluestein 23 alone
    {128, 96, 8},  // radix 8 8 2 / 8 4 3
    {243, 49, 4},  // radix 3 x5 / 7 7
    {143, 130, 4}, // 11 13 / 2 5 13
    {512, 384, 4}, // larger dispatches: thousands of work groups
};

INSTANTIATE_TEST_SUITE_P(Sizes, GlTransform,
                         ::testing::Combine(::testing::ValuesIn(kSizes),
                                            ::testing::Values(GlColumnMode::transpose, GlColumnMode::strided)),
                         [](const auto& param_info) {
                           return name_of(std::get<0>(param_info.param)) +
                                  (std::get<1>(param_info.param) == GlColumnMode::transpose ? "_transpose" : "_strided");
                         });

TEST(GlBackend, NamesItsDeviceAndListsIt) {
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend);
  EXPECT_EQ(backend->kind(), BackendKind::gl);
  EXPECT_NE(backend->device_name().find("OpenGL"), std::string::npos) << backend->device_name();
  const auto devices = list_gl_devices();
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_TRUE(devices[0].available);
  EXPECT_FALSE(devices[0].name.empty());
}

TEST(GlBackend, ManyWorkGroupsSpreadOverTwoDimensions) {
  // One invocation per group: 320 x 240 needs 76800 groups per dispatch, more than the 65535 a
  // dispatch dimension is guaranteed, so the host spreads them over y (common.glsl flattens).
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend, BackendOptions{}, GlBackendTuning{GlColumnMode::transpose, 1});
  const std::size_t w = 320, h = 240;
  ComplexImage input(w, h);
  input.data = test::to_float(test::random_complex(w * h, 17));
  const ComplexImage out = run_transform(*backend, make_plan_2d(w, h), input, Direction::forward, KernelVariant::fused);
  const auto expected = test::fftw_2d(test::to_double(input.data), w, h, Direction::forward);
  EXPECT_LT(test::relative_l2_error(out.data, expected), test::float_fft_tolerance(w * h));
}

TEST(GlBackend, ThroughMakeBackendAndRoundTrip) {
  std::unique_ptr<Backend> backend;
  try {
    backend = make_backend(BackendKind::gl);
  } catch (const BackendError& e) {
    FFTSCOPE_GPU_UNAVAILABLE(e.what());
  }
  const Plan2D plan = make_plan_2d(40, 24);
  ComplexImage input(40, 24);
  input.data = test::to_float(test::random_complex(40 * 24, 5));
  backend->prepare(plan, KernelVariant::fast);
  backend->upload(input);
  backend->execute(Direction::forward);
  backend->execute(Direction::inverse);
  const ComplexImage back = backend->download();
  EXPECT_LT(test::relative_l2_error(back.data, test::to_double(input.data)), 2 * test::float_fft_tolerance(40 * 24));
}

TEST(GlBackend, TimingRecordsNameEveryDispatch) {
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend);
  const Plan2D plan = make_plan_2d(16, 12);  // rows 4 4, cols 4 3
  ComplexImage input(16, 12);
  input.data = test::to_float(test::random_complex(16 * 12, 1));
  for (KernelVariant variant : {KernelVariant::plain, KernelVariant::fused}) {
    run_transform(*backend, plan, input, Direction::forward, variant);
    backend->download();  // finishes the GPU work, so every query is ready
    // rows: digit_reverse, radix, [twiddle], radix; transpose; cols the same; transpose back.
    const std::size_t expected = variant == KernelVariant::plain ? 10u : 8u;
    std::vector<TimingRecord> records;
    // GPU timer results may arrive a little after the work: poll for up to a second.
    for (int i = 0; i < 1000 && records.size() < expected; ++i) {
      for (auto& r : backend->take_timings()) records.push_back(std::move(r));
      if (records.size() < expected) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_EQ(records.size(), expected) << to_string(variant);
    EXPECT_EQ(records[0].kernel, "digit_reverse");
    EXPECT_EQ(records[0].axis, Axis::rows);
    EXPECT_EQ(records[0].bytes, 16u * 12u * 20u);
    EXPECT_EQ(records[1].kernel, "radix_4_first_stage");
    EXPECT_EQ(records[1].stage, 0);
    EXPECT_EQ(records[1].radix, 4u);
    EXPECT_EQ(records[1].global_size[0], 4u);
    EXPECT_EQ(records[1].global_size[1], 12u);
    EXPECT_EQ(records[2].kernel, variant == KernelVariant::plain ? "twiddle_plain" : "radix_4_fused");
    EXPECT_EQ(records[variant == KernelVariant::plain ? 4 : 3].kernel, "transpose");
    EXPECT_EQ(records.back().kernel, "transpose_back");
    for (const TimingRecord& r : records) {
      EXPECT_GT(r.bytes, 0u) << r.kernel;
      EXPECT_GE(r.milliseconds, 0.0) << r.kernel;
    }
    if (backend->device_name().find("llvmpipe") != std::string::npos) {
      for (const TimingRecord& r : records) EXPECT_TRUE(r.host_measured) << r.kernel;
    }
  }
}

}  // namespace
}  // namespace fftscope
