#pragma once
// The OpenGL compute backend: the plan's stage pipeline as GLSL compute dispatches over SSBOs,
// in a headless EGL context (device platform, then Mesa surfaceless, then the default display)
// or in the caller's current context (the GUI's window).

#include <memory>
#include <vector>

#include "backend/backend.h"

namespace fftscope {

/// How the column pass reaches the columns of the row-major image.
enum class GlColumnMode {
  transpose,  ///< tiled shared-memory transpose, columns as contiguous lines, transpose back
  strided,    ///< column kernels read in place with element stride = width
};

/// Options of the GL backend beyond BackendOptions (benchmarks and tests compare them).
struct GlBackendTuning {
  GlColumnMode columns = GlColumnMode::transpose;
  unsigned local_size = 64;  ///< work-group size of the 1D kernels (a power of two, <= 1024)
};

/// Address of a GL entry point by name, as glfwGetProcAddress or eglGetProcAddress give it.
using GlProcLoader = void (*(*)(const char* name))(void);

/// Registers the loader that make_gl_backend uses with BackendOptions::use_current_gl_context
/// (the GUI passes glfwGetProcAddress after making its window's context current). Without it,
/// the caller must have loaded glad itself (gladLoadGL) before creating the backend.
void set_current_context_gl_loader(GlProcLoader loader);

/// Creates the GL backend. Headless, it leaves its EGL context current on the calling thread
/// (and makes it current again on each call); all calls must come from one thread.
/// render_to_gl_texture() needs a complete GL_RGBA8 texture of the plan's size in the backend's
/// context (e.g. glTexStorage2D with 1 level); texel row y is display row y (top row first).
/// Throws BackendError when no OpenGL 4.3 compute context can be made
/// (the message says which EGL platforms were tried and why each failed).
std::unique_ptr<Backend> make_gl_backend(const BackendOptions& options);
std::unique_ptr<Backend> make_gl_backend(const BackendOptions& options, const GlBackendTuning& tuning);

/// The GL device a headless context gets (renderer, version, EGL platform). Throws BackendError
/// when none can be made. Leaves no context of its own current and restores a current EGL
/// context (a current GLX context, e.g. GLFW's default on X11, must be made current again).
std::vector<DeviceInfo> list_gl_devices();

}  // namespace fftscope
