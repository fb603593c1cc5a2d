#include "support/gpu_skip.h"

#include <cstdlib>
#include <cstring>

namespace fftscope::test {

bool gpu_required() {
  const char* value = std::getenv("FFTSCOPE_REQUIRE_GPU");
  return value != nullptr && std::strcmp(value, "0") != 0 && value[0] != '\0';
}

}  // namespace fftscope::test
