#include "types.h"

namespace fftscope {

ComplexImage to_complex(const RealImage& image) {
  ComplexImage out(image.width, image.height);
  for (std::size_t i = 0; i < image.data.size(); ++i) out.data[i] = Complex(image.data[i], 0.0f);
  return out;
}

std::string to_string(Direction direction) {
  return direction == Direction::forward ? "forward" : "inverse";
}

std::string to_string(Axis axis) { return axis == Axis::rows ? "rows" : "cols"; }

}  // namespace fftscope
