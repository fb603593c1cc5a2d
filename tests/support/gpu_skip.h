#pragma once
// GPU tests that cannot find their API skip loudly; where FFTSCOPE_REQUIRE_GPU=1 (CI, which has
// Mesa and PoCL) the same situation is a failure.

#include <gtest/gtest.h>

#include <string>

namespace fftscope::test {

/// True when the environment demands that GPU APIs be present (FFTSCOPE_REQUIRE_GPU=1).
bool gpu_required();

}  // namespace fftscope::test

/// Use inside a TEST body when a GPU API is unavailable: fails under FFTSCOPE_REQUIRE_GPU=1,
/// otherwise skips with the reason printed.
#define FFTSCOPE_GPU_UNAVAILABLE(reason)                                                         \
  do {                                                                                           \
    const std::string fftscope_reason_ = (reason);                                               \
    if (::fftscope::test::gpu_required()) {                                                      \
      FAIL() << "GPU API unavailable but FFTSCOPE_REQUIRE_GPU=1: " << fftscope_reason_;         \
    } else {                                                                                     \
      std::fprintf(stderr, "*** SKIPPED (no GPU API): %s\n", fftscope_reason_.c_str());          \
      GTEST_SKIP() << "GPU API unavailable: " << fftscope_reason_;                               \
    }                                                                                            \
  } while (0)
