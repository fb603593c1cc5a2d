// Context handling: the backend in a context the caller made current (as the GUI does with its
// GLFW window), and the timer fallback for drivers whose GPU timer measures nothing.
#include <gtest/gtest.h>

#include <glad/egl.h>
#include <glad/gl.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "backend/gl/gl_context.h"
#include "gl_test_util.h"
#include "support/reference.h"

namespace fftscope {
namespace {

void (*egl_loader(const char* name))(void) { return eglGetProcAddress(name); }

TEST(GlContext, BackendRunsInTheCallersCurrentContext) {
  // Stand-in for the GUI's window: a context made and made current outside the backend.
  std::unique_ptr<detail::EglContext> context;
  try {
    context = detail::EglContext::create();
  } catch (const BackendError& e) {
    FFTSCOPE_GPU_UNAVAILABLE(e.what());
  }
  context->make_current();
  set_current_context_gl_loader(&egl_loader);
  BackendOptions options;
  options.use_current_gl_context = true;
  {
    auto backend = make_gl_backend(options);
    const std::size_t w = 20, h = 12;
    ComplexImage input(w, h);
    input.data = test::to_float(test::random_complex(w * h, 8));
    const ComplexImage out = run_transform(*backend, make_plan_2d(w, h), input, Direction::forward);
    EXPECT_LT(test::relative_l2_error(out.data, test::fftw_2d(test::to_double(input.data), w, h, Direction::forward)),
              test::float_fft_tolerance(w * h));
    // A texture of the caller's context is written directly.
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, static_cast<GLsizei>(w), static_cast<GLsizei>(h));
    glBindTexture(GL_TEXTURE_2D, 0);
    EXPECT_TRUE(backend->render_to_gl_texture(texture, {}));
    glDeleteTextures(1, &texture);
    // The backend left the caller's context current.
    EXPECT_EQ(eglGetCurrentContext() != EGL_NO_CONTEXT, true);
  }
  set_current_context_gl_loader(nullptr);
}

/// A headless context made with FFTSCOPE_GL_DEBUG set to 1 or left unset. Throws BackendError.
std::unique_ptr<detail::EglContext> context_with_debug(bool debug) {
  if (debug) ::setenv("FFTSCOPE_GL_DEBUG", "1", 1);
  struct Unset {
    ~Unset() { ::unsetenv("FFTSCOPE_GL_DEBUG"); }
  } unset;
  return detail::EglContext::create();
}

/// What a GL error made on purpose in `context` (an invalid buffer target) prints on stderr.
std::string stderr_of_an_invalid_enum(const detail::EglContext& context) {
  context.make_current();
  testing::internal::CaptureStderr();
  glBindBuffer(0x1234, 0);
  const GLenum error = glGetError();
  std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(error, static_cast<GLenum>(GL_INVALID_ENUM));
  return printed;
}

TEST(GlContext, DebugOutputGoesToStderrWhenAsked) {
  std::unique_ptr<detail::EglContext> with, without;
  try {
    with = context_with_debug(true);
    without = context_with_debug(false);
  } catch (const BackendError& e) {
    FFTSCOPE_GPU_UNAVAILABLE(e.what());
  }
  const std::string printed = stderr_of_an_invalid_enum(*with);
  EXPECT_NE(printed.find("fftscope: GL debug (api, error, high, id "), std::string::npos) << printed;
  EXPECT_EQ(std::count(printed.begin(), printed.end(), '\n'), 1) << printed;
  EXPECT_EQ(stderr_of_an_invalid_enum(*without), "");
}

TEST(GlContext, MeaninglessGpuTimerFallsBackToHostTiming) {
  ::setenv("FFTSCOPE_GL_TIMER", "gpu", 1);  // force queries even on llvmpipe
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend);
  ::unsetenv("FFTSCOPE_GL_TIMER");
  if (backend->device_name().find("llvmpipe") == std::string::npos)
    GTEST_SKIP() << "only llvmpipe is known to have a meaningless GPU timer";
  const Plan2D plan = make_plan_2d(64, 64);
  ComplexImage input(64, 64);
  input.data = test::to_float(test::random_complex(64 * 64, 2));
  run_transform(*backend, plan, input, Direction::forward);
  std::vector<TimingRecord> first;
  for (int i = 0; i < 1000 && first.size() < 10; ++i)
    for (auto& r : backend->take_timings()) first.push_back(std::move(r));
  ASSERT_EQ(first.size(), 10u);
  for (const TimingRecord& r : first) {
    EXPECT_FALSE(r.host_measured);
    EXPECT_NE(r.note.find("gpu timer meaningless"), std::string::npos) << r.kernel << ": " << r.milliseconds;
  }
  run_transform(*backend, plan, input, Direction::forward);
  const auto second = backend->take_timings();
  ASSERT_EQ(second.size(), 10u);
  for (const TimingRecord& r : second) {
    EXPECT_TRUE(r.host_measured);
    EXPECT_GT(r.milliseconds, 0.0) << r.kernel;
  }
}

}  // namespace
}  // namespace fftscope
