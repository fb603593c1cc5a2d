#include "core/preprocess.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/errors.h"

namespace fftscope {

bool is_smooth_2357(std::size_t n) {
  if (n == 0) return false;
  for (std::size_t p : {2u, 3u, 5u, 7u}) {
    while (n % p == 0) n /= p;
  }
  return n == 1;
}

std::size_t next_smooth_2357(std::size_t n) {
  if (n == 0) throw UsageError("size must be at least 1");
  while (!is_smooth_2357(n)) ++n;  // smooth numbers are dense: at most a few steps for image sizes
  return n;
}

std::size_t next_power_of_two(std::size_t n) {
  if (n == 0) throw UsageError("size must be at least 1");
  std::size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

std::size_t padded_size(std::size_t n, SizeRule rule) {
  switch (rule) {
    case SizeRule::exact: return n;
    case SizeRule::smooth: return next_smooth_2357(n);
    case SizeRule::power_of_two: return next_power_of_two(n);
  }
  return n;
}

float window_weight(WindowKind window, std::size_t i, std::size_t n, float tukey_alpha) {
  if (window == WindowKind::none || n <= 1) return 1.0f;
  const double pi = std::numbers::pi;
  const double t = (static_cast<double>(i) + 0.5) / static_cast<double>(n);  // in (0, 1)
  if (window == WindowKind::hann) return static_cast<float>(0.5 - 0.5 * std::cos(2.0 * pi * t));
  const double alpha = std::clamp(static_cast<double>(tukey_alpha), 0.0, 1.0);
  if (alpha <= 0.0) return 1.0f;
  const double edge = alpha / 2.0;  // taper length as a fraction of n, at each end
  const double d = std::min(t, 1.0 - t);
  if (d >= edge) return 1.0f;
  return static_cast<float>(0.5 - 0.5 * std::cos(pi * d / edge));
}

RealImage apply_window(const RealImage& image, WindowKind window, float tukey_alpha) {
  if (window == WindowKind::none) return image;
  std::vector<float> wx(image.width), wy(image.height);
  for (std::size_t x = 0; x < image.width; ++x) wx[x] = window_weight(window, x, image.width, tukey_alpha);
  for (std::size_t y = 0; y < image.height; ++y) wy[y] = window_weight(window, y, image.height, tukey_alpha);
  RealImage out(image.width, image.height);
  for (std::size_t y = 0; y < image.height; ++y)
    for (std::size_t x = 0; x < image.width; ++x) out.at(x, y) = image.at(x, y) * wx[x] * wy[y];
  return out;
}

namespace {

// Symmetric reflection of an index into [0, n): period 2n, so any padded size works.
std::size_t reflect(std::size_t i, std::size_t n) {
  const std::size_t m = i % (2 * n);
  return m < n ? m : 2 * n - 1 - m;
}

}  // namespace

RealImage pad_image(const RealImage& image, std::size_t width, std::size_t height, PadMode mode) {
  if (width < image.width || height < image.height)
    throw UsageError("pad target " + std::to_string(width) + "x" + std::to_string(height) +
                     " is smaller than the image " + std::to_string(image.width) + "x" +
                     std::to_string(image.height));
  if (width == image.width && height == image.height) return image;
  float fill = 0.0f;
  if (mode == PadMode::mean && !image.data.empty()) {
    double sum = 0;
    for (float v : image.data) sum += v;
    fill = static_cast<float>(sum / static_cast<double>(image.data.size()));
  }
  RealImage out(width, height);
  for (std::size_t y = 0; y < height; ++y) {
    for (std::size_t x = 0; x < width; ++x) {
      if (x < image.width && y < image.height) {
        out.at(x, y) = image.at(x, y);
      } else if (mode == PadMode::mirror && image.width > 0 && image.height > 0) {
        out.at(x, y) = image.at(reflect(x, image.width), reflect(y, image.height));
      } else {
        out.at(x, y) = fill;
      }
    }
  }
  return out;
}

RealImage preprocess(const RealImage& image, const PreprocessSettings& settings) {
  RealImage windowed = apply_window(image, settings.window, settings.tukey_alpha);
  return pad_image(windowed, padded_size(image.width, settings.size_rule),
                   padded_size(image.height, settings.size_rule), settings.pad);
}

RealImage crop_real(const ComplexImage& image, std::size_t width, std::size_t height) {
  width = std::min(width, image.width);
  height = std::min(height, image.height);
  RealImage out(width, height);
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < width; ++x) out.at(x, y) = image.at(x, y).real();
  return out;
}

RealImage make_synthetic(const SyntheticSettings& s) {
  if (s.width == 0 || s.height == 0) throw UsageError("synthetic image size must be at least 1x1");
  RealImage out(s.width, s.height);
  switch (s.kind) {
    case SyntheticKind::grating: {
      const double a = static_cast<double>(s.angle_degrees) * std::numbers::pi / 180.0;
      const double w = 2.0 * std::numbers::pi * static_cast<double>(s.frequency);
      const double cx = std::cos(a), sy = std::sin(a);
      for (std::size_t y = 0; y < s.height; ++y)
        for (std::size_t x = 0; x < s.width; ++x)
          out.at(x, y) = static_cast<float>(
              0.5 + 0.5 * std::cos(w * (static_cast<double>(x) * cx + static_cast<double>(y) * sy)));
      break;
    }
    case SyntheticKind::impulse:
      out.at(std::min(s.offset_x, s.width - 1), std::min(s.offset_y, s.height - 1)) = 1.0f;
      break;
    case SyntheticKind::rectangle: {
      // Box [cx - w/2, cx - w/2 + w) so its width is exactly rect_width pixels.
      const auto lo = [](std::size_t c, std::size_t len) { return c >= len / 2 ? c - len / 2 : 0; };
      const std::size_t x0 = lo(s.offset_x, s.rect_width), y0 = lo(s.offset_y, s.rect_height);
      const std::size_t x1 = std::min(s.width, x0 + s.rect_width), y1 = std::min(s.height, y0 + s.rect_height);
      for (std::size_t y = y0; y < y1; ++y)
        for (std::size_t x = x0; x < x1; ++x) out.at(x, y) = 1.0f;
      break;
    }
    case SyntheticKind::checkerboard: {
      const std::size_t cell = std::max<std::size_t>(1, s.cell);
      for (std::size_t y = 0; y < s.height; ++y)
        for (std::size_t x = 0; x < s.width; ++x) out.at(x, y) = ((x / cell + y / cell) % 2) ? 1.0f : 0.0f;
      break;
    }
  }
  return out;
}

std::string to_string(SizeRule rule) {
  switch (rule) {
    case SizeRule::exact: return "exact";
    case SizeRule::smooth: return "smooth";
    case SizeRule::power_of_two: return "pow2";
  }
  return "?";
}

SizeRule parse_size_rule(const std::string& name) {
  if (name == "exact") return SizeRule::exact;
  if (name == "smooth") return SizeRule::smooth;
  if (name == "pow2") return SizeRule::power_of_two;
  throw UsageError("unknown size rule '" + name + "' (expected exact, smooth or pow2)");
}

std::string to_string(PadMode mode) {
  switch (mode) {
    case PadMode::zeros: return "zeros";
    case PadMode::mean: return "mean";
    case PadMode::mirror: return "mirror";
  }
  return "?";
}

PadMode parse_pad_mode(const std::string& name) {
  if (name == "zeros") return PadMode::zeros;
  if (name == "mean") return PadMode::mean;
  if (name == "mirror") return PadMode::mirror;
  throw UsageError("unknown padding '" + name + "' (expected zeros, mean or mirror)");
}

std::string to_string(WindowKind window) {
  switch (window) {
    case WindowKind::none: return "none";
    case WindowKind::hann: return "hann";
    case WindowKind::tukey: return "tukey";
  }
  return "?";
}

WindowKind parse_window(const std::string& name) {
  if (name == "none") return WindowKind::none;
  if (name == "hann") return WindowKind::hann;
  if (name == "tukey") return WindowKind::tukey;
  throw UsageError("unknown window '" + name + "' (expected none, hann or tukey)");
}

std::string to_string(SyntheticKind kind) {
  switch (kind) {
    case SyntheticKind::grating: return "grating";
    case SyntheticKind::impulse: return "impulse";
    case SyntheticKind::rectangle: return "rectangle";
    case SyntheticKind::checkerboard: return "checkerboard";
  }
  return "?";
}

SyntheticKind parse_synthetic(const std::string& name) {
  if (name == "grating") return SyntheticKind::grating;
  if (name == "impulse") return SyntheticKind::impulse;
  if (name == "rectangle") return SyntheticKind::rectangle;
  if (name == "checkerboard") return SyntheticKind::checkerboard;
  throw UsageError("unknown synthetic source '" + name +
                   "' (expected grating, impulse, rectangle or checkerboard)");
}

}  // namespace fftscope
