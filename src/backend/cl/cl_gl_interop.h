#pragma once
// The GL side of the CL backend's display interop; compiled only with FFTSCOPE_WITH_GL (the
// backend guards every use with FFTSCOPE_CL_WITH_GL). GL entry points come from glad.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/cl/cl_runtime.h"

namespace fftscope::cl_detail {

/// Context properties that make a CL context share the GL context current on this thread
/// (GLX or EGL, found through the already loaded libGLX / libEGL), for `platform`. Empty, with
/// the reason in `why`, when no GL context is current.
std::vector<cl_context_properties> current_gl_share_properties(cl_platform_id platform, std::string& why);

/// The device of `platform` that drives the GL context named by `properties`
/// (clGetGLContextInfoKHR, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR), or null when unknown.
cl_device_id gl_context_device(cl_platform_id platform, const std::vector<cl_context_properties>& properties);

/// Makes sure glad's GL entry points are loaded (the caller's context must be current).
bool gl_ready();
/// glFinish on the current context.
void gl_finish();
/// Writes a width x height RGBA8 image into level 0 of the 2D texture (glTexSubImage2D).
void gl_upload_rgba(std::uint32_t texture, std::size_t width, std::size_t height, const std::uint8_t* rgba);

/// GL_TEXTURE_2D, for clCreateFromGLTexture without including GL headers in the backend.
inline constexpr std::uint32_t gl_texture_2d = 0x0DE1;

// TODO(issue 4, NVIDIA headless): one allocation for CL and GL through external memory. Both
// sides are import-only: cl_khr_external_memory_opaque_fd imports an fd
// (clCreateBufferWithProperties with CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, then
// clEnqueueAcquire/ReleaseExternalMemObjectsKHR), and GL_EXT_memory_object_fd imports one
// (glCreateMemoryObjectsEXT, glImportMemoryFdEXT, glTexStorageMem2DEXT / glNamedBufferStorageMemEXT).
// Neither exports, so a third API must allocate and export the fd: Vulkan with
// VK_KHR_external_memory_fd (vkGetMemoryFdKHR, one dup'ed fd per import). Synchronisation:
// glFinish / clFinish, or GL_EXT_semaphore_fd + cl_khr_external_semaphore_opaque_fd.
// The hook is ClBackendImpl::try_external_memory(); today it only reports what the device offers.

}  // namespace fftscope::cl_detail
