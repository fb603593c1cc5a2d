// The CPU stage pipeline against FFTW in double precision.
// Bound: relative L2 error <= 4 eps (log2 N + 1), eps = 2^-24 (x4 where a Bluestein stage runs).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/cpu_fft.h"
#include "support/reference.h"

namespace fftscope {
namespace {

using test::ComplexD;

// Runs the float pipeline on float-rounded data and compares with FFTW on the same rounded data,
// so the input's rounding is not counted as transform error.
double error_1d(std::size_t n, Direction direction, PlanOptions options = {}, std::uint64_t seed = 1) {
  const std::vector<Complex> x = test::to_float(test::random_complex(n, seed + n));
  const auto expected = test::fftw_1d(test::to_double(x), direction);
  const Plan1D plan = make_plan(n, options);
  std::vector<Complex> data = x, scratch(n);
  cpu::transform_row<float>(plan, direction, data.data(), scratch.data());
  return test::relative_l2_error(data, expected);
}

bool has_bluestein(std::size_t n) { return make_plan(n).uses_bluestein(); }

TEST(CpuFft, EveryLengthUpTo1024BothDirections) {
  for (std::size_t n = 1; n <= 1024; ++n) {
    for (Direction d : {Direction::forward, Direction::inverse}) {
      const double err = error_1d(n, d);
      ASSERT_LT(err, test::float_fft_tolerance(n, has_bluestein(n))) << "n=" << n << " " << to_string(d);
    }
  }
}

TEST(CpuFft, EveryPowerOfTwoRadixChoice) {
  for (std::uint32_t max_p2 : {2u, 4u, 8u})
    for (std::size_t n : {2, 4, 8, 16, 32, 64, 512, 2048, 4096, 6 * 8 * 8}) {
      ASSERT_LT(error_1d(n, Direction::forward, {max_p2}), test::float_fft_tolerance(n)) << n << " max " << max_p2;
      ASSERT_LT(error_1d(n, Direction::inverse, {max_p2}), test::float_fft_tolerance(n)) << n << " max " << max_p2;
    }
}

class CpuFftLarge : public ::testing::TestWithParam<std::size_t> {};

TEST_P(CpuFftLarge, MatchesFftw) {
  const std::size_t n = GetParam();
  for (Direction d : {Direction::forward, Direction::inverse})
    EXPECT_LT(error_1d(n, d), test::float_fft_tolerance(n, has_bluestein(n))) << "n=" << n << " " << to_string(d);
}

INSTANTIATE_TEST_SUITE_P(PowersOfTwo, CpuFftLarge,
                         ::testing::Values(2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576));
INSTANTIATE_TEST_SUITE_P(Smooth, CpuFftLarge,
                         ::testing::Values(1260, 2310, 3000, 4725, 10080, 30030, 44100, 48000, 65520, 100000, 2187,
                                           2401, 3125, 1920, 1080, 1000, 4000));
INSTANTIATE_TEST_SUITE_P(PrimesAndNearPrimes, CpuFftLarge,
                         ::testing::Values(1031, 2039, 4093, 4099, 8191, 65537, 2 * 1031, 3 * 4099, 1024 * 17,
                                           1021 * 1031, 7919));

TEST(CpuFft, TwoDimensionalNonSquare) {
  for (auto [w, h] : {std::pair<std::size_t, std::size_t>{1, 1}, {1, 7}, {9, 1}, {16, 8}, {12, 20}, {30, 17},
                      {64, 48}, {101, 37}, {256, 128}, {320, 200}}) {
    const std::vector<Complex> x = test::to_float(test::random_complex(w * h, w * 1000 + h));
    for (Direction d : {Direction::forward, Direction::inverse}) {
      ComplexImage image(w, h);
      image.data = x;
      cpu::transform_2d(make_plan_2d(w, h), d, image, StageStop::done(), 2);
      const auto expected = test::fftw_2d(test::to_double(x), w, h, d);
      const bool blue = has_bluestein(w) || has_bluestein(h);
      EXPECT_LT(test::relative_l2_error(image.data, expected), test::float_fft_tolerance(w * h, blue))
          << w << "x" << h << " " << to_string(d);
    }
  }
}

TEST(CpuFft, FftwAgreesWithBruteForce) {
  // The reference itself, checked once against the O(n^2) definition in long double.
  for (std::size_t n : {1, 2, 3, 7, 16, 17, 60}) {
    const auto x = test::random_complex(n, n);
    EXPECT_LT(test::relative_l2_error(test::fftw_1d(x, Direction::forward), test::brute_force_dft(x, Direction::forward)),
              1e-13);
  }
}

TEST(CpuFft, DoublePrecisionPipeline) {
  for (std::size_t n : {60, 97, 1024, 3 * 1009}) {
    auto x = test::random_complex(n, 7);
    const auto expected = test::fftw_1d(x, Direction::forward);
    std::vector<ComplexD> scratch(n);
    cpu::transform_row<double>(make_plan(n), Direction::forward, x.data(), scratch.data());
    EXPECT_LT(test::relative_l2_error(x, expected), 1e-13 * std::log2(n)) << n;
  }
}

// FFTW's self-test properties: linearity, impulse response, time shift.
TEST(CpuFft, Linearity) {
  for (std::size_t n : {12, 97, 256, 1000}) {
    const auto a = test::to_float(test::random_complex(n, 1)), b = test::to_float(test::random_complex(n, 2));
    const Complex alpha(0.7f, -0.3f), beta(-1.1f, 0.4f);
    std::vector<Complex> mix(n);
    for (std::size_t i = 0; i < n; ++i) mix[i] = alpha * a[i] + beta * b[i];
    const auto fa = cpu::fft(a), fb = cpu::fft(b), fmix = cpu::fft(mix);
    std::vector<ComplexD> combined(n);
    for (std::size_t i = 0; i < n; ++i) combined[i] = ComplexD(alpha) * ComplexD(fa[i]) + ComplexD(beta) * ComplexD(fb[i]);
    EXPECT_LT(test::relative_l2_error(fmix, combined), 4 * test::float_fft_tolerance(n, has_bluestein(n))) << n;
  }
}

TEST(CpuFft, ImpulseResponse) {
  for (std::size_t n : {1, 5, 64, 210, 1009}) {
    for (std::size_t t0 : {std::size_t{0}, n / 3}) {
      std::vector<Complex> x(n, 0.0f);
      x[t0] = 1.0f;
      const auto f = cpu::fft(x);
      std::vector<ComplexD> expected(n);
      for (std::size_t k = 0; k < n; ++k)
        expected[k] = std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>((k * t0) % n) / static_cast<double>(n));
      EXPECT_LT(test::max_abs_error(f, expected), 1e-5) << n << " t0=" << t0;
    }
  }
}

TEST(CpuFft, TimeShiftMultipliesByAPhaseRamp) {
  for (std::size_t n : {16, 45, 128, 1031}) {
    const auto x = test::to_float(test::random_complex(n, 3));
    const std::size_t shift = n / 4 + 1;
    std::vector<Complex> shifted(n);
    for (std::size_t i = 0; i < n; ++i) shifted[(i + shift) % n] = x[i];
    const auto fx = cpu::fft(x), fs = cpu::fft(shifted);
    std::vector<ComplexD> expected(n);
    for (std::size_t k = 0; k < n; ++k)
      expected[k] = ComplexD(fx[k]) * std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>((k * shift) % n) / static_cast<double>(n));
    EXPECT_LT(test::relative_l2_error(fs, expected), 4 * test::float_fft_tolerance(n, has_bluestein(n))) << n;
  }
}

TEST(CpuFft, RoundTripIsIdentity) {
  for (std::size_t n : {1, 2, 3, 100, 1024, 4099}) {
    const auto x = test::to_float(test::random_complex(n, 4));
    const auto back = cpu::fft(cpu::fft(x, Direction::forward), Direction::inverse);
    EXPECT_LT(test::relative_l2_error(back, test::to_double(x)), 2 * test::float_fft_tolerance(n, has_bluestein(n))) << n;
  }
}

}  // namespace
}  // namespace fftscope
