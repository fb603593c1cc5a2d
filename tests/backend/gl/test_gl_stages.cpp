// Stage by stage: the GL buffer after stage K of the rows or the columns equals the CPU
// pipeline's buffer (cpu::transform_2d with the same StageStop), for every K, every kernel
// variant, both directions and both column strategies.
#include <gtest/gtest.h>

#include "core/cpu_fft.h"
#include "gl_test_util.h"
#include "support/reference.h"

namespace fftscope {
namespace {

void check_every_stage(Backend& backend, std::size_t w, std::size_t h) {
  const Plan2D plan = make_plan_2d(w, h);
  const bool bluestein = plan.rows.uses_bluestein() || plan.cols.uses_bluestein();
  ComplexImage input(w, h);
  input.data = test::to_float(test::random_complex(w * h, 99));
  for (KernelVariant variant : {KernelVariant::plain, KernelVariant::optimized, KernelVariant::fused}) {
    for (Direction d : {Direction::forward, Direction::inverse}) {
      for (Axis axis : {Axis::rows, Axis::cols}) {
        const int stages = static_cast<int>((axis == Axis::rows ? plan.rows : plan.cols).stage_count());
        for (int k = 0; k <= stages; ++k) {
          const StageStop stop{axis, k};
          const ComplexImage out = run_transform(backend, plan, input, d, variant, stop);
          ComplexImage expected = input;
          cpu::transform_2d(plan, d, expected, stop, 1);
          const std::string what = std::to_string(w) + "x" + std::to_string(h) + " " + to_string(variant) + " " +
                                   to_string(d) + " " + to_string(axis) + " K=" + std::to_string(k);
          if (axis == Axis::rows && k == 0) {
            // The digit-reverse gather alone moves values without arithmetic: bit-exact.
            EXPECT_EQ(out.data, expected.data) << what;
          } else {
            EXPECT_LT(test::relative_l2_error(out.data, test::to_double(expected.data)),
                      test::float_fft_tolerance(w * h, bluestein))
                << what;
          }
        }
      }
    }
  }
}

TEST(GlStages, EveryStageOfMixedRadixPlan) {
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend);
  check_every_stage(*backend, 24, 40);  // rows 4 2 3, cols 4 2 5
}

TEST(GlStages, EveryStageWithGenericRadixAndBluestein) {
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend);
  check_every_stage(*backend, 34, 21);  // rows 2 17 (Bluestein), cols 3 7
}

TEST(GlStages, EveryStageWithStridedColumns) {
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend, BackendOptions{}, GlBackendTuning{GlColumnMode::strided, 64});
  check_every_stage(*backend, 22, 26);  // rows 2 11, cols 2 13
}

}  // namespace
}  // namespace fftscope
