#include "gui/texture.h"

#include <glad/gl.h>

#include <algorithm>

namespace fftscope::gui {

Texture::~Texture() { reset(); }

void Texture::reset() {
  if (id_ != 0) glDeleteTextures(1, &id_);
  id_ = 0;
  width_ = height_ = 0;
}

void Texture::ensure(std::size_t width, std::size_t height) {
  if (id_ != 0 && width == width_ && height == height_) return;
  reset();
  glCreateTextures(GL_TEXTURE_2D, 1, &id_);
  GLsizei levels = 1;
  for (std::size_t m = std::max(width, height); m > 1; m /= 2) ++levels;
  glTextureStorage2D(id_, levels, GL_RGBA8, static_cast<GLsizei>(width), static_cast<GLsizei>(height));
  // Magnified, one texel is one pixel or frequency bin and stays a crisp square. Shrunk images
  // are averaged through the mipmaps, since skipping pixels would show moire that is not there.
  glTextureParameteri(id_, GL_TEXTURE_MIN_FILTER, smooth_minify_ ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST);
  glTextureParameteri(id_, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(id_, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTextureParameteri(id_, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  width_ = width;
  height_ = height;
}

void Texture::upload(const RgbaImage& image) {
  if (image.width == 0 || image.height == 0) return;
  ensure(image.width, image.height);
  // A compute backend sharing the context may have left a pixel buffer bound; read from memory.
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(id_, 0, 0, 0, static_cast<GLsizei>(image.width), static_cast<GLsizei>(image.height),
                      GL_RGBA, GL_UNSIGNED_BYTE, image.data.data());
  update_mipmaps();
}

void Texture::update_mipmaps() {
  if (id_ != 0 && smooth_minify_) glGenerateTextureMipmap(id_);
}

RgbaImage Texture::read_back() const {
  RgbaImage out(width_, height_);
  if (id_ == 0) return out;
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(id_, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(out.data.size()), out.data.data());
  return out;
}

}  // namespace fftscope::gui
