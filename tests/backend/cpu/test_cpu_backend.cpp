// The CPU backend through the Backend interface: whole transforms against FFTW, stage stops
// against the core pipeline, and one timing record per execute.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "support/reference.h"

namespace fftscope {
namespace {

TEST(CpuBackend, TransformsMatchFftw) {
  auto backend = make_backend(BackendKind::cpu);
  ASSERT_EQ(backend->kind(), BackendKind::cpu);
  for (auto [w, h] : {std::pair<std::size_t, std::size_t>{64, 32}, {30, 17}, {1, 5}}) {
    ComplexImage input(w, h);
    input.data = test::to_float(test::random_complex(w * h, 11));
    const Plan2D plan = make_plan_2d(w, h);
    for (Direction d : {Direction::forward, Direction::inverse}) {
      const ComplexImage out = run_transform(*backend, plan, input, d);
      const auto expected = test::fftw_2d(test::to_double(input.data), w, h, d);
      EXPECT_LT(test::relative_l2_error(out.data, expected),
                test::float_fft_tolerance(w * h, plan.rows.uses_bluestein() || plan.cols.uses_bluestein()));
    }
    const auto timings = backend->take_timings();
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_EQ(timings[1].execution, timings[0].execution + 1);
    EXPECT_TRUE(timings[0].host_measured);
    EXPECT_EQ(timings[0].bytes, w * h * sizeof(Complex) * 4);
    EXPECT_TRUE(backend->take_timings().empty());
  }
}

TEST(CpuBackend, StageStopEqualsCorePipeline) {
  auto backend = make_backend(BackendKind::cpu);
  const Plan2D plan = make_plan_2d(12, 20);
  ComplexImage input(12, 20);
  input.data = test::to_float(test::random_complex(12 * 20, 3));
  for (Axis axis : {Axis::rows, Axis::cols}) {
    for (int k = 0; k <= 2; ++k) {
      const ComplexImage out = run_transform(*backend, plan, input, Direction::forward, KernelVariant::fused, {axis, k});
      ComplexImage expected = input;
      cpu::transform_2d(plan, Direction::forward, expected, {axis, k}, 1);
      EXPECT_EQ(out.data, expected.data) << to_string(axis) << " K=" << k;
    }
  }
}

TEST(CpuBackend, NamesParseAndRoundTrip) {
  for (BackendKind k : {BackendKind::cpu, BackendKind::gl, BackendKind::cl}) EXPECT_EQ(parse_backend(to_string(k)), k);
  for (KernelVariant v : {KernelVariant::plain, KernelVariant::optimized, KernelVariant::fused, KernelVariant::fast})
    EXPECT_EQ(parse_variant(to_string(v)), v);
  EXPECT_ANY_THROW(parse_backend("vulkan"));
  EXPECT_FALSE(list_devices().empty());
}

}  // namespace
}  // namespace fftscope
