// Filter masks and filtered inverses, against FFTW (double) and closed forms.

#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.h"
#include "core/filter.h"
#include "core/preprocess.h"
#include "support/reference.h"

namespace fftscope {
namespace {

using test::ComplexD;

// The synthetic images are float32, so values leak ~1e-8 into other bins; FFTW itself is double.
constexpr double kTol = 1e-6;

// Forward FFTW, mask, inverse FFTW; returns the real parts (and the largest imaginary part).
std::vector<double> filtered_inverse(const RealImage& img, const RealImage& mask, double* max_imag = nullptr) {
  std::vector<ComplexD> in(img.data.begin(), img.data.end());
  auto spec = test::fftw_2d(in, img.width, img.height, Direction::forward);
  for (std::size_t i = 0; i < spec.size(); ++i) spec[i] *= mask.data[i];
  const auto back = test::fftw_2d(spec, img.width, img.height, Direction::inverse);
  std::vector<double> out(back.size());
  double im = 0;
  for (std::size_t i = 0; i < back.size(); ++i) {
    out[i] = back[i].real();
    im = std::max(im, std::abs(back[i].imag()));
  }
  if (max_imag) *max_imag = im;
  return out;
}

RealImage grating(std::size_t w, std::size_t h, float f, float angle) {
  SyntheticSettings s;
  s.width = w;
  s.height = h;
  s.frequency = f;
  s.angle_degrees = angle;
  return make_synthetic(s);
}

TEST(Filter, BinFrequencies) {
  EXPECT_EQ(bin_frequency(0, 8), 0.0f);
  EXPECT_EQ(bin_frequency(3, 8), 0.375f);
  EXPECT_EQ(bin_frequency(4, 8), 0.5f);
  EXPECT_EQ(bin_frequency(5, 8), -0.375f);
  EXPECT_EQ(bin_frequency(3, 7), 3.0f / 7.0f);
  EXPECT_EQ(bin_frequency(4, 7), -3.0f / 7.0f);
}

TEST(Filter, SoftEdgeIsARaisedCosine) {
  EXPECT_EQ(soft_inside(0.1f, 0.1f, 0.02f), 1.0f);
  EXPECT_NEAR(soft_inside(0.11f, 0.1f, 0.02f), 0.5f, 1e-5);
  EXPECT_NEAR(soft_inside(0.12f, 0.1f, 0.02f), 0.0f, 1e-6);
  EXPECT_EQ(soft_inside(0.1201f, 0.1f, 0.02f), 0.0f);
  EXPECT_EQ(soft_inside(0.1001f, 0.1f, 0.0f), 0.0f);
}

TEST(Filter, LowPassOfGratingAboveCutoffLeavesConstantImage) {
  // 12/64 = 0.1875 cycles/pixel, exactly on a bin; cutoff 0.1 with a soft edge up to 0.12.
  const RealImage g = grating(64, 48, 12.0f / 64.0f, 0.0f);
  FilterSettings s;
  s.preset = FilterPreset::low_pass;
  s.cutoff = 0.1f;
  s.softness = 0.02f;
  double max_imag = 0;
  const auto out = filtered_inverse(g, filter_mask(64, 48, s), &max_imag);
  for (double v : out) ASSERT_NEAR(v, 0.5, kTol);  // the mean of 0.5 + 0.5 cos
  EXPECT_LT(max_imag, 1e-12);
}

TEST(Filter, LowPassKeepsGratingBelowCutoffAndHighPassRemovesIt) {
  const RealImage g = grating(60, 60, 5.0f / 60.0f, 90.0f);  // f = 0.0833 along y
  FilterSettings s;
  s.preset = FilterPreset::low_pass;
  s.cutoff = 0.15f;
  s.softness = 0.01f;
  auto out = filtered_inverse(g, filter_mask(60, 60, s));
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], g.data[i], 1e-6);
  s.preset = FilterPreset::high_pass;
  out = filtered_inverse(g, filter_mask(60, 60, s));
  for (double v : out) ASSERT_NEAR(v, 0.0, kTol);  // the DC is gone too
}

TEST(Filter, HighPassIsOneMinusLowPass) {
  FilterSettings s;
  s.cutoff = 0.2f;
  s.softness = 0.05f;
  s.preset = FilterPreset::low_pass;
  const RealImage lo = filter_mask(33, 20, s);
  s.preset = FilterPreset::high_pass;
  const RealImage hi = filter_mask(33, 20, s);
  for (std::size_t i = 0; i < lo.data.size(); ++i) ASSERT_NEAR(lo.data[i] + hi.data[i], 1.0f, 1e-6);
}

TEST(Filter, NotchRemovesOnlyItsGrating) {
  // Sum of two gratings: 8/64 along x and 20/64 along y; a notch at (0.125, 0) removes the first.
  RealImage a = grating(64, 64, 8.0f / 64.0f, 0.0f), b = grating(64, 64, 20.0f / 64.0f, 90.0f);
  RealImage sum(64, 64);
  for (std::size_t i = 0; i < sum.data.size(); ++i) sum.data[i] = a.data[i] + b.data[i];
  FilterSettings s;
  s.preset = FilterPreset::notch;
  s.notch_fx = 0.125f;
  s.notch_fy = 0.0f;
  s.notch_radius = 0.01f;
  s.softness = 0.005f;
  const auto out = filtered_inverse(sum, filter_mask(64, 64, s));
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], 0.5 + b.data[i], kTol);
}

TEST(Filter, WedgePassesItsOrientationOnly) {
  const RealImage g = grating(64, 64, 8.0f / 64.0f, 90.0f);  // wave vector along y
  FilterSettings s;
  s.preset = FilterPreset::wedge;
  s.softness = 0.0f;
  s.wedge_width_degrees = 20.0f;
  s.wedge_angle_degrees = 90.0f;
  auto out = filtered_inverse(g, filter_mask(64, 64, s));
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], g.data[i], kTol);
  s.wedge_angle_degrees = 0.0f;
  out = filtered_inverse(g, filter_mask(64, 64, s));
  for (double v : out) ASSERT_NEAR(v, 0.5, kTol);  // only the mean survives
  // -90 is the same orientation as +90 (mod 180).
  s.wedge_angle_degrees = -90.0f;
  out = filtered_inverse(g, filter_mask(64, 64, s));
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], g.data[i], kTol);
}

TEST(Filter, MasksAreConjugateSymmetricAndInRange) {
  for (FilterPreset p : {FilterPreset::none, FilterPreset::low_pass, FilterPreset::high_pass, FilterPreset::band_pass,
                         FilterPreset::notch, FilterPreset::wedge}) {
    FilterSettings s;
    s.preset = p;
    s.wedge_angle_degrees = 33.0f;
    s.notch_fx = 0.21f;
    s.notch_fy = -0.13f;
    s.strokes = {{0.1f, 0.3f, 0.05f, false}, {-0.2f, 0.1f, 0.03f, true}, {0.5f, 0.5f, 0.04f, false}};
    for (auto [w, h] : {std::pair<std::size_t, std::size_t>{32, 32}, {31, 24}, {17, 9}}) {
      const RealImage m = filter_mask(w, h, s);
      for (std::size_t y = 0; y < h; ++y)
        for (std::size_t x = 0; x < w; ++x) {
          ASSERT_GE(m.at(x, y), 0.0f);
          ASSERT_LE(m.at(x, y), 1.0f);
          ASSERT_EQ(m.at(x, y), m.at((w - x) % w, (h - y) % h)) << to_string(p) << " " << x << "," << y;
        }
    }
  }
}

TEST(Filter, PaintedStopStrokeIsMirrored) {
  FilterSettings s;
  s.softness = 0.0f;
  s.strokes = {{0.25f, 0.125f, 0.02f, false}};
  const RealImage m = filter_mask(64, 64, s);
  EXPECT_EQ(m.at(16, 8), 0.0f);        // (+0.25, +0.125)
  EXPECT_EQ(m.at(64 - 16, 64 - 8), 0.0f);  // its conjugate
  EXPECT_EQ(m.at(16, 64 - 8), 1.0f);   // (+0.25, -0.125) untouched
  s.preset = FilterPreset::low_pass;
  s.cutoff = 0.05f;
  s.strokes = {{0.25f, 0.125f, 0.02f, true}};
  const RealImage p = filter_mask(64, 64, s);
  EXPECT_EQ(p.at(16, 8), 1.0f);
  EXPECT_EQ(p.at(48, 56), 1.0f);
  EXPECT_EQ(p.at(20, 20), 0.0f);
}

// The mask by its definition, bin by bin and stroke by stroke (filter_mask visits only the bins
// a stroke can reach; it must give the same numbers).
RealImage reference_mask(std::size_t w, std::size_t h, const FilterSettings& s) {
  FilterSettings preset_only = s;
  preset_only.strokes.clear();
  RealImage m = filter_mask(w, h, preset_only);  // symmetrized preset; strokes below are symmetric
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const float fx = bin_frequency(x, w), fy = bin_frequency(y, h);
      float v = m.at(x, y);
      for (const FilterStroke& st : s.strokes) {
        const float d = std::min(std::hypot(fx - st.fx, fy - st.fy), std::hypot(fx + st.fx, fy + st.fy));
        const float wt = soft_inside(d, st.radius, s.softness);
        v = st.pass ? std::max(v, wt) : v * (1.0f - wt);
      }
      m.at(x, y) = v;
    }
  return m;
}

TEST(Filter, StrokesMatchTheirDefinition) {
  std::uint64_t state = 12345;
  auto uniform = [&state](float lo, float hi) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * static_cast<float>(state >> 40) / static_cast<float>(1ULL << 24);
  };
  for (auto [w, h] : {std::pair<std::size_t, std::size_t>{64, 48}, {31, 33}, {16, 16}}) {
    FilterSettings s;
    s.preset = FilterPreset::none;
    s.softness = 0.015f;
    for (int i = 0; i < 40; ++i)
      s.strokes.push_back({uniform(-0.5f, 0.5f), uniform(-0.5f, 0.5f), uniform(0.005f, 0.08f), i % 3 == 0});
    s.strokes.push_back({0.5f, 0.5f, 0.03f, false});  // at the Nyquist corner, its own mirror
    s.strokes.push_back({0.01f, 0.0f, 0.05f, false});  // overlapping its mirror
    const RealImage fast = filter_mask(w, h, s);
    RealImage ref = reference_mask(w, h, s);
    // The reference is not symmetrized at the Nyquist bins; symmetrize it the same way.
    RealImage sym(w, h);
    for (std::size_t y = 0; y < h; ++y)
      for (std::size_t x = 0; x < w; ++x)
        sym.at(x, y) = 0.5f * (ref.at(x, y) + ref.at((w - x) % w, (h - y) % h));
    for (std::size_t i = 0; i < fast.data.size(); ++i) ASSERT_FLOAT_EQ(fast.data[i], sym.data[i]) << i;
  }
}

TEST(Filter, Names) {
  for (FilterPreset p : {FilterPreset::none, FilterPreset::low_pass, FilterPreset::high_pass, FilterPreset::band_pass,
                         FilterPreset::notch, FilterPreset::wedge})
    EXPECT_EQ(parse_filter_preset(to_string(p)), p);
  EXPECT_THROW(parse_filter_preset("gauss"), UsageError);
}

}  // namespace
}  // namespace fftscope
