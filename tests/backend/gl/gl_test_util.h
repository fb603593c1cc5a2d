#pragma once
// Shared helpers of the GL backend tests.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "backend/gl/gl_backend.h"
#include "core/errors.h"
#include "support/gpu_skip.h"

namespace fftscope::test {

/// The GL backend, or null with the reason in `why` when no GL 4.3 context can be made here.
inline std::unique_ptr<Backend> try_make_gl(std::string& why, const BackendOptions& options = {},
                                            const GlBackendTuning& tuning = {}) {
  try {
    return make_gl_backend(options, tuning);
  } catch (const BackendError& e) {
    why = e.what();
    return nullptr;
  }
}

}  // namespace fftscope::test

/// Declares `var` as a GL backend, or skips (fails under FFTSCOPE_REQUIRE_GPU=1) the test.
#define FFTSCOPE_GL_BACKEND_OR_SKIP(var, ...)                          \
  std::string var##_why;                                               \
  auto var = ::fftscope::test::try_make_gl(var##_why, ##__VA_ARGS__); \
  if (!var) FFTSCOPE_GPU_UNAVAILABLE(var##_why)
