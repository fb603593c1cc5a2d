// Size rules, windows, padding and synthetic sources, against closed forms and brute force.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/errors.h"
#include "core/preprocess.h"
#include "support/reference.h"

namespace fftscope {
namespace {

bool brute_smooth(std::size_t n) {
  for (std::size_t p = 2; p <= n; ++p) {
    bool prime = true;
    for (std::size_t d = 2; d * d <= p; ++d) prime = prime && (p % d != 0);
    if (prime && n % p == 0 && p > 7) return false;
  }
  return n >= 1;
}

TEST(Preprocess, SmoothSizesMatchBruteForce) {
  for (std::size_t n = 1; n <= 3000; ++n) {
    ASSERT_EQ(is_smooth_2357(n), brute_smooth(n)) << n;
    const std::size_t s = next_smooth_2357(n);
    ASSERT_GE(s, n);
    ASSERT_TRUE(brute_smooth(s)) << n;
    for (std::size_t m = n; m < s; ++m) ASSERT_FALSE(brute_smooth(m)) << "skipped smooth " << m;
  }
  EXPECT_EQ(next_smooth_2357(257), 270u);  // 2 * 3^3 * 5
  EXPECT_THROW(next_smooth_2357(0), UsageError);
}

TEST(Preprocess, PowerOfTwo) {
  EXPECT_EQ(next_power_of_two(1), 1u);
  EXPECT_EQ(next_power_of_two(255), 256u);
  EXPECT_EQ(next_power_of_two(256), 256u);
  EXPECT_EQ(next_power_of_two(257), 512u);
  EXPECT_EQ(padded_size(200, SizeRule::exact), 200u);
  EXPECT_EQ(padded_size(201, SizeRule::smooth), 210u);
  EXPECT_EQ(padded_size(201, SizeRule::power_of_two), 256u);
}

TEST(Preprocess, HannAndTukeyWindows) {
  const std::size_t n = 37;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = (static_cast<double>(i) + 0.5) / n;
    EXPECT_NEAR(window_weight(WindowKind::hann, i, n), 0.5 - 0.5 * std::cos(2 * std::numbers::pi * t), 1e-6);
    // Symmetric about the centre.
    EXPECT_NEAR(window_weight(WindowKind::hann, i, n), window_weight(WindowKind::hann, n - 1 - i, n), 1e-6);
    EXPECT_NEAR(window_weight(WindowKind::tukey, i, n, 0.4f), window_weight(WindowKind::tukey, n - 1 - i, n, 0.4f), 1e-6);
    EXPECT_EQ(window_weight(WindowKind::none, i, n), 1.0f);
    // Tukey with alpha = 1 is the Hann window; alpha = 0 is no window.
    EXPECT_NEAR(window_weight(WindowKind::tukey, i, n, 1.0f), window_weight(WindowKind::hann, i, n), 1e-6);
    EXPECT_EQ(window_weight(WindowKind::tukey, i, n, 0.0f), 1.0f);
  }
  // Tukey: flat in the middle 60% for alpha = 0.4.
  EXPECT_EQ(window_weight(WindowKind::tukey, 50, 100, 0.4f), 1.0f);
  EXPECT_EQ(window_weight(WindowKind::tukey, 25, 100, 0.4f), 1.0f);
  EXPECT_LT(window_weight(WindowKind::tukey, 5, 100, 0.4f), 0.5f);
}

TEST(Preprocess, ApplyWindowIsSeparable) {
  RealImage img(6, 5);
  for (std::size_t i = 0; i < img.data.size(); ++i) img.data[i] = 0.25f + 0.1f * static_cast<float>(i % 7);
  const RealImage w = apply_window(img, WindowKind::hann);
  for (std::size_t y = 0; y < 5; ++y)
    for (std::size_t x = 0; x < 6; ++x)
      EXPECT_NEAR(w.at(x, y), img.at(x, y) * window_weight(WindowKind::hann, x, 6) * window_weight(WindowKind::hann, y, 5), 1e-7);
}

TEST(Preprocess, PadModes) {
  RealImage img(3, 2);
  img.data = {1, 2, 3, 4, 5, 6};
  const RealImage z = pad_image(img, 5, 4, PadMode::zeros);
  EXPECT_EQ(z.at(2, 1), 6.0f);
  EXPECT_EQ(z.at(3, 0), 0.0f);
  EXPECT_EQ(z.at(0, 3), 0.0f);
  const RealImage m = pad_image(img, 5, 4, PadMode::mean);
  EXPECT_FLOAT_EQ(m.at(4, 3), 3.5f);
  EXPECT_FLOAT_EQ(m.at(1, 1), 5.0f);
  const RealImage r = pad_image(img, 8, 5, PadMode::mirror);
  // Row 0 continues 1 2 3 | 3 2 1 | 1 2 (period 6); rows continue 0 1 | 1 0 | 0.
  const float row0[] = {1, 2, 3, 3, 2, 1, 1, 2};
  for (std::size_t x = 0; x < 8; ++x) EXPECT_EQ(r.at(x, 0), row0[x]) << x;
  EXPECT_EQ(r.at(0, 2), 4.0f);
  EXPECT_EQ(r.at(0, 3), 1.0f);
  EXPECT_EQ(r.at(0, 4), 1.0f);
  EXPECT_THROW(pad_image(img, 2, 2, PadMode::zeros), UsageError);
}

TEST(Preprocess, PreprocessSizesAndCrop) {
  RealImage img(201, 97);
  PreprocessSettings s;
  s.size_rule = SizeRule::smooth;
  const RealImage p = preprocess(img, s);
  EXPECT_EQ(p.width, 210u);
  EXPECT_EQ(p.height, 98u);
  ComplexImage c(4, 3);
  for (std::size_t i = 0; i < c.data.size(); ++i) c.data[i] = {static_cast<float>(i), 1.0f};
  const RealImage cr = crop_real(c, 2, 2);
  EXPECT_EQ(cr.width, 2u);
  EXPECT_EQ(cr.at(1, 1), 5.0f);
}

TEST(Preprocess, GratingPutsEnergyAtItsFrequency) {
  // f = 6/64 cycles/pixel at 0 and 90 degrees: the FFTW spectrum has the DC bin and +-6 only.
  for (float angle : {0.0f, 90.0f}) {
    SyntheticSettings s;
    s.width = s.height = 64;
    s.frequency = 6.0f / 64.0f;
    s.angle_degrees = angle;
    const RealImage g = make_synthetic(s);
    std::vector<test::ComplexD> in(g.data.begin(), g.data.end());
    const auto out = test::fftw_2d(in, 64, 64, Direction::forward);
    for (std::size_t y = 0; y < 64; ++y)
      for (std::size_t x = 0; x < 64; ++x) {
        const double mag = std::abs(out[y * 64 + x]);
        const bool dc = x == 0 && y == 0;
        const bool peak = angle == 0.0f ? (y == 0 && (x == 6 || x == 58)) : (x == 0 && (y == 6 || y == 58));
        if (dc) EXPECT_NEAR(mag, 0.5 * 64 * 64, 1e-2);
        else if (peak) EXPECT_NEAR(mag, 0.25 * 64 * 64, 1e-2) << x << "," << y;
        else ASSERT_LT(mag, 1e-3) << x << "," << y;
      }
  }
}

TEST(Preprocess, OtherSynthetics) {
  SyntheticSettings s;
  s.width = 40;
  s.height = 30;
  s.kind = SyntheticKind::impulse;
  s.offset_x = 7;
  s.offset_y = 9;
  RealImage im = make_synthetic(s);
  double sum = 0;
  for (float v : im.data) sum += v;
  EXPECT_EQ(sum, 1.0);
  EXPECT_EQ(im.at(7, 9), 1.0f);
  s.kind = SyntheticKind::rectangle;
  s.offset_x = 20;
  s.offset_y = 15;
  s.rect_width = 10;
  s.rect_height = 4;
  im = make_synthetic(s);
  sum = 0;
  for (float v : im.data) sum += v;
  EXPECT_EQ(sum, 40.0);
  EXPECT_EQ(im.at(15, 13), 1.0f);
  EXPECT_EQ(im.at(14, 13), 0.0f);
  s.kind = SyntheticKind::checkerboard;
  s.cell = 5;
  im = make_synthetic(s);
  EXPECT_EQ(im.at(0, 0), 0.0f);
  EXPECT_EQ(im.at(5, 0), 1.0f);
  EXPECT_EQ(im.at(5, 5), 0.0f);
  s.width = 0;
  EXPECT_THROW(make_synthetic(s), UsageError);
}

TEST(Preprocess, NamesRoundTrip) {
  for (SizeRule r : {SizeRule::exact, SizeRule::smooth, SizeRule::power_of_two}) EXPECT_EQ(parse_size_rule(to_string(r)), r);
  for (PadMode m : {PadMode::zeros, PadMode::mean, PadMode::mirror}) EXPECT_EQ(parse_pad_mode(to_string(m)), m);
  for (WindowKind w : {WindowKind::none, WindowKind::hann, WindowKind::tukey}) EXPECT_EQ(parse_window(to_string(w)), w);
  EXPECT_THROW(parse_window("hamming"), UsageError);
}

}  // namespace
}  // namespace fftscope
