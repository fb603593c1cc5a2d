#include "backend/cl/cl_gl_interop.h"

#include <dlfcn.h>
#include <glad/gl.h>

#include <CL/cl_gl.h>

namespace fftscope::cl_detail {
namespace {

// A symbol of a library the process has already loaded (RTLD_NOLOAD): if libGLX / libEGL is not
// loaded, no context of that API can be current, and we must not load a second GL stack.
void* loaded_symbol(const char* const* libraries, const char* symbol) {
  for (const char* const* lib = libraries; *lib; ++lib) {
    void* handle = dlopen(*lib, RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) continue;
    void* fn = dlsym(handle, symbol);
    dlclose(handle);  // NOLOAD took a reference; the library stays loaded by its owner
    if (fn) return fn;
  }
  return nullptr;
}

}  // namespace

std::vector<cl_context_properties> current_gl_share_properties(cl_platform_id platform, std::string& why) {
  static const char* const glx_libs[] = {"libGLX.so.0", "libGL.so.1", nullptr};
  static const char* const egl_libs[] = {"libEGL.so.1", nullptr};
  using GetPtr = void* (*)();

  auto glx_context = reinterpret_cast<GetPtr>(loaded_symbol(glx_libs, "glXGetCurrentContext"));
  auto glx_display = reinterpret_cast<GetPtr>(loaded_symbol(glx_libs, "glXGetCurrentDisplay"));
  if (glx_context && glx_display && glx_context()) {
    return {CL_GL_CONTEXT_KHR, reinterpret_cast<cl_context_properties>(glx_context()), CL_GLX_DISPLAY_KHR,
            reinterpret_cast<cl_context_properties>(glx_display()), CL_CONTEXT_PLATFORM,
            reinterpret_cast<cl_context_properties>(platform), 0};
  }
  auto egl_context = reinterpret_cast<GetPtr>(loaded_symbol(egl_libs, "eglGetCurrentContext"));
  auto egl_display = reinterpret_cast<GetPtr>(loaded_symbol(egl_libs, "eglGetCurrentDisplay"));
  if (egl_context && egl_display && egl_context()) {
    return {CL_GL_CONTEXT_KHR, reinterpret_cast<cl_context_properties>(egl_context()), CL_EGL_DISPLAY_KHR,
            reinterpret_cast<cl_context_properties>(egl_display()), CL_CONTEXT_PLATFORM,
            reinterpret_cast<cl_context_properties>(platform), 0};
  }
  why = "no current GLX or EGL context";
  return {};
}

cl_device_id gl_context_device(cl_platform_id platform, const std::vector<cl_context_properties>& properties) {
  using GetGlContextInfo = cl_int (*)(const cl_context_properties*, cl_gl_context_info, std::size_t, void*,
                                      std::size_t*);
  auto fn = reinterpret_cast<GetGlContextInfo>(
      clGetExtensionFunctionAddressForPlatform(platform, "clGetGLContextInfoKHR"));
  if (!fn) return nullptr;
  cl_device_id device = nullptr;
  if (fn(properties.data(), CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, sizeof(device), &device, nullptr) != CL_SUCCESS)
    return nullptr;
  return device;
}

bool gl_ready() {
  if (glad_glTexSubImage2D) return true;
  return gladLoaderLoadGL() != 0 && glad_glTexSubImage2D != nullptr;
}

void gl_finish() {
  if (gl_ready()) glFinish();
}

void gl_upload_rgba(std::uint32_t texture, std::size_t width, std::size_t height, const std::uint8_t* rgba) {
  GLint previous = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  GLint alignment = 4;
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(width), static_cast<GLsizei>(height), GL_RGBA,
                  GL_UNSIGNED_BYTE, rgba);
  glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
}

}  // namespace fftscope::cl_detail
