#pragma once
// GL_RGBA8 textures for the tests that check what a backend delivers into one; a GL context
// (glad loaded) must be current.
#include <glad/gl.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fftscope::test {

/// A w x h GL_RGBA8 texture with one level, as the display deliveries need.
inline GLuint make_rgba_texture(std::size_t w, std::size_t h) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, static_cast<GLsizei>(w), static_cast<GLsizei>(h));
  glBindTexture(GL_TEXTURE_2D, 0);
  return texture;
}

/// Level 0 of a w x h RGBA8 texture, row 0 first, tightly packed.
inline std::vector<std::uint8_t> read_rgba_texture(GLuint texture, std::size_t w, std::size_t h) {
  std::vector<std::uint8_t> pixels(w * h * 4, 0);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  return pixels;
}

}  // namespace fftscope::test
