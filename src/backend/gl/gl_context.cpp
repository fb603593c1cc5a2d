#include "backend/gl/gl_context.h"

#include <glad/egl.h>
#include <glad/gl.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sstream>
#include <vector>

#include "core/errors.h"

namespace fftscope::detail {
namespace {

std::string egl_error_name(EGLint error) {
  switch (error) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    default: {
      std::ostringstream s;
      s << "EGL error 0x" << std::hex << error;
      return s.str();
    }
  }
}

bool has_extension(const char* list, const char* name) {
  if (list == nullptr) return false;
  const std::size_t len = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += len)
    if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) return true;
  return false;
}

const char* debug_source_name(GLenum source) {
  switch (source) {
    case GL_DEBUG_SOURCE_API: return "api";
    case GL_DEBUG_SOURCE_WINDOW_SYSTEM: return "window system";
    case GL_DEBUG_SOURCE_SHADER_COMPILER: return "shader compiler";
    case GL_DEBUG_SOURCE_THIRD_PARTY: return "third party";
    case GL_DEBUG_SOURCE_APPLICATION: return "application";
    default: return "other source";
  }
}

const char* debug_type_name(GLenum type) {
  switch (type) {
    case GL_DEBUG_TYPE_ERROR: return "error";
    case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR: return "deprecated";
    case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR: return "undefined behaviour";
    case GL_DEBUG_TYPE_PORTABILITY: return "portability";
    case GL_DEBUG_TYPE_PERFORMANCE: return "performance";
    case GL_DEBUG_TYPE_MARKER: return "marker";
    default: return "other";
  }
}

const char* debug_severity_name(GLenum severity) {
  switch (severity) {
    case GL_DEBUG_SEVERITY_HIGH: return "high";
    case GL_DEBUG_SEVERITY_MEDIUM: return "medium";
    case GL_DEBUG_SEVERITY_LOW: return "low";
    default: return "notification";
  }
}

void GLAD_API_PTR print_debug_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                      const GLchar* message, const void*) {
  std::string text = length >= 0 ? std::string(message, static_cast<std::size_t>(length)) : std::string(message);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::fprintf(stderr, "fftscope: GL debug (%s, %s, %s, id %u): %s\n", debug_source_name(source),
               debug_type_name(type), debug_severity_name(severity), id, text.c_str());
}

GLADapiproc egl_get_proc(const char* name) { return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name)); }

/// One display we could initialize, with how we got it.
struct DisplayCandidate {
  EGLDisplay display = EGL_NO_DISPLAY;
  std::string platform;
};

/// A context on `display`, 4.5 core first, then 4.3 core. Empty string on success, else why not.
std::string try_context(EGLDisplay display, EGLContext& context) {
  if (!eglBindAPI(EGL_OPENGL_API)) return "eglBindAPI(EGL_OPENGL_API) failed: " + egl_error_name(eglGetError());
  const char* extensions = eglQueryString(display, EGL_EXTENSIONS);
  if (!has_extension(extensions, "EGL_KHR_surfaceless_context"))
    return "no EGL_KHR_surfaceless_context";
  EGLConfig config = EGL_NO_CONFIG_KHR;
  if (!has_extension(extensions, "EGL_KHR_no_config_context")) {
    const EGLint attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLint count = 0;
    if (!eglChooseConfig(display, attribs, &config, 1, &count) || count < 1)
      return "no EGL config with EGL_OPENGL_BIT: " + egl_error_name(eglGetError());
  }
  std::string why;
  for (EGLint minor : {5, 3}) {
    // The debug attribute only when asked for: EGL 1.4 displays do not know it (EGL 1.5 added it),
    // so otherwise the list ends where it would stand.
    const EGLint debug = gl_debug_requested() ? EGL_CONTEXT_OPENGL_DEBUG : EGL_NONE;
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, minor,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                              debug, EGL_TRUE, EGL_NONE};
    context = eglCreateContext(display, config, EGL_NO_CONTEXT, attribs);
    if (context != EGL_NO_CONTEXT) return "";
    why += (why.empty() ? "" : "; ") + std::string("GL 4.") + std::to_string(minor) +
           " core context: " + egl_error_name(eglGetError());
  }
  return why;
}

std::vector<DisplayCandidate> device_displays(std::string& why) {
  std::vector<DisplayCandidate> out;
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!has_extension(client, "EGL_EXT_platform_device") || eglQueryDevicesEXT == nullptr ||
      eglGetPlatformDisplayEXT == nullptr) {
    why = "device platform: EGL_EXT_platform_device not offered";
    return out;
  }
  EGLint count = 0;
  if (!eglQueryDevicesEXT(0, nullptr, &count) || count <= 0) {
    why = "device platform: no EGL devices";
    return out;
  }
  std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(count));
  eglQueryDevicesEXT(count, devices.data(), &count);
  devices.resize(static_cast<std::size_t>(count));
  // Hardware first: with NVIDIA and Mesa both installed, Mesa's software device is listed too.
  std::vector<std::pair<bool, int>> order;
  for (int i = 0; i < count; ++i) {
    const char* ext = eglQueryDeviceStringEXT ? eglQueryDeviceStringEXT(devices[static_cast<std::size_t>(i)], EGL_EXTENSIONS)
                                              : nullptr;
    order.push_back({has_extension(ext, "EGL_MESA_device_software"), i});
  }
  std::stable_sort(order.begin(), order.end());
  for (auto [software, i] : order) {
    EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[static_cast<std::size_t>(i)], nullptr);
    if (d == EGL_NO_DISPLAY) continue;
    out.push_back({d, "EGL device platform, device " + std::to_string(i) + (software ? " (software)" : "")});
  }
  if (out.empty()) why = "device platform: eglGetPlatformDisplayEXT failed for every device";
  return out;
}

}  // namespace

std::unique_ptr<EglContext> EglContext::create() {
  // glad's EGL loader is process-global; loading it again is harmless but not free.
  static std::once_flag egl_loaded;
  static int egl_version = 0;
  std::call_once(egl_loaded, [] { egl_version = gladLoaderLoadEGL(EGL_NO_DISPLAY); });
  if (egl_version == 0) throw BackendError("OpenGL backend: cannot load libEGL (is libegl1 / Mesa installed?)");

  const char* forced = std::getenv("FFTSCOPE_EGL_PLATFORM");
  const std::string force = forced ? forced : "";
  if (!force.empty() && force != "device" && force != "surfaceless" && force != "default")
    throw BackendError("OpenGL backend: FFTSCOPE_EGL_PLATFORM=" + force + " (expected device, surfaceless or default)");
  std::vector<DisplayCandidate> candidates;
  std::vector<std::string> tried;
  if (force.empty() || force == "device") {
    std::string why;
    for (auto& c : device_displays(why)) candidates.push_back(c);
    if (!why.empty()) tried.push_back(why);
  }
  if (force.empty() || force == "surfaceless") {
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (has_extension(client, "EGL_MESA_platform_surfaceless") && eglGetPlatformDisplayEXT != nullptr) {
      EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
      if (d != EGL_NO_DISPLAY) candidates.push_back({d, "EGL surfaceless platform (Mesa)"});
    } else {
      tried.push_back("surfaceless platform: EGL_MESA_platform_surfaceless not offered");
    }
  }
  if (force.empty() || force == "default") {
    EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (d != EGL_NO_DISPLAY) candidates.push_back({d, "EGL default display"});
  }

  for (const DisplayCandidate& c : candidates) {
    // Displays are never terminated: EGL displays are per process, and eglTerminate would pull
    // the rug from under every other backend instance on the same display.
    EGLint major = 0, minor = 0;
    if (!eglInitialize(c.display, &major, &minor)) {
      tried.push_back(c.platform + ": eglInitialize: " + egl_error_name(eglGetError()));
      continue;
    }
    gladLoaderLoadEGL(c.display);  // the display's extension entry points
    EGLContext context = EGL_NO_CONTEXT;
    const std::string why = try_context(c.display, context);
    if (!why.empty()) {
      tried.push_back(c.platform + ": " + why);
      continue;
    }
    if (!eglMakeCurrent(c.display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      tried.push_back(c.platform + ": eglMakeCurrent without surface: " + egl_error_name(eglGetError()));
      eglDestroyContext(c.display, context);
      continue;
    }
    auto result = std::unique_ptr<EglContext>(new EglContext());
    result->display_ = c.display;
    result->context_ = context;
    result->platform_ = c.platform;
    try {
      load_gl_for_current_context(&egl_get_proc);
    } catch (const BackendError& e) {
      tried.push_back(c.platform + ": " + e.what());
      continue;  // the unique_ptr releases and destroys the context
    }
    return result;
  }
  std::string message = "OpenGL backend: no headless OpenGL 4.3 context";
  if (!force.empty()) message += " (FFTSCOPE_EGL_PLATFORM=" + force + ")";
  for (const std::string& t : tried) message += "\n  " + t;
  if (candidates.empty() && tried.empty()) message += "\n  no EGL platform available";
  throw BackendError(message);
}

EglContext::~EglContext() {
  if (context_ != nullptr) {
    if (eglGetCurrentContext() == context_) eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
  }
}

void EglContext::make_current() const {
  if (eglGetCurrentContext() == context_) return;
  if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_))
    throw BackendError("OpenGL backend: eglMakeCurrent failed: " + egl_error_name(eglGetError()));
}

void EglContext::release() const {
  if (eglGetCurrentContext() == context_) eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

void load_gl_for_current_context(void (*(*loader)(const char*))(void)) {
  if (loader != nullptr) {
    if (gladLoadGL(loader) == 0) throw BackendError("OpenGL backend: gladLoadGL failed for the current context");
  } else if (glad_glGetString == nullptr) {
    throw BackendError(
        "OpenGL backend: use_current_gl_context is set but GL is not loaded: call gladLoadGL or "
        "set_current_context_gl_loader first");
  }
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (major * 10 + minor < 43 || glad_glDispatchCompute == nullptr)
    throw BackendError("OpenGL backend: needs OpenGL 4.3 (compute shaders); the context offers " +
                       current_gl_description());
  if (gl_debug_requested()) install_gl_debug_output();
}

bool gl_debug_requested() {
  const char* env = std::getenv("FFTSCOPE_GL_DEBUG");
  return env != nullptr && std::string(env) == "1";
}

void install_gl_debug_output() {
  if (glad_glDebugMessageCallback == nullptr) return;  // loaded with the 4.3 core entry points
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, nullptr, GL_TRUE);
  glDebugMessageCallback(print_debug_message, nullptr);
}

std::string current_gl_description() {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return std::string(renderer ? renderer : "unknown renderer") + ", OpenGL " + (version ? version : "?");
}

}  // namespace fftscope::detail
