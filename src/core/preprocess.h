#pragma once
// Preparing a real image for the FFT: the size rule (exact, 2·3·5·7-smooth, power of two), the
// padding (zeros, mean, mirror), an optional window (Hann, Tukey) against edge leakage, and the
// synthetic test sources (grating, impulse, rectangle, checkerboard). Shared by the GUI and CLI.

#include <cstddef>
#include <string>

#include "types.h"

namespace fftscope {

/// How the transform size is chosen from the image size, per axis.
enum class SizeRule {
  exact,         ///< the image size itself (mixed radix; Bluestein for large prime factors)
  smooth,        ///< the next size >= n whose prime factors are all 2, 3, 5 or 7
  power_of_two,  ///< the next power of two >= n
};

/// What fills the padded area (right and bottom of the image).
enum class PadMode {
  zeros,   ///< 0
  mean,    ///< the mean of the (windowed) image, so no step appears at the border
  mirror,  ///< the image reflected at its right and bottom edges (symmetric: ..., c, b, a | a, b, c, ...)
};

/// A separable window applied to the image (before padding) to suppress the leakage cross.
enum class WindowKind { none, hann, tukey };

struct PreprocessSettings {
  SizeRule size_rule = SizeRule::exact;
  PadMode pad = PadMode::zeros;
  WindowKind window = WindowKind::none;
  float tukey_alpha = 0.5f;  ///< fraction of the length that is tapered (0: rectangle, 1: Hann)
};

/// True when n >= 1 has no prime factor other than 2, 3, 5 and 7.
bool is_smooth_2357(std::size_t n);
/// The smallest 2·3·5·7-smooth size >= n (n >= 1). Throws UsageError for n = 0.
std::size_t next_smooth_2357(std::size_t n);
/// The smallest power of two >= n (n >= 1). Throws UsageError for n = 0.
std::size_t next_power_of_two(std::size_t n);
/// The transform length for an axis of n pixels under the rule.
std::size_t padded_size(std::size_t n, SizeRule rule);

/// Window weight of sample i of n, in [0, 1]. Hann: 0.5 - 0.5 cos(2 pi (i + 0.5) / n) (centred
/// on the samples, so no weight is exactly zero and the window is symmetric); Tukey: flat 1 in
/// the middle, Hann-shaped tapers over alpha / 2 of the length at each end.
float window_weight(WindowKind window, std::size_t i, std::size_t n, float tukey_alpha = 0.5f);

/// The image multiplied by the separable window w(x) * w(y).
RealImage apply_window(const RealImage& image, WindowKind window, float tukey_alpha = 0.5f);

/// The image placed at the top-left of a width x height array (each >= the image's), the rest
/// filled as `mode` says. Throws UsageError when the target is smaller than the image.
RealImage pad_image(const RealImage& image, std::size_t width, std::size_t height, PadMode mode);

/// Window, then pad to the rule's size. The result is what the FFT transforms.
RealImage preprocess(const RealImage& image, const PreprocessSettings& settings);

/// The top-left width x height real parts of a complex image (undoes the padding of an inverse).
RealImage crop_real(const ComplexImage& image, std::size_t width, std::size_t height);

/// The synthetic sources.
enum class SyntheticKind { grating, impulse, rectangle, checkerboard };

struct SyntheticSettings {
  SyntheticKind kind = SyntheticKind::grating;
  std::size_t width = 256;
  std::size_t height = 256;
  /// grating: frequency in cycles per pixel (0 .. 0.5) along the direction `angle_degrees`
  /// (0 = varies along x, 90 = along y); value 0.5 + 0.5 cos(2 pi f (x cos a + y sin a)).
  float frequency = 0.0625f;
  float angle_degrees = 0.0f;
  /// impulse: one pixel of value 1 at (offset_x, offset_y) (default the centre); others 0.
  /// rectangle: value 1 inside a rect_width x rect_height box centred at the offset; others 0.
  std::size_t offset_x = 128;
  std::size_t offset_y = 128;
  std::size_t rect_width = 32;
  std::size_t rect_height = 16;
  /// checkerboard: squares of `cell` pixels, alternating 0 and 1.
  std::size_t cell = 16;
};

/// Generates a synthetic image with values in [0, 1]. Throws UsageError for a zero size.
RealImage make_synthetic(const SyntheticSettings& settings);

/// Names as used on the command line and in the GUI.
std::string to_string(SizeRule rule);
SizeRule parse_size_rule(const std::string& name);  ///< exact, smooth, pow2; throws UsageError
std::string to_string(PadMode mode);
PadMode parse_pad_mode(const std::string& name);  ///< zeros, mean, mirror; throws UsageError
std::string to_string(WindowKind window);
WindowKind parse_window(const std::string& name);  ///< none, hann, tukey; throws UsageError
std::string to_string(SyntheticKind kind);
SyntheticKind parse_synthetic(const std::string& name);  ///< grating, impulse, rectangle, checkerboard

}  // namespace fftscope
