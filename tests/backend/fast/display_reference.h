#pragma once
// References for the real-input display path (issue 6), shared by test_fast_cl, test_fast_gl and
// test_fast_display: FFTW's r2c in double, and the core's render_spectrum of the full complex
// spectrum, compared pixel by pixel through the colormap's index.

#include <fftw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/spectrum.h"
#include "core/types.h"
#include "support/reference.h"

namespace fftscope::test {

/// A deterministic real image in [-1, 1] plus a bright spot (a realistic dynamic range: a
/// strong DC and low-frequency peak over a noise floor).
inline RealImage random_real_image(std::size_t width, std::size_t height, std::uint64_t seed) {
  RealImage image(width, height);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < width; ++x)
      image.at(x, y) = dist(rng) + ((x / 4 + y / 4) % 2 == 0 ? 1.5f : 0.0f);
  return image;
}

/// FFTW r2c (double): the (W/2 + 1) x H half spectrum, row-major.
inline std::vector<ComplexD> fftw_r2c_2d(const RealImage& image) {
  const std::size_t w = image.width, h = image.height, hw = w / 2 + 1;
  std::vector<double> in(image.data.begin(), image.data.end());
  auto* out = static_cast<fftw_complex*>(fftw_malloc(sizeof(fftw_complex) * hw * h));
  fftw_plan plan = fftw_plan_dft_r2c_2d(static_cast<int>(h), static_cast<int>(w), in.data(), out, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  std::vector<ComplexD> result(hw * h);
  for (std::size_t i = 0; i < result.size(); ++i) result[i] = {out[i][0], out[i][1]};
  fftw_free(out);
  return result;
}

/// The full W x H complex spectrum of a real image (FFTW, double), rounded to float.
inline ComplexImage full_spectrum(const RealImage& image) {
  std::vector<ComplexD> in(image.data.begin(), image.data.end());
  ComplexImage out(image.width, image.height);
  out.data = to_float(fftw_2d(in, image.width, image.height, Direction::forward));
  return out;
}

struct DisplayComparison {
  std::size_t pixels = 0;
  std::size_t differing = 0;   ///< pixels whose colour index differs from the reference
  int max_index_diff = 0;      ///< largest |index difference|; 256 for a colour not in the map
  bool alpha_ok = true;
};

/// Compares two displays drawn with one colormap by each pixel's index in the colormap table.
inline DisplayComparison compare_display(const RgbaImage& got, const RgbaImage& want, Colormap colormap,
                                         bool cyclic = false) {
  std::map<std::array<std::uint8_t, 3>, int> index;
  const auto& table = colormap_table(colormap);
  for (int i = 255; i >= 0; --i) index[table[static_cast<std::size_t>(i)]] = i;
  const auto index_of = [&](const RgbaImage& img, std::size_t p) {
    const auto it = index.find({img.data[4 * p], img.data[4 * p + 1], img.data[4 * p + 2]});
    return it == index.end() ? -1000 : it->second;
  };
  DisplayComparison c;
  EXPECT_EQ(got.width, want.width);
  EXPECT_EQ(got.height, want.height);
  if (got.data.size() != want.data.size()) return c;
  c.pixels = got.width * got.height;
  for (std::size_t p = 0; p < c.pixels; ++p) {
    if (got.data[4 * p + 3] != 255) c.alpha_ok = false;
    const int a = index_of(got, p), b = index_of(want, p);
    int d = (a < 0 || b < 0) ? 256 : std::abs(a - b);
    if (cyclic && d <= 255) d = std::min(d, 256 - d);
    if (d != 0) ++c.differing;
    c.max_index_diff = std::max(c.max_index_diff, d);
  }
  return c;
}

/// The display tolerance: every pixel within one colormap step of the reference, and at most
/// 1% of them off at all. The GPU's bins carry float32 FFT error (relative ~1e-6 of the
/// spectrum's norm), log1p/hypot may differ from the C library by an ulp or two, and the auto
/// range comes from the GPU's own values: t moves by ~1e-6, so only values within that of a
/// rounding boundary of round(255 t) change index — by one.
///
/// Phase is compared cyclically (index 0 and 255 are -pi and pi: a bin that is exactly real and
/// negative lands on either, by the sign of a zero imaginary part) and more loosely: a bin's
/// phase error is its FFT error over its magnitude, so small bins move by a step or two, and a
/// few percent of all bins change index. A sign error in the mirrored half would move most
/// pixels far (index i to 255 - i).
inline void expect_display_close(const RgbaImage& got, const RgbaImage& want, Colormap colormap,
                                 const std::string& what, bool phase = false) {
  const DisplayComparison c = compare_display(got, want, colormap, phase);
  std::fprintf(stderr, "  %s: %zu of %zu pixels differ, max index difference %d\n", what.c_str(), c.differing,
               c.pixels, c.max_index_diff);
  EXPECT_TRUE(c.alpha_ok) << what;
  EXPECT_LE(c.max_index_diff, phase ? 2 : 1) << what;
  EXPECT_LE(c.differing, c.pixels / (phase ? 20 : 100)) << what;
}

/// The settings the display tests run: log magnitude / gray / auto range / shifted (the default
/// view); linear magnitude / viridis / fixed range / gain / unshifted; signed log of the real
/// part / inferno / auto range.
inline std::vector<std::pair<std::string, SpectrumSettings>> display_settings_cases(float fixed_hi) {
  std::vector<std::pair<std::string, SpectrumSettings>> cases;
  SpectrumSettings a;
  cases.emplace_back("log-magnitude gray auto shift", a);
  SpectrumSettings b;
  b.scale = SpectrumScale::linear;
  b.colormap = Colormap::viridis;
  b.auto_range = false;
  b.range_min = 0.0f;
  b.range_max = fixed_hi;
  b.gain = 1.5f;
  b.shift = false;
  cases.emplace_back("linear-magnitude viridis fixed gain 1.5 unshifted", b);
  SpectrumSettings c;
  c.component = SpectrumComponent::real;
  c.colormap = Colormap::inferno;
  cases.emplace_back("log-real inferno auto shift", c);
  // The Hermitian mirrors hold conj(x): imaginary part and phase change sign there.
  SpectrumSettings d;
  d.component = SpectrumComponent::imaginary;
  d.scale = SpectrumScale::linear;
  cases.emplace_back("linear-imaginary gray auto shift", d);
  SpectrumSettings e;
  e.component = SpectrumComponent::phase;
  e.colormap = Colormap::viridis;
  cases.emplace_back("phase viridis auto shift", e);
  return cases;
}

/// A random w x h image's display under every display setting (display_settings_cases) against
/// render_spectrum of its FFTW spectrum. `display` is either API's, prepared for w x h: it takes
/// the image by upload(), draws one setting by `draw(settings)` and gives its pixels by
/// download_rgba().
template <class Display, class Draw>
void expect_every_setting_matches(Display& display, std::size_t w, std::size_t h, std::uint64_t seed, Draw draw) {
  const RealImage image = random_real_image(w, h, seed);
  display.upload(image);
  const ComplexImage spectrum = full_spectrum(image);
  for (const auto& [name, settings] : display_settings_cases(0.25f * std::abs(spectrum.data[0]))) {
    draw(settings);
    expect_display_close(display.download_rgba(), render_spectrum(spectrum, settings), settings.colormap,
                         std::to_string(w) + "x" + std::to_string(h) + " " + name + " " + display.describe(),
                         settings.component == SpectrumComponent::phase);
  }
}

}  // namespace fftscope::test
