// The CL backend's display delivered into a GL texture (built with FFTSCOPE_WITH_GL): with a
// headless EGL context current, render_to_gl_texture must fill the texture with exactly the
// RGBA the device computed (render_display), which itself matches core render_spectrum (see
// test_cl_backend.cpp), over whichever interop path the platform allows; the path is reported
// and the copy is timed as its own record.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include "backend/cl/cl_backend.h"
#include "backend/gl/gl_context.h"
#include "core/errors.h"
#include "support/gl_textures.h"
#include "support/gpu_skip.h"
#include "support/reference.h"

namespace fftscope {
namespace {

// A headless GL context made current, and the CL backend made with it (sharing where the
// device can); `why` says what was missing where either could not be made.
struct ClOnGl {
  std::unique_ptr<detail::EglContext> gl;
  std::unique_ptr<Backend> backend;
};
ClOnGl open_cl_on_gl(std::string& why) {
  ClOnGl out;
  try {
    out.gl = detail::EglContext::create();
    out.gl->make_current();
    detail::load_gl_for_current_context(nullptr);
  } catch (const BackendError& e) {
    why = std::string("EGL/GL: ") + e.what();
    return {};
  }
  try {
    BackendOptions options;
    options.use_current_gl_context = true;
    out.backend = make_cl_backend(options);
  } catch (const BackendError& e) {
    why = std::string("OpenCL: ") + e.what();
    return {};
  }
  return out;
}

TEST(ClGlInterop, TextureReceivesTheDeviceDisplay) {
  std::string why;
  const ClOnGl env = open_cl_on_gl(why);
  if (!env.backend) FFTSCOPE_GPU_UNAVAILABLE(why);
  Backend* backend = env.backend.get();
  auto* cl = dynamic_cast<ClBackend*>(backend);
  ASSERT_NE(cl, nullptr);
  std::printf("interop path: %s\n", cl->interop_path().c_str());
  EXPECT_FALSE(cl->interop_path().empty());

  const std::size_t w = 48, h = 20;
  ComplexImage input(w, h);
  input.data = test::to_float(test::random_complex(w * h, 12));
  run_transform(*cl, make_plan_2d(w, h), input, Direction::forward, KernelVariant::fused);

  const GLuint texture = test::make_rgba_texture(w, h);

  SpectrumSettings settings;
  settings.colormap = Colormap::inferno;
  cl->take_timings();
  ASSERT_TRUE(cl->render_to_gl_texture(texture, settings));
  glFinish();

  const std::vector<std::uint8_t> pixels = test::read_rgba_texture(texture, w, h);
  glDeleteTextures(1, &texture);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

  const RgbaImage device = cl->render_display(settings);
  EXPECT_EQ(pixels, device.data) << "the texture must hold exactly the device's display";

  bool copy_timed = false;
  for (const TimingRecord& r : cl->take_timings()) {
    if (r.kernel == "display_copy_host" || r.kernel == "display_copy_shared") {
      copy_timed = true;
      EXPECT_NE(r.note.find("interop"), std::string::npos) << r.note;
      EXPECT_GT(r.bytes, 0u);
    }
  }
  EXPECT_TRUE(copy_timed) << "the delivery to GL must be its own timing record";
}

// real_display_to_gl_texture on OpenCL: the fused real-input display (64 x 48) delivered into
// the GL texture over the same interop path holds exactly what download_real_display reads,
// and the delivery is its own timing record.
TEST(ClGlInterop, TextureReceivesTheRealDisplay) {
  std::string why;
  const ClOnGl env = open_cl_on_gl(why);
  if (!env.backend) FFTSCOPE_GPU_UNAVAILABLE(why);
  Backend* backend = env.backend.get();
  const std::size_t w = 64, h = 48;
  ASSERT_EQ(backend->real_display_path(w, h), RealDisplayPath::fused);
  const GLuint texture = test::make_rgba_texture(w, h);
  EXPECT_FALSE(backend->real_display_to_gl_texture(texture)) << "no display computed yet";

  RealImage image(w, h);
  const auto values = test::random_complex(w * h, 17);
  for (std::size_t i = 0; i < image.data.size(); ++i) image.data[i] = static_cast<float>(values[i].real());
  backend->upload_real(image);
  SpectrumSettings settings;
  settings.colormap = Colormap::viridis;
  backend->execute_real_display(settings);
  backend->take_timings();
  ASSERT_TRUE(backend->real_display_to_gl_texture(texture));
  glFinish();
  const std::vector<std::uint8_t> pixels = test::read_rgba_texture(texture, w, h);
  glDeleteTextures(1, &texture);
  EXPECT_EQ(pixels, backend->download_real_display().data) << "the texture must hold exactly the device's display";
  bool copy_timed = false;
  for (const TimingRecord& r : backend->take_timings())
    copy_timed = copy_timed || r.kernel == "display_copy_host" || r.kernel == "display_copy_shared";
  EXPECT_TRUE(copy_timed) << "the delivery to GL must be its own timing record";
}

}  // namespace
}  // namespace fftscope
