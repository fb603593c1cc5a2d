// Spectrum helpers against closed forms and hand-computed values.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/errors.h"
#include "core/spectrum.h"

namespace fftscope {
namespace {

// numpy.fft.fftfreq numerator: the signed frequency of unshifted bin k of a length-n DFT.
long signed_frequency(std::size_t k, std::size_t n) {
  return k < (n + 1) / 2 ? static_cast<long>(k) : static_cast<long>(k) - static_cast<long>(n);
}

ComplexImage index_image(std::size_t w, std::size_t h) {
  ComplexImage image(w, h);
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) image.at(x, y) = Complex(static_cast<float>(x), static_cast<float>(y));
  return image;
}

TEST(Fftshift, MatchesNumpyExamples) {
  // numpy: fftshift(arange(5)) = [3 4 0 1 2], fftshift(arange(6)) = [3 4 5 0 1 2],
  //        ifftshift(arange(5)) = [2 3 4 0 1].
  const std::size_t odd[] = {3, 4, 0, 1, 2}, even[] = {3, 4, 5, 0, 1, 2}, iodd[] = {2, 3, 4, 0, 1};
  const ComplexImage a5 = fftshift(index_image(5, 1)), a6 = fftshift(index_image(6, 1));
  const ComplexImage i5 = ifftshift(index_image(5, 1));
  for (std::size_t j = 0; j < 5; ++j) EXPECT_EQ(a5.at(j, 0).real(), static_cast<float>(odd[j])) << j;
  for (std::size_t j = 0; j < 6; ++j) EXPECT_EQ(a6.at(j, 0).real(), static_cast<float>(even[j])) << j;
  for (std::size_t j = 0; j < 5; ++j) EXPECT_EQ(i5.at(j, 0).real(), static_cast<float>(iodd[j])) << j;
}

TEST(Fftshift, OrdersFrequenciesAscendingWithZeroAtCentre) {
  for (std::size_t n = 1; n <= 33; ++n) {
    for (std::size_t k = 0; k < n; ++k) {
      // After the shift, output position j holds frequency j - n/2 (n/2 rounded down).
      const std::size_t j = fftshift_index(k, n);
      EXPECT_EQ(signed_frequency(k, n), static_cast<long>(j) - static_cast<long>(n / 2)) << "n=" << n << " k=" << k;
      EXPECT_EQ(ifftshift_index(j, n), k) << "n=" << n << " k=" << k;
    }
  }
}

TEST(Fftshift, TwoDimensionalDcAtCentreAndRoundTrip) {
  const std::pair<std::size_t, std::size_t> sizes[] = {{1, 1}, {2, 2}, {5, 3}, {4, 7}, {8, 8}, {9, 9}, {320, 200}, {255, 17}};
  for (auto [w, h] : sizes) {
    const ComplexImage in = index_image(w, h);
    const ComplexImage shifted = fftshift(in);
    EXPECT_EQ(shifted.at(w / 2, h / 2), Complex(0, 0)) << w << "x" << h;  // DC (0,0) at (w/2, h/2)
    for (std::size_t y = 0; y < h; ++y)
      for (std::size_t x = 0; x < w; ++x) {
        const Complex v = shifted.at(x, y);  // holds input (v.re, v.im): its frequencies are x - w/2, y - h/2
        ASSERT_EQ(signed_frequency(static_cast<std::size_t>(v.real()), w), static_cast<long>(x) - static_cast<long>(w / 2));
        ASSERT_EQ(signed_frequency(static_cast<std::size_t>(v.imag()), h), static_cast<long>(y) - static_cast<long>(h / 2));
      }
    EXPECT_EQ(ifftshift(shifted).data, in.data) << w << "x" << h;
    EXPECT_EQ(fftshift(ifftshift(in)).data, in.data) << w << "x" << h;
    RealImage real(w, h);
    for (std::size_t i = 0; i < real.data.size(); ++i) real.data[i] = in.data[i].real() + 1000.0f * in.data[i].imag();
    const RealImage rs = fftshift(real);
    for (std::size_t i = 0; i < rs.data.size(); ++i)
      EXPECT_EQ(rs.data[i], shifted.data[i].real() + 1000.0f * shifted.data[i].imag());
  }
}

// The GPU range reductions' first pass: a group per 16 values a work-item, 1 to 1024 groups.
TEST(RangeReduceGroups, SixteenValuesPerWorkItemAtMost1024Groups) {
  EXPECT_EQ(range_reduce_groups(1, 256), 1u);
  EXPECT_EQ(range_reduce_groups(256 * 16, 256), 1u);
  EXPECT_EQ(range_reduce_groups(256 * 16 + 1, 256), 2u);
  EXPECT_EQ(range_reduce_groups(4096ull * 4096, 256), 1024u);
  EXPECT_EQ(range_reduce_groups(1000ull * 1000, 256), 245u);  // ceil(1e6 / 4096)
}

TEST(SpectrumValue, Components) {
  const Complex x(3.0f, -4.0f);
  EXPECT_FLOAT_EQ(spectrum_value(x, SpectrumComponent::magnitude, SpectrumScale::linear), 5.0f);
  EXPECT_FLOAT_EQ(spectrum_value(x, SpectrumComponent::magnitude, SpectrumScale::log), std::log(6.0f));
  EXPECT_FLOAT_EQ(spectrum_value(x, SpectrumComponent::real, SpectrumScale::linear), 3.0f);
  EXPECT_FLOAT_EQ(spectrum_value(x, SpectrumComponent::real, SpectrumScale::log), std::log(4.0f));
  EXPECT_FLOAT_EQ(spectrum_value(x, SpectrumComponent::imaginary, SpectrumScale::linear), -4.0f);
  EXPECT_FLOAT_EQ(spectrum_value(x, SpectrumComponent::imaginary, SpectrumScale::log), -std::log(5.0f));
  EXPECT_FLOAT_EQ(spectrum_value(x, SpectrumComponent::phase, SpectrumScale::log), std::atan2(-4.0f, 3.0f));
  EXPECT_FLOAT_EQ(spectrum_value(Complex(-1, 0), SpectrumComponent::phase, SpectrumScale::linear), std::numbers::pi_v<float>);
  EXPECT_FLOAT_EQ(spectrum_value(Complex(0, 2), SpectrumComponent::phase, SpectrumScale::linear), std::numbers::pi_v<float> / 2);
  EXPECT_FLOAT_EQ(spectrum_value(x, SpectrumComponent::phase_hue, SpectrumScale::log), std::log(6.0f));
}

TEST(SpectrumValues, ShiftPlacesDcAtCentre) {
  ComplexImage s(3, 2);
  s.at(0, 0) = Complex(7, 0);
  SpectrumSettings settings;
  settings.scale = SpectrumScale::linear;
  RealImage v = spectrum_values(s, settings);
  EXPECT_FLOAT_EQ(v.at(1, 1), 7.0f);
  EXPECT_FLOAT_EQ(v.at(0, 0), 0.0f);
  settings.shift = false;
  v = spectrum_values(s, settings);
  EXPECT_FLOAT_EQ(v.at(0, 0), 7.0f);
  EXPECT_FLOAT_EQ(v.at(1, 1), 0.0f);
}

TEST(SpectrumRange, AutoSkipsNonFiniteAndManualIsPassedThrough) {
  RealImage v(4, 1);
  v.data = {2.0f, -1.0f, INFINITY, NAN};
  SpectrumSettings settings;
  EXPECT_EQ(spectrum_range(v, settings), std::make_pair(-1.0f, 2.0f));
  settings.auto_range = false;
  settings.range_min = 0.25f;
  settings.range_max = 9.0f;
  EXPECT_EQ(spectrum_range(v, settings), std::make_pair(0.25f, 9.0f));
  RealImage none(1, 1);
  none.data = {NAN};
  EXPECT_EQ(spectrum_range(none, SpectrumSettings{}), std::make_pair(0.0f, 0.0f));
}

std::array<std::uint8_t, 3> pixel(const RgbaImage& img, std::size_t x, std::size_t y) {
  const std::size_t i = 4 * (y * img.width + x);
  EXPECT_EQ(img.data[i + 3], 255);
  return {img.data[i], img.data[i + 1], img.data[i + 2]};
}
using Rgb = std::array<std::uint8_t, 3>;

TEST(RenderSpectrum, LinearGrayByHand) {
  ComplexImage s(4, 1);
  s.data = {Complex(0, 0), Complex(0, 1), Complex(-2, 0), Complex(0, -4)};  // |x| = 0, 1, 2, 4
  SpectrumSettings settings;
  settings.shift = false;
  settings.scale = SpectrumScale::linear;
  RgbaImage img = render_spectrum(s, settings);
  // t = |x| / 4 = 0, 0.25, 0.5, 1 -> round(255 t) = 0, 64, 128, 255
  EXPECT_EQ(pixel(img, 0, 0), (Rgb{0, 0, 0}));
  EXPECT_EQ(pixel(img, 1, 0), (Rgb{64, 64, 64}));
  EXPECT_EQ(pixel(img, 2, 0), (Rgb{128, 128, 128}));
  EXPECT_EQ(pixel(img, 3, 0), (Rgb{255, 255, 255}));
  settings.gain = 2.0f;  // t = 0, 0.5, 1, 1 (clamped)
  img = render_spectrum(s, settings);
  EXPECT_EQ(pixel(img, 1, 0), (Rgb{128, 128, 128}));
  EXPECT_EQ(pixel(img, 2, 0), (Rgb{255, 255, 255}));
  settings.gain = 1.0f;
  settings.auto_range = false;
  settings.range_min = 1.0f;
  settings.range_max = 3.0f;  // t = (|x| - 1) / 2 = 0 (clamped), 0, 0.5, 1
  img = render_spectrum(s, settings);
  EXPECT_EQ(pixel(img, 0, 0), (Rgb{0, 0, 0}));
  EXPECT_EQ(pixel(img, 2, 0), (Rgb{128, 128, 128}));
  EXPECT_EQ(pixel(img, 3, 0), (Rgb{255, 255, 255}));
}

TEST(RenderSpectrum, LogShiftedViridis) {
  // 2x1: DC = e - 1 (log1p -> 1), other bin 0. Shifted, the DC moves to x = 1.
  ComplexImage s(2, 1);
  s.data = {Complex(std::numbers::e_v<float> - 1.0f, 0), Complex(0, 0)};
  SpectrumSettings settings;
  settings.colormap = Colormap::viridis;
  const RgbaImage img = render_spectrum(s, settings);
  EXPECT_EQ(pixel(img, 1, 0), (Rgb{253, 231, 37}));  // viridis(1) = #fde725
  EXPECT_EQ(pixel(img, 0, 0), (Rgb{68, 1, 84}));     // viridis(0) = #440154
}

TEST(RenderSpectrum, ConstantImageIsBlack) {
  ComplexImage s(3, 3);
  for (auto& v : s.data) v = Complex(2, 0);
  const RgbaImage img = render_spectrum(s, SpectrumSettings{});
  for (std::size_t y = 0; y < 3; ++y)
    for (std::size_t x = 0; x < 3; ++x) EXPECT_EQ(pixel(img, x, y), (Rgb{0, 0, 0}));
}

TEST(RenderSpectrum, PhaseHue) {
  ComplexImage s(3, 1);
  s.data = {Complex(0, 0), Complex(1, 0), Complex(-1, 0)};
  SpectrumSettings settings;
  settings.shift = false;
  settings.component = SpectrumComponent::phase_hue;
  const RgbaImage img = render_spectrum(s, settings);
  // Brightness t from log1p|x| = 0, log 2, log 2 -> 0, 1, 1. Hue (arg + pi) / 2pi = 0.5 (cyan), 1 (= 0, red).
  EXPECT_EQ(pixel(img, 0, 0), (Rgb{0, 0, 0}));
  EXPECT_EQ(pixel(img, 1, 0), (Rgb{0, 255, 255}));
  EXPECT_EQ(pixel(img, 2, 0), (Rgb{255, 0, 0}));
  settings.shift = true;  // 3 -> positions: bin 0 at 1, bin 1 at 2, bin 2 at 0
  const RgbaImage shifted = render_spectrum(s, settings);
  EXPECT_EQ(pixel(shifted, 1, 0), (Rgb{0, 0, 0}));
  EXPECT_EQ(pixel(shifted, 2, 0), (Rgb{0, 255, 255}));
  EXPECT_EQ(pixel(shifted, 0, 0), (Rgb{255, 0, 0}));
}

TEST(Colormap, PublishedEndpoints) {
  // Endpoints as published with matplotlib (hex colours of t = 0 and t = 1).
  EXPECT_EQ(colormap_table(Colormap::viridis)[0], (Rgb{0x44, 0x01, 0x54}));
  EXPECT_EQ(colormap_table(Colormap::viridis)[255], (Rgb{0xfd, 0xe7, 0x25}));
  EXPECT_EQ(colormap_table(Colormap::inferno)[0], (Rgb{0x00, 0x00, 0x04}));
  EXPECT_EQ(colormap_table(Colormap::inferno)[255], (Rgb{0xfc, 0xff, 0xa4}));
  EXPECT_EQ(colormap_table(Colormap::magma)[0], (Rgb{0x00, 0x00, 0x04}));
  EXPECT_EQ(colormap_table(Colormap::magma)[255], (Rgb{0xfc, 0xfd, 0xbf}));
  for (std::size_t i = 0; i < 256; ++i) {
    const auto v = static_cast<std::uint8_t>(i);
    EXPECT_EQ(colormap_table(Colormap::gray)[i], (Rgb{v, v, v}));
  }
}

double luminance(const Rgb& c) { return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; }

TEST(Colormap, SequentialMapsGetBrighterAndTwilightIsCyclic) {
  for (Colormap map : {Colormap::gray, Colormap::viridis, Colormap::inferno, Colormap::magma}) {
    const auto& table = colormap_table(map);
    for (std::size_t i = 8; i < 256; i += 8)
      EXPECT_GT(luminance(table[i]), luminance(table[i - 8])) << to_string(map) << " at " << i;
  }
  const auto& tw = colormap_table(Colormap::twilight);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(tw[0][c], tw[255][c], 3) << c;  // starts and ends on one colour
  EXPECT_LT(luminance(tw[128]), luminance(tw[0]) - 100);                   // dark in the middle
}

TEST(Colormap, RgbIndexing) {
  const auto& table = colormap_table(Colormap::inferno);
  EXPECT_EQ(colormap_rgb(Colormap::inferno, 0.0f), table[0]);
  EXPECT_EQ(colormap_rgb(Colormap::inferno, 1.0f), table[255]);
  EXPECT_EQ(colormap_rgb(Colormap::inferno, 100.0f / 255.0f), table[100]);
  EXPECT_EQ(colormap_rgb(Colormap::inferno, -3.0f), table[0]);
  EXPECT_EQ(colormap_rgb(Colormap::inferno, 7.0f), table[255]);
  EXPECT_EQ(colormap_rgb(Colormap::inferno, NAN), table[0]);
}

TEST(Hsv, PrimaryAndSecondaryColours) {
  EXPECT_EQ(hsv_to_rgb8(0.0f, 1, 1), (Rgb{255, 0, 0}));
  EXPECT_EQ(hsv_to_rgb8(1.0f / 6, 1, 1), (Rgb{255, 255, 0}));
  EXPECT_EQ(hsv_to_rgb8(1.0f / 3, 1, 1), (Rgb{0, 255, 0}));
  EXPECT_EQ(hsv_to_rgb8(0.5f, 1, 1), (Rgb{0, 255, 255}));
  EXPECT_EQ(hsv_to_rgb8(2.0f / 3, 1, 1), (Rgb{0, 0, 255}));
  EXPECT_EQ(hsv_to_rgb8(5.0f / 6, 1, 1), (Rgb{255, 0, 255}));
  EXPECT_EQ(hsv_to_rgb8(1.0f, 1, 1), (Rgb{255, 0, 0}));
  EXPECT_EQ(hsv_to_rgb8(0.25f, 0, 0.5f), (Rgb{128, 128, 128}));
  EXPECT_EQ(hsv_to_rgb8(0.0f, 1, 0.5f), (Rgb{128, 0, 0}));
  EXPECT_EQ(hsv_to_rgb8(1.0f / 12, 1, 1), (Rgb{255, 128, 0}));  // halfway red -> yellow
}

TEST(GrayToRgba, ClampsAndRounds) {
  RealImage img(5, 1);
  img.data = {-0.5f, 0.0f, 0.5f, 1.0f, NAN};
  const RgbaImage out = gray_to_rgba(img);
  const std::uint8_t expect[] = {0, 0, 128, 255, 0};
  for (std::size_t x = 0; x < 5; ++x) EXPECT_EQ(pixel(out, x, 0), (Rgb{expect[x], expect[x], expect[x]})) << x;
}

TEST(Names, RoundTripAndRejectUnknown) {
  for (Colormap c : {Colormap::gray, Colormap::viridis, Colormap::inferno, Colormap::magma, Colormap::twilight})
    EXPECT_EQ(parse_colormap(to_string(c)), c);
  for (SpectrumComponent c : {SpectrumComponent::magnitude, SpectrumComponent::phase, SpectrumComponent::real,
                              SpectrumComponent::imaginary, SpectrumComponent::phase_hue})
    EXPECT_EQ(parse_component(to_string(c)), c);
  EXPECT_EQ(to_string(Colormap::viridis), "viridis");
  EXPECT_THROW(parse_colormap("jet"), UsageError);
  EXPECT_THROW(parse_component("Magnitude"), UsageError);
  EXPECT_EQ(to_string(Direction::inverse), "inverse");
  EXPECT_EQ(to_string(Axis::cols), "cols");
}

TEST(ToComplex, ZeroImaginary) {
  RealImage r(2, 1);
  r.data = {0.25f, -1.0f};
  const ComplexImage c = to_complex(r);
  EXPECT_EQ(c.width, 2u);
  EXPECT_EQ(c.data[0], Complex(0.25f, 0));
  EXPECT_EQ(c.data[1], Complex(-1.0f, 0));
}

}  // namespace
}  // namespace fftscope
