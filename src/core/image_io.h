#pragma once
// Reading images and arrays from files, writing PNG and NPY outputs atomically.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "types.h"

namespace fftscope {

enum class Channel { luma, r, g, b };
std::string to_string(Channel channel);
Channel parse_channel(const std::string& name);  ///< throws UsageError

/// Default refusal limit for decoded images (pixels), checked from the header before decoding.
inline constexpr std::size_t default_max_pixels = std::size_t{1} << 26;  // 8192 x 8192

struct ImageLoadOptions {
  Channel channel = Channel::luma;
  std::size_t max_pixels = default_max_pixels;
};

/// What the header of an image says, read without decoding the pixels.
struct ImageInfo {
  std::size_t width = 0;
  std::size_t height = 0;
  int channels = 0;        ///< as stored: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
  int bits_per_channel = 8;  ///< 8, 16, or 32 for HDR
};

/// Reads the header of an image stb_image understands. Throws InputError naming the file.
ImageInfo probe_image(const std::string& path);

/// Loads an image as one channel in [0, 1]: 8-bit / 255, 16-bit / 65535; colour becomes Rec. 709
/// luma (0.2126 R + 0.7152 G + 0.0722 B) unless a channel is chosen; alpha is ignored. Refuses
/// images over options.max_pixels before decoding. Throws InputError naming the file and reason.
/// Binary PGM/PPM samples are value / maxval (the format's meaning; 255 and 65535 as above);
/// Radiance HDR keeps its linear float values, which may exceed 1.
RealImage load_image(const std::string& path, const ImageLoadOptions& options = {});

/// The same as load_image for a file already in memory (the fuzzer's entry point); `name` is
/// used in messages. Throws InputError naming `name` and the reason.
RealImage load_image_from_memory(const std::vector<std::uint8_t>& bytes, const std::string& name,
                                 const ImageLoadOptions& options = {});

/// Loads an INPUT of the CLI: an image, or an NPY file with a 2D float32 or complex64 array.
ComplexImage load_input(const std::string& path, const ImageLoadOptions& options = {});

/// A 2D array read from an NPY file (only float32 '<f4' and complex64 '<c8', C order).
struct NpyArray {
  std::size_t width = 0;   ///< shape[1]
  std::size_t height = 0;  ///< shape[0]
  bool is_complex = false;
  ComplexImage values;     ///< real arrays come with zero imaginary parts
};
/// Throws InputError naming the file and the reason for anything else.
NpyArray read_npy(const std::string& path, std::size_t max_elements = default_max_pixels);
/// Parses an NPY file already in memory (the fuzzer's entry point); `name` is used in messages.
NpyArray parse_npy(const std::vector<std::uint8_t>& bytes, const std::string& name,
                   std::size_t max_elements = default_max_pixels);

/// Writes bytes to path through a temporary file in the same folder and a rename, so the path
/// holds either its old content or the whole new one. Throws OutputError naming the path.
void write_file_atomic(const std::string& path, const std::vector<std::uint8_t>& bytes);

/// Encodes a complex64 NPY array of shape (height, width), C order, little-endian.
std::vector<std::uint8_t> encode_npy_complex64(const ComplexImage& image);
/// Encodes a float32 NPY array of shape (height, width).
std::vector<std::uint8_t> encode_npy_float32(const RealImage& image);
void write_npy(const std::string& path, const ComplexImage& image);  ///< atomic
void write_npy(const std::string& path, const RealImage& image);     ///< atomic

std::vector<std::uint8_t> encode_png(const RgbaImage& image);
void write_png(const std::string& path, const RgbaImage& image);  ///< atomic

}  // namespace fftscope
