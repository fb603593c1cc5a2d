#pragma once
// The shaders/ folder baked into the binary (target fftscope_gl_shaders, see cmake/embed.cmake).

#include <span>

#include "core/embedded_file.h"

namespace fftscope::gl_shaders {

/// Every file of shaders/ (*.comp kernels and the *.glsl files they include), by file name.
std::span<const EmbeddedFile> shader_files();

}  // namespace fftscope::gl_shaders
