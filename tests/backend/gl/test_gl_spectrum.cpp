// The spectrum display written by the GPU into an RGBA8 texture equals core render_spectrum()
// of the same (downloaded) spectrum within 2 LSB per channel.
#include <gtest/gtest.h>

#include <glad/gl.h>

#include <cstdio>
#include <cstdlib>
#include <tuple>

#include "gl_test_util.h"
#include "support/gl_textures.h"
#include "support/reference.h"

namespace fftscope {
namespace {

/// Largest per-channel difference, and how many pixels differ by more than `slack`.
std::pair<int, std::size_t> compare(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b, int slack) {
  int worst = 0;
  std::size_t over = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const int diff = std::abs(int{a[i]} - int{b[i]});
    worst = std::max(worst, diff);
    if (diff > slack) ++over;
  }
  return {worst, over};
}

TEST(GlSpectrum, TextureMatchesCoreRenderSpectrum) {
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend);
  const std::size_t w = 45, h = 28;  // odd width: the shift must be the true fftshift
  const Plan2D plan = make_plan_2d(w, h);
  ComplexImage input(w, h);
  input.data = test::to_float(test::random_complex(w * h, 21));
  input.data[3] = Complex(0.0f, 0.0f);
  backend->prepare(plan, KernelVariant::fused);
  backend->upload(input);
  backend->execute(Direction::forward);
  const ComplexImage spectrum = backend->download();

  // The backend's headless context is current on this thread after the calls above.
  const GLuint texture = test::make_rgba_texture(w, h);
  ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

  std::vector<SpectrumSettings> cases;
  cases.push_back({});  // shifted log magnitude, gray, auto range
  cases.push_back({false, SpectrumScale::linear, SpectrumComponent::magnitude, Colormap::viridis, true, 0, 1, 1.0f});
  cases.push_back({true, SpectrumScale::log, SpectrumComponent::phase, Colormap::twilight, true, 0, 1, 1.0f});
  cases.push_back({true, SpectrumScale::linear, SpectrumComponent::real, Colormap::inferno, false, -3.0f, 5.0f, 1.0f});
  cases.push_back({true, SpectrumScale::log, SpectrumComponent::imaginary, Colormap::magma, true, 0, 1, 2.5f});
  cases.push_back({true, SpectrumScale::log, SpectrumComponent::phase_hue, Colormap::gray, true, 0, 1, 1.0f});
  for (std::size_t c = 0; c < cases.size(); ++c) {
    ASSERT_TRUE(backend->render_to_gl_texture(texture, cases[c])) << "case " << c;
    const std::vector<std::uint8_t> pixels = test::read_rgba_texture(texture, w, h);
    const RgbaImage expected = render_spectrum(spectrum, cases[c]);
    const auto [worst, over] = compare(pixels, expected.data, 2);
    // Colours come from a 256-entry table: a value on a bin edge may pick the neighbouring
    // entry, which is a few LSB away; allow that for at most 1% of the pixels.
    EXPECT_LE(over, w * h * 4 / 100) << "case " << c << ": worst channel difference " << worst;
    std::printf("case %zu: worst channel difference %d, %zu channels over 2 LSB\n", c, worst, over);
    for (std::size_t i = 3; i < pixels.size(); i += 4) ASSERT_EQ(pixels[i], 255) << "alpha, case " << c;
  }
  glDeleteTextures(1, &texture);
}

// real_display_to_gl_texture: the fused real-input display (64 x 48, and the odd width 45 x 28)
// the routed display (51 x 28: 17-point factors) and the complex fallback (2 x 28) land in the
// caller's texture exactly as download_real_display reads them,
// for each of three settings; nothing is delivered before a display was computed, and the fused
// display refuses a texture of another size.
TEST(GlSpectrum, RealDisplayReachesTheCallersTexture) {
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend);
  backend->finish();  // its context current on this thread
  {
    const GLuint texture = test::make_rgba_texture(4, 4);
    EXPECT_FALSE(backend->real_display_to_gl_texture(texture)) << "no display computed yet";
    glDeleteTextures(1, &texture);
  }
  for (const auto& [w, h, path] : {std::tuple{std::size_t{64}, std::size_t{48}, RealDisplayPath::fused},
                                   std::tuple{std::size_t{45}, std::size_t{28}, RealDisplayPath::fused},
                                   std::tuple{std::size_t{51}, std::size_t{28}, RealDisplayPath::routed},
                                   std::tuple{std::size_t{2}, std::size_t{28}, RealDisplayPath::fallback}}) {
    ASSERT_EQ(backend->real_display_path(w, h), path) << w << "x" << h;
    RealImage image(w, h);
    const auto values = test::random_complex(w * h, 31);
    for (std::size_t i = 0; i < image.data.size(); ++i) image.data[i] = static_cast<float>(values[i].real());
    backend->upload_real(image);
    const GLuint texture = test::make_rgba_texture(w, h);
    for (const SpectrumSettings& settings :
         {SpectrumSettings{}, SpectrumSettings{false, SpectrumScale::linear, SpectrumComponent::real, Colormap::inferno,
                                               true, 0, 1, 1.0f},
          SpectrumSettings{true, SpectrumScale::log, SpectrumComponent::phase, Colormap::twilight, true, 0, 1, 1.0f}}) {
      backend->execute_real_display(settings);
      ASSERT_TRUE(backend->real_display_to_gl_texture(texture)) << w << "x" << h;
      EXPECT_EQ(test::read_rgba_texture(texture, w, h), backend->download_real_display().data) << w << "x" << h << ", colormap "
                                                                  << static_cast<int>(settings.colormap);
    }
    if (path != RealDisplayPath::fallback) {
      // The delivery is its own timing record (as OpenCL's).
      backend->take_timings();
      ASSERT_TRUE(backend->real_display_to_gl_texture(texture));
      backend->finish();
      bool copy_timed = false;
      for (const TimingRecord& r : backend->take_timings()) copy_timed = copy_timed || r.kernel == "display_copy";
      EXPECT_TRUE(copy_timed) << "the delivery to the texture must be its own timing record";
      // A texture of another size is refused, not written in part.
      const GLuint wrong = test::make_rgba_texture(w + 2, h);
      EXPECT_THROW(backend->real_display_to_gl_texture(wrong), BackendError);
      glDeleteTextures(1, &wrong);
    }
    glDeleteTextures(1, &texture);
  }
}

TEST(GlSpectrum, RefusesTextureOfWrongSizeOrIncomplete) {
#ifdef NDEBUG
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend);
  backend->prepare(make_plan_2d(8, 8), KernelVariant::fused);
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
  glBindTexture(GL_TEXTURE_2D, 0);
  EXPECT_FALSE(backend->render_to_gl_texture(texture, {}));
  glDeleteTextures(1, &texture);

  // Mutable storage of the right size: incomplete with the default mipmap filter, complete
  // (and written) with GL_LINEAR.
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  EXPECT_FALSE(backend->render_to_gl_texture(texture, {}));
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glBindTexture(GL_TEXTURE_2D, 0);
  EXPECT_TRUE(backend->render_to_gl_texture(texture, {}));
  glDeleteTextures(1, &texture);
#else
  GTEST_SKIP() << "a wrong texture is an assertion in debug builds";
#endif
}

}  // namespace
}  // namespace fftscope
