// libFuzzer target: the NPY reader (parse_npy) on arbitrary bytes. Only InputError may escape;
// an accepted array must be 2D, within the limit, finite, and re-encode to the same values.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/errors.h"
#include "core/image_io.h"

namespace {

constexpr std::size_t fuzz_max_elements = std::size_t{1} << 20;

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes(data, data + size);
  try {
    const fftscope::NpyArray array = fftscope::parse_npy(bytes, "fuzz-input", fuzz_max_elements);
    check(array.width > 0 && array.height > 0);
    check(array.width * array.height <= fuzz_max_elements);
    check(array.values.width == array.width && array.values.height == array.height);
    check(array.values.data.size() == array.width * array.height);
    for (const auto& v : array.values.data) check(std::isfinite(v.real()) && std::isfinite(v.imag()));
    // What we write, we read back unchanged.
    const auto again = fftscope::parse_npy(fftscope::encode_npy_complex64(array.values), "re-encoded");
    check(again.is_complex && again.values.data == array.values.data);
  } catch (const fftscope::InputError&) {
  }
  return 0;
}
