// libFuzzer target: the image loader on arbitrary bytes, through every format stb_image reads
// (PNG, JPEG, BMP, GIF, PSD, TGA, HDR, PIC, PNM). Any exception other than InputError, any crash,
// leak or sanitizer report is a finding; a loaded image must match what its header promised.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/errors.h"
#include "core/image_io.h"

namespace {

// Small enough that one input cannot take the fuzzer's memory (4 channels x 16 bit x 2^20 px).
constexpr std::size_t fuzz_max_pixels = std::size_t{1} << 20;

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes(data, data + size);
  // The first byte picks the channel so that every conversion path is reached.
  fftscope::ImageLoadOptions options;
  options.max_pixels = fuzz_max_pixels;
  options.channel = static_cast<fftscope::Channel>(size > 0 ? data[size - 1] % 4 : 0);
  try {
    const fftscope::RealImage image = fftscope::load_image_from_memory(bytes, "fuzz-input", options);
    check(image.width > 0 && image.height > 0);
    check(image.width * image.height <= fuzz_max_pixels);
    check(image.data.size() == image.width * image.height);
    // 8/16-bit inputs give [0, 1]; HDR gives finite linear values (it never makes NaN).
    for (float v : image.data) check(!std::isnan(v));
  } catch (const fftscope::InputError&) {
    // The expected outcome for almost every input.
  }
  return 0;
}
