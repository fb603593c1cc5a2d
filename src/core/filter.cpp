#include "core/filter.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <utility>

#include "core/errors.h"

namespace fftscope {

float bin_frequency(std::size_t i, std::size_t n) {
  const auto k = static_cast<double>(i <= n / 2 ? static_cast<long long>(i)
                                                : static_cast<long long>(i) - static_cast<long long>(n));
  return static_cast<float>(k / static_cast<double>(n));
}

float soft_inside(float distance, float radius, float softness) {
  if (distance <= radius) return 1.0f;
  if (softness <= 0.0f || distance >= radius + softness) return 0.0f;
  const double t = (distance - radius) / softness;
  return static_cast<float>(0.5 + 0.5 * std::cos(std::numbers::pi * t));
}

namespace {

float preset_weight(const FilterSettings& s, float fx, float fy) {
  const float r = std::hypot(fx, fy);
  switch (s.preset) {
    case FilterPreset::none: return 1.0f;
    case FilterPreset::low_pass: return soft_inside(r, s.cutoff, s.softness);
    case FilterPreset::high_pass: return 1.0f - soft_inside(r, s.cutoff, s.softness);
    case FilterPreset::band_pass:
      return soft_inside(r, s.cutoff_high, s.softness) * (1.0f - soft_inside(r, s.cutoff, s.softness));
    case FilterPreset::notch: {
      const float d1 = std::hypot(fx - s.notch_fx, fy - s.notch_fy);
      const float d2 = std::hypot(fx + s.notch_fx, fy + s.notch_fy);
      return (1.0f - soft_inside(d1, s.notch_radius, s.softness)) *
             (1.0f - soft_inside(d2, s.notch_radius, s.softness));
    }
    case FilterPreset::wedge: {
      if (r == 0.0f) return 1.0f;  // keep the mean: the wedge is about orientation only
      // Orientation modulo 180 degrees, so f and -f get the same weight.
      const double a = std::atan2(static_cast<double>(fy), static_cast<double>(fx)) * 180.0 / std::numbers::pi;
      double d = std::fmod(std::abs(a - static_cast<double>(s.wedge_angle_degrees)), 180.0);
      d = std::min(d, 180.0 - d);
      // Softness is in cycles/pixel; as an angle it is softness / r radians at radius r.
      const double soft_deg = s.softness > 0 ? static_cast<double>(s.softness) / r * 180.0 / std::numbers::pi : 0.0;
      return soft_inside(static_cast<float>(d), s.wedge_width_degrees / 2.0f, static_cast<float>(soft_deg));
    }
  }
  return 1.0f;
}

}  // namespace

namespace {

// Signed bin numbers k (bin_frequency = k / n) within `reach` of frequency f, one bin of margin,
// clipped to the signed range (-(n - 1) / 2 .. n / 2) that bin_frequency produces.
std::pair<long long, long long> bin_range(float f, float reach, std::size_t n) {
  const double nn = static_cast<double>(n);
  const long long lo_valid = -static_cast<long long>((n - 1) / 2), hi_valid = static_cast<long long>(n / 2);
  const auto lo = static_cast<long long>(std::floor((static_cast<double>(f) - reach) * nn)) - 1;
  const auto hi = static_cast<long long>(std::ceil((static_cast<double>(f) + reach) * nn)) + 1;
  return {std::max(lo, lo_valid), std::min(hi, hi_valid)};
}

std::size_t bin_index(long long k, std::size_t n) {
  return static_cast<std::size_t>(k < 0 ? k + static_cast<long long>(n) : k);
}

// Applies one stroke (and its mirror) to the bins it can reach; every other bin gets weight 0,
// which leaves it unchanged for both pass (max) and stop (multiply by 1 - 0).
void apply_stroke(RealImage& mask, const FilterStroke& st, float softness) {
  const std::size_t w = mask.width, h = mask.height;
  const float reach = st.radius + std::max(0.0f, softness);
  const auto apply_box = [&](float cx, float cy, const std::pair<long long, long long>* skip_x,
                             const std::pair<long long, long long>* skip_y) {
    const auto [x0, x1] = bin_range(cx, reach, w);
    const auto [y0, y1] = bin_range(cy, reach, h);
    for (long long ky = y0; ky <= y1; ++ky) {
      for (long long kx = x0; kx <= x1; ++kx) {
        // Bins of the first box are not visited twice when the two boxes overlap.
        if (skip_x && kx >= skip_x->first && kx <= skip_x->second && ky >= skip_y->first && ky <= skip_y->second)
          continue;
        const std::size_t x = bin_index(kx, w), y = bin_index(ky, h);
        const float fx = bin_frequency(x, w), fy = bin_frequency(y, h);
        const float d = std::min(std::hypot(fx - st.fx, fy - st.fy), std::hypot(fx + st.fx, fy + st.fy));
        const float weight = soft_inside(d, st.radius, softness);
        float& m = mask.at(x, y);
        m = st.pass ? std::max(m, weight) : m * (1.0f - weight);
      }
    }
  };
  const auto bx = bin_range(st.fx, reach, w), by = bin_range(st.fy, reach, h);
  apply_box(st.fx, st.fy, nullptr, nullptr);
  apply_box(-st.fx, -st.fy, &bx, &by);
}

}  // namespace

RealImage filter_mask(std::size_t width, std::size_t height, const FilterSettings& s) {
  RealImage mask(width, height);
  for (std::size_t y = 0; y < height; ++y) {
    const float fy = bin_frequency(y, height);
    for (std::size_t x = 0; x < width; ++x) mask.at(x, y) = preset_weight(s, bin_frequency(x, width), fy);
  }
  // Strokes in order, each over the few bins its disk (and the mirrored disk) can reach, so
  // painting stays cheap however many strokes there are.
  for (const FilterStroke& st : s.strokes) apply_stroke(mask, st, s.softness);
  // At even lengths the Nyquist bin is its own mirror but gets the frequency +0.5 only, so the
  // formulas above are not exactly symmetric there; averaging with the mirror makes them so.
  RealImage sym(width, height);
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < width; ++x)
      sym.at(x, y) = 0.5f * (mask.at(x, y) + mask.at((width - x) % width, (height - y) % height));
  return sym;
}

void apply_mask(ComplexImage& spectrum, const RealImage& mask) {
  assert(spectrum.width == mask.width && spectrum.height == mask.height && "mask size must match the spectrum");
  for (std::size_t i = 0; i < spectrum.data.size(); ++i) spectrum.data[i] *= mask.data[i];
}

std::string to_string(FilterPreset preset) {
  switch (preset) {
    case FilterPreset::none: return "none";
    case FilterPreset::low_pass: return "lowpass";
    case FilterPreset::high_pass: return "highpass";
    case FilterPreset::band_pass: return "bandpass";
    case FilterPreset::notch: return "notch";
    case FilterPreset::wedge: return "wedge";
  }
  return "?";
}

FilterPreset parse_filter_preset(const std::string& name) {
  if (name == "none") return FilterPreset::none;
  if (name == "lowpass") return FilterPreset::low_pass;
  if (name == "highpass") return FilterPreset::high_pass;
  if (name == "bandpass") return FilterPreset::band_pass;
  if (name == "notch") return FilterPreset::notch;
  if (name == "wedge") return FilterPreset::wedge;
  throw UsageError("unknown filter '" + name + "' (expected none, lowpass, highpass, bandpass, notch or wedge)");
}

}  // namespace fftscope
