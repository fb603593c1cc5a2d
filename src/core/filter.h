#pragma once
// Frequency-domain filters: a mask of weights in [0, 1] per spectrum bin, built from a preset
// (low/high/band-pass, notch, orientation wedge) and painted pass/stop strokes, always symmetric
// under f -> -f so the inverse of a real image stays real.
//
// Frequencies are in cycles per pixel: bin (x, y) of an unshifted W x H spectrum has
// fx = kx / W with kx = x for x <= W / 2 and x - W above (likewise fy), so |fx|, |fy| <= 0.5.

#include <cstddef>
#include <string>
#include <vector>

#include "types.h"

namespace fftscope {

enum class FilterPreset { none, low_pass, high_pass, band_pass, notch, wedge };

/// One painted disk: weights inside are forced towards pass (1) or stop (0). The disk at
/// (-fx, -fy) is applied too.
struct FilterStroke {
  float fx = 0, fy = 0;     ///< centre, cycles per pixel
  float radius = 0.02f;     ///< cycles per pixel
  bool pass = false;        ///< true: pass region, false: stop region
};

struct FilterSettings {
  FilterPreset preset = FilterPreset::none;
  /// low_pass / high_pass: the cutoff radius; band_pass: the inner radius (cycles per pixel).
  float cutoff = 0.1f;
  float cutoff_high = 0.25f;  ///< band_pass: the outer radius
  /// Width of the smooth (raised-cosine) transition, cycles per pixel; 0 gives a hard edge.
  float softness = 0.01f;
  float notch_fx = 0.1f, notch_fy = 0.0f;  ///< notch centre (its mirror is notched too)
  float notch_radius = 0.02f;
  float wedge_angle_degrees = 0.0f;  ///< wedge: orientation of the passed frequencies (mod 180)
  float wedge_width_degrees = 20.0f;  ///< full opening angle of the wedge
  std::vector<FilterStroke> strokes;  ///< applied in order after the preset
};

/// Signed frequency (cycles per pixel) of index i along an axis of length n (unshifted layout).
float bin_frequency(std::size_t i, std::size_t n);

/// 1 inside radius r, 0 outside r + softness, raised cosine between (a hard step when softness = 0).
float soft_inside(float distance, float radius, float softness);

/// The mask for a width x height spectrum in the unshifted layout (bin (x, y) as the FFT
/// returns it), values in [0, 1], symmetric: m(x, y) = m((W - x) % W, (H - y) % H).
RealImage filter_mask(std::size_t width, std::size_t height, const FilterSettings& settings);

/// Multiplies each bin by the mask (same size; asserts).
void apply_mask(ComplexImage& spectrum, const RealImage& mask);

std::string to_string(FilterPreset preset);
FilterPreset parse_filter_preset(const std::string& name);  ///< throws UsageError

}  // namespace fftscope
