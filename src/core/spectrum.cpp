#include "spectrum.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numbers>

#include "errors.h"

namespace fftscope {

SpectrumSettings fixed_range_settings(std::size_t width, std::size_t height) {
  SpectrumSettings s;
  s.auto_range = false;
  s.range_min = 0.0f;
  s.range_max = static_cast<float>(std::log1p(static_cast<double>(width) * static_cast<double>(height)));
  return s;
}
namespace detail {
namespace {

using ColormapTable = std::array<std::array<std::uint8_t, 3>, 256>;

#include "colormap_tables.inc"

constexpr ColormapTable make_gray_table() {
  ColormapTable table{};
  for (std::size_t i = 0; i < 256; ++i) {
    const auto v = static_cast<std::uint8_t>(i);
    table[i] = {v, v, v};
  }
  return table;
}
constexpr ColormapTable gray_table = make_gray_table();

// log(1 + |v|) with the sign of v kept, so real and imaginary parts stay signed on a log scale.
float signed_log1p(float v) { return std::copysign(std::log1p(std::fabs(v)), v); }

std::uint8_t to_byte(float v) {
  if (!(v > 0.0f)) return 0;  // also NaN
  if (v >= 1.0f) return 255;
  return static_cast<std::uint8_t>(std::lround(v * 255.0f));
}

template <typename Image>
Image shift_by(const Image& image, std::size_t (*index)(std::size_t, std::size_t)) {
  Image out(image.width, image.height);
  for (std::size_t y = 0; y < image.height; ++y) {
    const std::size_t oy = index(y, image.height);
    for (std::size_t x = 0; x < image.width; ++x) out.at(index(x, image.width), oy) = image.at(x, y);
  }
  return out;
}

// Colour index t in [0, 1] as documented on SpectrumSettings; an empty range or NaN gives 0.
float colour_index(float v, float lo, float hi, float gain) {
  if (!(hi > lo)) return 0.0f;
  const float t = gain * (v - lo) / (hi - lo);
  if (std::isnan(t)) return 0.0f;
  return std::clamp(t, 0.0f, 1.0f);
}

}  // namespace
}  // namespace detail

ComplexImage fftshift(const ComplexImage& image) { return detail::shift_by(image, &fftshift_index); }
ComplexImage ifftshift(const ComplexImage& image) { return detail::shift_by(image, &ifftshift_index); }
RealImage fftshift(const RealImage& image) { return detail::shift_by(image, &fftshift_index); }

float spectrum_value(Complex x, SpectrumComponent component, SpectrumScale scale) {
  const bool log = scale == SpectrumScale::log;
  switch (component) {
    case SpectrumComponent::magnitude:
    case SpectrumComponent::phase_hue: {
      const float m = std::abs(x);
      return log ? std::log1p(m) : m;
    }
    case SpectrumComponent::phase:
      return std::arg(x);
    case SpectrumComponent::real:
      return log ? detail::signed_log1p(x.real()) : x.real();
    case SpectrumComponent::imaginary:
      return log ? detail::signed_log1p(x.imag()) : x.imag();
  }
  return 0.0f;
}

RealImage spectrum_values(const ComplexImage& spectrum, const SpectrumSettings& settings) {
  RealImage values(spectrum.width, spectrum.height);
  for (std::size_t y = 0; y < spectrum.height; ++y) {
    const std::size_t oy = settings.shift ? fftshift_index(y, spectrum.height) : y;
    for (std::size_t x = 0; x < spectrum.width; ++x) {
      const std::size_t ox = settings.shift ? fftshift_index(x, spectrum.width) : x;
      values.at(ox, oy) = spectrum_value(spectrum.at(x, y), settings.component, settings.scale);
    }
  }
  return values;
}

std::pair<float, float> spectrum_range(const RealImage& values, const SpectrumSettings& settings) {
  if (!settings.auto_range) return {settings.range_min, settings.range_max};
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  for (float v : values.data) {
    if (!std::isfinite(v)) continue;  // one inf or NaN bin must not wash out the whole view
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (lo > hi) return {0.0f, 0.0f};  // no finite value at all
  return {lo, hi};
}

RgbaImage render_spectrum(const ComplexImage& spectrum, const SpectrumSettings& settings) {
  const RealImage values = spectrum_values(spectrum, settings);
  const auto [lo, hi] = spectrum_range(values, settings);
  RgbaImage out(spectrum.width, spectrum.height);
  const bool hue = settings.component == SpectrumComponent::phase_hue;
  for (std::size_t y = 0; y < spectrum.height; ++y) {
    const std::size_t sy = settings.shift ? ifftshift_index(y, spectrum.height) : y;
    for (std::size_t x = 0; x < spectrum.width; ++x) {
      const std::size_t i = y * spectrum.width + x;
      const float t = detail::colour_index(values.data[i], lo, hi, settings.gain);
      std::array<std::uint8_t, 3> rgb;
      if (hue) {
        const std::size_t sx = settings.shift ? ifftshift_index(x, spectrum.width) : x;
        const float phase = std::arg(spectrum.at(sx, sy));
        rgb = hsv_to_rgb8((phase + std::numbers::pi_v<float>) / (2.0f * std::numbers::pi_v<float>), 1.0f, t);
      } else {
        rgb = colormap_rgb(settings.colormap, t);
      }
      out.data[4 * i + 0] = rgb[0];
      out.data[4 * i + 1] = rgb[1];
      out.data[4 * i + 2] = rgb[2];
      out.data[4 * i + 3] = 255;
    }
  }
  return out;
}

const std::array<std::array<std::uint8_t, 3>, 256>& colormap_table(Colormap colormap) {
  switch (colormap) {
    case Colormap::gray: return detail::gray_table;
    case Colormap::viridis: return detail::viridis_table;
    case Colormap::inferno: return detail::inferno_table;
    case Colormap::magma: return detail::magma_table;
    case Colormap::twilight: return detail::twilight_table;
  }
  assert(false && "unknown Colormap value");
  return detail::gray_table;
}

std::array<std::uint8_t, 3> colormap_rgb(Colormap colormap, float t) {
  if (!(t > 0.0f)) t = 0.0f;  // also NaN
  if (t > 1.0f) t = 1.0f;
  return colormap_table(colormap)[static_cast<std::size_t>(std::lround(t * 255.0f))];
}

std::array<std::uint8_t, 3> hsv_to_rgb8(float h, float s, float v) {
  h -= std::floor(h);  // hue wraps: 1 is 0 again
  if (!std::isfinite(h)) h = 0.0f;
  s = std::clamp(s, 0.0f, 1.0f);
  v = std::clamp(v, 0.0f, 1.0f);
  const float h6 = h * 6.0f;
  const int sector = std::min(static_cast<int>(h6), 5);
  const float f = h6 - static_cast<float>(sector);
  const float p = v * (1.0f - s);
  const float q = v * (1.0f - s * f);
  const float u = v * (1.0f - s * (1.0f - f));
  float r = 0, g = 0, b = 0;
  switch (sector) {
    case 0: r = v, g = u, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = u; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = u, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
  }
  return {detail::to_byte(r), detail::to_byte(g), detail::to_byte(b)};
}

std::string to_string(Colormap colormap) {
  switch (colormap) {
    case Colormap::gray: return "gray";
    case Colormap::viridis: return "viridis";
    case Colormap::inferno: return "inferno";
    case Colormap::magma: return "magma";
    case Colormap::twilight: return "twilight";
  }
  return "unknown";
}

Colormap parse_colormap(const std::string& name) {
  for (Colormap c : {Colormap::gray, Colormap::viridis, Colormap::inferno, Colormap::magma, Colormap::twilight})
    if (name == to_string(c)) return c;
  if (name == "grey") return Colormap::gray;
  throw UsageError("unknown colormap '" + name + "' (expected gray, viridis, inferno, magma or twilight)");
}

std::string to_string(SpectrumComponent component) {
  switch (component) {
    case SpectrumComponent::magnitude: return "magnitude";
    case SpectrumComponent::phase: return "phase";
    case SpectrumComponent::real: return "real";
    case SpectrumComponent::imaginary: return "imaginary";
    case SpectrumComponent::phase_hue: return "phase_hue";
  }
  return "unknown";
}

SpectrumComponent parse_component(const std::string& name) {
  for (SpectrumComponent c : {SpectrumComponent::magnitude, SpectrumComponent::phase, SpectrumComponent::real,
                              SpectrumComponent::imaginary, SpectrumComponent::phase_hue})
    if (name == to_string(c)) return c;
  throw UsageError("unknown spectrum component '" + name +
                   "' (expected magnitude, phase, real, imaginary or phase_hue)");
}

RgbaImage gray_to_rgba(const RealImage& image) {
  RgbaImage out(image.width, image.height);
  for (std::size_t i = 0; i < image.data.size(); ++i) {
    const std::uint8_t v = detail::to_byte(image.data[i]);
    out.data[4 * i + 0] = v;
    out.data[4 * i + 1] = v;
    out.data[4 * i + 2] = v;
    out.data[4 * i + 3] = 255;
  }
  return out;
}

}  // namespace fftscope
