#pragma once
// Turning a complex spectrum into something to look at: fftshift, components, scales, colour.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "types.h"

namespace fftscope {

enum class SpectrumComponent { magnitude, phase, real, imaginary, phase_hue };
enum class SpectrumScale { linear, log };
enum class Colormap { gray, viridis, inferno, magma, twilight };

/// What the spectrum view shows. The value of a bin is v = f(component) with log meaning
/// log(1 + |x|) (sign kept for real/imaginary); phase is arg in [-pi, pi] and ignores `scale`.
/// The colour index is t = clamp(gain * (v - lo) / (hi - lo), 0, 1), where [lo, hi] is the
/// value range over the image (auto_range) or [range_min, range_max].
struct SpectrumSettings {
  bool shift = true;
  SpectrumScale scale = SpectrumScale::log;
  SpectrumComponent component = SpectrumComponent::magnitude;
  Colormap colormap = Colormap::gray;
  bool auto_range = true;
  float range_min = 0.0f;
  float range_max = 1.0f;
  float gain = 1.0f;
};

/// The settings as the display kernels' and shaders' flags (fast_epilogue.cl, display_pixels.glsl):
/// bit 0 shift, bit 1 log scale, bits 4..7 the component, bit 8 auto range.
inline std::uint32_t display_flags(const SpectrumSettings& settings) {
  return (settings.shift ? 1u : 0u) | (settings.scale == SpectrumScale::log ? 2u : 0u) |
         (static_cast<std::uint32_t>(settings.component) << 4) | (settings.auto_range ? 256u : 0u);
}

/// The centred index of fftshift: output position of input index i along a length-n axis
/// (correct for odd n: the zero frequency lands at n / 2).
inline std::size_t fftshift_index(std::size_t i, std::size_t n) { return (i + n / 2) % n; }
/// Its inverse (ifftshift): input index whose value lands at output position i.
inline std::size_t ifftshift_index(std::size_t i, std::size_t n) { return (i + n - n / 2) % n; }

ComplexImage fftshift(const ComplexImage& image);
ComplexImage ifftshift(const ComplexImage& image);
RealImage fftshift(const RealImage& image);

/// The default display (log magnitude, gray, shifted) with its range fixed at [0, log(1 + W H)],
/// the largest log magnitude of W H values of modulus <= 1: what benchmarks and the fast path's
/// measured planning time (one row pass per display, no range search).
SpectrumSettings fixed_range_settings(std::size_t width, std::size_t height);

/// Work-groups of the GPU backends' first min/max pass over `values` values with `group_size`
/// work-items each: one per group_size * 16 values (each work-item folds at least 16), at most
/// 1024 (H100: 64 groups took 1.6 ms over 8192^2 values, 1024 took 0.16).
inline std::size_t range_reduce_groups(std::uint64_t values, std::size_t group_size) {
  const std::uint64_t per_group = std::uint64_t{group_size} * 16;
  return static_cast<std::size_t>(std::clamp<std::uint64_t>((values + per_group - 1) / per_group, 1, 1024));
}

/// The scalar a bin shows for the component and scale (before the range mapping). phase_hue
/// gives the (log) magnitude here: its brightness; its hue comes from arg(x).
float spectrum_value(Complex x, SpectrumComponent component, SpectrumScale scale);

/// Per-bin values (shifted when settings.shift), row-major like the input.
RealImage spectrum_values(const ComplexImage& spectrum, const SpectrumSettings& settings);

/// The [lo, hi] range the colour mapping uses for these values and settings (auto: min and max
/// of the finite values, {0, 0} when none). Where hi <= lo every bin gets t = 0.
std::pair<float, float> spectrum_range(const RealImage& values, const SpectrumSettings& settings);

/// The full display: RGBA8, alpha 255. phase_hue shows arg as hue and log magnitude as value.
RgbaImage render_spectrum(const ComplexImage& spectrum, const SpectrumSettings& settings);

/// 256-entry RGB lookup table of a colormap (the GPU paths upload the same table).
const std::array<std::array<std::uint8_t, 3>, 256>& colormap_table(Colormap colormap);
/// Colour of t in [0, 1] (clamped, NaN as 0): table entry round(255 t), entry i being the map at i/255.
std::array<std::uint8_t, 3> colormap_rgb(Colormap colormap, float t);

/// HSV (all in [0, 1]) to RGB8, as used by phase_hue.
std::array<std::uint8_t, 3> hsv_to_rgb8(float h, float s, float v);

/// Names as used on the command line: gray, viridis, inferno, magma, twilight.
std::string to_string(Colormap colormap);
Colormap parse_colormap(const std::string& name);  ///< throws UsageError
std::string to_string(SpectrumComponent component);
SpectrumComponent parse_component(const std::string& name);  ///< throws UsageError

/// Grey image of values in [0,1] (clamped) as RGBA8, for showing real images and inverses.
RgbaImage gray_to_rgba(const RealImage& image);

}  // namespace fftscope
