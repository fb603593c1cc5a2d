#pragma once
// Basic value types shared by every part of fftscope.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fftscope {

/// One complex float32 sample; stored as interleaved re, im (the layout every backend uses).
using Complex = std::complex<float>;

enum class Direction { forward, inverse };
enum class Axis { rows, cols };

/// A 2D complex array, row-major: element (x, y) is data[y * width + x].
struct ComplexImage {
  std::size_t width = 0;
  std::size_t height = 0;
  std::vector<Complex> data;

  ComplexImage() = default;
  ComplexImage(std::size_t w, std::size_t h) : width(w), height(h), data(w * h) {}
  Complex& at(std::size_t x, std::size_t y) { return data[y * width + x]; }
  const Complex& at(std::size_t x, std::size_t y) const { return data[y * width + x]; }
};

/// A 2D real array, row-major, values of an image channel in [0, 1].
struct RealImage {
  std::size_t width = 0;
  std::size_t height = 0;
  std::vector<float> data;

  RealImage() = default;
  RealImage(std::size_t w, std::size_t h) : width(w), height(h), data(w * h) {}
  float& at(std::size_t x, std::size_t y) { return data[y * width + x]; }
  float at(std::size_t x, std::size_t y) const { return data[y * width + x]; }
};

/// An 8-bit RGBA image, row-major, 4 bytes per pixel, top row first.
struct RgbaImage {
  std::size_t width = 0;
  std::size_t height = 0;
  std::vector<std::uint8_t> data;

  RgbaImage() = default;
  RgbaImage(std::size_t w, std::size_t h) : width(w), height(h), data(w * h * 4) {}
};

ComplexImage to_complex(const RealImage& image);

std::string to_string(Direction direction);
std::string to_string(Axis axis);

}  // namespace fftscope
