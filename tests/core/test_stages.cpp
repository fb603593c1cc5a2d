// Stage by stage: after K radix stages of decimation in time, each block of P = r0 ... r_{K-1}
// positions q P ... q P + P - 1 holds, in natural order, the (unscaled) length-P DFT of the
// decimated input x[sigma_q + (N / P) m], m = 0..P-1, where sigma_q is the digit-reverse of the
// block's first position. Checked against FFTW for every K, both axes, both directions.
#include <gtest/gtest.h>

#include "core/cpu_fft.h"
#include "support/reference.h"

namespace fftscope {
namespace {

using test::ComplexD;

// sigma for position n from the closed form of the digit reverse (independent of the plan's table).
std::size_t closed_form_source(std::size_t n, const std::vector<std::uint32_t>& radices, std::size_t total) {
  std::size_t k = 0, prefix = 1;
  for (auto r : radices) {
    prefix *= r;
    k += (n % r) * (total / prefix);
    n /= r;
  }
  return k;
}

// The expected buffer of one length-N row after K stages.
std::vector<ComplexD> expected_after_stage(const std::vector<ComplexD>& x, const Plan1D& plan, int k,
                                           Direction direction) {
  const std::size_t n = x.size();
  const auto radices = plan.radices();
  std::size_t p = 1;
  for (int s = 0; s < k; ++s) p *= radices[s];
  std::vector<ComplexD> out(n);
  for (std::size_t q = 0; q < n / p; ++q) {
    const std::size_t sigma = closed_form_source(q * p, radices, n);
    std::vector<ComplexD> sub(p);
    for (std::size_t m = 0; m < p; ++m) sub[m] = x[sigma + (n / p) * m];
    auto f = test::fftw_1d(sub, direction);
    const bool full = k == static_cast<int>(radices.size());
    // fftw_1d scales the inverse by 1/P; the pipeline scales by 1/N only once all stages ran.
    const double scale = direction == Direction::inverse ? (full ? 1.0 : static_cast<double>(p)) : 1.0;
    for (std::size_t m = 0; m < p; ++m) out[q * p + m] = f[m] * scale;
  }
  return out;
}

TEST(Stages, EveryStageOfOneRowMatchesTheDecimatedDfts) {
  for (std::size_t n : {8, 12, 60, 64, 210, 2 * 17 * 3, 4096, 2310}) {
    for (std::uint32_t max_p2 : {2u, 4u, 8u}) {
      const Plan1D plan = make_plan(n, {max_p2});
      const auto x = test::to_float(test::random_complex(n, n));
      for (Direction d : {Direction::forward, Direction::inverse}) {
        for (int k = 0; k <= static_cast<int>(plan.stage_count()); ++k) {
          std::vector<Complex> data = x, scratch(n);
          cpu::transform_row<float>(plan, d, data.data(), scratch.data(), k);
          const auto expected = expected_after_stage(test::to_double(x), plan, k, d);
          EXPECT_LT(test::relative_l2_error(data, expected), test::float_fft_tolerance(n, plan.uses_bluestein()))
              << "n=" << n << " max=" << max_p2 << " K=" << k << " " << to_string(d);
        }
      }
    }
  }
}

TEST(Stages, TwoDimensionalStopsOnRowsAndColumns) {
  const std::size_t w = 24, h = 10;
  const Plan2D plan = make_plan_2d(w, h);
  const auto x = test::to_float(test::random_complex(w * h, 5));
  for (Direction d : {Direction::forward, Direction::inverse}) {
    for (Axis axis : {Axis::rows, Axis::cols}) {
      const Plan1D& axis_plan = axis == Axis::rows ? plan.rows : plan.cols;
      for (int k = 0; k <= static_cast<int>(axis_plan.stage_count()); ++k) {
        ComplexImage image(w, h);
        image.data = x;
        cpu::transform_2d(plan, d, image, StageStop{axis, k}, 2);

        // Independent: rows fully by FFTW when stopping on columns, then each line's expectation.
        std::vector<ComplexD> base = test::to_double(x);
        if (axis == Axis::cols) {
          for (std::size_t y = 0; y < h; ++y) {
            std::vector<ComplexD> row(base.begin() + y * w, base.begin() + (y + 1) * w);
            const auto f = test::fftw_1d(row, d);
            std::copy(f.begin(), f.end(), base.begin() + y * w);
          }
        }
        std::vector<ComplexD> expected(w * h);
        if (axis == Axis::rows) {
          for (std::size_t y = 0; y < h; ++y) {
            std::vector<ComplexD> row(base.begin() + y * w, base.begin() + (y + 1) * w);
            const auto e = expected_after_stage(row, plan.rows, k, d);
            std::copy(e.begin(), e.end(), expected.begin() + y * w);
          }
        } else {
          for (std::size_t xi = 0; xi < w; ++xi) {
            std::vector<ComplexD> col(h);
            for (std::size_t y = 0; y < h; ++y) col[y] = base[y * w + xi];
            const auto e = expected_after_stage(col, plan.cols, k, d);
            for (std::size_t y = 0; y < h; ++y) expected[y * w + xi] = e[y];
          }
        }
        EXPECT_LT(test::relative_l2_error(image.data, expected), test::float_fft_tolerance(w * h))
            << to_string(axis) << " K=" << k << " " << to_string(d);
      }
    }
  }
}

}  // namespace
}  // namespace fftscope
