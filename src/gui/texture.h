#pragma once
// An RGBA8 GL texture with immutable storage (so a compute backend can bind level 0 as an image)
// and mipmaps for shrunk views, re-created only when the size changes. Needs a current GL 4.5 context.

#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/types.h"

namespace fftscope::gui {

class Texture {
 public:
  /// smooth_minify: average texels when shown smaller (images); false: nearest texel (spectra,
  /// where averaging would wash out single-bin peaks such as a grating's two dots).
  explicit Texture(bool smooth_minify = true) : smooth_minify_(smooth_minify) {}
  ~Texture();
  Texture(const Texture&) = delete;
  Texture& operator=(const Texture&) = delete;

  /// Makes the texture width x height (texels), keeping it when the size already matches.
  void ensure(std::size_t width, std::size_t height);
  /// Uploads an RGBA8 image, resizing as needed.
  void upload(const RgbaImage& image);
  /// Rebuilds the mipmaps from level 0 (after someone else, e.g. a backend, wrote level 0).
  void update_mipmaps();
  /// Reads the texels back (glGetTextureImage), top row = row 0 as uploaded.
  RgbaImage read_back() const;
  void reset();

  std::uint32_t id() const { return id_; }
  std::size_t width() const { return width_; }
  std::size_t height() const { return height_; }
  bool valid() const { return id_ != 0; }
  /// The ImGui texture handle.
  void* imgui_id() const { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(id_)); }

  /// Exchanges the GL textures (and sizes) of two views of the same kind (front/back buffers).
  friend void swap(Texture& a, Texture& b) noexcept {
    std::swap(a.id_, b.id_);
    std::swap(a.width_, b.width_);
    std::swap(a.height_, b.height_);
  }

 private:
  std::uint32_t id_ = 0;
  std::size_t width_ = 0, height_ = 0;
  bool smooth_minify_ = true;
};

}  // namespace fftscope::gui
