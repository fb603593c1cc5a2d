#pragma once
// Headless OpenGL through EGL: no window, no X server. Internal to the GL backend.

#include <memory>
#include <string>

namespace fftscope::detail {

/// An OpenGL 4.3+ core context with no surface (EGL_KHR_surfaceless_context), made on the
/// first EGL platform that works: the device platform (EGL_EXT_platform_device; hardware
/// devices before Mesa's software one), Mesa's surfaceless platform, then the default display.
/// FFTSCOPE_EGL_PLATFORM=device|surfaceless|default forces one. glad's GL entry points are
/// loaded through eglGetProcAddress.
class EglContext {
 public:
  /// Throws BackendError listing every platform tried and why it failed.
  static std::unique_ptr<EglContext> create();
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  /// Makes this context current on the calling thread (cheap when it already is).
  void make_current() const;
  /// Releases it from the calling thread.
  void release() const;
  /// Which platform and device it runs on, e.g. "EGL device platform, device 0".
  const std::string& platform() const { return platform_; }

 private:
  EglContext() = default;
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  std::string platform_;
};

/// Loads glad's GL entry points for the context current on this thread, through `loader` when
/// one is given, and checks that it offers OpenGL 4.3 compute (and, under FFTSCOPE_GL_DEBUG=1,
/// sends its debug messages to stderr). Throws BackendError.
void load_gl_for_current_context(void (*(*loader)(const char*))(void));

/// "renderer, GL version" of the current context.
std::string current_gl_description();

/// FFTSCOPE_GL_DEBUG=1: fftscope's GL contexts are made with the debug flag, and each one's
/// KHR_debug messages (errors, performance warnings, a driver's notes such as where NVIDIA
/// places a buffer) go to stderr, one line each, as the driver sends them.
bool gl_debug_requested();

/// Sends the current context's debug messages to stderr (see gl_debug_requested), synchronously,
/// so that each line follows the call that caused it.
void install_gl_debug_output();

}  // namespace fftscope::detail
