#pragma once
// The OpenCL backend: the seeds' (Mali blog) mixed-radix pipeline as separate kernels over one
// buffer of float2 (interleaved re/im, row-major), rows then columns, timed per kernel from
// OpenCL profiling events, with the spectrum display computed on the device and handed to
// OpenGL through cl_khr_gl_sharing where the platform allows it, else through host memory.

#include <memory>
#include <string>
#include <vector>

#include "backend/backend.h"

namespace fftscope {

/// How the column pass reaches its data.
enum class ClColumnPass {
  strided,    ///< the stage kernels read columns in place (stride = width); neighbouring work
              ///< items take neighbouring columns so that loads still coalesce (the default)
  transpose,  ///< tiled local-memory transpose, the column FFT as rows, transpose back
};

/// The CL backend's extras beyond Backend (reach them with dynamic_cast from make_cl_backend).
class ClBackend : public Backend {
 public:
  /// The display of the current buffer (as render_spectrum computes it on the host), computed by
  /// the device kernels and read back: RGBA8, row-major, top row first. Throws BackendError.
  virtual RgbaImage render_display(const SpectrumSettings& settings) = 0;
  /// How render_to_gl_texture delivers to GL: "cl_khr_gl_sharing", "host copy (<why>)", or
  /// "none (built without GL)".
  virtual std::string interop_path() const = 0;
  /// Chooses the column pass (default strided, or FFTSCOPE_CL_COLUMNS=transpose|strided).
  virtual void set_column_pass(ClColumnPass pass) = 0;
  virtual ClColumnPass column_pass() const = 0;
  /// Number of compiled programs in the cache (for tests of the cache and of --kernel-dir).
  virtual std::size_t program_count() const = 0;
};

/// Creates the CL backend on the device BackendOptions::cl_device names (see list_cl_devices),
/// else the GPU with the most compute units, else any device (PoCL's CPU device). Kernels come
/// from the embedded kernels/ files or BackendOptions::source_dir (rebuilt when a file changes).
/// Throws BackendError when there is no OpenCL platform or no matching device.
std::unique_ptr<Backend> make_cl_backend(const BackendOptions& options);

/// Every OpenCL device (id "platform:device", name, and platform/version/compute units/interop
/// extensions in detail). Throws BackendError when there is no OpenCL platform.
std::vector<DeviceInfo> list_cl_devices();

}  // namespace fftscope
